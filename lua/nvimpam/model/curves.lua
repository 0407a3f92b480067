-- FUNCT curves read through the card-layout table (the FUNCT's point rows, X and Y fields in pairs),
-- never by columns of their own; numbers read as the solver reads them. The JVM's
-- org.nvimpam.model.Curves reads them the same way (for the `plot` command); :NvimpamPlot draws
-- them (nvimpam.view.plot).
local M = {}

local fields = require('nvimpam.model.fields')
local layout = require('nvimpam.model.layout')
local rows = require('nvimpam.model.rows')

local format, sub, byte = string.format, string.sub, string.byte

-- The bytes of the numbers Lua's tonumber() reads as the solver does: digits . + - e E.
local NUMERIC = {}
for _, c in ipairs({ 43, 45, 46, 69, 101 }) do
  NUMERIC[c] = true
end
for c = 48, 57 do
  NUMERIC[c] = true
end

--- The number the solver reads in a float field's text (CARDS.md's float forms: `1.5`, `1.`,
--- `.5E3`, `1.5D-3`, `1.5-3` for 1.5E-3): a blank field reads 0 (a fixed-format read), a
--- parameter (`<NAME>`) or a text that is no float form gives nil.
---@param text string
---@return number|nil
function M.number(text)
  local a, b = 1, #text
  while byte(text, a) == 32 do
    a = a + 1
  end
  if a > b then
    return 0
  end
  while byte(text, b) == 32 do
    b = b - 1
  end
  local s = sub(text, a, b)
  -- The common forms (digits, a point, a sign, e or E), which Lua reads as they are; a redraw
  -- reads every value of the FUNCT, so no pattern here.
  local plain = true
  for k = a, b do
    local c = byte(text, k)
    if not NUMERIC[c] then
      plain = false
      break
    end
  end
  if plain then
    local v = tonumber(s)
    if v then
      return v
    end
  end
  if not fields.is_float(s) or fields.is_param(s) then
    return nil
  end
  local mant, rest = s:match('^([+-]?%d*%.?%d*)(.*)$')
  if not mant:find('%d') then
    return nil
  end
  local exp = rest:match('^[eEdD]([+-]?%d*)$') or rest:match('^([+-]%d+)$') or ''
  exp = tonumber(exp) or 0 -- an exponent letter with no digits: 10^0
  if mant:sub(-1) == '.' then
    mant = mant .. '0'
  end
  return tonumber(mant .. 'e' .. exp)
end

--- A curve's points as the solver uses them: x * SCALX + SHIFTX, y * SCALY + SHIFTY (scaled
--- first, then shifted; a scale factor of 0 or blank is 1). :help nvimpam-plot says why this order.
---@param c table { scalx, scaly, shiftx, shifty, points = { {x, y}, ... } }
---@return table[] the points, transformed
function M.transform(c)
  local sx = (c.scalx == nil or c.scalx == 0) and 1 or c.scalx
  local sy = (c.scaly == nil or c.scaly == 0) and 1 or c.scaly
  local dx, dy = c.shiftx or 0, c.shifty or 0
  local out = {}
  for i, p in ipairs(c.points) do
    out[i] = { p[1] * sx + dx, p[2] * sy + dy }
  end
  return out
end

-- Reading a FUNCT ----------------------------------------------------------------------------

local function field_index(row, name)
  for j, f in ipairs(row.fields) do
    if f.name == name then
      return j
    end
  end
  return nil
end

-- The fields of a row that are a point's X and Y (X and Y, X2 and Y2, ...): the index of each X,
-- found once per row of the table.
local pair_cache = setmetatable({}, { __mode = 'k' })
local function xy_pairs(row)
  local p = pair_cache[row]
  if not p then
    p = {}
    local fs = row.fields
    for j = 1, #fs - 1 do
      local x, y = fs[j].name, fs[j + 1].name
      if x:sub(1, 1) == 'X' and y:sub(1, 1) == 'Y' and x:sub(2) == y:sub(2) then
        p[#p + 1] = j
      end
    end
    pair_cache[row] = p
  end
  return p
end

local function text_of(line, f)
  return sub(line, f.from, f.to)
end

--- The curve of a FUNCT card from its lines classified (rows.classify, or span.card_at's card):
--- `lines[1]` is its header line. The header row's SCALX, SCALY, SHIFTX and SHIFTY, the NAME
--- row's title, and the points: every row after the header whose fields hold X..., Y... pairs
--- (the table's point rows), a pair per point. Values that are no number (a parameter) leave
--- their point out, counted in `skipped`.
---@param lines string[]
---@param kind integer[]
---@param ent table[]
---@param rowi integer[]
---@return table|nil curve { id, title, scalx, scaly, shiftx, shifty, points, skipped }
---@return string|nil why not
function M.read(lines, kind, ent, rowi)
  local e = ent[1]
  if not e or e.word ~= 'FUNCT' or kind[1] ~= rows.ROW then
    return nil, 'not a FUNCT card'
  end
  local head = e.rows[1]
  local c = { points = {}, skipped = 0, title = '' }
  local function head_value(name, default)
    local j = field_index(head, name)
    if not j then
      return default
    end
    local v = M.number(text_of(lines[1], head.fields[j]))
    if v == nil then
      c.problem = format('%s is no number', name)
      return default
    end
    return v
  end
  local idf = head.fields[field_index(head, 'IDFUN') or 0]
  c.id = idf and tonumber(text_of(lines[1], idf):match('^%s*%+?(%d+)%s*$')) or nil
  c.scalx, c.scaly = head_value('SCALX', 1), head_value('SCALY', 1)
  c.shiftx, c.shifty = head_value('SHIFTX', 0), head_value('SHIFTY', 0)
  for i = 2, #lines do
    if kind[i] == rows.ROW and ent[i] == e then
      local row = e.rows[rowi[i]]
      if row.kind == layout.NAME then
        local t = field_index(row, 'TITLE')
        c.title = t and text_of(lines[i], row.fields[t]):match('^%s*(.-)%s*$') or ''
      else
        local fs = row.fields
        for _, j in ipairs(xy_pairs(row)) do
          local x, y = M.number(text_of(lines[i], fs[j])), M.number(text_of(lines[i], fs[j + 1]))
          if x and y then
            c.points[#c.points + 1] = { x, y }
          else
            c.skipped = c.skipped + 1
          end
        end
      end
    end
  end
  return c
end

return M
