-- The parse of a card-layout table (docs/CARDS.md), in its steps: INDEX, the list of files; each
-- file line by line, each line handed to its step (a card line and the card's completion to
-- nvimpam.model.layout.card, row lines to .row, field lines to .field; fragments kept here for
-- `use`); then the entries grouped by key, and the variants checked against their base entry.
-- Raises "file:line: what" at the first malformed line.
local M = {}

local codes = require('nvimpam.model.layout.codes')
local card = require('nvimpam.model.layout.card')
local row = require('nvimpam.model.layout.row')
local field = require('nvimpam.model.layout.field')

local trim = codes.trim

-- Calls each(line) for every line of the file at `path` (p.file, p.line say where), and pause()
-- after each; false when there is no such file.
local function read_file(p, path, each, pause)
  local fh = io.open(path, 'r')
  if not fh then
    return false
  end
  p.file, p.line = path, 0
  for line in fh:lines() do
    p.line = p.line + 1
    each(line)
    pause()
  end
  fh:close()
  return true
end

-- The files INDEX lists, in its order: { name, line }.
local function read_index(p, dir, pause)
  local files = {}
  p.file = dir .. '/INDEX'
  if not read_file(p, dir .. '/INDEX', function(line)
    local name = trim(line)
    if name ~= '' and not name:match('^#') then
      files[#files + 1] = { name = name, line = p.line }
    end
  end, pause) then
    error(p.file .. ': no such file (the list of layout files)', 0)
  end
  return files
end

-- The words of a line before `|` (a `#` comment left out), and the description after it; nil for
-- a blank or comment line.
local function split(line)
  line = line:gsub('\r$', '')
  if line:match('^%s*#') or line:match('^%s*$') then
    return nil
  end
  local head, desc = line:match('^(.-)|(.*)$')
  if not head then
    head = line
  end
  head = head:gsub('%s#.*$', '')
  local toks = {}
  for t in head:gmatch('%S+') do
    toks[#toks + 1] = t
  end
  return toks, desc and trim(desc)
end

-- A `fragment NAME` line: the fragment is read next.
local function fragment_line(p, toks)
  card.finish(p, p.target)
  if not toks[2] or toks[3] then
    p.fail('a fragment line is fragment NAME')
  end
  if p.fragments[toks[2]] then
    p.fail('fragment %s is defined twice', toks[2])
  end
  p.target, p.row = { fragment = true, name = toks[2], rows = {} }, nil
  p.fragments[toks[2]] = p.target
end

-- A `use NAME` line: the fragment's rows go into the card, where the line is.
local function use_line(p, toks)
  if not p.target then
    p.fail('use outside a card')
  end
  if p.target.fragment then
    p.fail('fragment %s uses another fragment (no nesting)', p.target.name)
  end
  local fr = p.fragments[toks[2] or '']
  if not fr then
    p.fail('use of fragment "%s", which is not defined (before this line)', tostring(toks[2]))
  end
  if toks[3] then
    p.fail('unexpected "%s" in a use line', toks[3])
  end
  p.target.rows[#p.target.rows + 1] = { use = fr }
  p.row = nil
end

-- One line of a layout file, to its step.
local function read_line(p, line)
  local toks, desc = split(line)
  if not toks then
    return
  end
  if #toks == 0 then
    p.fail('a description without a line it belongs to')
  end
  local w = toks[1]
  if w == 'card' then
    card.finish(p, p.target)
    p.target, p.row = card.line(p, toks, desc), nil
  elseif w == 'fragment' then
    fragment_line(p, toks)
  elseif w == 'use' then
    use_line(p, toks)
  elseif w == 'row' or w == 'ges' or w == 'block' or w == 'end' then
    row.line(p, toks)
  elseif w:match('^%d') then
    field.line(p, toks, desc)
  else
    p.fail('unknown line "%s"', w)
  end
end

-- Per key, its entries by ascending version; variants need a base entry with select=.
local function by_key(p)
  local keyed, keys = {}, {}
  for _, e in ipairs(p.entries) do
    if not keyed[e.key] then
      keyed[e.key] = {}
      keys[#keys + 1] = e.key
    end
    table.insert(keyed[e.key], e)
  end
  for _, list in pairs(keyed) do
    table.sort(list, function(x, y)
      return x.version < y.version
    end)
  end
  for _, e in ipairs(p.entries) do
    if e.variant then
      local base = keyed[e.word]
      if not (base and base[1].select) then
        p.file, p.line = e.file, e.line
        p.fail('variant %s: no card %s with select=A-B (its oldest entry)', e.key, e.word)
      end
    end
  end
  return keyed, keys
end

--- Parses the table in `dir`. `pause` runs between two lines (a sliced parse yields there).
---@param dir string
---@param pause fun()
---@return table layout { dir, entries (table order), by_key (key -> entries by version), keys }
function M.run(dir, pause)
  -- The state the steps share: where the parse is (file, line), the entries done, the fragments,
  -- 'KEY@VERSION' -> where it was defined (seen), the card or fragment being read (target) and
  -- the row its field lines add to (row).
  local p = { entries = {}, fragments = {}, seen = {}, file = nil, line = 0, target = nil, row = nil }
  function p.fail(fmt, ...)
    error(string.format('%s:%d: ' .. fmt, p.file, p.line, ...), 0)
  end
  for _, f in ipairs(read_index(p, dir, pause)) do
    local ok = read_file(p, dir .. '/' .. f.name, function(line)
      read_line(p, line)
    end, pause)
    if not ok then
      p.file, p.line = dir .. '/INDEX', f.line
      p.fail('%s is listed but there is no such file', f.name)
    end
    card.finish(p, p.target)
    p.target, p.row = nil, nil
  end
  local keyed, keys = by_key(p)
  return { dir = dir, entries = p.entries, by_key = keyed, keys = keys }
end

return M
