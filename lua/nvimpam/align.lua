-- Alignment of card rows: every value in its field, numbers right-justified, strings where the
-- table's `align` puts them; keywords, fixed text, blank-type fields and comments untouched.
-- :NvimpamAlign and 'formatexpr' (gq) call it.
--
-- No value is ever changed or cut. A value is what the user wrote in a field: the text between
-- its first and last non-blank column, or, for a value that runs over the field's last column into
-- the next field whose own last column is blank (the "runs into" of docs/CARDS.md) or into
-- columns no field holds, the whole run of non-blanks. Such a value moves into its field when it
-- fits; a float may be written in a shorter form for that, only when both forms read as the
-- same double (`1000000.` -> `1.E6`). Anything else leaves the line as it is, with a message that
-- names the line and the field. Each aligned line is read again (M.check) before it is written.
local M = {}

local layout = require('nvimpam.layout')
local rows = require('nvimpam.rows')
local span = require('nvimpam.span')

local api = vim.api
local sub, byte, rep, find, match, format = string.sub, string.byte, string.rep, string.find, string.match,
  string.format

local KW, FIXED, INT, INT_OR_BLANK, FLOAT, STR, BLANK, FLAGS, CHOICE, CONT = layout.KW, layout.FIXED, layout.INT,
  layout.INT_OR_BLANK, layout.FLOAT, layout.STR, layout.BLANK, layout.FLAGS, layout.CHOICE, layout.CONT
local MOVABLE = { [INT] = true, [INT_OR_BLANK] = true, [FLOAT] = true, [STR] = true, [FLAGS] = true, [CHOICE] = true }
-- Strings move only where the table puts them on the right: a left-aligned string stays where it
-- was written (leading blanks can be part of a text).
local function movable(f)
  return MOVABLE[f.code] and (f.code ~= STR or f.align == 'right')
end
local NUMBER = { [INT] = true, [INT_OR_BLANK] = true, [FLOAT] = true }

local function blank_at(line, col)
  local b = byte(line, col)
  return b == nil or b == 32
end

--- The double a number field's text reads as, or nil when it is no number: the float forms of
--- docs/CARDS.md (`1.5`, `-1.5E-3`, `1.5D-3`, `1.5-3`), integers included.
---@param s string the value, without blanks around it
---@return number|nil
function M.to_double(s)
  local m, rest = match(s, '^([+-]?%d*%.?%d*)(.*)$')
  if not m or not find(m, '%d') then
    return nil
  end
  local mant = m
  if sub(mant, -1) == '.' then
    mant = mant .. '0'
  end
  if sub(mant, 1, 1) == '.' or find(mant, '^[+-]%.') then
    mant = mant:gsub('^([+-]?)%.', '%10.')
  end
  local exp = ''
  if rest ~= '' then
    local e = match(rest, '^[eEdD]([+-]?%d+)$') or match(rest, '^([+-]%d+)$')
    if not e then
      return nil
    end
    exp = 'e' .. e
  end
  return tonumber(mant .. exp)
end
local to_double = M.to_double

