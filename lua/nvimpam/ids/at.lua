-- What id is under the cursor (:help nvimpam-navigation), found from the card-layout table
-- without any call: a field that defines or references an id, or an item of a GES line, as the
-- JVM's IdScanner reads them.
local M = {}

local layout = require('nvimpam.model.layout')
local rows = require('nvimpam.model.rows')
local fields = require('nvimpam.model.fields')
local version_of = require('nvimpam.model.version').of
local host = require('nvimpam.host')

local api = vim.api

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
--- The tokens of a GES line, as described above.
---@param line string
---@return table[]
function M.ges_tokens(line)
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

--- The row and field of byte column `col` (1-based) of line `row` (0-based) of `buf`:
--- { kind = 'row', entry, row, field, line } or { kind = 'ges', line }; nil elsewhere.
---@param buf integer
---@param row integer
---@param col integer
---@return table|nil
function M.field_at(buf, row, col)
  local ok = pcall(layout.get)
  if not ok then
    return nil
  end
  local version = version_of(buf)
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
  for _, k in ipairs(M.ges_tokens(line)) do
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
  local a = M.field_at(buf, row, col)
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

--- The id under the cursor of the current window; raises a `bad_argument` error value saying
--- why when there is none.
---@return table as M.at() returns it
function M.cursor()
  local at, why = M.at()
  if not at then
    error(host.error('bad_argument', 'nvimpam: ' .. why), 0)
  end
  return at
end

return M
