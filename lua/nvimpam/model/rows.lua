-- The row walk of docs/CARDS.md ("Walking a card's rows"): which row of which card each line is.
--
-- Two forms: classify_lines() for a list of lines (the contract test against the JVM), and
-- range() for buffer lines [top, bot), which is what the decoration provider and the cell hint
-- use. range() finds the card that holds `top` by a bounded walk back to the nearest card header
-- line (every card header line ends the card before it, so that line starts the card that holds
-- `top`, or `top` is in no card), fetching the lines above in growing chunks, one
-- nvim_buf_get_lines per chunk; then it walks forward from that header. Its work depends on the
-- lines shown and on the length of the one card they start in, never on the deck.
--
-- Two readings where CARDS.md leaves a choice (the simplest one, applied everywhere):
-- - a card header line ends the card before it wherever the walk is: also inside a `repeat`, a
--   `ges` or a `block` row (as the fold engine stops at known keyword lines);
-- - the END_PART line of rule 3 is also found after the last row (among what would be extra
--   lines), when the card's `end END_PART` row took nothing.
local M = {}

local layout = require('nvimpam.model.layout')

local api = vim.api
local byte, sub, find, match = string.byte, string.sub, string.find, string.match

--- Line kinds (range().kind[i]).
M.COMMENT, M.NONE, M.EXTRA, M.GES, M.GES_END, M.ROW, M.KEYWORD, M.VALUES = 0, 1, 2, 3, 4, 5, 6, 7
local COMMENT, NONE, EXTRA, GES, GES_END, ROW, KEYWORD, VALUES = 0, 1, 2, 3, 4, 5, 6, 7
local K_ROW, K_NAME, K_IF, K_REPEAT, K_GES, K_BLOCK, K_END = layout.ROW, layout.NAME, layout.IF, layout.REPEAT,
  layout.GES, layout.BLOCK, layout.END
local K_WHEN, K_UNTIL, K_KEY = layout.WHEN, layout.UNTIL, layout.KEY

--- How many lines a walk back reads at most before it gives up on finding the card's header (the
--- lines shown are then classified by their own shape only: comments and GES lines).
M.WALK_CAP = 4096

-- GES selection words (FOLDS.md §5.3), each followed by a blank; END_MOD needs nothing after it.
local SELECTION = {}
for _, w in ipairs({ 'ELE', 'GRP', 'NOD', 'EDG', 'MOD', 'SEG', 'OGRP', 'DELNOD', 'DELELE', 'DELELE>NOD',
  'DELGRP', 'DELGRP>NOD', 'DELPART', 'DELPART>NOD', 'ELE>NOD', 'GRP>NOD', 'PART', 'PART>NOD' }) do
  SELECTION[w] = true
end
local EIGHT = '        '

--- Whether `line` is a GES selection line: 8 blanks, then a selection word.
---@param line string
---@return boolean
function M.is_selection(line)
  if sub(line, 1, 8) ~= EIGHT then
    return false
  end
  local w, after = match(line, '^([%u_>]+)()', 9)
  if not w then
    return false
  end
  if byte(line, after) == 32 and SELECTION[w] then
    return true
  end
  return sub(line, 9, 15) == 'END_MOD'
end
local is_selection = M.is_selection

--- Whether `line` is a GES END line: 8 blanks, `END`, then only blanks, tabs or CRs.
---@param line string
---@return boolean
function M.is_end(line)
  return sub(line, 1, 11) == '        END' and find(line, '^[ \t\r]*$', 12) ~= nil
end
local is_end = M.is_end

--- The byte length of the GES selection word (or END) of a `ges`/`ges_end` line, from column 9.
---@param line string
---@return integer
function M.ges_word_len(line)
  local w = match(line, '^[%u_>]+', 9)
  return w and #w or 0
end

local header_word = layout.header_word

