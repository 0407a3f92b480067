-- :NvimpamRename / grn: an id renumbered (a group retitled) in the deck and its include tree, as
-- the JVM plans it; every file checked before any changes, each buffer one undo step.
local M = {}

local at = require('nvimpam.ids.at')
local progress = require('nvimpam.ids.ask').progress
local messages = require('nvimpam.ui.messages')
local host = require('nvimpam.host')
local undo = require('nvimpam.core.undo')
local uv = require('nvimpam.core.compat').uv

local api = vim.api
local bufnr = require('nvimpam.core.buf').nr
local info, warn = messages.info, messages.warn

-- "1 file", "3 files"
local function plural(n, noun)
  return string.format('%d %s%s', n, noun, n == 1 and '' or 's')
end

-- The new id :NvimpamRename was given for an id of `kind`: a positive integer, or a title (one
-- pair of quotes around it dropped, none inside: GES items quote it).
local function new_id(kind, arg)
  local s = vim.trim(tostring(arg or ''))
  if at.named[kind] then
    local title = vim.trim(s:match("^'(.*)'$") or s)
    if title == '' or title:find("'", 1, true) then
      error(host.error('bad_argument', string.format('nvimpam: :NvimpamRename takes a %s title without quotes inside, not "%s"',
        kind, tostring(arg))), 0)
    end
    return title, "'" .. title .. "'"
  end
  local n = tonumber(s:match('^%+?(%d+)$') or '')
  if not n or n <= 0 then
    error(host.error('bad_argument', 'nvimpam: :NvimpamRename takes a positive integer id, not "'
      .. tostring(arg) .. '"'), 0)
  end
  return n, tostring(n)
end

-- The loaded buffer whose file is `path`, or nil.
local function buffer_of(path)
  local real = uv.fs_realpath(path) or path
  for _, b in ipairs(api.nvim_list_bufs()) do
    local name = api.nvim_buf_get_name(b)
    if name ~= '' and (name == path or (uv.fs_realpath(name) or name) == real) then
      return b
    end
  end
  return nil
end

-- Why the file at `path` may not be changed on disk, or nil: its permissions deny writing (no w
-- bit for anyone, though root could write it), or this user cannot write it.
local function not_writable(path)
  if path == '' or vim.fn.filereadable(path) == 0 then
    return nil -- no file yet: it is written when saved
  end
  if vim.fn.filewritable(path) ~= 1 or not vim.fn.getfperm(path):find('w', 1, true) then
    return 'is read-only on disk'
  end
  return nil
end

-- Why buffer `b` may not be changed, or nil.
local function cannot_change(b)
  local bo = vim.bo[b]
  if not bo.modifiable then
    return "has 'nomodifiable'"
  elseif bo.readonly then
    return "has 'readonly'"
  elseif bo.binary then
    return "has 'binary'"
  end
  return not_writable(api.nvim_buf_get_name(b))
end

-- The name of `b` in messages: relative to the folder of `base`'s file where it is inside it.
local function name_of(b, label, base)
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

