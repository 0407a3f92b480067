-- The card-layout table (docs/CARDS.md): lua/nvimpam/layout/INDEX and the files it lists, read
-- once, lazily, into entries compiled for the redraw path. Every part of the Lua side that needs
-- to know a card's rows and fields (cells, checks, the cell hint, templates, motions) reads them
-- from here; the JVM reads the same files (org.nvimpam.deck.CardLayouts), and dump() is the
-- canonical text a contract test compares between the two.
--
-- An entry:
--   { key = 'PART:SHELL', word = 'PART', variant = 'SHELL' (or nil), category, version,
--     select = { A, B } or nil, description, file, line, rows = { row, ... }, end_word = 'END_PART'
--     when the card has an `end` row (nil otherwise) }
-- A row (rows are numbered 1.. after fragments are expanded):
--   { kind = KIND (a code below), kind_name = 'row'|'name'|'if'|'repeat'|'ges'|'block'|'end'|'when'|'until'|'key',
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

--- Type codes (row.type[i], field.code).
M.KW, M.FIXED, M.INT, M.INT_OR_BLANK, M.FLOAT, M.STR, M.BLANK, M.FLAGS, M.CHOICE, M.CONT =
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10
local TYPES = {
  kw = M.KW, fixed = M.FIXED, int = M.INT, int_or_blank = M.INT_OR_BLANK, float = M.FLOAT,
  str = M.STR, blank = M.BLANK, flags = M.FLAGS, choice = M.CHOICE, cont = M.CONT,
}
M.TYPES = TYPES
local RIGHT = { int = true, int_or_blank = true, float = true, flags = true, choice = true }

--- Row kinds (row.kind).
M.ROW, M.NAME, M.IF, M.REPEAT, M.GES, M.BLOCK, M.END, M.WHEN, M.UNTIL, M.KEY = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10

local CATEGORIES = {}
for _, c in ipairs({ 'Node', 'Element', 'Link', 'Part', 'Material', 'Contact', 'Constraint', 'Load',
  'Auxiliary', 'Output', 'Control', 'Safety', 'Other' }) do
  CATEGORIES[c] = true
end
local function default_dir()
  -- lua/nvimpam/model/layout/init.lua -> lua/nvimpam/layout
  local src = debug.getinfo(1, 'S').source:sub(2)
  return (src:match('^(.*)[/\\][^/\\]+[/\\][^/\\]+[/\\][^/\\]+$') or '.') .. '/layout'
end

local function trim(s)
  return (s:gsub('^%s+', ''):gsub('%s+$', ''))
end

--- The id kinds, in the order of layout/KINDS (one `NAME | description` a line), which the JVM
--- reads too (org.nvimpam.deck.CardLayouts.KINDS): { 'node', 'element', ... }.
M.KINDS = {}
local KINDS = {} -- name -> true
for line in io.lines(default_dir() .. '/KINDS') do
  local name = trim((line:gsub('|.*$', '')))
  if name ~= '' and not name:match('^#') then
    M.KINDS[#M.KINDS + 1] = name
    KINDS[name] = true
  end
end

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

-- A parse of one directory: raises "file:line: what" at the first malformed line.
local function parse(dir)
  local entries, fragments = {}, {}
  local seen = {} -- 'KEY@VERSION' -> where it was defined
  local cur_file, cur_line = nil, 0
  local function fail(fmt, ...)
    error(string.format('%s:%d: ' .. fmt, cur_file, cur_line, ...), 0)
  end

  local target = nil -- the card or fragment being read: { rows = {}, ... }
  local row = nil -- the row that field lines add to

  local function field_line(toks, desc)
    if not row then
      fail('a field outside a row: "%s"', table.concat(toks, ' '))
    end
    if row.kind == M.GES or row.kind == M.BLOCK then
      fail('a %s row has no fields', row.kind_name)
    end
    local a, b
    if row.kind == M.KEY then -- the value's place on the value line, the next after the fields before it
      a = tonumber(toks[1]:match('^%d+$'))
      if a ~= #row.fields + 1 then
        fail('"%s" is not value place %d', toks[1], #row.fields + 1)
      end
      b = a
    else
      a, b = toks[1]:match('^(%d+)-(%d+)$')
      a, b = tonumber(a), tonumber(b)
      if not a then
        fail('"%s" is not a column range FROM-TO', toks[1])
      end
    end
    local tname, name = toks[2], toks[3]
    if not tname then
      fail('a field needs FROM-TO TYPE NAME')
    end
    if not TYPES[tname] then
      fail('unknown field type "%s" (kw, fixed, int, int_or_blank, float, str, blank, flags, choice, cont)', tname)
    end
    if not name then
      fail('a field needs a name after its type')
    end
    if a < 1 or b < a then
      fail('bad column range %d-%d', a, b)
    end
    if tname == 'cont' then
      if a ~= 81 or b ~= 81 then
        fail('a cont field is column 81 (81-81), not %d-%d', a, b)
      end
    elseif b > 80 then
      fail('field %s ends in column %d, past 80', name, b)
    end
    local last = row.fields[#row.fields]
    if last and a <= last.to then
      fail('field %s (%d-%d) overlaps or precedes field %s (%d-%d)', name, a, b, last.name, last.from, last.to)
    end
    local f = { from = a, to = b, type = tname, code = TYPES[tname], name = name }
    local given = {}
    for i = 4, #toks do
      local k, v = toks[i]:match('^([%a_]+)=(.+)$')
      if not k then
        fail('"%s" is not an attribute (key=value)', toks[i])
      end
      if given[k] then
        fail('attribute %s given twice', k)
      end
      given[k] = true
      if k == 'default' then
        f.default = v
      elseif k == 'def' or k == 'ref' then
        if not KINDS[v] then
          fail('unknown id kind "%s"', v)
        end
        f[k] = v
      elseif k == 'values' then
        if tname ~= 'choice' then
          fail('values= belongs to a choice field, not %s', tname)
        end
        f.values = vim.split(v, ',', { plain = true })
        f.value_set = {}
        for _, w in ipairs(f.values) do
          if w == '' then
            fail('an empty word in values=%s', v)
          end
          f.value_set[w] = true
        end
      elseif k == 'align' then
        if v ~= 'left' and v ~= 'right' then
          fail('align is left or right, not "%s"', v)
        end
        f.align = v
      else
        fail('unknown attribute "%s"', k)
      end
    end
    if row.kind == M.KEY and ((tname ~= 'int' and tname ~= 'float') or f.def or f.ref) then
      fail('a key row\'s field is int or float, without def= or ref=')
    end
    if tname == 'choice' and not f.values then
      fail('choice field %s needs values=', name)
    end
    if tname == 'kw' and (a ~= 1 or b ~= 8) then
      fail('a kw field is columns 1-8, not %d-%d', a, b)
    end
    f.align = f.align or (RIGHT[tname] and 'right' or 'left')
    if not desc or desc == '' then
      fail('field %s has no description (| DESCRIPTION)', name)
    end
    f.description = desc
    row.fields[#row.fields + 1] = f
  end

  local function label_of(tok)
    return tok and tok:match('^label=(.+)$')
  end

  local function row_line(toks)
    if not target then
      fail('a row outside a card or fragment')
    end
    local kind = toks[1]
    local r = { fields = {}, line = cur_line }
    local rest_from = 2
    if kind == 'row' then
      local t = toks[2]
      if t == 'name' then
        r.kind, r.kind_name, rest_from = M.NAME, 'name', 3
      elseif t and t:match('^if=') then
        local f, sep, v = t:match('^if=([^:!,]+)([:!])([^:!,]+[^:!]*)$')
        if not f or v:match(',,') or v:match(',$') then
          fail('"%s" is not if=FIELD:VALUE (or FIELD:V1,V2 for any of them, FIELD!V1,V2 for none of them)', t)
        end
        r.kind, r.kind_name, r.cond_field, r.cond_value, rest_from = M.IF, 'if', f, v, 3
        r.cond_sep, r.cond_negated, r.cond_values = sep, sep == '!', vim.split(v, ',', { plain = true })
      elseif t and (t:match('^when=') or t:match('^until=')) then
        local which, w = t:match('^(%a+)=(.*)$')
        if not w:match('^%u[%u%d_]*$') then
          fail('"%s" is not %s=WORD (a word in capitals)', t, which)
        end
        r.kind, r.kind_name, r.word, rest_from = which == 'when' and M.WHEN or M.UNTIL, which, w, 3
      elseif t and t:match('^key=') then
        local w = t:match('^key=(.*)$')
        if not w:match('^%u[%u%d_]*$') then
          fail('"%s" is not key=WORD (a word in capitals)', t)
        end
        r.kind, r.kind_name, r.word, rest_from = M.KEY, 'key', w, 3
      elseif t and t:match('^repeat=') then
        local f = t:match('^repeat=(.+)$')
        if not f then
          fail('"%s" is not repeat=FIELD', t)
        end
        r.kind, r.kind_name, r.count_field, rest_from = M.REPEAT, 'repeat', f, 3
      else
        r.kind, r.kind_name = M.ROW, 'row'
      end
      if toks[rest_from] then
        r.label = label_of(toks[rest_from])
        if not r.label then
          fail('unexpected "%s" in a row line', toks[rest_from])
        end
        rest_from = rest_from + 1
      end
    elseif kind == 'ges' then
      r.kind, r.kind_name = M.GES, 'ges'
      if toks[2] then
        r.ges_label = label_of(toks[2]) or toks[2]
      end
      rest_from = 3
    elseif kind == 'block' then
      r.kind, r.kind_name = M.BLOCK, 'block'
      r.start_word, r.end_word = toks[2], toks[3]
      if not r.end_word then
        fail('a block needs START and END words')
      end
      rest_from = 4
      if toks[4] then
        r.label = label_of(toks[4])
        if not r.label then
          fail('unexpected "%s" in a block line', toks[4])
        end
        rest_from = 5
      end
    else -- end
      r.kind, r.kind_name, r.word = M.END, 'end', toks[2]
      if not r.word then
        fail('an end row needs its WORD')
      end
      rest_from = 3
    end
    if toks[rest_from] then
      fail('unexpected "%s" in a %s line', toks[rest_from], kind)
    end
    target.rows[#target.rows + 1] = r
    row = r
  end

  -- A card's rows, complete: fragments expanded, implicit fields, references resolved, compiled.
  local function finish(card)
    if not card or card.fragment then
      return
    end
    local saved_line = cur_line
    cur_line = card.line
    local rows = {}
    for _, r in ipairs(card.rows) do
      if r.use then
        for _, fr in ipairs(r.use.rows) do
          rows[#rows + 1] = fr
        end
      else
        rows[#rows + 1] = r
      end
    end
    if #rows == 0 then
      fail('card %s has no rows', card.key)
    end
    local compiled = {}
    for i, src in ipairs(rows) do
      local r = {}
      for k, v in pairs(src) do
        r[k] = v
      end
      if #r.fields == 0 and r.kind == M.NAME then
        r.fields = {
          { from = 1, to = 4, type = 'fixed', code = M.FIXED, name = 'NAME', align = 'left',
            description = 'Fixed text NAME', implicit = true },
          { from = 5, to = 80, type = 'str', code = M.STR, name = 'TITLE', align = 'left',
            description = 'Title', implicit = true },
        }
      elseif #r.fields == 0 and r.kind == M.END then
        r.fields = { { from = 1, to = #r.word, type = 'fixed', code = M.FIXED, name = r.word, align = 'left',
          description = 'Fixed text ' .. r.word, implicit = true } }
      end
      r.n, r.from, r.to, r.type = #r.fields, {}, {}, {}
      for j, f in ipairs(r.fields) do
        r.from[j], r.to[j], r.type[j] = f.from, f.to, f.code
      end
      local function find(name, what)
        cur_line = r.line or card.line
        for k = i - 1, 1, -1 do
          for j, f in ipairs(compiled[k].fields) do
            if f.name == name then
              return k, j, f
            end
          end
        end
        fail('card %s, row %d: %s field %s is in no earlier row', card.key, i, what, name)
      end
      if r.kind == M.IF then
        local f
        r.cond_row, r.cond_index, f = find(r.cond_field, 'if=')
        r.cond_numeric = f.code == M.INT or f.code == M.INT_OR_BLANK
      elseif r.kind == M.REPEAT then
        r.count_row, r.count_index = find(r.count_field, 'repeat=')
      elseif r.kind == M.END and not card.end_word then
        card.end_word, card.end_row = r.word, i
      end
      compiled[i] = r
    end
    local head = compiled[1]
    if head.kind ~= M.ROW or head.n == 0 or head.type[1] ~= M.KW then
      fail('card %s: its first row must be its header row, with 1-8 kw first', card.key)
    end
    card.rows = compiled
    entries[#entries + 1] = card
    cur_line = saved_line
  end

  local function card_line(toks, desc)
    local key, cat, ver = toks[1 + 1], toks[3], toks[4]
    if not ver then
      fail('a card line is card KEY CATEGORY VERSION [select=A-B] | DESCRIPTION')
    end
    local word, variant = key:match('^([A-Z][A-Z0-9_]*):(%S+)$')
    if not word then
      word = key:match('^[A-Z][A-Z0-9_]*$')
    end
    if not word or #word > 6 then
      fail('"%s" is not a card key (a header word of up to 6 letters, digits, _ ; or WORD:VARIANT)', key)
    end
    if not CATEGORIES[cat] then
      fail('unknown category "%s"', cat)
    end
    if not ver:match('^%d+$') then
      fail('version "%s" is not a year', ver)
    end
    local card = { key = key, word = word, variant = variant, category = cat, version = tonumber(ver),
      file = cur_file, line = cur_line, rows = {} }
    if toks[5] then
      local a, b = toks[5]:match('^select=(%d+)-(%d+)$')
      a, b = tonumber(a), tonumber(b)
      if not a or a < 1 or b < a or b > 80 then
        fail('"%s" is not select=A-B', toks[5])
      end
      if variant then
        fail('a variant (%s) has no select=', key)
      end
      card.select = { a, b }
    end
    if toks[6] then
      fail('unexpected "%s" in a card line', toks[6])
    end
    if not desc or desc == '' then
      fail('card %s has no description (| DESCRIPTION)', key)
    end
    card.description = desc
    local id = key .. '@' .. ver
    if seen[id] then
      fail('card %s %s is defined twice (first at %s)', key, ver, seen[id])
    end
    seen[id] = cur_file .. ':' .. cur_line
    return card
  end

  local function read_file(path, each)
    local fh = io.open(path, 'r')
    if not fh then
      return false
    end
    cur_file, cur_line = path, 0
    for line in fh:lines() do
      cur_line = cur_line + 1
      each(line)
      pause()
    end
    fh:close()
    return true
  end

  local files = {}
  cur_file = dir .. '/INDEX'
  if not read_file(dir .. '/INDEX', function(line)
    local name = trim(line)
    if name ~= '' and not name:match('^#') then
      files[#files + 1] = { name = name, line = cur_line }
    end
  end) then
    error(cur_file .. ': no such file (the list of layout files)', 0)
  end

  for _, f in ipairs(files) do
    local path = dir .. '/' .. f.name
    local ok = read_file(path, function(line)
      line = line:gsub('\r$', '')
      if line:match('^%s*#') or line:match('^%s*$') then
        return
      end
      local head, desc = line:match('^(.-)|(.*)$')
      if not head then
        head = line
      end
      head = head:gsub('%s#.*$', '')
      desc = desc and trim(desc)
      local toks = {}
      for t in head:gmatch('%S+') do
        toks[#toks + 1] = t
      end
      if #toks == 0 then
        fail('a description without a line it belongs to')
      end
      local w = toks[1]
      if w == 'card' then
        finish(target)
        target, row = card_line(toks, desc), nil
      elseif w == 'fragment' then
        finish(target)
        if not toks[2] or toks[3] then
          fail('a fragment line is fragment NAME')
        end
        if fragments[toks[2]] then
          fail('fragment %s is defined twice', toks[2])
        end
        target, row = { fragment = true, name = toks[2], rows = {} }, nil
        fragments[toks[2]] = target
      elseif w == 'use' then
        if not target then
          fail('use outside a card')
        end
        if target.fragment then
          fail('fragment %s uses another fragment (no nesting)', target.name)
        end
        local fr = fragments[toks[2] or '']
        if not fr then
          fail('use of fragment "%s", which is not defined (before this line)', tostring(toks[2]))
        end
        if toks[3] then
          fail('unexpected "%s" in a use line', toks[3])
        end
        target.rows[#target.rows + 1] = { use = fr }
        row = nil
      elseif w == 'row' or w == 'ges' or w == 'block' or w == 'end' then
        row_line(toks)
      elseif w:match('^%d') then
        field_line(toks, desc)
      else
        fail('unknown line "%s"', w)
      end
    end)
    if not ok then
      cur_file, cur_line = dir .. '/INDEX', f.line
      fail('%s is listed but there is no such file', f.name)
    end
    finish(target)
    target, row = nil, nil
  end

  -- Per key, its entries by ascending version; variants need a base entry with select=.
  local by_key, keys = {}, {}
  for _, e in ipairs(entries) do
    if not by_key[e.key] then
      by_key[e.key] = {}
      keys[#keys + 1] = e.key
    end
    table.insert(by_key[e.key], e)
  end
  for _, list in pairs(by_key) do
    table.sort(list, function(x, y)
      return x.version < y.version
    end)
  end
  for _, e in ipairs(entries) do
    if e.variant then
      local base = by_key[e.word]
      if not (base and base[1].select) then
        cur_file, cur_line = e.file, e.line
        fail('variant %s: no card %s with select=A-B (its oldest entry)', e.key, e.word)
      end
    end
  end
  return { dir = dir, entries = entries, by_key = by_key, keys = keys }
end

local dir_in_use = nil
local loaded = nil

--- Parses the table in `dir` (default: lua/nvimpam/layout next to this file) without keeping it.
--- Raises "file:line: what" for malformed input, and for a file INDEX lists that is missing.
---@param dir? string
---@return table layout { dir, entries (table order), by_key (key -> entries by version), keys }
function M.load(dir)
  return parse(dir or default_dir())
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
    loaded = parse(dir_in_use or default_dir())
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
    return parse(dir)
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
