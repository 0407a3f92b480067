-- Alignment of card rows: every value in its field, where the table's `align` puts it (numbers,
-- flags and choice words); keywords, fixed text and text fields stay where they were written.
-- The rule on one line (:help nvimpam-align-rule); nvimpam.edit.align applies it to buffer lines
-- (:NvimpamAlign, 'formatexpr').
--
-- Nothing the user wrote changes: afterwards the values read back identical, in the same order,
-- each wholly inside one field. A value is what a field reads (the text between the first and
-- last non-blank of its columns); fields can touch, so two touching values are read apart when
-- the second fills its field and is no text, or is the continuation mark (else the run of
-- non-blanks is one value over the boundary: CARDS.md "runs into"). A line with a value over a field
-- boundary (shifted by Insert-mode typing) is re-split only when its blank-separated values fill
-- the value fields one by one; any other line that cannot be aligned stays as it is, and the
-- message names the line and the field. Each aligned line is read again before it is written.
local M = {}

local layout = require('nvimpam.model.layout')
local fields = require('nvimpam.model.fields')

local sub, byte, rep, find, match, format = string.sub, string.byte, string.rep, string.find, string.match,
  string.format

local KW, FIXED, STR, BLANK, CONT = layout.KW, layout.FIXED, layout.STR, layout.BLANK, layout.CONT
local status, reason_text = fields.status, fields.reason_text

-- Fields that hold values; kw and fixed text never move and are no part of a value, blank fields
-- hold none.
local function holds_value(code)
  return code ~= KW and code ~= FIXED and code ~= BLANK
end

