-- The card-layout table (docs/CARDS.md): lua/nvimpam/layout/INDEX and the files it lists, read
-- once, lazily, into entries compiled for the redraw path (the parse, in its steps, is
-- nvimpam.model.layout.parse). Every part of the Lua side that needs to know a card's rows and
-- fields (cells, checks, the cell hint, templates, motions) reads them from here; the JVM reads
-- the same files (org.nvimpam.deck.CardLayouts), and dump() is the canonical text a contract test
-- compares between the two.
--
-- An entry:
--   { key = 'PART:SHELL', word = 'PART', variant = 'SHELL' (or nil), category, version,
--     select = { A, B } or nil, description, file, line, rows = { row, ... }, end_word = 'END_PART'
--     when the card has an `end` row (nil otherwise) }
-- A row (rows are numbered 1.. after fragments are expanded):
--   { kind = KIND (a code of nvimpam.model.layout.codes), kind_name = 'row'|'name'|'if'|'repeat'|'ges'|'block'|'end'|'when'|'until'|'key',
--     label (or nil), ges_label, start_word/end_word (block), word (end, when, until, key: a key
--     row's fields are the values of its value line by place, from = to = the place),
--     cond_field/cond_value (if: the text after ':' or '!'), cond_sep, cond_negated (true for
--     FIELD!VALUES), cond_values (the list), count_field (repeat): field names; cond_row/cond_index and
--     count_row/count_index: where that field is (row number, field index), cond_numeric,
--     n = number of fields, from = { ... }, to = { ... }, type = { type code, ... },
--     fields = { field, ... } }
-- A field: { from, to, type (name), code (type code), name, default, def, ref, values (list),
--   value_set (word -> true), align ('left'|'right'), description, implicit (true for the implicit
--   fields of `name` and `end` rows) }
local M = {}

local codes = require('nvimpam.model.layout.codes')
local parse = require('nvimpam.model.layout.parse').run

-- The codes every reader of entries uses (nvimpam.model.layout.codes): type codes (row.type[i],
-- field.code), row kinds (row.kind), the types by name, the id kinds.
for _, k in ipairs({ 'KW', 'FIXED', 'INT', 'INT_OR_BLANK', 'FLOAT', 'STR', 'BLANK', 'FLAGS', 'CHOICE', 'CONT',
  'ROW', 'NAME', 'IF', 'REPEAT', 'GES', 'BLOCK', 'END', 'WHEN', 'UNTIL', 'KEY', 'TYPES', 'KINDS' }) do
  M[k] = codes[k]
end
local default_dir = codes.default_dir

local uv = vim.uv or vim.loop

-- A parse run by load_soon(): on the main loop, in slices, so that no redraw waits for the whole
-- table (5000 lines: about 30 ms of Lua). { co = its coroutine, deadline = when the slice ends
-- (hrtime), done = the callbacks }.
local slicing = nil

--- How long one slice of load_soon() may run, in ns (tests make it tiny).
M.slice_ns = 4e6

-- Between two lines of the table: ends the slice of a parse run by load_soon() when it is over.
local function pause()
  local s = slicing
  if s and s.co == coroutine.running() and uv.hrtime() > s.deadline then
    coroutine.yield()
  end
end

local dir_in_use = nil
local loaded = nil

--- Parses the table in `dir` (default: the bundled one, lua/nvimpam/layout) without keeping it.
--- Raises "file:line: what" for malformed input, and for a file INDEX lists that is missing.
---@param dir? string
---@return table layout { dir, entries (table order), by_key (key -> entries by version), keys }
function M.load(dir)
  return parse(dir or default_dir(), pause)
end

--- Points every later get() (and so lookup, rows, fields and cells) at the table in `dir`, or back
--- at the bundled one (nil). For tests with tables of their own.
---@param dir? string
function M.use(dir)
  dir_in_use = dir
  loaded = nil
  local s = slicing
  slicing = nil
  if s then
    for _, cb in ipairs(s.done) do
      vim.schedule(function()
        cb(false, 'the table was switched while it loaded')
      end)
    end
  end
end

-- Runs the sliced parse until its slice ends (`deadline`, hrtime) or it is done; when done, keeps
-- the table and schedules the callbacks. Returns false while it is not done; else true, whether
-- the parse succeeded, and the table or the error.
local function run_slice(deadline)
  local s = slicing
  s.deadline = deadline
  local ok, res = coroutine.resume(s.co)
  if coroutine.status(s.co) ~= 'dead' then
    return false
  end
  slicing = nil
  if ok then
    loaded = res
  end
  for _, cb in ipairs(s.done) do
    vim.schedule(function()
      cb(ok, not ok and res or nil)
    end)
  end
  return true, ok, res
end

--- The table, parsed on first use and kept (a parse load_soon() started is finished now). Raises
--- as load() does.
---@return table layout
function M.get()
  if not loaded and slicing then
    local _, ok, err = run_slice(math.huge)
    if not ok then
      error(err, 0)
    end
  end
  if not loaded then
    loaded = parse(dir_in_use or default_dir(), pause)
  end
  return loaded
end

--- Whether the table is loaded (get() returns at once).
---@return boolean
function M.loaded()
  return loaded ~= nil
end

--- Loads the table without holding up Neovim: parses it on the main loop in slices of a few ms
--- and then calls `done(true)`, or `done(false, err)` for a malformed table; at once when it is
--- loaded already.
---@param done fun(ok: boolean, err: string?)
function M.load_soon(done)
  if loaded then
    return done(true)
  end
  if slicing then
    table.insert(slicing.done, done)
    return
  end
  local dir = dir_in_use or default_dir()
  slicing = { co = coroutine.create(function()
    return parse(dir, pause)
  end), done = { done } }
  local s = slicing
  -- Each slice from a timer, not vim.schedule(): scheduled callbacks run back to back, and the
  -- loop would not read input or other clients' requests in between.
  local function step()
    if slicing == s and not run_slice(uv.hrtime() + M.slice_ns) then
      vim.defer_fn(step, 0)
    end
  end
  vim.defer_fn(step, 0)
end

--- The keys of the table, in table order (INDEX order, then file order).
---@return string[]
function M.keys()
  return M.get().keys
end

--- The versions the table has for `key`, ascending.
---@param key string
---@return integer[]
function M.versions(key)
  local out = {}
  for i, e in ipairs(M.get().by_key[key] or {}) do
    out[i] = e.version
  end
  return out
end

-- The entry of `list` (ascending versions) for a deck of `version` (nil: the newest); the oldest
-- when the deck is older than all of them, with `true` as second value.
local function pick(list, version)
  if version == nil or version == vim.NIL then
    return list[#list], false
  end
  local best = nil
  for _, e in ipairs(list) do
    if e.version <= version then
      best = e
    end
  end
  if best then
    return best, false
  end
  return list[1], true
end
M.pick = pick

--- Whether `line` is a card header line (FOLDS.md §3): bytes 1-6 a word [A-Z][A-Z0-9_]* padded
--- with blanks, byte 7 `/`, byte 8 a blank or the end of the line. Returns the word, or nil.
---@param line string
---@return string|nil
function M.header_word(line)
  if line:byte(7) ~= 47 then
    return nil
  end
  local b8 = line:byte(8)
  if b8 ~= nil and b8 ~= 32 then
    return nil
  end
  return (line:sub(1, 6):match('^([A-Z][A-Z0-9_]*) *$'))
end

--- The entry for a card header line: `KEY`, then `KEY:VARIANT` from the base entry's select
--- columns; per key the greatest version at or below `version` (nil: the newest). Nil for a line
--- that is not a card header line or a card without an entry. The second value is true when the
--- deck is older than every layout of the key (the entry is then the oldest).
---@param line string
---@param version? integer
---@return table|nil entry
---@return boolean|nil older
function M.lookup(line, version)
  local word = M.header_word(line)
  if not word then
    return nil
  end
  local by_key = M.get().by_key
  local list = by_key[word]
  if not list then
    return nil
  end
  local base, older = pick(list, version)
  local select = list[1].select -- the oldest entry's: a property of the card word
  if select then
    local v = line:sub(select[1], select[2]):match('^ *(.-) *$')
    local vlist = v ~= '' and by_key[word .. ':' .. v]
    if vlist then
      return pick(vlist, version)
    end
  end
  return base, older
end

--- Every entry of `key` (ascending versions), e.g. for the checks of a deck older than all.
---@param key string
---@return table[]
function M.all(key)
  return M.get().by_key[key] or {}
end

local function dash(v)
  return (v == nil or v == '') and '-' or tostring(v)
end

--- The canonical text of the table (docs: a contract test compares it with the JVM's reader):
--- `card KEY CATEGORY VERSION SELECT|DESCRIPTION`, `row KIND ARG LABEL`,
--- `field FROM TO TYPE NAME DEFAULT DEF REF VALUES ALIGN|DESCRIPTION`, entries in table order.
---@param dir? string a table of its own (default: the one get() reads)
---@return string
function M.dump(dir)
  local t = dir and M.load(dir) or M.get()
  local out = {}
  for _, e in ipairs(t.entries) do
    out[#out + 1] = string.format('card %s %s %d %s|%s', e.key, e.category, e.version,
      e.select and (e.select[1] .. '-' .. e.select[2]) or '-', e.description)
    for _, r in ipairs(e.rows) do
      local arg
      if r.kind == M.IF then
        arg = r.cond_field .. r.cond_sep .. r.cond_value
      elseif r.kind == M.REPEAT then
        arg = r.count_field
      elseif r.kind == M.GES then
        arg = dash(r.ges_label)
      elseif r.kind == M.BLOCK then
        arg = r.start_word .. ',' .. r.end_word
      elseif r.kind == M.END or r.kind == M.WHEN or r.kind == M.UNTIL or r.kind == M.KEY then
        arg = r.word
      else
        arg = '-'
      end
      out[#out + 1] = string.format('row %s %s %s', r.kind_name, arg, dash(r.label))
      for _, f in ipairs(r.fields) do
        out[#out + 1] = string.format('field %d %d %s %s %s %s %s %s %s|%s', f.from, f.to, f.type, f.name,
          dash(f.default), dash(f.def), dash(f.ref), f.values and table.concat(f.values, ',') or '-', f.align,
          f.description)
      end
    end
  end
  return table.concat(out, '\n')
end


--- Whether entry e's body is opaque: its layout is its header row and its end word only, so the
--- lines between are the card's own data in no layout (SECURE's encrypted input), never checked.
--- The JVM's CardLayouts.opaqueBody says the same.
---@param e table an entry of the table
---@return boolean
function M.opaque_body(e)
  return #e.rows == 2 and e.end_row == 2
end

return M