--- :NvimpamRename {new} / grn: renumbers the id under the cursor (a group: gives it the title
--- {new}): its definition and every reference (fields in their columns, GES items, GES ranges
--- split around it) in the deck and every file of its include tree, each buffer as one undo step.
--- Files not open are loaded into listed buffers and changed there; nothing is written. Refuses,
--- and changes nothing, with every reason at once: `new` is defined already, does not fit a field
--- or a GES line, a file of the tree is read-only, binary or 'nomodifiable' (in the quickfix list
--- when they do not fit the command line). When files other than the current buffer change, or
--- include files are not found, a one-line summary, and the quickfix list names each file changed
--- (at its first change) and each include file not searched.
---@param new string|integer
---@param buf? integer
---@return table the JVM's plan: { files = { { buf|file, label, lines, edits, adds } }, defined, refusals, missing }
function M.rename(new, buf)
  buf = bufnr(buf)
  local id = at.cursor()
  local value, shown = new_id(id.kind, new)
  local what = at.label(id.kind, id.id)
  local tick = api.nvim_buf_get_changedtick(buf)
  local plan = progress('renaming ' .. what, function()
    return host.wait('ids_rename', { buf, id.kind, id.id, value }, ':NvimpamRename', buf)
  end)
  local refused = {}
  for _, r in ipairs(plan.refusals or {}) do
    refused[#refused + 1] = r
  end
  -- Every reason in the message when they fit the command line; else each in the quickfix list,
  -- and the message says how many.
  local function refuse()
    local head = string.format('nvimpam: cannot rename %s to %s', what, shown)
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
  if api.nvim_buf_get_changedtick(buf) ~= tick then
    refused[#refused + 1] = 'the buffer changed while the rename was planned (run it again)'
  end
  -- the buffer of file plan `f` checked: that it may change, and holds the text the plan read
  local function check(f)
    local b = f.target
    local why = cannot_change(b)
    local l = not why and stale_line(b, f)
    if l then
      why = string.format('line %d is not the text the rename read (write or reload the buffer)', l)
    end
    if why then
      refused[#refused + 1] = name_of(b, f.label, buf) .. ' ' .. why
    end
  end
  -- every file checked before any is loaded or changed
  local files = plan.files or {}
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
      local b = vim.fn.bufadd(f.file)
      vim.fn.bufload(b)
      vim.bo[b].buflisted = true
      loaded[#loaded + 1] = b
      f.target = b
      check(f)
    end
  end
  if #refused > 0 then
    for _, b in ipairs(loaded) do -- loaded for nothing: as they were, not open
      pcall(api.nvim_buf_delete, b, {})
    end
    refuse()
  end
  local total, items, others = 0, {}, false
  for _, f in ipairs(files) do
    apply(f.target, f)
    total = total + f.lines
    local e, lnum, col = f.edits, nil, 1
    if #e > 0 then
      lnum, col = e[1] + 1, e[2] + 1
    else
      lnum = f.adds[1] + 2 -- the first line it added
    end
    items[#items + 1] = { bufnr = f.target, lnum = lnum, col = col,
      text = string.format('%s -> %s: %s changed', what, shown, plural(f.lines, 'line')) }
    others = others or f.target ~= buf
  end
  local missing = plan.missing or {}
  local msg
  if #files > 1 or others or #missing > 0 then
    -- One line (a longer one waits for Enter); the quickfix list names each file changed, at its
    -- first change, and each include file not searched.
    for _, m in ipairs(missing) do
      items[#items + 1] = { text = 'not searched (not found): ' .. m }
    end
    local head = string.format('%s -> %s in %s', what, shown, plural(#files, 'file'))
    local long, short = plural(total, 'line'), plural(total, 'line')
    if #missing > 0 then
      long = long .. ', ' .. plural(#missing, 'include file') .. ' not searched'
      short = short .. ', ' .. #missing .. ' not searched'
    end
    if not plan.defined then
      long, short = long .. ', defined nowhere', short .. ', defined nowhere'
    end
    local wall = #files > 1 or others
    vim.fn.setqflist({}, ' ', { title = string.format('nvimpam: %s, %s%s', head, long, wall and '; :wall writes them' or ''),
      items = items })
    local tail = wall and { '; :wall writes them, :copen lists them', '; :wall writes, :copen lists', '; :wall, :copen' }
      or { '; :copen lists them', '; :copen lists them', '; :copen' }
    -- shorter words first, then less said; the last resort names the id and the files
    msg = messages.fit({ 'nvimpam: ' .. head .. ', ' .. long .. tail[1], 'nvimpam: ' .. head .. ', ' .. short .. tail[2],
      'nvimpam: ' .. head .. ', ' .. short .. tail[3], head .. ', ' .. short .. tail[3], head .. tail[3] })
  else
    local head = string.format('nvimpam: %s -> %s: %s changed', what, shown, plural(total, 'line'))
    msg = messages.fit(plan.defined and { head }
      or { head .. ' (no card of the deck and its include files defines it)', head .. ' (defined nowhere)' })
  end
  info(msg)
  return plan
end

--- grn: asks for the new id (a group: the new title, the old one to edit), then renames.
---@return nil
function M.rename_prompt()
  local id, why = at.at()
  if not id then
    warn('nvimpam: ' .. why)
    return
  end
  local opts = { prompt = string.format('Rename %s to: ', at.label(id.kind, id.id)) }
  if at.named[id.kind] then
    opts.default = id.id
  end
  vim.ui.input(opts, function(v)
    if v and v ~= '' then
      local ok, e = pcall(M.rename, v)
      if not ok then
        vim.notify(tostring(host.as_error(e)), vim.log.levels.ERROR, { title = 'nvimpam' })
      end
    end
  end)
end

return M
