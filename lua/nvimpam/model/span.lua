-- Where cards are in a buffer: the card that holds a line, the run of one-line cards around it,
-- the row of one line. What the writing commands (templates, field headers, alignment) and the
-- motions share. Lines are read in chunks, on demand: the work depends on the card (or run) at
-- hand, never on the deck.
local M = {}

local layout = require('nvimpam.model.layout')
local rows = require('nvimpam.model.rows')
local version_of = require('nvimpam.model.version').of

local api = vim.api
local byte, sub = string.byte, string.sub
local header_word = layout.header_word

local CHUNK = 512

--- A reader of buffer lines with a chunk cache: reader.get(i) is buffer line i (0-based) or nil.
---@param buf integer
---@return table reader { buf, n (line count), get = function(i): string|nil }
function M.reader(buf)
  local n = api.nvim_buf_line_count(buf)
  -- The last two chunks read (walks go forward or back from one place: a whole cache of a big
  -- deck's lines would only make work for the garbage collector).
  local c1, k1, c2, k2 = nil, -1, nil, -1
  local r = { buf = buf, n = n }
  function r.get(i)
    if i < 0 or i >= n then
      return nil
    end
    local c = (i - i % CHUNK) / CHUNK
    local chunk
    if c == k1 then
      chunk = c1
    elseif c == k2 then
      chunk = c2
    else
      chunk = api.nvim_buf_get_lines(buf, c * CHUNK, math.min(n, (c + 1) * CHUNK), false)
      c2, k2, c1, k1 = c1, k1, chunk, c
    end
    return chunk[i - c * CHUNK + 1]
  end
  return r
end

--- Whether `line` is a comment line (`$` or `#` in column 1).
---@param line string
---@return boolean
local function is_comment(line)
  local b = byte(line, 1)
  return b == 36 or b == 35
end
M.is_comment = is_comment

--- The deck version of a buffer (nvimpam.model.version; nil: the newest layouts).
---@param buf integer
---@return integer|nil
function M.version(buf)
  return version_of(buf)
end

--- The card that holds buffer line `lnum` (0-based), or nil when the line is in no card (before the
--- first card header line, or among the comment lines after a card's last line).
--- Returns { first, last (0-based, inclusive: the header line and the card's last non-comment
--- line), word, entry (nil for a card without one), lines (first..last), kind, ent, rowi (as
--- rows.classify gives them, indexed 1 = first) }.
---@param rd table a reader (M.reader)
---@param lnum integer
---@param version? integer
---@return table|nil
function M.card_at(rd, lnum, version)
  local h = lnum
  while h >= 0 do
    local l = rd.get(h)
    if l and header_word(l) then
      break
    end
    h = h - 1
  end
  if h < 0 then
    return nil
  end
  return M.card_from(rd, h, lnum, version)
end

--- The card whose header line is `h` (0-based), as card_at() gives it; nil when `upto` (default
--- h) is past its last line.
---@param rd table
---@param h integer
---@param upto? integer
---@param version? integer
---@return table|nil
function M.card_from(rd, h, upto, version)
  local lines = { rd.get(h) }
  local i = h + 1
  while i < rd.n do
    local l = rd.get(i)
    if header_word(l) then
      break
    end
    lines[#lines + 1] = l
    i = i + 1
  end
  local kind, ent, rowi = rows.classify(lines, version)
  -- The card ends at its last line that is not a comment (nor an empty extra line).
  local last = #lines
  while last > 1 and (kind[last] == rows.COMMENT or (kind[last] == rows.EXTRA and not lines[last]:find('%S'))) do
    lines[last], kind[last], ent[last], rowi[last] = nil, nil, nil, nil
    last = last - 1
  end
  if h + last - 1 < (upto or h) then
    return nil
  end
  return { first = h, last = h + last - 1, word = header_word(lines[1]), entry = ent[1], lines = lines,
    kind = kind, ent = ent, rowi = rowi }
end

--- The next card header line after line `i` (0-based), or nil.
---@param rd table a reader (M.reader)
---@param i integer
---@return integer|nil
local function next_header(rd, i)
  i = i + 1
  while i < rd.n do
    if header_word(rd.get(i)) then
      return i
    end
    i = i + 1
  end
  return nil
end
M.next_header = next_header

-- Whether the card whose header line is h takes one line: only comment lines up to the next
-- header line (the common case, read without a walk), or a walk that says so.
local function one_line(rd, h, version)
  local k = h + 1
  while k < rd.n and is_comment(rd.get(k)) do
    k = k + 1
  end
  if k >= rd.n or header_word(rd.get(k)) then
    return true
  end
  local c = M.card_from(rd, h, h, version)
  return c ~= nil and c.first == c.last
end

--- The card that holds `lnum`, or the run of one-line cards of one keyword around it (comment lines
--- between them allowed), as folds see it: { first, last, word, one_line (true for a run), card
--- (the card at lnum) }; nil when `lnum` is in no card.
---@param rd table
---@param lnum integer
---@param version? integer
---@return table|nil
function M.run_at(rd, lnum, version)
  local card = M.card_at(rd, lnum, version)
  if not card then
    return nil
  end
  local out = { first = card.first, last = card.last, word = card.word, card = card, one_line = false }
  if card.first ~= card.last then
    return out
  end
  out.one_line = true
  -- The cards of the run: header lines of the same word (bytes 1-7, byte 8 blank or the end)
  -- with only comment lines between them. Read line by line, without a walk per card.
  local prefix = sub(card.word .. '      ', 1, 6) .. '/'
  local function same(l)
    if sub(l, 1, 7) ~= prefix then
      return false
    end
    local b8 = byte(l, 8)
    return b8 == nil or b8 == 32
  end
  local last, pending, k = card.last, nil, card.last + 1
  while k < rd.n do
    local l = rd.get(k)
    if not is_comment(l) then
      if same(l) then
        if pending then
          last = pending
        end
        pending = k
      else
        if pending and (header_word(l) or one_line(rd, pending, version)) then
          last = pending
        end
        pending = nil
        break
      end
    end
    k = k + 1
  end
  if pending then
    last = pending
  end
  out.last = last
  local i = card.first
  k = i - 1
  while k >= 0 do
    local l = rd.get(k)
    if not is_comment(l) then
      if not same(l) then
        break
      end
      i = k
    end
    k = k - 1
  end
  out.first = i
  return out
end

--- The row of buffer line `lnum` (0-based): the layout row and its entry, or nil for a line that
--- is no row with fields (a comment, a GES line, a line outside cards, an extra line).
---@param buf integer
---@param lnum integer
---@param version? integer
---@return table|nil row
---@return table|nil entry
---@return string line
function M.row_at(buf, lnum, version)
  local r = rows.range(buf, lnum, lnum + 1, version)
  local i = r.off + 1
  local line = r.lines[i] or ''
  if r.kind[i] ~= rows.ROW then
    return nil, nil, line
  end
  local e = r.ent[i]
  local row = e.rows[r.rowi[i]]
  if not row or row.n == 0 then
    return nil, e, line
  end
  return row, e, line
end

return M