local function starts(line, word)
  return sub(line, 1, #word) == word
end

-- Whether `line`, its leading blanks left out, starts with `word` followed by a blank or its end
-- (one final CR is no part of a line): `when` and `until` rows.
local function starts_word(line, word)
  local s = find(line, '[^ ]') or #line + 1
  if sub(line, s, s + #word - 1) ~= word then
    return false
  end
  local j = s + #word
  local c = sub(line, j, j)
  return c == '' or c == ' ' or (c == '\r' and j == #line)
end

-- The integer of an `int` field's text, or nil.
local function integer(text)
  if find(text, '^[+-]?%d+$') then
    return tonumber(text)
  end
  return nil
end

-- State of one card's walk, reused (a walk never nests).
local took = {} -- row number -> index of the last line that row took

-- The line an `if` or `repeat` row's field was read from, without a final CR (nil when that
-- field's row took no line), and the field's columns.
local function named_line(L, rows, rn, fi)
  local at = took[rn]
  if not at then
    return nil
  end
  local l = L[at]
  if byte(l, #l) == 13 then
    l = sub(l, 1, -2)
  end
  local src = rows[rn]
  return l, src.from[fi], src.to[fi]
end

-- The number FOLDS.md §5.2 reads in columns from..to: the first run of digits there (signs and
-- anything else before it ignored), or nil. The fold engine reads a card's flags and counts this
-- way, so rows and folds agree.
local function number(l, from, to)
  local d = match(sub(l, from, to), '%d+')
  if not d then
    return nil
  end
  return math.min(tonumber(d), 2147483647)
end

--- Whether an `if` row's condition holds on `line` (without a final CR), the line its field's
--- row took: the field has one of the row's values (FIELD:V1,V2), or none of them (FIELD!V1,V2).
--- An int field's number (FOLDS.md §5.2: a blank field has none, which never equals) is
--- compared, other fields compare their trimmed text. Templates build their rows with it.
---@param row table the `if` row
---@param line string
---@param from integer the field's first column
---@param to integer its last column
---@return boolean
function M.condition_holds(row, line, from, to)
  local have
  if row.cond_numeric then
    have = number(line, from, to)
  else
    have = match(sub(line, from, to), '^ *(.-) *$')
  end
  for _, v in ipairs(row.cond_values) do
    local want = v
    if row.cond_numeric then
      want = integer(v)
      want = want and want >= 0 and want or false
    end
    if have == want then
      return not row.cond_negated
    end
  end
  return row.cond_negated
end

--- The lines a `repeat` row takes when its field is columns from..to of `line`: the number
--- FOLDS.md §5.2 reads there, or 0.
---@param line string
---@param from integer
---@param to integer
---@return integer
function M.repeat_count(line, from, to)
  return number(line, from, to) or 0
end

local function holds(L, rows, row)
  local l, from, to = named_line(L, rows, row.cond_row, row.cond_index)
  return l ~= nil and M.condition_holds(row, l, from, to)
end

local function count(L, rows, row)
  local l, from, to = named_line(L, rows, row.count_row, row.count_index)
  return l and M.repeat_count(l, from, to) or 0
end

--- Walks the card whose header is L[h] as entry e lays it out, over L[h..last]; fills kind, ent
--- and rowi for those lines (as range() describes them); returns the index of the next card
--- header line (or last + 1).
---@param L string[]
---@param h integer
---@param last integer
---@param e table
---@param kind integer[]
---@param ent table[]
---@param rowi integer[]
---@return integer
function M.walk_card(L, h, last, e, kind, ent, rowi)
  kind[h], ent[h], rowi[h] = ROW, e, 1
  local rows = e.rows
  local nrows = #rows
  for k = 1, nrows do
    took[k] = nil
  end
  took[1] = h
  local end_word, end_row = e.end_word, e.end_row
  local end_len = end_word and #end_word or 0
  local r, i, rep, inblock, ended, end_taken = 2, h + 1, nil, false, false, false
  local values_of = nil -- the key row whose keyword line came last: the next line is its value line
  while i <= last do
    local line = L[i]
    local b = byte(line, 1)
    if b == 36 or b == 35 then
      kind[i], ent[i], rowi[i] = COMMENT, nil, nil
      i = i + 1
    elseif header_word(line) then
      return i
    elseif end_word and not end_taken and sub(line, 1, end_len) == end_word then
      -- The card's end word (END_PART) is its end row wherever the walk is (CARDS.md step 3).
      kind[i], ent[i], rowi[i] = ROW, e, end_row
      took[end_row] = i
      ended, end_taken = true, true
      i = i + 1
    elseif ended or r > nrows then
      kind[i], ent[i], rowi[i] = EXTRA, e, nil
      i = i + 1
    else
      local row = rows[r]
      local k = row.kind
      if k == K_ROW or k == K_NAME then
        kind[i], ent[i], rowi[i] = ROW, e, r
        took[r] = i
        i, r = i + 1, r + 1
      elseif k == K_IF then
        if holds(L, rows, row) then
          kind[i], ent[i], rowi[i] = ROW, e, r
          took[r] = i
          i = i + 1
        end
        r = r + 1
      elseif k == K_REPEAT then
        if rep == nil then
          rep = count(L, rows, row)
        end
        if rep > 0 then
          kind[i], ent[i], rowi[i] = ROW, e, r
          took[r] = i
          i, rep = i + 1, rep - 1
        end
        if rep == 0 then
          rep, r = nil, r + 1
        end
      elseif k == K_GES then
        if is_selection(line) then
          kind[i], ent[i], rowi[i] = GES, e, r
          i = i + 1
        else
          if is_end(line) then
            kind[i], ent[i], rowi[i] = GES_END, e, r
            i = i + 1
          end
          r = r + 1
        end
      elseif k == K_BLOCK then
        if inblock or starts(line, row.start_word) then
          local closes = inblock and starts(line, row.end_word)
          inblock = not closes
          kind[i], ent[i], rowi[i] = ROW, e, r
          took[r] = i
          i = i + 1
          if closes then
            r = r + 1
          end
        else
          r = r + 1
        end
      elseif k == K_WHEN then
        if starts_word(line, row.word) then
          kind[i], ent[i], rowi[i] = ROW, e, r
          took[r] = i
          i = i + 1
        end
        r = r + 1
      elseif k == K_UNTIL then
        if starts_word(line, row.word) then
          -- the word's line ends the row's lines, as a GES's END line does
          kind[i], ent[i], rowi[i] = GES_END, e, r
          i, r = i + 1, r + 1
        else
          kind[i], ent[i], rowi[i] = ROW, e, r
          took[r] = i
          i = i + 1
        end
      elseif k == K_KEY then
        -- a run of key rows: each optional, in any order, each keyword line followed by its value
        -- line (unless that line is a keyword line of the run too); r stays at the run's first row
        local m = r
        while m <= nrows and rows[m].kind == K_KEY and not starts_word(line, rows[m].word) do
          m = m + 1
        end
        if m <= nrows and rows[m].kind == K_KEY then
          kind[i], ent[i], rowi[i] = KEYWORD, e, m
          took[m], values_of, i = i, m, i + 1
        elseif values_of then
          kind[i], ent[i], rowi[i] = VALUES, e, values_of
          took[values_of], values_of, i = i, nil, i + 1
        else
          while r <= nrows and rows[r].kind == K_KEY do
            r = r + 1
          end
        end
      else -- K_END, on a line without its word (step 3 takes those): the rows end here
        ended = true
      end
    end
  end
  return i
end
local walk_card = M.walk_card

-- Classifies L[first..last]. `mode`: NONE when L[first] is at the start of the buffer or a card
-- header line; nil when the lines above are unknown (a walk back that gave up): lines before the
-- first card header line then get their kind from their own shape.
local function walk(L, first, last, version, kind, ent, rowi, mode)
  local lookup = layout.lookup
  local i = first
  while i <= last do
    local line = L[i]
    local b = byte(line, 1)
    if b == 36 or b == 35 then
      kind[i], ent[i], rowi[i] = COMMENT, nil, nil
      i = i + 1
    elseif header_word(line) then
      mode = NONE
      local e = lookup(line, version)
      if e then
        i = walk_card(L, i, last, e, kind, ent, rowi)
      else
        kind[i], ent[i], rowi[i] = NONE, nil, nil
        i = i + 1
      end
    else
      local k = mode
      if k == nil then
        k = is_end(line) and GES_END or is_selection(line) and GES or NONE
      end
      kind[i], ent[i], rowi[i] = k, nil, nil
      i = i + 1
    end
  end
end

--- Classifies a list of lines, the first being the first line of a deck: per line its kind
--- (M.COMMENT .. M.ROW), its entry (for ROW, EXTRA, GES and GES_END lines) and its row number
--- (ROW, GES, GES_END, KEYWORD, VALUES).
---@param lines string[]
---@param version? integer
---@return integer[] kind
---@return table[] ent
---@return integer[] rowi
function M.classify(lines, version)
  if version == vim.NIL then
    version = nil
  end
  local kind, ent, rowi = {}, {}, {}
  walk(lines, 1, #lines, version, kind, ent, rowi, NONE)
  return kind, ent, rowi
end

--- Classifies a list of lines, the first being the first line of a deck: one string per line,
--- `comment`, `none` (in no card), `extra`, `ges`, `ges_end`, `keyword#N` and `values#N` (a key
--- row's keyword and value line), or `KEY@VERSION#N` (the entry's
--- key and version, N the 1-based index of the row among the card's expanded rows).
---@param lines string[]
---@param version? integer the deck's version (nil: the newest layouts)
---@return string[]
function M.classify_lines(lines, version)
  local kind, ent, rowi = M.classify(lines, version)
  local names = { [COMMENT] = 'comment', [NONE] = 'none', [EXTRA] = 'extra', [GES] = 'ges', [GES_END] = 'ges_end' }
  local out = {}
  for i = 1, #lines do
    local k = kind[i]
    if k == ROW then
      out[i] = ent[i].key .. '@' .. ent[i].version .. '#' .. rowi[i]
    elseif k == KEYWORD or k == VALUES then
      out[i] = (k == KEYWORD and 'keyword#' or 'values#') .. rowi[i]
    else
      out[i] = names[k]
    end
  end
  return out
end

--- Lines read by walks back, since the last reset (cells.stats() reports them).
M.walked = 0

--- Classifies buffer lines [top, bot) (0-based, bot exclusive), reading `lines` (those lines,
--- when the caller has them already) and the lines above `top` back to the card's header line.
--- Returns { top, bot, off, lines, kind, ent, rowi }: buffer line `row` is lines[row - top + off +
--- 1], and kind/ent/rowi are indexed the same way (kind: M.COMMENT .. M.VALUES; ent: the entry; rowi:
--- the row number, for ROW, GES and GES_END lines).
---@param buf integer
---@param top integer
---@param bot integer
---@param version? integer
---@param lines? string[]
---@return table
function M.range(buf, top, bot, version, lines)
  lines = lines or api.nvim_buf_get_lines(buf, top, bot, false)
  local L, off, mode = lines, 0, NONE
  local n = #lines
  if top > 0 and not (n > 0 and header_word(lines[1])) then
    -- Back to the nearest card header line above top.
    local chunks, starts_at, pos, size, walked, h = {}, {}, top, 16, 0, nil
    while pos > 0 and walked < M.WALK_CAP and not h do
      local s = math.max(0, pos - math.min(size, M.WALK_CAP - walked))
      local chunk = api.nvim_buf_get_lines(buf, s, pos, false)
      local c = #chunks + 1
      chunks[c], starts_at[c] = chunk, s
      for j = #chunk, 1, -1 do
        walked = walked + 1
        if byte(chunk[j], 7) == 47 and header_word(chunk[j]) then
          h = s + j - 1
          break
        end
      end
      pos, size = s, size * 4
    end
    M.walked = M.walked + walked
    if h or pos == 0 then
      -- L: the lines from the header (or the buffer's first line) to top, then the lines shown.
      local from = h or 0
      L = {}
      local m = 0
      for c = #chunks, 1, -1 do
        local chunk, s = chunks[c], starts_at[c]
        for j = math.max(1, from - s + 1), #chunk do
          m = m + 1
          L[m] = chunk[j]
        end
      end
      off = m
      for j = 1, n do
        L[m + j] = lines[j]
      end
    else
      mode = nil
    end
  end
  local kind, ent, rowi = {}, {}, {}
  walk(L, 1, #L, version, kind, ent, rowi, mode)
  return { top = top, bot = top + n, off = off, lines = L, kind = kind, ent = ent, rowi = rowi }
end

return M
