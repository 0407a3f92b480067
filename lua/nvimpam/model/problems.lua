-- The diagnostics of lines and cards (docs/CARDS.md, "What is an error"), with their messages: a
-- row's (the cell hint, the lenient rule), a card's, a list of lines' (check_lines(), which
-- ContractIT compares with the JVM's DeckProblems). The check of one field is
-- nvimpam.model.fields'; its readings of CARDS.md hold here too, and these:
-- - GES lines and the lines of `block` rows have no fields, but their tabs and text past
--   column 80 are errors as on any other row;
-- - a line no row takes (the prologue, a card without an entry, an extra line) has its first tab
--   anywhere, and is checked for the shape of a card header (free_line());
-- - a deck older than every layout of a card: each layout walks the card on its own; the oldest
--   layout's errors stay where every other layout finds an error overlapping them on that line.
local M = {}

local layout = require('nvimpam.model.layout')
local rows = require('nvimpam.model.rows')
local fields = require('nvimpam.model.fields')

local byte, sub, find, match, format = string.byte, string.sub, string.find, string.match, string.format
local FLOAT = layout.FLOAT
local status, first_tab, field_at, past80, value = fields.status, fields.tab, fields.field_at, fields.past80, fields.value
local is_float, is_integer, strip_cr = fields.is_float, fields.is_integer, fields.strip_cr
local ERROR, WARN, HINT = fields.ERROR, fields.WARN, fields.HINT

local function message(e, row, j, reason, line)
  local f = row.fields[j]
  return format('%s / %s: "%s" %s', e.word, f.name, value(line, f.from, f.to), fields.reason_text(row, j, reason))
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
  line = strip_cr(line)
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
  line = strip_cr(line)
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
  line = strip_cr(line)
  local b = byte(line, 81)
  return #line > 80 and (b == 38 or b == 45)
end

-- Appends the problems of L[i], a line no row takes (not a comment), to `out`: an extra line of
-- the card of entry e (`extra`), or a line of no card with an entry (e nil). A header shape of a
-- known keyword is a warning, of a word the table does not know (the solver may) a hint; a
-- continuation line is no header. Then the line's first tab, anywhere.
local function free_line(L, i, e, extra, lnum, out)
  local line = strip_cr(L[i])
  local slash = header_shape(line, extra)
  if slash and not continued(L[i - 1]) then
    local word = sub(line, 1, word_length(line))
    local end_col = slash > 0 and slash or math.min(#line, 8)
    if known(word) then
      out[#out + 1] = { lnum = lnum, col = 0, end_col = end_col, severity = WARN,
        message = format('%s header: "/" must be in column 7, a blank after it: "%s/ "', word,
          word .. string.rep(' ', 6 - #word)) }
    else
      out[#out + 1] = { lnum = lnum, col = 0, end_col = end_col, severity = HINT,
        message = format('%s: not a card header: "/" must be in column 7, a blank after it', word) }
    end
  end
  local t = find(line, '\t', 1, true)
  if t then
    out[#out + 1] = { lnum = lnum, col = t - 1, end_col = t, severity = ERROR,
      message = e and format('%s: tab in column %d', e.word, t) or format('tab in column %d', t) }
  end
end

local ROW, GES, GES_END, EXTRA, KEYWORD, VALUES = 5, 3, 4, 2, 6, 7
local scratch = { {}, {}, {} }

-- The diagnostics of the card whose header is L[h], walked as entry e, lines lnum0 + index - 1.
local function card_diagnostics(L, h, last, e, lnum0, out)
  local kind, ent, rowi = scratch[1], scratch[2], scratch[3]
  local nxt = rows.walk_card(L, h, last, e, kind, ent, rowi)
  local opaque = layout.opaque_body(e)
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

--- Every diagnostic of a list of lines (of rows, GES lines, and lines no row takes), the first
--- being the first line of a deck of `version` (nil: the newest layouts), sorted by lnum, col,
--- then message.
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
