-- Moving by field and by card, and the field and card text objects. Field starts come from the
-- card-layout table (the row the walk gives the line); a line that is no row with fields (a
-- comment, a GES line, the control section) has stops every 8 columns (1, 9, 17, ...).
local M = {}

local span = require('nvimpam.model.span')
local layout = require('nvimpam.model.layout')
local fields = require('nvimpam.model.fields')

local api = vim.api
local rep, sub, match, find = string.rep, string.sub, string.match, string.find

--- The columns (1-based) where the fields of buffer line `lnum` (0-based) start, ascending, and
--- the row (nil for a line without one, whose stops are every 8 columns up to 73).
---@param buf integer
---@param lnum integer
---@return integer[] starts
---@return table|nil row
function M.starts(buf, lnum)
  local row = span.row_at(buf, lnum, span.version(buf))
  local out = {}
  if row then
    for j = 1, row.n do
      out[j] = row.from[j]
    end
    return out, row
  end
  for c = 1, 73, 8 do
    out[#out + 1] = c
  end
  return out, nil
end

local function line_of(buf, lnum)
  return api.nvim_buf_get_lines(buf, lnum, lnum + 1, false)[1] or ''
end

local function count1()
  local c = vim.v.count1
  return (c and c > 0) and c or 1
end

-- The next stop after column col of line lnum that the line reaches (col <= #line), or the first
-- stop of a later line; nil at the end of the buffer.
local function next_stop(buf, lnum, col)
  local n = api.nvim_buf_line_count(buf)
  local l = lnum
  while l < n do
    local line = line_of(buf, l)
    local starts = M.starts(buf, l)
    for _, s in ipairs(starts) do
      if (l > lnum or s > col) and s <= math.max(#line, 1) then
        return l, s
      end
    end
    l = l + 1
  end
  return nil
end

local function prev_stop(buf, lnum, col)
  local l = lnum
  while l >= 0 do
    local line = line_of(buf, l)
    local starts = M.starts(buf, l)
    for k = #starts, 1, -1 do
      local s = starts[k]
      if (l < lnum or s < col) and s <= math.max(#line, 1) then
        return l, s
      end
    end
    l = l - 1
  end
  return nil
end

-- Moves the cursor count times to the stop that `stop` finds from it.
local function move(stop)
  local buf = api.nvim_get_current_buf()
  local cur = api.nvim_win_get_cursor(0)
  local lnum, col = cur[1] - 1, cur[2] + 1
  for _ = 1, count1() do
    local l, c = stop(buf, lnum, col)
    if not l then
      break
    end
    lnum, col = l, c
  end
  api.nvim_win_set_cursor(0, { lnum + 1, col - 1 })
end

--- Normal mode: to the start of the next field (count times); past a line's last field, the first
--- field of the next line. Fields past the end of the line are skipped (Normal mode cannot put the
--- cursor there; Insert mode can, see M.insert_next).
---@return nil
function M.field_next()
  move(next_stop)
end

--- Normal mode: to the start of the previous field (count times).
---@return nil
function M.field_prev()
  move(prev_stop)
end

--- Insert and Replace mode: the cursor to the start of the next field of its line, with blanks
--- added at the end of the line when the field starts past it (never a tab). After the last field
--- the cursor stays. With the completion menu open, the next item instead (as <C-n>).
---@return nil
function M.insert_next()
  if vim.fn.pumvisible() == 1 then
    api.nvim_feedkeys(api.nvim_replace_termcodes('<C-n>', true, false, true), 'n', false)
    return
  end
  local buf = api.nvim_get_current_buf()
  local cur = api.nvim_win_get_cursor(0)
  local lnum, col = cur[1] - 1, cur[2] + 1 -- col: the column the next typed byte goes to
  local starts = M.starts(buf, lnum)
  local target
  for _, s in ipairs(starts) do
    if s > col then
      target = s
      break
    end
  end
  if not target then
    return
  end
  local line = line_of(buf, lnum)
  if #line < target - 1 then
    api.nvim_buf_set_text(buf, lnum, #line, lnum, #line, { rep(' ', target - 1 - #line) })
  end
  api.nvim_win_set_cursor(0, { lnum + 1, target - 1 })
end

-- The card objects and ]] [[ work on cards as the walk sees them.
local function reader(buf)
  return span.reader(buf)
end

--- Normal, Visual and Operator-pending mode: to the next card's keyword line (count times). A
--- run of one-line cards of one keyword (NODE, SHELL, ...) counts as one card, as its fold does.
---@return nil
function M.card_next()
  local buf = api.nvim_get_current_buf()
  local rd = reader(buf)
  local version = span.version(buf)
  local lnum = api.nvim_win_get_cursor(0)[1] - 1
  local target = nil
  for _ = 1, count1() do
    local run = span.run_at(rd, lnum, version)
    local from = run and run.last or lnum
    local h = span.next_header(rd, from)
    if not h then
      break
    end
    lnum, target = h, h
  end
  if target then
    vim.cmd("normal! m'")
    api.nvim_win_set_cursor(0, { target + 1, 0 })
  end
end

--- To the previous card's keyword line (count times); inside a card, first to its own.
---@return nil
function M.card_prev()
  local buf = api.nvim_get_current_buf()
  local rd = reader(buf)
  local version = span.version(buf)
  local lnum = api.nvim_win_get_cursor(0)[1] - 1
  local target = nil
  for _ = 1, count1() do
    local run = span.run_at(rd, lnum, version)
    local h
    if run and run.first < lnum then
      h = run.first
    else
      local k = (run and run.first or lnum) - 1
      while k >= 0 and not layout.header_word(rd.get(k)) do
        k = k - 1
      end
      if k >= 0 then
        local prev = span.run_at(rd, k, version)
        h = prev and prev.first or k
      end
    end
    if not h then
      break
    end
    lnum, target = h, h
  end
  if target then
    vim.cmd("normal! m'")
    api.nvim_win_set_cursor(0, { target + 1, 0 })
  end
end

--- The columns of the field under the cursor of the current window (1-based, inclusive):
--- `inner` the value (its non-blanks; the whole field when blank), else the whole field. Nil
--- when the cursor is on no field of a card row.
---@param inner boolean
---@return integer|nil lnum 0-based
---@return integer|nil from
---@return integer|nil to
---@return table|nil field
function M.field_range(inner)
  local buf = api.nvim_get_current_buf()
  local cur = api.nvim_win_get_cursor(0)
  local lnum, col = cur[1] - 1, cur[2] + 1
  local row = span.row_at(buf, lnum, span.version(buf))
  if not row then
    return nil
  end
  local j = fields.field_at(row, col)
  if not j then
    -- Between fields: the next one.
    for k = 1, row.n do
      if row.from[k] > col then
        j = k
        break
      end
    end
  end
  if not j then
    return nil
  end
  local f = row.fields[j]
  local from, to = f.from, f.to
  if inner then
    local line = line_of(buf, lnum)
    local text = sub(line, from, to)
    local a = find(text, '[^ ]')
    if a then
      local b = #text
      while sub(text, b, b) == ' ' do
        b = b - 1
      end
      from, to = f.from + a - 1, f.from + b - 1
    end
  end
  return lnum, from, to, f
end

local ESC = api.nvim_replace_termcodes('<Esc>', true, false, true)

--- Visual (and Operator-pending) mode: selects the field under the cursor, charwise, to the end
--- of the line at most.
---@param inner boolean
function M.select_field(inner)
  local lnum, from, to = M.field_range(inner)
  if not lnum then
    return
  end
  local len = #line_of(api.nvim_get_current_buf(), lnum)
  if from > len then
    return
  end
  to = math.min(to, len)
  local mode = api.nvim_get_mode().mode
  if mode == 'v' or mode == 'V' or mode == '\22' then
    vim.cmd('normal! ' .. ESC)
  end
  api.nvim_win_set_cursor(0, { lnum + 1, from - 1 })
  vim.cmd('normal! v')
  api.nvim_win_set_cursor(0, { lnum + 1, to - 1 })
end

--- `d` and `c` through a field object: the field's text goes to `register` and its columns are
--- filled with blanks, so that the fields after it keep their columns. For `change`, a field
--- that starts past the end of the line gets blanks up to it. Returns where typing over the
--- field starts ({ lnum, col }, 0-based), or nil when the cursor is on no field.
---@param inner boolean
---@param register string
---@param change boolean
---@return table|nil
function M.blank_field(inner, register, change)
  local buf = api.nvim_get_current_buf()
  local lnum, from, to = M.field_range(inner)
  if not lnum then
    return nil
  end
  local line = line_of(buf, lnum)
  if #line >= from then
    local upto = math.min(to, #line)
    local text = sub(line, from, upto)
    api.nvim_buf_set_text(buf, lnum, from - 1, lnum, upto, { rep(' ', upto - from + 1) })
    vim.fn.setreg(register ~= '' and register or '"', text, 'c')
  elseif change then
    api.nvim_buf_set_text(buf, lnum, #line, lnum, #line, { rep(' ', from - 1 - #line) })
  end
  return { lnum, from - 1 }
end

-- Where `c` through a field object continues in Replace mode: { lnum, col } (0-based).
local resume_at = nil

--- Operator-pending mode, the field objects: `d` and `c` blank the field (M.blank_field) and
--- leave the operator an empty region; `c` then goes on in Replace mode at the field's start
--- (typing over the blanks shifts nothing). Every other operator gets the field selected.
---@param inner boolean
function M.field_object(inner)
  local op = vim.v.operator
  if op ~= 'd' and op ~= 'c' then
    M.select_field(inner)
    return
  end
  local cur = api.nvim_win_get_cursor(0)
  local at = M.blank_field(inner, vim.v.register, op == 'c', true)
  api.nvim_win_set_cursor(0, cur) -- an empty region: the operator itself changes nothing
  if op == 'c' and at then
    -- The operator starts Insert mode at the cursor; these keys make it Replace mode at the field.
    resume_at = at
    api.nvim_feedkeys(api.nvim_replace_termcodes("<Insert><Cmd>lua require'nvimpam.edit.motions'.resume()<CR>", true,
      false, true), 'ni', false)
  end
end

--- Puts the cursor where `c` through a field object goes on typing (M.field_object).
---@return nil
function M.resume()
  if resume_at then
    pcall(api.nvim_win_set_cursor, 0, { resume_at[1] + 1, resume_at[2] })
    resume_at = nil
  end
end

--- The lines of the card under the cursor (0-based, inclusive): `inner` the card itself (its
--- keyword line to its last line), else also the comment lines right above it (its `$#` headers).
---@param inner boolean
---@return integer|nil first
---@return integer|nil last
function M.card_range(inner)
  local buf = api.nvim_get_current_buf()
  local rd = span.reader(buf)
  local lnum = api.nvim_win_get_cursor(0)[1] - 1
  local card = span.card_at(rd, lnum, span.version(buf))
  if not card then
    return nil
  end
  local first = card.first
  if not inner then
    while first > 0 and span.is_comment(rd.get(first - 1)) do
      first = first - 1
    end
  end
  return first, card.last
end

--- Visual and Operator-pending mode: selects the card under the cursor, linewise.
---@param inner boolean
function M.select_card(inner)
  local first, last = M.card_range(inner)
  if not first then
    return
  end
  local mode = api.nvim_get_mode().mode
  if mode == 'v' or mode == 'V' or mode == '\22' then
    vim.cmd('normal! ' .. ESC)
  end
  api.nvim_win_set_cursor(0, { first + 1, 0 })
  vim.cmd('normal! V')
  api.nvim_win_set_cursor(0, { last + 1, 0 })
end

return M
