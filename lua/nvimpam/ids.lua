-- Following the ids of a deck (:help nvimpam-navigation): go to definition, references, rename,
-- outline, 'omnifunc', gf on INCLU lines, and the cross-reference diagnostics (namespace
-- `nvimpam.refs`) the JVM pushes. The JVM holds the id index of every deck it folds live (built
-- after the first folds, off Neovim's main loop, updated by every edit); what is under the cursor
-- is found here, from the card-layout table, without any call.
local M = {}

local config = require('nvimpam.config')
local layout = require('nvimpam.layout')
local rows = require('nvimpam.rows')
local fields = require('nvimpam.fields')

local api = vim.api

M.ns = api.nvim_create_namespace('nvimpam.refs')

--- What the last set() of each buffer got: buf -> { shown, total }.
M.last = {}

local messages = require('nvimpam.messages')

-- "1 file", "3 files"
local function plural(n, noun)
  return string.format('%d %s%s', n, noun, n == 1 and '' or 's')
end

local function info(msg)
  vim.notify(msg, vim.log.levels.INFO, { title = 'nvimpam' })
end

local function warn(msg)
  vim.notify(msg, vim.log.levels.WARN, { title = 'nvimpam' })
end

local bufnr = require('nvimpam.buf').nr

-- Diagnostics --------------------------------------------------------------------------------

--- Sets the cross-reference diagnostics of `buf` (called by the JVM through nvim_exec_lua):
--- `items` is a flat list { lnum, col, end_col, severity, message, code, ... } (0-based), already
--- capped at max_diagnostics; `total` the number of problems in the whole deck. When total exceeds
--- the items, an INFO diagnostic on line 0 says so.
---@param buf integer
---@param items any[]
---@param total integer
function M.set(buf, items, total)
  if not api.nvim_buf_is_loaded(buf) then
    return
  end
  local list, n
  local diagnostics = require('nvimpam.diagnostics')
  list, n, total = diagnostics.entries(buf, items, total, 'nvimpam.refs', function(t, shown)
    return string.format('nvimpam: %d cross-reference problems, the first %d shown', t, shown)
  end)
  diagnostics.put(M.ns, buf, list)
  M.last[buf] = { shown = n, total = total }
end

-- What is under the cursor -------------------------------------------------------------------

local GES_KINDS = { PART = 'part', NOD = 'node', ELE = 'element', GRP = 'group' }

--- The kinds whose ids are names, not numbers: a GROUP's title, selected by GRP 'title'.
M.named = { group = true }

--- How an id reads in messages: "part 12", "group 'doors'".
---@param kind string
---@param id integer|string
---@return string
function M.label(kind, id)
  if M.named[kind] then
    return string.format("%s '%s'", kind, id)
  end
  return kind .. ' ' .. id
end

-- The kind a GES selection word selects (PART, DELPART, PART>NOD, NOD, ELE>NOD, GRP, OGRP, ...), or nil.
local function ges_kind(word)
  local w = word:gsub('^DEL', ''):gsub('^O', '')
  for prefix, kind in pairs(GES_KINDS) do
    if w:sub(1, #prefix) == prefix then
      return kind
    end
  end
  return nil
end

-- The tokens of a GES line up to column 80, as the JVM's IdScanner reads them: { from, to
-- (1-based, inclusive), word = true for a selection word (a token starting with a letter), kind =
-- what the last word before an item selects, quoted, closed }. A quoted name ('front doors')
-- takes its quotes and the blanks between them; one without its closing quote runs to column 80.
local function ges_tokens(line)
  local out = {}
  local n = math.min(#line, 80)
  local kind = nil
  local i = 9
  while i <= n do
    local s = line:find('[^ ]', i)
    if not s or s > n then
      break
    end
    local t
    if line:sub(s, s) == "'" then
      local q = line:find("'", s + 1, true)
      local closed = q ~= nil and q <= n
      t = { from = s, to = closed and q or n, kind = kind, quoted = true, closed = closed }
    else
      local e = math.min((line:find(' ', s, true) or n + 1) - 1, n)
      if line:sub(s, s):match('[A-Za-z]') then
        t = { from = s, to = e, word = true }
        kind = ges_kind(line:sub(s, e))
      else
        t = { from = s, to = e, kind = kind }
      end
    end
    out[#out + 1] = t
    i = t.to + 1
  end
  return out
end

-- The row and field of byte column `col` (1-based) of line `row` (0-based) of `buf`.
local function field_at(buf, row, col)
  local ok = pcall(layout.get)
  if not ok then
    return nil
  end
  local version = require('nvimpam.cells').version(buf)
  local r = rows.range(buf, row, row + 1, version)
  local i = r.off + 1
  local line = r.lines[i] and r.lines[i]:gsub('\r$', '')
  if r.kind[i] == rows.ROW then
    local e = r.ent[i]
    local rw = e.rows[r.rowi[i]]
    local j = fields.field_at(rw, col)
    return { kind = 'row', entry = e, row = rw, field = j and rw.fields[j], line = line }
  elseif r.kind[i] == rows.GES then
    return { kind = 'ges', line = line }
  end
  return nil
end

-- The title in `text` (blanks around it left out) and the columns it takes, `text` starting at
-- column `from`; nil when blank.
local function title_in(text, from)
  local lead = #text:match('^ *')
  local title = text:match('^ *(.-) *$')
  if title == '' then
    return nil
  end
  return title, from + lead, from + lead + #title - 1
end

-- The id of GES line `line` at byte column `col`: as M.at says.
local function ges_at(line, col)
  local t
  for _, k in ipairs(ges_tokens(line)) do
    if k.from <= col and col <= k.to then
      t = k
      break
    end
  end
  if not t or t.word then
    return nil, 'the cursor is on no id'
  end
  if not t.kind then
    return nil, 'the cursor is on no id of a selection this plugin follows'
  end
  if M.named[t.kind] then
    local title, from, to
    if t.quoted and t.closed then
      title, from, to = title_in(line:sub(t.from + 1, t.to - 1), t.from + 1)
    end
    if not title then
      return nil, string.format("the cursor is on no %s title (GRP 'title')", t.kind)
    end
    return { kind = t.kind, id = title, def = false, from = from, to = to, field = 'GES' }
  end
  local tok = line:sub(t.from, t.to)
  local from, id = t.from, nil
  local colon = tok:find(':', 1, true)
  if colon then -- a range: the end under the cursor
    if col - t.from + 1 < colon then
      id = tonumber(tok:sub(1, colon - 1):match('^%+?(%d+)$'))
    else
      id = tonumber(tok:sub(colon + 1):match('^%+?(%d+)$'))
      from = t.from + colon
    end
  else
    id = tonumber(tok:match('^%+?(%d+)$'))
  end
  if not id or id <= 0 then
    return nil, 'the cursor is on no id'
  end
  return { kind = t.kind, id = id, def = false, from = from, to = from + #tostring(id) - 1, field = 'GES' }
end

--- The id under the cursor of window `win`: { kind = 'part', id = 12, def = true/false, from,
--- to (1-based columns of the value), field = NAME or 'GES' }, or nil and why not. A group's id
--- is its title (kind = 'group', id = 'doors'), on the GROUP line or in a GES item GRP 'doors'.
--- No RPC.
---@param win? integer
---@return table|nil, string|nil
function M.at(win)
  win = (win == nil or win == 0) and api.nvim_get_current_win() or win
  local buf = api.nvim_win_get_buf(win)
  local cur = api.nvim_win_get_cursor(win)
  local row, col = cur[1] - 1, cur[2] + 1
  local a = field_at(buf, row, col)
  if not a then
    return nil, 'the cursor is on no id'
  end
  if a.kind == 'ges' then
    return ges_at(a.line, col)
  end
  local f = a.field
  if not f then
    return nil, 'the cursor is on no field'
  end
  local kind = f.def or f.ref
  if not kind then
    return nil, string.format('%s / %s is no id field', a.entry.word, f.name)
  end
  if M.named[kind] then
    local title, from, to = title_in(a.line:sub(f.from, f.to), f.from)
    if not title or f.type ~= 'str' then
      return nil, string.format('%s / %s holds no %s title', a.entry.word, f.name, kind)
    end
    return { kind = kind, id = title, def = f.def ~= nil, from = from, to = to, field = f.name }
  end
  local value = a.line:sub(f.from, f.to):gsub('^%s+', ''):gsub('%s+$', '')
  local id = tonumber(value:match('^%+?(%d+)$'))
  if not id or id <= 0 then
    return nil, string.format('%s / %s holds no %s id', a.entry.word, f.name, kind)
  end
  return { kind = kind, id = id, def = f.def ~= nil, from = f.from, to = f.to, field = f.name }
end

-- Long commands: a message after a second that says what is waited for.
local function with_progress(what, f)
  local done = false
  local timer = vim.defer_fn(function()
    if not done then
      api.nvim_echo({ { 'nvimpam: ' .. what .. '… (Ctrl-C stops waiting)' } }, false, {})
      vim.cmd('redraw')
    end
  end, 1000)
  local ok, res = pcall(f)
  done = true
  pcall(function()
    timer:stop()
    timer:close()
  end)
  if not ok then
    error(res, 0)
  end
  return res
end

M.with_progress = with_progress

local function call(method, args, what, buf)
  return require('nvimpam.host').wait(method, args, what, buf)
end

local function cursor_id()
  local at, why = M.at()
  if not at then
    error(require('nvimpam.host').error('bad_argument', 'nvimpam: ' .. why), 0)
  end
  return at
end

-- Opens where a definition or reference is: { buf = N } or { file = path }, and lnum; the folds
-- there open (zv), and a file whose folds are still to come opens them around the cursor
-- (nvimpam.fold.view).
local function jump(loc)
  vim.cmd("normal! m'")
  if loc.buf and loc.buf ~= api.nvim_get_current_buf() then
    vim.cmd('buffer ' .. loc.buf)
  elseif loc.file then
    local b = vim.fn.bufnr(loc.file)
    if b > 0 and api.nvim_buf_is_loaded(b) then
      vim.cmd('buffer ' .. b)
    else
      vim.cmd('edit ' .. vim.fn.fnameescape(loc.file))
    end
  end
  local n = api.nvim_buf_line_count(0)
  api.nvim_win_set_cursor(0, { math.min(loc.lnum, n), 0 })
  vim.cmd('normal! ^zv')
end

local function qf_item(loc)
  return { bufnr = loc.buf, filename = loc.file, lnum = loc.lnum, col = loc.col or 1, text = loc.text }
end

-- Go to definition ---------------------------------------------------------------------------

--- :NvimpamGoto / gd: jumps to the card that defines the id under the cursor, opening an include
--- file where it is there. With no definition it says so; with several it lists them in the
--- quickfix list. Returns the definitions found.
---@param buf? integer
---@return table[]
function M.goto_definition(buf)
  buf = bufnr(buf)
  local at = cursor_id()
  local what = M.label(at.kind, at.id)
  local defs = with_progress('looking for ' .. what, function()
    return call('ids_goto', { buf, at.kind, at.id }, ':NvimpamGoto', buf)
  end) or {}
  if #defs == 0 then
    warn('nvimpam: no definition of ' .. what)
  elseif #defs == 1 then
    jump(defs[1])
  else
    local items = {}
    for i, d in ipairs(defs) do
      items[i] = qf_item(d)
    end
    vim.fn.setqflist({}, ' ', { title = string.format('nvimpam: %s is defined %d times', what, #defs), items = items })
    jump(defs[1])
    warn(string.format('nvimpam: %s is defined %d times; :copen lists them', what, #defs))
  end
  return defs
end

-- References ---------------------------------------------------------------------------------

--- :NvimpamRefs / grr: every line that references the id under the cursor (fields, GES items
--- and GES ranges that hold it, in the deck and its include files) in the quickfix list, at most
--- `refs_max`. Returns { items, total }.
---@param buf? integer
---@return table
function M.references(buf)
  buf = bufnr(buf)
  local at = cursor_id()
  local what = M.label(at.kind, at.id)
  local res = with_progress('looking for the references to ' .. what, function()
    return call('ids_refs', { buf, at.kind, at.id, config.get().refs_max }, ':NvimpamRefs', buf)
  end)
  local items = {}
  for i, r in ipairs(res.items or {}) do
    items[i] = qf_item(r)
  end
  local title
  if res.total > #items then
    title = string.format('nvimpam: %d references to %s, the first %d listed', res.total, what, #items)
  else
    title = string.format('nvimpam: %d references to %s', res.total, what)
  end
  vim.fn.setqflist({}, ' ', { title = title, items = items })
  if #items > 0 then
    vim.cmd('copen')
  else
    info('nvimpam: no references to ' .. what)
  end
  return res
end

-- Rename -------------------------------------------------------------------------------------

-- The new id :NvimpamRename was given for an id of `kind`: a positive integer, or a title (one
-- pair of quotes around it dropped, none inside: GES items quote it).
local function new_id(kind, arg)
  local host = require('nvimpam.host')
  local s = vim.trim(tostring(arg or ''))
  if M.named[kind] then
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
  local uv = require('nvimpam.compat').uv
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

M.cannot_change = cannot_change
M.buffer_of = buffer_of

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

-- For the other commands that change the files of a tree (nvimpam.unused, nvimpam.renumber).
M.buffer_of, M.not_writable, M.cannot_change, M.name_of = buffer_of, not_writable, cannot_change, name_of

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
  require('nvimpam.undo').step(b, function()
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
  error(require('nvimpam.host').error('bad_argument', msg), 0)
end

--- Applies the file plans of an edit of a deck's tree ({ buf|file, label, edits, adds } each, as
--- :NvimpamRename and :NvimpamTransform get them from the JVM), each file as one undo step of its
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
  for _, f in ipairs(files) do
    apply(f.target, f)
  end
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
  local at = cursor_id()
  local value, shown = new_id(at.kind, new)
  local what = M.label(at.kind, at.id)
  local tick = api.nvim_buf_get_changedtick(buf)
  local plan = with_progress('renaming ' .. what, function()
    return call('ids_rename', { buf, at.kind, at.id, value }, ':NvimpamRename', buf)
  end)
  local refused = {}
  for _, r in ipairs(plan.refusals or {}) do
    refused[#refused + 1] = r
  end
  local function refuse()
    M.refuse(string.format('nvimpam: cannot rename %s to %s', what, shown), refused)
  end
  if api.nvim_buf_get_changedtick(buf) ~= tick then
    refused[#refused + 1] = 'the buffer changed while the rename was planned (run it again)'
  end
  M.apply_files(plan.files or {}, buf, refused, refuse, 'rename')
  local files = plan.files or {}
  local total, items, others = 0, {}, false
  for _, f in ipairs(files) do
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
function M.rename_prompt()
  local at, why = M.at()
  if not at then
    warn('nvimpam: ' .. why)
    return
  end
  local opts = { prompt = string.format('Rename %s to: ', M.label(at.kind, at.id)) }
  if M.named[at.kind] then
    opts.default = at.id
  end
  vim.ui.input(opts, function(v)
    if v and v ~= '' then
      local ok, e = pcall(M.rename, v)
      if not ok then
        vim.notify(tostring(require('nvimpam.host').as_error(e)), vim.log.levels.ERROR, { title = 'nvimpam' })
      end
    end
  end)
end

-- Outline ------------------------------------------------------------------------------------

--- The outline of `buf`: its cards except nodes and elements (each PART with its NAME title and
--- element count, materials, contacts, rigid bodies, ...) and its include files:
--- { { lnum, text, kind }, ... }.
---@param buf? integer
---@return table[]
function M.outline_items(buf)
  buf = bufnr(buf)
  return with_progress('making the outline', function()
    return call('ids_outline', { buf }, ':NvimpamOutline', buf)
  end) or {}
end

--- :NvimpamOutline / gO: picks an outline entry with vim.ui.select and jumps there; with `loclist`
--- (:NvimpamOutline!) puts the outline in the window's location list instead.
---@param loclist? boolean
---@param buf? integer
function M.outline(loclist, buf)
  buf = bufnr(buf)
  local items = M.outline_items(buf)
  if #items == 0 then
    info('nvimpam: the outline is empty (no parts, materials or other top-level cards)')
    return
  end
  if loclist then
    local l = {}
    for i, it in ipairs(items) do
      l[i] = { bufnr = buf, lnum = it.lnum, col = 1, text = it.text }
    end
    vim.fn.setloclist(0, {}, ' ', { title = 'nvimpam outline', items = l })
    vim.cmd('lopen')
    return
  end
  require('nvimpam.picker').select(items, {
    prompt = 'nvimpam outline',
    format_item = function(it)
      return string.format('%6d  %s', it.lnum, it.text)
    end,
  }, function(choice)
    if choice then
      jump({ lnum = choice.lnum })
    end
  end)
end

-- Completion ---------------------------------------------------------------------------------

-- What is being completed: { buf, row, start (1-based column), kind, line, f } for a field; for a
-- GES title f is nil and close says whether the item still lacks its closing quote.
local omni = nil

-- The field of the cursor for completion: the one holding the character before the cursor (the
-- one being typed), else the one under it.
local function omni_field(buf, row, col0)
  local a = col0 > 0 and field_at(buf, row, col0) or nil
  if not (a and a.field) then
    a = field_at(buf, row, col0 + 1)
  end
  if a and a.kind == 'row' and a.field then
    return a
  end
  return nil
end

-- The quoted title of a GES item the cursor (0-based column `col0`) is typing: its opening quote
-- is before the cursor and its closing quote, if any, after it, after a word that selects a named
-- kind (GRP 'do|). Returns { kind, start = the title's first column (1-based), closed }.
local function omni_title(buf, row, col0)
  local a = field_at(buf, row, col0 + 1)
  if not (a and a.kind == 'ges') then
    return nil
  end
  for _, t in ipairs(ges_tokens(a.line)) do
    if t.quoted and M.named[t.kind] and t.from <= col0 and (not t.closed or col0 < t.to) then
      return { kind = t.kind, start = t.from + 1, closed = t.closed }
    end
  end
  return nil
end

-- Asks the JVM with a deadline of `ms`; nil when it did not answer in time, and then `late(result)`
-- runs (scheduled) when the answer comes.
local function ask(method, args, ms, buf, late)
  local host = require('nvimpam.host')
  if not host.running() then
    return nil
  end
  local done, waited, res = false, false, nil
  host.call(method, args, function(e, r)
    if not e then
      res = r
    end
    done = true
    if waited and late and res then
      vim.schedule(function()
        late(res)
      end)
    end
  end, buf)
  if not done then
    vim.fn.wait(ms, function()
      return done
    end, 5)
  end
  waited = not done
  return res
end

--- The next free id of `kind` in the deck of `buf` and the decks it includes (one more than the
--- greatest defined), from the JVM's index; nil when the JVM is not running or does not answer
--- within `ms`. :NvimpamCard gives a new card this id.
---@param buf integer
---@param kind string an id kind of the card-layout table ('node', 'element', 'part', ...)
---@param ms integer
---@return integer|nil
function M.next_free(buf, kind, ms)
  local res = ask('ids_next', { buf, kind }, ms, buf)
  return type(res) == 'number' and res or nil
end

-- The completion items of the JVM's answer for `kind`; a title gets its closing quote when the
-- item has none yet (`close`).
local function id_items(res, kind, close)
  local items = {}
  for _, it in ipairs(res) do
    items[#items + 1] = { word = it.word .. (close and "'" or ''), abbr = it.word, menu = it.menu,
      info = M.label(kind, it.word) .. ': ' .. it.menu, user_data = 'nvimpam', dup = 1 }
  end
  return items
end

--- 'omnifunc' of pamcrash buffers: in a field that references ids, the ids of that kind the deck
--- (and its include files) defines, with their titles (a PART's NAME), filtered by what is typed
--- and capped at `complete_max`; inside the quotes of a GES item GRP 'title', the group titles;
--- in a choice field (ATYPE and the like) the values the layout table lists. Asks the JVM with a
--- deadline of 50 ms. An accepted id is written into the field's own columns, so that the other
--- fields stay where they are, in Insert and in Replace mode.
---@param findstart integer
---@param base string
---@return integer|table
function M.omnifunc(findstart, base)
  local buf = api.nvim_get_current_buf()
  if findstart == 1 then
    local cur = api.nvim_win_get_cursor(0)
    local row, col0 = cur[1] - 1, cur[2]
    local t = omni_title(buf, row, col0)
    if t then
      omni = { buf = buf, row = row, start = t.start, kind = t.kind, close = not t.closed }
      return t.start - 1
    end
    local a = omni_field(buf, row, col0)
    if not a then
      omni = nil
      return -3 -- no completion, and leave completion mode quietly
    end
    local f = a.field
    omni = { buf = buf, row = row, start = f.from, line = api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or '',
      f = f, kind = f.ref }
    return f.from - 1
  end
  if not omni or omni.buf ~= buf then
    return {}
  end
  local f = omni.f
  local prefix = vim.trim(base or '')
  local items = {}
  local cap = config.get().complete_max
  if f and f.values and #f.values > 0 then
    for _, v in ipairs(f.values) do
      if v:sub(1, #prefix):upper() == prefix:upper() then
        items[#items + 1] = { word = v, menu = f.name, user_data = 'nvimpam', dup = 1 }
      end
    end
  elseif omni.kind then -- a field that defines an id is the card's own: nothing to offer
    local o = omni
    if not M.named[o.kind] and prefix ~= '' and not prefix:match('^%d+$') then
      return {}
    end
    local res = ask('ids_complete', { buf, o.kind, prefix, cap }, 50, buf, function(late)
      -- the JVM missed the deadline: show its answer if the user is still completing this
      local mode = api.nvim_get_mode().mode
      if omni == o and api.nvim_get_current_buf() == o.buf and (mode:sub(1, 1) == 'i' or mode:sub(1, 1) == 'R')
          and api.nvim_win_get_cursor(0)[1] == o.row + 1 then
        vim.fn.complete(o.start, id_items(late, o.kind, o.close))
      end
    end)
    items = id_items(res or {}, o.kind, o.close)
  end
  while #items > cap do
    table.remove(items)
  end
  return items
end

-- The value written into columns [from, to] of `line`, aligned as the field is.
local function put(line, f, value)
  local width = f.to - f.from + 1
  if #value > width then
    return nil
  end
  local cell
  if f.align == 'left' then
    cell = value .. string.rep(' ', width - #value)
  else
    cell = string.rep(' ', width - #value) .. value
  end
  if #line < f.from - 1 then
    line = line .. string.rep(' ', f.from - 1 - #line)
  end
  local rest = line:sub(f.to + 1)
  local out = line:sub(1, f.from - 1) .. cell .. rest
  if rest == '' then
    out = out:gsub('%s+$', '')
  end
  return out
end

-- After an item was accepted: the line as it was with the field holding the item, in its columns.
local function complete_done()
  local item = vim.v.completed_item
  local o = omni
  omni = nil
  if not o or not o.f or type(item) ~= 'table' or item.user_data ~= 'nvimpam' or not item.word then
    return -- a title went in where it was typed: nothing to put in columns
  end
  vim.schedule(function()
    if not api.nvim_buf_is_valid(o.buf) or api.nvim_get_current_buf() ~= o.buf then
      return
    end
    local new = put(o.line, o.f, item.word)
    if not new then
      return
    end
    api.nvim_buf_set_lines(o.buf, o.row, o.row + 1, false, { new })
    api.nvim_win_set_cursor(0, { o.row + 1, math.min(o.f.to, #new) })
  end)
end

-- Include files ------------------------------------------------------------------------------

--- The file name an INCLU line of `lines` (the line and those after it) names, quotes removed,
--- continued where column 81 holds & or -; nil for other lines.
---@param lines string[]
---@return string|nil
function M.include_name(lines)
  local l = lines[1]
  if not l or l:sub(1, 7) ~= 'INCLU /' then
    return nil
  end
  local name = vim.trim(l:sub(9, 80))
  local i = 1
  while #lines[i] > 80 and (lines[i]:sub(81, 81) == '&' or lines[i]:sub(81, 81) == '-') and lines[i + 1] do
    i = i + 1
    name = name .. vim.trim(lines[i]:sub(1, 80))
  end
  name = vim.trim(name)
  local q = name:sub(1, 1)
  if #name >= 2 and (q == '"' or q == "'") and name:sub(-1) == q then
    name = name:sub(2, -2)
  end
  return name ~= '' and name or nil
end

--- Where an include name points from `buf`, as the JVM resolves it: absolute as written;
--- relative, in the folder of the buffer's file, else in the folder of the open deck that includes
--- it (b:nvimpam_root_dir). Returns the path, or the name as written when no file exists.
---@param name string
---@param buf? integer
---@return string
function M.resolve(name, buf)
  buf = bufnr(buf)
  if name:sub(1, 1) == '/' then
    return name
  end
  local dirs = { vim.fn.fnamemodify(api.nvim_buf_get_name(buf), ':p:h') }
  local ok, root = pcall(api.nvim_buf_get_var, buf, 'nvimpam_root_dir')
  if ok and type(root) == 'string' and root ~= '' then
    dirs[#dirs + 1] = root
  end
  for _, d in ipairs(dirs) do
    local p = d .. '/' .. name
    if vim.fn.filereadable(p) == 1 or vim.fn.isdirectory(p) == 1 then
      return p
    end
  end
  return name
end

--- 'includeexpr' of pamcrash buffers: on an INCLU line the file it names (gf, <C-w>f), resolved
--- as the JVM resolves it; elsewhere `fname` as it is.
---@param fname string
---@return string
function M.includeexpr(fname)
  local row = api.nvim_win_get_cursor(0)[1]
  local name = M.include_name(api.nvim_buf_get_lines(0, row - 1, row + 4, false))
  if name and (fname == nil or fname == '' or name:find(fname, 1, true)) then
    return M.resolve(name)
  end
  return fname
end

--- Runs one of the mappings' actions ('goto', 'refs', 'outline'); errors become notifications.
---@param what string
function M.command(what)
  local ok, e = pcall(function()
    if what == 'goto' then
      M.goto_definition()
    elseif what == 'refs' then
      M.references()
    elseif what == 'outline' then
      M.outline(false)
    end
  end)
  if not ok then
    local err = require('nvimpam.host').as_error(e)
    if not err.reported then
      vim.notify(tostring(err), vim.log.levels.ERROR, { title = 'nvimpam' })
    end
  end
end

-- Attach -------------------------------------------------------------------------------------

local group = api.nvim_create_augroup('nvimpam_ids', { clear = true })

--- Sets 'omnifunc', 'includeexpr' and 'path' of a pamcrash buffer and the completion fix-up.
---@param buf? integer
function M.attach(buf)
  buf = bufnr(buf)
  local bo = vim.bo[buf]
  if config.get().omnifunc ~= false then
    bo.omnifunc = "v:lua.require'nvimpam.ids'.omnifunc"
  end
  bo.includeexpr = "v:lua.require'nvimpam.ids'.includeexpr(v:fname)"
  bo.path = '.,,'
  api.nvim_clear_autocmds({ group = group, buffer = buf })
  api.nvim_create_autocmd('CompleteDone', { group = group, buffer = buf, callback = complete_done })
  -- an include file changed on disk, or a deck written: the JVM checks again
  api.nvim_create_autocmd({ 'BufWritePost', 'FocusGained' }, { group = group, buffer = buf, callback = function(args)
    local host = require('nvimpam.host')
    if host.running() then
      host.call('ids_check', { args.buf }, function() end, args.buf)
    end
  end })
end

return M
