-- The field checks of docs/CARDS.md ("What is an error"), on the rows of cards with an entry:
-- status() says whether one field of a row is fine, an error or a warning, without building a
-- message (the decoration provider asks it per field shown); the diagnostics with their messages,
-- of a row, a card or a list of lines, are nvimpam.model.problems'. Columns are byte columns, as
-- the solver reads them; a trailing CR is not part of a line.
--
-- Readings where CARDS.md leaves a choice (the JVM's DeckProblems reads them alike):
-- - the blanks around a value are spaces; a tab is text (and an error of its own);
-- - one tab diagnostic per line, for its first tab in columns 1-80 (past 80 it is text there);
-- - text past column 80 is covered up to the end of the line;
-- - "runs into" applies to an int, int_or_blank or float field followed at once (no gap) by
--   another such field;
-- - the letter-less exponent (`1.5-3`) needs a digit before its sign and one after it;
-- - a parameter is `<...>`, `[...]` or `{...}` without its own pair of brackets inside, and is
--   valid in int, float and flags fields;
local M = {}

local layout = require('nvimpam.model.layout')

local byte, sub, find, match, format = string.byte, string.sub, string.find, string.match, string.format
local KW, FIXED, INT, INT_OR_BLANK, FLOAT, STR, BLANK, FLAGS, CHOICE, CONT = layout.KW, layout.FIXED, layout.INT,
  layout.INT_OR_BLANK, layout.FLOAT, layout.STR, layout.BLANK, layout.FLAGS, layout.CHOICE, layout.CONT

--- Severities, as vim.diagnostic numbers them.
M.OK, M.ERROR, M.WARN, M.HINT = 0, 1, 2, 4

--- Reasons (the second value of status()).
M.R_INT, M.R_FLOAT, M.R_FLAGS, M.R_CHOICE, M.R_CONT, M.R_RUNS, M.R_BLANK = 1, 2, 3, 4, 5, 6, 7
local R_INT, R_FLOAT, R_FLAGS, R_CHOICE, R_CONT, R_RUNS, R_BLANK = 1, 2, 3, 4, 5, 6, 7
local NUMERIC = { [INT] = true, [INT_OR_BLANK] = true, [FLOAT] = true }

local function is_param(s)
  return find(s, '^<[^<>]*>$') ~= nil or find(s, '^%[[^%[%]]*%]$') ~= nil or find(s, '^{[^{}]*}$') ~= nil
end
M.is_param = is_param

--- Whether `s` (trimmed, not empty) is an integer: an optional sign and digits, or a parameter.
---@param s string
---@return boolean
function M.is_integer(s)
  return find(s, '^[+-]?%d+$') ~= nil or is_param(s)
end
local is_integer = M.is_integer

--- Whether `s` (trimmed, not empty) is a float form of CARDS.md, or a parameter: the mantissa
--- `[+-]? digits* .? digits*`, then nothing, or `[eEdD] [+-]? digits*`, or (after a mantissa
--- with a digit) `[+-] digits+`.
---@param s string
---@return boolean
function M.is_float(s)
  local p = match(s, '^[+-]?%d*%.?%d*()')
  if p > #s then
    return true
  end
  local c = byte(s, p)
  if c == 101 or c == 69 or c == 100 or c == 68 then -- e E d D
    return find(s, '^[+-]?%d*$', p + 1) ~= nil
  elseif (c == 43 or c == 45) and find(sub(s, 1, p - 1), '%d') then -- + -
    return find(s, '^%d+$', p + 1) ~= nil
  end
  return is_param(s)
end
local is_float = M.is_float

local function blank_at(line, col)
  local b = byte(line, col)
  return b == nil or b == 32
end

--- The text of columns from..to of `line`, without the blanks around it.
---@param line string
---@param from integer
---@param to integer
---@return string
function M.value(line, from, to)
  return match(sub(line, from, to), '^ *(.-) *$')
end
local value = M.value

--- The line without a final CR (the solver's view of a CRLF line).
---@param line string
---@return string
function M.strip_cr(line)
  if byte(line, -1) == 13 then
    return sub(line, 1, -2)
  end
  return line
end

--- Whether field j of `row` is fine on `line` (a line the row walk gave to that row): M.OK, or
--- M.ERROR / M.WARN with the reason (M.R_INT ...). Tabs and text past column 80 are not field
--- states: tabs() and past80() find them.
---@param line string
---@param row table a row of a layout entry
---@param j integer the field's index in the row
---@return integer severity
---@return integer|nil reason
function M.status(line, row, j)
  local from, to, code = row.from[j], row.to[j], row.type[j]
  if code == KW or code == FIXED or code == STR then
    return 0
  end
  local p = find(line, '[^ ]', from)
  if not p or p > to then
    return 0 -- blank: every type reads it
  end
  if code == BLANK then
    return 2, R_BLANK
  end
  if code == FLOAT then
    -- Fast path, no string made: a right-aligned number fills its field up to its last column
    -- with mantissa characters, and every prefix of a mantissa is a float form.
    local _, e = find(line, '^ *[+-]?%d*%.?%d*', from)
    if e < to and not is_float(value(line, from, to)) then
      return 1, R_FLOAT
    end
  elseif code == INT or code == INT_OR_BLANK then
    local _, e = find(line, '^ *[+-]?%d*', from)
    if not (e >= to and find(line, '^%d', to)) and not is_integer(value(line, from, to)) then
      return 1, R_INT
    end
  else
    local v = value(line, from, to)
    if code == FLAGS then
      if not find(v, '^[01]+$') and not is_param(v) then
        return 1, R_FLAGS
      end
      return 0
    elseif code == CHOICE then
      if not row.fields[j].value_set[v] then
        return 1, R_CHOICE
      end
      return 0
    elseif code == CONT then
      if v ~= '&' and v ~= '-' then
        return 1, R_CONT
      end
      return 0
    end
  end
  -- A number: does it run into the next field, a number right after it?
  local nf = row.from[j + 1]
  if nf == to + 1 and NUMERIC[row.type[j + 1]] and not blank_at(line, to) and not blank_at(line, nf)
    and blank_at(line, row.to[j + 1]) then
    return 1, R_RUNS
  end
  return 0
end
local status = M.status

--- Text past column 80 that the row does not allow (a `&` in column 81 is allowed where the row
--- has a `cont` field, which checks that column): its first column (1-based, the first non-blank
--- from column 81 or 82 on) and the line's last column; or nil. `row` nil: a GES line.
---@param line string
---@param row? table
---@return integer|nil first
---@return integer|nil last
function M.past80(line, row)
  local len = #line
  if len <= 80 then
    return nil
  end
  local start = 81
  if row and row.n > 0 and row.type[row.n] == CONT then
    start = 82
  end
  local p = find(line, '[^ ]', start)
  if not p then
    return nil
  end
  return p, len
end
local past80 = M.past80

--- The first tab in columns 1-80 (1-based), or nil.
---@param line string
---@return integer|nil
function M.tab(line)
  local t = find(line, '\t', 1, true)
  if t and t <= 80 then
    return t
  end
  return nil
end

--- The index of the field of `row` that holds column `col` (1-based), or nil.
---@param row table
---@param col integer
---@return integer|nil
function M.field_at(row, col)
  local from, to = row.from, row.to
  for j = 1, row.n do
    if col < from[j] then
      return nil
    elseif col <= to[j] then
      return j
    end
  end
  return nil
end
local field_at = M.field_at

--- What is wrong with the value of field j of `row`, as the diagnostics say it after the value
--- (`is not an integer`), for a reason of status().
---@param row table
---@param j integer
---@param reason integer
---@return string
function M.reason_text(row, j, reason)
  local f = row.fields[j]
  if reason == R_INT then
    return 'is not an integer'
  elseif reason == R_FLOAT then
    return 'is not a number'
  elseif reason == R_FLAGS then
    return 'is not a string of 0 and 1'
  elseif reason == R_CHOICE then
    return 'is not one of ' .. table.concat(f.values, ', ')
  elseif reason == R_CONT then
    return 'is not a continuation mark (& or -)'
  elseif reason == R_RUNS then
    return 'runs into ' .. row.fields[j + 1].name
  end
  return format('in columns %d-%d, which this layout leaves blank', f.from, f.to)
end

return M
