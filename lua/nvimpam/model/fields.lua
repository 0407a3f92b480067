-- The field checks of docs/CARDS.md ("What is an error"), on the rows of cards with an entry.
--
-- Two forms: status() says whether one field of a row is fine, an error or a warning, without
-- building a message (the decoration provider asks it per field shown), and line_diagnostics()
-- gives a row's diagnostics with their messages (the cell hint, check_lines() and the lenient
-- rule). Columns are byte columns, as the solver reads them; a trailing CR is not part of a line.
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
-- - GES lines and the lines of `block` rows have no fields, but their tabs and text past
--   column 80 are errors as on any other row;
-- - a line no row takes (the prologue, a card without an entry, an extra line) has its first tab
--   anywhere, and is checked for the shape of a card header (free_line());
-- - a deck older than every layout of a card: each layout walks the card on its own; the oldest
--   layout's errors stay where every other layout finds an error overlapping them on that line.
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

local function value(line, from, to)
  return match(sub(line, from, to), '^ *(.-) *$')
end

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
local first_tab = M.tab

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

local function message(e, row, j, reason, line)
  local f = row.fields[j]
  return format('%s / %s: "%s" %s', e.word, f.name, value(line, f.from, f.to), M.reason_text(row, j, reason))
end

-- Sorts out[first..] by column, then message: the order a line's diagnostics are shown in.
local function sort_from(out, first)
  if #out > first then
    local tail = {}
    for k = first, #out do
      tail[#tail + 1] = out[k]
    end
    table.sort(tail, function(a, b)
      if a.col ~= b.col then
        return a.col < b.col
      end
      return a.message < b.message
    end)
    for k = 1, #tail do
      out[first + k - 1] = tail[k]
    end
  end
end

-- Appends the diagnostics of `line` as row r of entry e (r nil: a GES line of e) to `out`.
local function diagnose(line, e, r, lnum, out)
  local row = r and e.rows[r]
  line = M.strip_cr(line)
  local len = #line
  local first = #out + 1
  if row then
    for j = 1, row.n do
      if row.from[j] > len then
        break
      end
      local sev, reason = status(line, row, j)
      if sev ~= 0 then
        local to = row.to[j]
        out[#out + 1] = { lnum = lnum, col = row.from[j] - 1, end_col = to < len and to or len, severity = sev,
          message = message(e, row, j, reason, line) }
      end
    end
  end
  local t = first_tab(line)
  if t then
    local j = row and field_at(row, t)
    out[#out + 1] = { lnum = lnum, col = t - 1, end_col = t, severity = 1,
      message = j and format('%s / %s: tab in column %d', e.word, row.fields[j].name, t)
        or format('%s: tab in column %d', e.word, t) }
  end
  local p, q = past80(line, row)
  if p then
    local text = match(sub(line, p, q), '^(.-) *$')
    if #text > 20 then
      text = sub(text, 1, 20) .. '...'
    end
    out[#out + 1] = { lnum = lnum, col = p - 1, end_col = q, severity = 1,
      message = format('%s: text past column 80: "%s"', e.word, text) }
  end
  sort_from(out, first)
end

-- Appends the diagnostics of a key row's value line (row r of entry e) to `out`: its
-- blank-separated values in columns 1-80, the k-th checked as the row's k-th field (values past
-- the row's fields are not checked), then its first tab and its text past column 80.
local function diagnose_values(line, e, r, lnum, out)
  local row = e.rows[r]
  line = M.strip_cr(line)
  local head = sub(line, 1, 80)
  local first = #out + 1
  local j, from = 1, find(head, '[^ ]')
  while from and j <= row.n do
    local to = (find(head, ' ', from, true) or #head + 1) - 1
    local v = sub(head, from, to)
    local ok = (row.type[j] == FLOAT and is_float or is_integer)(v)
    if not ok then
      out[#out + 1] = { lnum = lnum, col = from - 1, end_col = to, severity = 1,
        message = format('%s / %s: "%s" %s', e.word, row.fields[j].name, v, row.type[j] == FLOAT and
          'is not a number' or 'is not an integer') }
    end
    j, from = j + 1, find(head, '[^ ]', to + 1)
  end
  diagnose(line, e, nil, lnum, out) -- the tab and the text past column 80, as on a GES line
  sort_from(out, first)
end

--- The diagnostics of one line of a card: `line`, which the row walk gave to row r of entry e (r
--- nil for a GES selection or END line), as line `lnum` (0-based): appended to `out` as { lnum,
--- col, end_col (0-based bytes, end exclusive), severity, message }, sorted by column, then
--- message.
---@param line string
---@param e table the entry
---@param r integer|nil the row number
---@param lnum integer
---@param out? table
---@param values? boolean the line is a key row's value line (the walk's rows.VALUES)
---@return table[] out
function M.line_diagnostics(line, e, r, lnum, out, values)
  out = out or {}
  if values then
    diagnose_values(line, e, r, lnum, out)
  else
    diagnose(line, e, r, lnum, out)
  end
  return out
end

-- The length of the word [A-Z][A-Z0-9_]* a line starts with (0: none).
local function word_length(line)
  local _, e = find(line, '^[A-Z][A-Z0-9_]*')
  return e or 0
end

local function known(word)
  return layout.get().by_key[word] ~= nil
end

--- Where `line` (without a final CR), a line no row takes, looks like a card header line
--- (FOLDS.md §3) but is none: the column (1-based) of a `/` after its word, when that is not in
--- column 7 or not followed by a blank; 0 for a known keyword followed by blanks through column 8
--- and more text, no `/` (on an `extra` line of a card only: elsewhere such lines are control
--- lines or rows the table does not describe); nil otherwise.
---@param line string
---@param extra boolean
---@return integer|nil
function M.header_shape(line, extra)
  local w = word_length(line)
  if w == 0 then
    return nil
  end
  local k = find(line, '[^ \t]', w + 1)
  if k and byte(line, k) == 47 then
    if layout.header_word(line) then
      return nil
    end
    return k
  end
  if not extra or #line <= 8 or not known(sub(line, 1, w)) or find(sub(line, w + 1, 8), '[^ ]') then
    return nil
  end
  return 0
end
local header_shape = M.header_shape

-- Whether a line goes on on the next one (column 81 holds & or -), as INCLU names do.
local function continued(line)
  if not line then
    return false
  end
  line = M.strip_cr(line)
  local b = byte(line, 81)
  return #line > 80 and (b == 38 or b == 45)
end

-- Appends the problems of L[i], a line no row takes (not a comment), to `out`: an extra line of
-- the card of entry e (`extra`), or a line of no card with an entry (e nil). A header shape of a
-- known keyword is a warning, of a word the table does not know (the solver may) a hint; a
-- continuation line is no header. Then the line's first tab, anywhere.
local function free_line(L, i, e, extra, lnum, out)
  local line = M.strip_cr(L[i])
  local slash = header_shape(line, extra)
  if slash and not continued(L[i - 1]) then
    local word = sub(line, 1, word_length(line))
    local end_col = slash > 0 and slash or math.min(#line, 8)
    if known(word) then
      out[#out + 1] = { lnum = lnum, col = 0, end_col = end_col, severity = M.WARN,
        message = format('%s header: "/" must be in column 7, a blank after it: "%s/ "', word,
          word .. string.rep(' ', 6 - #word)) }
    else
      out[#out + 1] = { lnum = lnum, col = 0, end_col = end_col, severity = M.HINT,
        message = format('%s: not a card header: "/" must be in column 7, a blank after it', word) }
    end
  end
  local t = find(line, '\t', 1, true)
  if t then
    out[#out + 1] = { lnum = lnum, col = t - 1, end_col = t, severity = M.ERROR,
      message = e and format('%s: tab in column %d', e.word, t) or format('tab in column %d', t) }
  end
end

local ROW, GES, GES_END, EXTRA, KEYWORD, VALUES = 5, 3, 4, 2, 6, 7
local scratch = { {}, {}, {} }

-- The diagnostics of the card whose header is L[h], walked as entry e, lines lnum0 + index - 1.
local function card_diagnostics(L, h, last, e, lnum0, out)
  local rows = require('nvimpam.model.rows')
  local kind, ent, rowi = scratch[1], scratch[2], scratch[3]
  local nxt = rows.walk_card(L, h, last, e, kind, ent, rowi)
  local opaque = require('nvimpam.model.layout').opaque_body(e)
  for i = h, nxt - 1 do
    local k = kind[i]
    if k == ROW then
      diagnose(L[i], e, rowi[i], lnum0 + i - 1, out)
    elseif k == GES or k == GES_END or k == KEYWORD then
      diagnose(L[i], e, nil, lnum0 + i - 1, out)
    elseif k == VALUES then
      diagnose_values(L[i], e, rowi[i], lnum0 + i - 1, out)
    elseif k == EXTRA and not opaque then
      free_line(L, i, e, true, lnum0 + i - 1, out)
    end
  end
  return nxt
end

local function overlaps_error(d, list)
  for _, o in ipairs(list) do
    if o.lnum == d.lnum and o.severity == 1 and o.col < d.end_col and d.col < o.end_col then
      return true
    end
  end
  return false
end

--- The diagnostics of the card whose header line is L[h] (its lines up to the next card header
--- line, at most L[last]), for a deck of `version`: appended to `out`, with lnum = lnum0 + index
--- - 1. For a deck older than every layout of the card, only the oldest layout's errors that
--- every other layout agrees on. Returns the index of the line after the card (the next card
--- header line, or last + 1), or nil when the card has no entry.
---@param L string[]
---@param h integer
---@param last integer
---@param version integer|nil
---@param lnum0 integer
---@param out table
---@return integer|nil
function M.card(L, h, last, version, lnum0, out)
  local e, older = layout.lookup(L[h], version)
  if not e then
    return nil
  end
  if not older then
    return card_diagnostics(L, h, last, e, lnum0, out)
  end
  local all = layout.all(e.key)
  local lists, nxt = {}, nil
  for v = 1, math.min(#all, 8) do
    lists[v] = {}
    nxt = card_diagnostics(L, h, last, all[v], lnum0, lists[v])
  end
  for _, d in ipairs(lists[1]) do
    if d.severity == 1 then
      local everywhere = true
      for v = 2, #lists do
        if not overlaps_error(d, lists[v]) then
          everywhere = false
          break
        end
      end
      if everywhere then
        out[#out + 1] = d
      end
    end
  end
  return nxt
end

local function sort(list)
  table.sort(list, function(a, b)
    if a.lnum ~= b.lnum then
      return a.lnum < b.lnum
    elseif a.col ~= b.col then
      return a.col < b.col
    end
    return a.message < b.message
  end)
  return list
end
M.sort = sort

--- Every diagnostic of a list of lines (of rows, GES lines, and lines no row takes), the first being the first line of a deck of `version`
--- (nil: the newest layouts), sorted by lnum, col, then message.
---@param lines string[]
---@param version? integer
---@return table[]
function M.check_lines(lines, version)
  if version == vim.NIL then
    version = nil
  end
  local out = {}
  local n = #lines
  local i = 1
  while i <= n do
    local line = lines[i]
    local b = byte(line, 1)
    if b == 36 or b == 35 then
      i = i + 1
    else
      local nxt = layout.header_word(line) and M.card(lines, i, n, version, 0, out)
      if nxt then
        i = nxt
      else -- the prologue, a card without an entry
        free_line(lines, i, nil, false, i - 1, out)
        i = i + 1
      end
    end
  end
  return sort(out)
end

return M