--- Shorter forms of a float that read as exactly the same double, shortest first (`1000000.` ->
--- `1.E6`, `0.5` -> `.5`). Each candidate is checked by reading it back.
---@param s string
---@return string[]
function M.shorter_forms(s)
  local d = to_double(s)
  if not d or d ~= d or d == math.huge or d == -math.huge then
    return {}
  end
  local seen, out = {}, {}
  local function try(c)
    if c and not seen[c] and #c < #s and to_double(c) == d then
      seen[c] = true
      out[#out + 1] = c
    end
  end
  for p = 0, 17 do
    local e = format('%.' .. p .. 'E', d) -- 1.000000E+06
    local mant, ex = match(e, '^(.-)E(.*)$')
    if mant then
      if find(mant, '%.') then
        mant = mant:gsub('0+$', '')
      else
        mant = mant .. '.'
      end
      local sign, digits = match(ex, '^([+-])0*(%d+)$')
      if sign then
        ex = (sign == '-' and '-' or '') .. digits
        try(mant .. 'E' .. ex)
        if sub(mant, 1, 2) == '0.' then
          try(sub(mant, 2) .. 'E' .. ex)
        end
      end
    end
    local f = format('%.' .. p .. 'f', d)
    if find(f, '%.') then
      f = f:gsub('0+$', '')
    else
      f = f .. '.'
    end
    try(f)
    try((f:gsub('^(-?)0%.', '%1.')))
  end
  table.sort(out, function(a, b)
    if #a ~= #b then
      return #a < #b
    end
    return a < b
  end)
  return out
end

-- What the user wrote in each field of `row` on `line`: { [j] = { text, from, to } } for the
-- movable fields (`to` past the field for a value that runs over it), and the columns the values
-- take; or nil, field index, message for a line that cannot be read so.
local function read_values(line, row)
  local n = #line
  local vals = {}
  local pos = 1
  for j = 1, row.n do
    local f = row.fields[j]
    local from, to, code = f.from, f.to, f.code
    local mov = movable(f)
    local free = code == BLANK or (code == STR and not mov)
    if pos > from and (not free or find(sub(line, pos, to), '[^ ]')) then
      -- The previous value ran into this field, and this field holds something of its own.
      if pos > to or not mov then
        return nil, j - 1, format('"%s" runs into %s', vals[j - 1] and vals[j - 1].text or '?', f.name)
      end
    end
    if mov then
      local s = math.max(pos, from)
      local a = find(line, '[^ ]', s)
      if a and a <= to then
        local b = to
        while blank_at(line, b) do
          b = b - 1
        end
        if NUMBER[code] and not blank_at(line, to) and not blank_at(line, to + 1) then
          -- A number over the field's end: one value when it runs into columns no field holds, a
          -- blank-type field, or a number field whose last column is blank (CARDS.md "runs into").
          local nf = row.fields[j + 1]
          local runs = true
          if nf and nf.from == to + 1 and nf.code ~= BLANK and (not NUMBER[nf.code] or not blank_at(line, nf.to)) then
            runs = false -- two values side by side
          end
          if runs then
            b = to + 1
            while b < n and not blank_at(line, b + 1) do
              b = b + 1
            end
          end
        end
        local text = sub(line, a, b)
        if code ~= STR and find(text, ' ', 1, true) then
          return nil, j, format('"%s" is more than one value', text)
        end
        if NUMBER[code] and not to_double(text) and not find(text, '^[<%[{]') then
          return nil, j, format('"%s" is not a number', text)
        end
        vals[j] = { text = text, from = a, to = b }
        pos = b + 1
      else
        vals[j] = { text = '', from = from, to = to }
        pos = math.max(pos, to + 1)
      end
    else
      pos = math.max(pos, to + 1)
    end
  end
  return vals
end

--- Aligns one line of `row`. Returns the new line (equal to `line` when nothing moves), or nil,
--- the field's name and a message when a value does not fit its field (or the line cannot be
--- read field by field: a tab in it).
---@param line string
---@param row table a row of a layout entry
---@return string|nil new
---@return string|nil field
---@return string|nil message
function M.align_line(line, row)
  local cr = ''
  if byte(line, -1) == 13 then
    line, cr = sub(line, 1, -2), '\r'
  end
  local t = find(line, '\t', 1, true)
  if t then
    local j = require('nvimpam.fields').field_at(row, t)
    return nil, j and row.fields[j].name or '-', format('tab in column %d', t)
  end
  local vals, bad, msg = read_values(line, row)
  if not vals then
    return nil, row.fields[bad] and row.fields[bad].name or '-', msg
  end
  -- Columns: start from the line, blank out what values take, then write each value in place.
  local width = #line
  for j = 1, row.n do
    if vals[j] and vals[j].to > width then
      width = vals[j].to
    end
    if vals[j] and vals[j].text ~= '' and row.fields[j].to > width then
      width = row.fields[j].to
    end
  end
  local chars = {}
  for c = 1, width do
    chars[c] = sub(line, c, c)
    if chars[c] == '' then
      chars[c] = ' '
    end
  end
  for j = 1, row.n do
    local v = vals[j]
    if v and v.text ~= '' then
      for c = v.from, v.to do
        chars[c] = ' '
      end
    end
  end
  for j = 1, row.n do
    local v, f = vals[j], row.fields[j]
    if v and v.text ~= '' then
      local text = v.text
      local w = f.to - f.from + 1
      if #text > w and f.code == FLOAT then
        for _, s in ipairs(M.shorter_forms(text)) do
          if #s <= w then
            text = s
            break
          end
        end
      end
      if #text > w then
        return nil, f.name, format('"%s" does not fit its %d columns (%d-%d)', v.text, w, f.from, f.to)
      end
      local at = f.align == 'right' and f.to - #text + 1 or f.from
      for k = 1, #text do
        chars[at + k - 1] = sub(text, k, k)
      end
      if at + #text - 1 > width then
        width = at + #text - 1
      end
    end
  end
  local new = table.concat(chars, '', 1, width)
  -- A line that ended in blanks keeps its length (a template's padding); other lines lose the
  -- blanks a move left at their end.
  new = new:gsub(' +$', '')
  if byte(line, #line) == 32 and #new < #line then
    new = new .. rep(' ', #line - #new)
  end
  local ok, why = M.check(line, new, row)
  if not ok then
    return nil, why.field, why.message
  end
  return new .. cr
end

local function field_text(line, f)
  return match(sub(line, f.from, f.to), '^ *(.-) *$')
end

--- The check that alignment changed no value: reads every field of `old` as the user wrote it (the
--- values of the runs-into reading above) and every field of `new` as the solver reads it (the
--- text in its columns), and compares them: numbers as doubles, the rest as text; keywords, fixed
--- text, blank-type fields and the columns no field holds must be the same bytes. Returns true,
--- or false and { field, message }.
---@param old string
---@param new string
---@param row table
---@return boolean
---@return table|nil
function M.check(old, new, row)
  local vals = read_values(old, row)
  if not vals then
    return false, { field = '-', message = 'the line cannot be read field by field' }
  end
  local covered = {} -- columns a value takes, before or after
  for j = 1, row.n do
    local v, f = vals[j], row.fields[j]
    if v then
      for c = math.min(v.from, f.from), math.max(v.to, f.to) do
        covered[c] = true
      end
    end
  end
  for j = 1, row.n do
    local f = row.fields[j]
    local v = vals[j]
    if v then
      local after = field_text(new, f)
      local same
      if NUMBER[f.code] then
        local a, b = to_double(v.text), to_double(after)
        same = (a ~= nil and a == b) or (a == nil and v.text == after)
      else
        same = v.text == after
      end
      if not same then
        return false, { field = f.name, message = format('"%s" would read "%s"', v.text, after) }
      end
    end
  end
  for c = 1, math.max(#old, #new) do
    if not covered[c] then
      local a, b = sub(old, c, c), sub(new, c, c)
      if a == '' then
        a = ' '
      end
      if b == '' then
        b = ' '
      end
      if a ~= b then
        return false, { field = '-', message = format('column %d would change', c) }
      end
    end
  end
  return true
end

--- Aligns buffer lines [first, last] (0-based): the rows of known cards; comments, GES lines and
--- lines outside cards stay. One change (one undo step) for all the lines that move. Returns the
--- number of lines changed and the problems: { lnum (1-based), field, message }.
---@param buf integer
---@param first integer
---@param last integer
---@return integer changed
---@return table[] problems
function M.apply(buf, first, last)
  local version = span.version(buf)
  local r = rows.range(buf, first, last + 1, version)
  local new, changed, problems = {}, 0, {}
  local lo, hi = nil, nil
  for i = r.off + 1, #r.lines do
    local line = r.lines[i]
    local lnum = r.top + (i - r.off - 1)
    local out = line
    if r.kind[i] == rows.ROW then
      local row = r.ent[i].rows[r.rowi[i]]
      if row and row.n > 0 then
        local a, field, msg = M.align_line(line, row)
        if a then
          out = a
        else
          problems[#problems + 1] = { lnum = lnum + 1, field = field, message = msg, key = r.ent[i].word }
        end
      end
    end
    new[#new + 1] = out
    if out ~= line then
      changed = changed + 1
      lo = lo or #new
      hi = #new
    end
  end
  if lo then
    local slice = {}
    for k = lo, hi do
      slice[#slice + 1] = new[k]
    end
    require('nvimpam.undo').step(buf, function()
      api.nvim_buf_set_lines(buf, first + lo - 1, first + hi, false, slice)
    end)
  end
  return changed, problems
end

local function report(problems)
  if #problems == 0 then
    return
  end
  local lines = {}
  for k, p in ipairs(problems) do
    if k > 10 then
      lines[#lines + 1] = format('... and %d more lines', #problems - 10)
      break
    end
    lines[#lines + 1] = format('line %d: %s / %s: %s; the line is left as it is', p.lnum, p.key, p.field, p.message)
  end
  vim.notify('nvimpam: ' .. table.concat(lines, '\n'), vim.log.levels.WARN, { title = 'nvimpam' })
end

--- :NvimpamAlign. Without a range, the line under the cursor; with a range, its lines; with a bang,
--- the card under the cursor (a run of one-line cards: the run).
---@param o table { buf, line1, line2, range, bang }
function M.command(o)
  local buf = (o.buf == nil or o.buf == 0) and api.nvim_get_current_buf() or o.buf
  local first, last
  if o.bang then
    local run = span.run_at(span.reader(buf), api.nvim_win_get_cursor(0)[1] - 1, span.version(buf))
    if not run then
      vim.notify('nvimpam: the cursor is in no card', vim.log.levels.WARN, { title = 'nvimpam' })
      return
    end
    first, last = run.first, run.last
  elseif o.range and o.range > 0 then
    first, last = o.line1 - 1, o.line2 - 1
  else
    first = api.nvim_win_get_cursor(0)[1] - 1
    last = first
  end
  local _, problems = M.apply(buf, first, last)
  report(problems)
end

--- 'formatexpr' of pamcrash buffers: `gq` aligns the lines it is given (v:lnum, v:count). In Insert
--- mode (automatic wrapping) it leaves the work to Vim.
---@return integer
function M.formatexpr()
  if vim.v.char ~= '' or api.nvim_get_mode().mode:sub(1, 1) == 'i' then
    return 1
  end
  local first = vim.v.lnum - 1
  local last = first + math.max(vim.v.count, 1) - 1
  local _, problems = M.apply(api.nvim_get_current_buf(), first, last)
  report(problems)
  return 0
end

return M
