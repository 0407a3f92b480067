-- What every change of a deck's include tree checks (whether a buffer's options or a file's
-- permissions let it change; the names of files in messages), and :NvimpamRename's edits: every
-- file checked before any is loaded or changed, each buffer changed at once as one undo step of
-- its own (a rename changes one id's references: a few lines), and the refusal with every reason
-- when anything may not. The changes that may be large go in parts: nvimpam.tree.hunks. Nothing is
-- written to disk.
local M = {}

local host = require('nvimpam.host')
local messages = require('nvimpam.ui.messages')
local plural = messages.plural
local undo = require('nvimpam.core.undo')
local uv = require('nvimpam.core.compat').uv

local api = vim.api

--- The loaded buffer whose file is `path`, or nil.
---@param path string
---@return integer|nil
function M.buffer_of(path)
  local real = uv.fs_realpath(path) or path
  for _, b in ipairs(api.nvim_list_bufs()) do
    local name = api.nvim_buf_get_name(b)
    if name ~= '' and (name == path or (uv.fs_realpath(name) or name) == real) then
      return b
    end
  end
  return nil
end

--- Why the file at `path` may not be changed on disk, or nil: its permissions deny writing (no w
--- bit for anyone, though root could write it), or this user cannot write it.
---@param path string
---@return string|nil
function M.not_writable(path)
  if path == '' or vim.fn.filereadable(path) == 0 then
    return nil -- no file yet: it is written when saved
  end
  if vim.fn.filewritable(path) ~= 1 or not vim.fn.getfperm(path):find('w', 1, true) then
    return 'is read-only on disk'
  end
  return nil
end

--- Why buffer `b` may not be changed, or nil.
---@param b integer
---@return string|nil
function M.cannot_change(b)
  local bo = vim.bo[b]
  if not bo.modifiable then
    return "has 'nomodifiable'"
  elseif bo.readonly then
    return "has 'readonly'"
  elseif bo.binary then
    return "has 'binary'"
  end
  return M.not_writable(api.nvim_buf_get_name(b))
end

--- The name of `b` in messages: relative to the folder of `base`'s file where it is inside it.
---@param b integer
---@param label string the name when `b` has none
---@param base? integer
---@return string
function M.name_of(b, label, base)
  local name = api.nvim_buf_get_name(b)
  if name == '' then
    return label
  end
  local dir = base and api.nvim_buf_get_name(base) ~= '' and vim.fn.fnamemodify(api.nvim_buf_get_name(base), ':p:h') .. '/'
  if dir and name:sub(1, #dir) == dir then
    return name:sub(#dir + 1)
  end
  return vim.fn.fnamemodify(name, ':~:.')
end

--- The file at `path` loaded into a listed buffer (a file of the tree that was not open), its number.
---@param path string
---@return integer
function M.load(path)
  local b = vim.fn.bufadd(path)
  vim.fn.bufload(b)
  vim.bo[b].buflisted = true
  return b
end

--- Deletes the buffers `bufs` loaded for a change that was then refused: as they were, not open.
---@param bufs integer[]
function M.unload(bufs)
  for _, b in ipairs(bufs) do
    pcall(api.nvim_buf_delete, b, {})
  end
end

local buffer_of, not_writable, cannot_change, name_of = M.buffer_of, M.not_writable, M.cannot_change, M.name_of

-- The first edit of file plan `f` whose bytes in `b` are not those the plan replaces: its line
-- (1-based), or nil when each edit finds its text. Keeps the lines read in f.text (0-based line ->
-- text) for apply().
local function stale_line(b, f)
  local e = f.edits
  local n = api.nvim_buf_line_count(b)
  local first, chunk = 0, {} -- lines [first, first + #chunk), read a block at a time: edits come in line order
  f.text = {}
  for k = 0, #e / 5 - 1 do
    local i = 5 * k
    local l = e[i + 1]
    if l >= n then
      return l + 1
    end
    if l >= first + #chunk then
      first, chunk = l, api.nvim_buf_get_lines(b, l, math.min(n, l + 4096), true)
    end
    local line = chunk[l - first + 1]
    if line:sub(e[i + 2] + 1, e[i + 3]) ~= e[i + 5] then
      return l + 1
    end
    f.text[l] = line
  end
  return nil
end

-- Applies file plan `f` to `b` (checked by stale_line() just before, nothing in between) as one
-- undo step of its own: each run of consecutive lines the edits touch is replaced at once, with
-- the edits put into its lines right to left (every other byte as it was; one call per run, not
-- per value: 200k values took seconds one by one), then the continued GES lines go in, bottom up.
local function apply(b, f)
  undo.step(b, function()
    local e = f.edits
    local count = #e / 5
    local k = 0
    while k < count do
      local first = e[5 * k + 1]
      local j = k -- the run: edits k .. j - 1, on lines first .. last
      local last = first
      while j < count and e[5 * j + 1] <= last + 1 do
        last = e[5 * j + 1]
        j = j + 1
      end
      local lines = {}
      for l = first, last do
        lines[#lines + 1] = f.text[l]
      end
      for x = j - 1, k, -1 do
        local i = 5 * x
        local r = e[i + 1] - first + 1
        lines[r] = lines[r]:sub(1, e[i + 2]) .. e[i + 4] .. lines[r]:sub(e[i + 3] + 1)
      end
      api.nvim_buf_set_lines(b, first, last + 1, true, lines)
      k = j
    end
    local a = f.adds or {}
    for x = #a / 2 - 1, 0, -1 do
      local l = a[2 * x + 1] + 1
      api.nvim_buf_set_lines(b, l, l, true, a[2 * x + 2])
    end
  end)
end

--- Raises the refusal of a command that changes nothing: `head` and every reason in the message
--- when they fit the command line; else each reason in the quickfix list, and the message says
--- how many.
---@param head string 'nvimpam: cannot ...'
---@param refused string[]
function M.refuse(head, refused)
  local msg = string.format('%s: %s; nothing changed', head, table.concat(refused, '; '))
  if vim.fn.strdisplaywidth(msg) > vim.v.echospace then
    local items = {}
    for i, r in ipairs(refused) do
      items[i] = { text = r }
    end
    vim.fn.setqflist({}, ' ', { title = msg, items = items })
    local reasons = plural(#refused, 'reason')
    local first = refused[1] .. (#refused > 1 and string.format(' and %d more', #refused - 1) or '')
    msg = messages.fit({ string.format('%s: %s; nothing changed; :copen lists them', head, first),
      string.format('%s: %s, nothing changed; :copen lists them', head, reasons),
      string.format('%s: %s; :copen lists them', head, reasons), string.format('%s: %s; :copen', head, reasons) })
  end
  error(host.error('bad_argument', msg), 0)
end

--- Applies the file plans of an edit of a deck's tree ({ buf|file, label, edits, adds } each, as
--- :NvimpamRename gets them from the JVM), each file as one undo step of its
--- own; sets each plan's `target` buffer. Everything is checked first: each buffer may change and
--- holds the text the plan read, each file not open may be written; the files not open are loaded
--- into listed buffers (and unloaded again when refused). When anything is refused, the reasons
--- are added to `refused` and `refuse()` is called (it raises), before anything changed.
---@param files table[]
---@param buf integer the buffer the command ran in (names are relative to its folder)
---@param refused string[] reasons found before
---@param refuse fun() raises the refusal with `refused`
---@param verb string what read the text, for messages: 'rename'
function M.apply_files(files, buf, refused, refuse, verb)
  -- the buffer of file plan `f` checked: that it may change, and holds the text the plan read
  local function check(f)
    local b = f.target
    local why = cannot_change(b)
    local l = not why and stale_line(b, f)
    if l then
      why = string.format('line %d is not the text the %s read (write or reload the buffer)', l, verb)
    end
    if why then
      refused[#refused + 1] = name_of(b, f.label, buf) .. ' ' .. why
    end
  end
  -- every file checked before any is loaded or changed
  for _, f in ipairs(files) do
    local b = f.buf or buffer_of(f.file)
    if b and api.nvim_buf_is_loaded(b) then
      f.target = b
      check(f)
    else
      local why = not_writable(f.file)
      if why then
        refused[#refused + 1] = f.label .. ' ' .. why
      end
    end
  end
  if #refused > 0 then
    refuse()
  end
  local loaded = {}
  for _, f in ipairs(files) do
    if not f.target then
      local b = M.load(f.file)
      loaded[#loaded + 1] = b
      f.target = b
      check(f)
    end
  end
  if #refused > 0 then
    M.unload(loaded)
    refuse()
  end
  for _, f in ipairs(files) do
    apply(f.target, f)
  end
end

return M