-- Per row, built once: owner[c] = the index of the field that holds column c; data = the indices
-- of the fields that hold values, in order.
local infos = setmetatable({}, { __mode = 'k' })
local function info(row)
  local i = infos[row]
  if i then
    return i
  end
  i = { owner = {}, data = {} }
  for j, f in ipairs(row.fields) do
    for c = f.from, f.to do
      i.owner[c] = j
    end
    if holds_value(f.code) then
      i.data[#i.data + 1] = j
    end
  end
  infos[row] = i
  return i
end

local function blank_at(line, col)
  local b = byte(line, col)
  return b == nil or b == 32
end

local function field_text(line, f)
  return match(sub(line, f.from, f.to), '^ *(.-) *$')
end

-- Runs of non-blank bytes of `line` outside kw and fixed-text columns: { from, to, text }.
local function runs(line, row, inf)
  local out, n, c = {}, #line, 1
  local owner, fs = inf.owner, row.fields
  local function outside_text(col)
    local j = owner[col]
    return not j or (fs[j].code ~= KW and fs[j].code ~= FIXED)
  end
  while c <= n do
    if byte(line, c) ~= 32 and outside_text(c) then
      local a = c
      while c <= n and byte(line, c) ~= 32 and outside_text(c) do
        c = c + 1
      end
      out[#out + 1] = { a, c - 1, sub(line, a, c - 1) }
    else
      c = c + 1
    end
  end
  return out
end

-- Fields j and j + 1 touch and both hold text at their shared boundary: two values side by side?
-- Only when the second one fills its field (else it may be the end of the first, run over), and
-- is no text (a text reads anything), or is the continuation mark; both valid values.
local function side_by_side(line, row, j)
  local k = j + 1
  local g = row.fields[k]
  if g.code ~= CONT and (g.code == STR or blank_at(line, g.to)) then
    return false
  end
  local sj, rj = status(line, row, j)
  local sk, rk = status(line, row, k)
  return (sj == 0 or rj == fields.R_RUNS) and (sk == 0 or rk == fields.R_RUNS)
end

-- The last field that holds values and ends before column `col` (its index in data), or nil.
local function data_before(row, inf, col)
  local last = nil
  for p, j in ipairs(inf.data) do
    if row.fields[j].to < col then
      last = p
    end
  end
  return last
end

-- Where run r of the line leaves the fields: nil when it lies in value fields, with only
-- side-by-side values at the boundaries it crosses; FREE when it lies wholly outside them (in
-- columns no field holds, a blank field, past column 80); else the index of the field to name and
-- what happens there.
local FREE = {}
local function crossing(line, row, inf, r)
  local a, b, text = r[1], r[2], r[3]
  local owner, fs = inf.owner, row.fields
  local j = owner[a]
  if not j or not holds_value(fs[j].code) then
    for c = a + 1, b do
      local k = owner[c]
      if k and holds_value(fs[k].code) then
        if j then
          return k, format('"%s" runs from %s, which this layout leaves blank, into %s', text, fs[j].name, fs[k].name)
        end
        return k, format('"%s" runs from columns no field holds into %s', text, fs[k].name)
      end
    end
    return FREE
  end
  for c = a, b - 1 do
    local k = owner[c + 1]
    if k ~= j then
      if not k or not holds_value(fs[k].code) then
        return j, format('"%s" runs out of %s (%d-%d)', text, fs[j].name, fs[j].from, fs[j].to)
      elseif not side_by_side(line, row, j) then
        return j, format('"%s" runs from %s into %s', text, fs[j].name, fs[k].name)
      end
      j = k
    end
  end
  return nil
end

-- Whether `text` is a valid value of field j (fits its columns, and its type reads it): nil, or
-- what is wrong.
local function misfit(row, j, text)
  local f = row.fields[j]
  local w = f.to - f.from + 1
  if #text > w then
    return format('does not fit %s (%d columns)', f.name, w)
  end
  local probe = rep(' ', f.to - #text) .. text
  local sev, why = status(probe, row, j)
  if sev ~= 0 then
    return format('%s for %s', reason_text(row, j, why), f.name)
  end
  return nil
end

-- The values of a shifted line, one per field in order (`runs` its blank-separated values): {
-- [j] = text } for the first #runs value fields; or nil and the reason it is not re-split.
local function resplit(row, inf, rs)
  local k, data, fs = #rs, inf.data, row.fields
  if k > #data then
    return nil, format('%d values for the %d fields of the row', k, #data)
  end
  -- The field the last value is in (any it overlaps), or the one it ran out of.
  local a, b = rs[k][1], rs[k][2]
  local lo, hi
  for p, j in ipairs(data) do
    if fs[j].from <= b and a <= fs[j].to then
      lo = lo or p
      hi = p
    end
  end
  if not lo then
    lo = data_before(row, inf, a)
    hi = lo
  end
  if not lo or k < lo or k > hi then
    local m = (lo and k < lo) and lo or hi
    return nil, m and format('%d value%s for the %d fields up to the last one', k, k == 1 and '' or 's', m)
      or 'no field before its last value'
  end
  local want = {}
  for p = 1, k do
    local j = data[p]
    if fs[j].code == STR then
      return nil, format('%s is text, which may hold blanks: the values cannot be told apart', fs[j].name)
    end
    local t = rs[p][3]
    local bad = misfit(row, j, t)
    if bad then
      return nil, format('"%s" %s', t, bad)
    end
    local g = fs[j + 1]
    if g and g.from == fs[j].to + 1 and holds_value(g.code) and g.code ~= STR then
      -- Two values side by side (the second filling its field, or the continuation mark) are one
      -- run of non-blanks: once shifted, the line cannot tell them from one value.
      for c = 1, #t - 1 do
        local tail = sub(t, c + 1)
        if (g.code == CONT or #tail == g.to - g.from + 1) and not misfit(row, j + 1, tail)
          and not misfit(row, j, sub(t, 1, c)) then
          return nil, format('"%s" may be two values, of %s and %s', t, fs[j].name, g.name)
        end
      end
    end
    want[j] = t
  end
  return want
end

-- Reads `line` as row `row`: the values { [j] = text } of the value fields ('' for a blank one),
-- the columns the values start in as written and the runs outside the value fields, which stay
-- where they are (both nil for a shifted line), and whether it was re-split; or nil, the field to
-- name and what is wrong.
local function read(line, row)
  local inf = info(row)
  local rs = runs(line, row, inf)
  local fs = row.fields
  local free = {}
  for _, r in ipairs(rs) do
    local j, msg = crossing(line, row, inf, r)
    if j == FREE then
      free[#free + 1] = r
    elseif j then
      local want, why = resplit(row, inf, rs)
      if not want then
        return nil, j, msg .. '; ' .. why
      end
      return want, nil, nil, true
    end
  end
  local want, at = {}, {}
  for _, j in ipairs(inf.data) do
    local f = fs[j]
    local v = field_text(line, f)
    if v ~= '' then
      local sev, why = status(line, row, j)
      if sev ~= 0 then
        return nil, j, format('"%s" %s', v, reason_text(row, j, why))
      end
      at[j] = find(line, '[^ ]', f.from)
    end
    want[j] = v
  end
  return want, at, free, false
end

-- The line with the kw and fixed-text bytes of `line` and the values of `want` placed field by
-- field: where the field's `align` puts them (a text where it was written: its leading blanks
-- may be part of it), and the runs outside the value fields (`free`) where they are. Two values
-- in touching fields must not touch unless they read apart (side_by_side: the second fills a
-- right-aligned field, or is the continuation mark), nor a value a run outside the fields: such a
-- value ends (starts) a column early (late), or, in a line read in place (`at` the columns the
-- values were written in), stays where it was. Returns nil and the field when no place is left.
local function build(line, row, want, at, free)
  local fs = row.fields
  local a, b = {}, {} -- the columns a placed value takes
  if at then
    for j, c in pairs(at) do
      a[j], b[j] = c, c + #want[j] - 1
    end
  end
  local kept = {} -- the columns of the runs outside the value fields
  for _, r in ipairs(free or {}) do
    for c = r[1], r[2] do
      kept[c] = true
    end
  end
  local function apart(j, s, e)
    if kept[s - 1] or kept[e + 1] then
      return false
    end
    local f, p, n = fs[j], fs[j - 1], fs[j + 1]
    if p and a[j - 1] and p.to + 1 == f.from and s == f.from and b[j - 1] == p.to
      and not (f.code == CONT or (f.code ~= STR and e == f.to)) then
      return false
    end
    if n and a[j + 1] and f.to + 1 == n.from and e == f.to and a[j + 1] == n.from
      and not (n.code == CONT or (n.code ~= STR and b[j + 1] == n.to)) then
      return false
    end
    return true
  end
  -- Value by value, each placed against its neighbors as they are; again until nothing moves (a
  -- value kept from its place by the one after it gets it once that one has moved).
  for _ = 1, 4 do
    local moved = false
    for j, f in ipairs(fs) do
      local w = want[j]
      if w and w ~= '' then
        local was = a[j]
        a[j], b[j] = nil, nil
        local tries
        if f.code == STR then
          tries = { was }
        elseif f.code == CONT then
          tries = { f.from }
        elseif f.align == 'right' then
          tries = { f.to - #w + 1, f.to - #w, was }
        else
          tries = { f.from, f.from + 1, was }
        end
        for _, c in ipairs(tries) do
          if c >= f.from and c + #w - 1 <= f.to and apart(j, c, c + #w - 1) then
            a[j], b[j] = c, c + #w - 1
            break
          end
        end
        if not a[j] then
          return nil, j
        end
        moved = moved or a[j] ~= was
      end
    end
    if not moved then
      break
    end
  end
  local chars, width = {}, 0
  local function put(col, text)
    for k = 1, #text do
      chars[col + k - 1] = sub(text, k, k)
    end
    if col + #text - 1 > width then
      width = col + #text - 1
    end
  end
  for j, f in ipairs(fs) do
    if f.code == KW or f.code == FIXED then
      put(f.from, sub(line, f.from, f.to))
    elseif a[j] then
      put(a[j], want[j])
    end
  end
  for _, r in ipairs(free or {}) do
    put(r[1], r[3])
  end
  for c = 1, width do
    chars[c] = chars[c] or ' '
  end
  local new = table.concat(chars, '', 1, width):gsub(' +$', '')
  -- A line that ended in blanks keeps its length (a template's padding).
  if byte(line, #line) == 32 and #new < #line then
    new = new .. rep(' ', #line - #new)
  end
  return new
end

--- Aligns one line of `row`. Returns the new line (equal to `line` when nothing moves), or nil,
--- the name of the field and what keeps the line from being aligned.
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
  local fs = row.fields
  local t = find(line, '\t', 1, true)
  if t then
    local j = fields.field_at(row, t)
    return nil, j and fs[j].name or '-', format('tab in column %d', t)
  end
  local want, at, free = read(line, row)
  if not want then
    return nil, fs[at] and fs[at].name or '-', free
  end
  local new, j = build(line, row, want, at, free)
  if not new then
    return nil, fs[j].name, format('"%s" has no place in %s that keeps it apart from the values next to it', want[j],
      fs[j].name)
  end
  if new == line then
    return line .. cr
  end
  -- Read again: a line in place, every value in the field it was meant for, the fixed text and the
  -- runs outside the fields as they were.
  local again, where, _, resplit_again = read(new, row)
  if not again then
    j = where
  elseif resplit_again then
    j = info(row).data[1]
  else
    for k, f in ipairs(fs) do
      if (f.code == KW or f.code == FIXED) and sub(new, f.from, f.to) ~= sub(line, f.from, f.to)
        or holds_value(f.code) and field_text(new, f) ~= (want[k] or '') then
        j = k
        break
      end
    end
    for _, r in ipairs(free or {}) do
      if not j and sub(new, r[1], r[2]) ~= r[3] then
        j = info(row).data[1]
      end
    end
    if not j then
      return new .. cr
    end
  end
  local f = fs[j]
  return nil, f and f.name or '-', format('the aligned line would read "%s" there', f and field_text(new, f) or new)
end

return M
