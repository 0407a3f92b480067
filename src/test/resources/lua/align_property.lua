-- The alignment property (AlignTest), over every row with fields of every entry of the layout
-- table, all versions. For each row, `cases` lines: random values that fit their fields, in random
-- columns of them, some fields blank; and each line again shifted by blanks inserted and deleted
-- (never inside a value, never all the blanks between two values, never in the keyword or fixed
-- text), as Insert-mode typing leaves a line. The generator knows where every value is, so the
-- checks compare with what the user wrote, not with what align reads:
--   1. aligned, the line's values read back (field by field, through the table's columns) as the
--      same words in the same order as the values written;
--   2. each value sits in one field: every field of the aligned line is a valid value of its
--      type, no text lies outside the fields, the keyword and fixed text are the same bytes, and
--      aligning it again changes nothing;
--   3. a line whose values all lie in their fields (and which has no field error) is aligned, and
--      every field reads what it read before;
--   4. a line with a value across a field boundary or outside the fields is re-split exactly when
--      the rule of :help nvimpam-align says so (then value i is in the i-th value field), and
--      otherwise refused;
--   5. a refused line comes with the name of one of the row's fields.
-- Returns { failures (at most 30), counts }.
--
-- With `buffer` as its third argument: for every row of every entry, a card of that entry (from its
-- template) in a buffer, the row's line replaced by a random shifted one, and :NvimpamAlign on
-- that line: the buffer line is what align_line() gives, or the line as it was and a message that
-- names the line, the keyword and the field.
local seed, cases, mode = tonumber((...)), tonumber((select(2, ...))), select(3, ...)
local layout = require('nvimpam.model.layout')
local fields = require('nvimpam.model.fields')
local problems = require('nvimpam.model.problems')
local align = require('nvimpam.edit.align.line')

local KW, FIXED, BLANK, STR, INT, INT_OR_BLANK, FLOAT, FLAGS, CHOICE, CONT = layout.KW, layout.FIXED, layout.BLANK,
  layout.STR, layout.INT, layout.INT_OR_BLANK, layout.FLOAT, layout.FLAGS, layout.CHOICE, layout.CONT
local sub, rep, byte = string.sub, string.rep, string.byte

math.randomseed(seed)
local R = math.random

local function holds(f)
  return f.code ~= KW and f.code ~= FIXED and f.code ~= BLANK
end
local function fixed_text(f)
  return f.code == KW or f.code == FIXED
end

local function digits(n)
  local t = {}
  for i = 1, n do
    t[i] = tostring(R(0, 9))
  end
  return table.concat(t)
end

local function valid(row, j, v)
  local f = row.fields[j]
  return #v <= f.to - f.from + 1 and fields.status(rep(' ', f.to - #v) .. v, row, j) == 0
end

local FLOATS = {
  function() return digits(R(1, 7)) .. '.' end,
  function() return digits(R(0, 4)) .. '.' .. digits(R(1, 9)) end,
  function() return digits(R(1, 2)) .. '.' .. digits(R(0, 3)) .. ({ 'E', 'e', 'D' })[R(1, 3)] .. ({ '', '-', '+' })[R(1, 3)] .. digits(R(1, 2)) end,
  function() return digits(R(1, 2)) .. '.' .. digits(R(1, 3)) .. ({ '-', '+' })[R(1, 2)] .. digits(R(1, 2)) end,
  function() return digits(R(1, 16)) end,
  function() return '<p' .. digits(R(0, 3)) .. '>' end,
}

-- A valid value of field j that fits it, or nil.
local function value(row, j)
  local f = row.fields[j]
  local w, c = f.to - f.from + 1, f.code
  for _ = 1, 40 do
    local v
    if c == INT or c == INT_OR_BLANK then
      v = R(1, 12) == 1 and ('[' .. digits(R(1, 3)) .. ']') or ((R(1, 4) == 1 and '-' or '') .. digits(R(1, math.min(w, 10))))
    elseif c == FLOAT then
      v = (R(1, 4) == 1 and '-' or '') .. FLOATS[R(1, #FLOATS)]()
    elseif c == FLAGS then
      v = ''
      for _ = 1, R(1, w) do
        v = v .. R(0, 1)
      end
    elseif c == CHOICE then
      v = f.values[R(1, #f.values)]
    elseif c == CONT then
      v = R(1, 2) == 1 and '&' or '-'
    elseif c == STR then
      local t = {}
      for i = 1, R(1, math.min(w, 12)) do
        t[i] = string.char(R(1, 4) == 1 and R(48, 57) or R(65, 90))
      end
      if #t >= 3 and R(1, 3) == 1 then
        t[R(2, #t - 1)] = ' '
      end
      v = table.concat(t)
    end
    if v and valid(row, j, v) then
      return v
    end
  end
  return nil
end

-- Two values that touch are told apart only when the second fills its field and is no text, or is
-- the continuation mark (else it reads as the end of the first, run over): the generator writes
-- no other.
local function ambiguous(row, vals)
  for p = 1, #vals - 1 do
    local a, b = vals[p], vals[p + 1]
    if a.b + 1 == b.a then
      local g = row.fields[b.j]
      if g.code ~= CONT and (g.code == STR or b.b ~= g.to) then
        return true
      end
    end
  end
  return false
end

-- A line of `row`: its text and its values { j, text, a, b } in column order.
local function make(row, word)
  for _ = 1, 20 do
    local chars, vals = {}, {}
    for j, f in ipairs(row.fields) do
      if f.code == KW then
        local kw = sub(word .. rep(' ', 6), 1, 6) .. '/ '
        for c = 1, 8 do
          chars[c] = sub(kw, c, c)
        end
      elseif f.code == FIXED then
        for c = f.from, f.to do
          chars[c] = sub(f.name, c - f.from + 1, c - f.from + 1)
        end
      elseif holds(f) and R(1, 3) > 1 then
        local v = value(row, j)
        if v then
          local w = f.to - f.from + 1
          local off = R(0, w - #v)
          if R(1, 2) == 1 then
            off = f.align == 'right' and w - #v or 0
          end
          local a = f.from + off
          for k = 1, #v do
            chars[a + k - 1] = sub(v, k, k)
          end
          vals[#vals + 1] = { j = j, text = v, a = a, b = a + #v - 1 }
        end
      end
    end
    if not ambiguous(row, vals) then
      local n = 0
      for c in pairs(chars) do
        n = math.max(n, c)
      end
      for c = 1, n do
        chars[c] = (chars[c] == nil or chars[c] == '') and ' ' or chars[c]
      end
      local line = table.concat(chars, '', 1, n):gsub(' +$', '')
      if R(1, 4) == 1 and #line < 80 then
        line = line .. rep(' ', 80 - #line)
      end
      return line, vals
    end
  end
  return nil
end

-- The line shifted by 1-3 random insertions and deletions of blanks; the values moved with it.
local function shift(row, line, vals)
  local first = 1 -- no shift in or before kw and fixed text
  for _, f in ipairs(row.fields) do
    if fixed_text(f) then
      first = math.max(first, f.to + 1)
    end
  end
  local moved = {}
  for i, v in ipairs(vals) do
    moved[i] = { j = v.j, text = v.text, a = v.a, b = v.b }
  end
  local starts = {}
  for _ = 1, R(1, 3) do
    for k in pairs(starts) do
      starts[k] = nil
    end
    for _, v in ipairs(moved) do
      starts[v.a] = true
    end
    local n = R(1, 9)
    if R(1, 2) == 1 then
      -- Insert n blanks before column p: a blank, the start of a value or the end of the line.
      local p = R(first, #line + 1)
      if p > #line or byte(line, p) == 32 or starts[p] then
        line = sub(line, 1, p - 1) .. rep(' ', n) .. sub(line, p)
        for _, v in ipairs(moved) do
          if v.a >= p then
            v.a, v.b = v.a + n, v.b + n
          end
        end
      end
    else
      -- Delete n blanks from column p on, leaving one between two values.
      local p = R(first, math.max(first, #line))
      local q = p + n - 1
      if q <= #line and not sub(line, p, q):find('[^ ]') and p > first - 0
        and not (p > 1 and byte(line, p - 1) ~= 32 and q < #line and byte(line, q + 1) ~= 32) then
        line = sub(line, 1, p - 1) .. sub(line, q + 1)
        for _, v in ipairs(moved) do
          if v.a > q then
            v.a, v.b = v.a - n, v.b - n
          end
        end
      end
    end
  end
  return line, moved
end

local function trim(s)
  return (s:gsub('^ +', ''):gsub(' +$', ''))
end

local function readings(line, row)
  local out = {}
  for j, f in ipairs(row.fields) do
    out[j] = trim(sub(line, f.from, f.to))
  end
  return out
end

local function words(list)
  local out = {}
  for _, s in ipairs(list) do
    for w in s:gmatch('[^ ]+') do
      out[#out + 1] = w
    end
  end
  return table.concat(out, ' ')
end

-- The values of a line in column order: what each value field reads, and the runs of non-blanks
-- outside them.
local function line_values(line, row)
  local out, owner = {}, {}
  for j, f in ipairs(row.fields) do
    for c = f.from, f.to do
      owner[c] = j
    end
  end
  local c = 1
  while c <= #line do
    local j = owner[c]
    local f = j and row.fields[j]
    if f and holds(f) then
      local v = trim(sub(line, f.from, f.to))
      if v ~= '' then
        out[#out + 1] = v
      end
      c = f.to + 1
    elseif byte(line, c) ~= 32 and not (f and fixed_text(f)) then
      local a = c
      while c <= #line and byte(line, c) ~= 32 and not (owner[c] and holds(row.fields[owner[c]])) do
        c = c + 1
      end
      out[#out + 1] = sub(line, a, c - 1)
    else
      c = c + 1
    end
  end
  return out
end

-- The index of the value field value v lies in, or nil.
local function field_of(row, v)
  for j, f in ipairs(row.fields) do
    if holds(f) and f.from <= v.a and v.b <= f.to then
      return j
    end
  end
  return nil
end

-- Whether every value lies in one field that holds values, or wholly outside them (where it is
-- no value of the row and stays), and the field a value lies in is that of the value before it.
local function in_place(row, vals)
  for _, v in ipairs(vals) do
    local inside, outside = false, true
    for _, f in ipairs(row.fields) do
      if holds(f) and f.from <= v.a and v.b <= f.to then
        inside = true
      end
      if holds(f) and f.from <= v.b and v.a <= f.to then
        outside = false
      end
    end
    if not inside and not outside then
      return false
    end
  end
  return true
end

-- The rule of a shifted line: { [j] = text } when its blank-separated values (outside kw and
-- fixed text) fill the value fields one by one, else nil.
local function rule(row, line)
  local toks = {}
  local c, n = 1, #line
  local function free(col)
    for _, f in ipairs(row.fields) do
      if fixed_text(f) and f.from <= col and col <= f.to then
        return false
      end
    end
    return true
  end
  while c <= n do
    if byte(line, c) ~= 32 and free(c) then
      local a = c
      while c <= n and byte(line, c) ~= 32 and free(c) do
        c = c + 1
      end
      toks[#toks + 1] = { a = a, b = c - 1, text = sub(line, a, c - 1) }
    else
      c = c + 1
    end
  end
  local data = {}
  for j, f in ipairs(row.fields) do
    if holds(f) then
      data[#data + 1] = j
    end
  end
  local k = #toks
  if k == 0 or k > #data then
    return nil
  end
  local last = toks[k]
  local over, before = {}, nil
  for p, j in ipairs(data) do
    local f = row.fields[j]
    if f.from <= last.b and last.a <= f.to then
      over[#over + 1] = p
    elseif f.to < last.a then
      before = p
    end
  end
  local ok = (#over > 0 and over[1] <= k and k <= over[#over]) or (#over == 0 and before == k)
  if not ok then
    return nil
  end
  local want = {}
  for p = 1, k do
    local j, t = data[p], toks[p].text
    local f, g = row.fields[data[p]], row.fields[data[p] + 1]
    if f.code == STR or not valid(row, j, t) then
      return nil
    end
    if g and g.from == f.to + 1 and holds(g) and g.code ~= STR then
      for cut = 1, #t - 1 do
        local tail = sub(t, cut + 1)
        if (g.code == CONT or #tail == g.to - g.from + 1) and valid(row, j + 1, tail) and valid(row, j, sub(t, 1, cut)) then
          return nil
        end
      end
    end
    want[j] = t
  end
  return want
end

local bad, counts = {}, { rows = 0, lines = 0, aligned = 0, moved = 0, resplit = 0, refused = 0, shifted = 0 }
local written_at = ''
local function fail(e, r, what, input, out)
  if #bad < 30 then
    bad[#bad + 1] = string.format('%s@%d row %d: %s\n  in:  [%s]\n  out: [%s]\n  values: %s', e.key, e.version, r,
      what, input, tostring(out), written_at)
  end
end

local function check(e, r, row, input, vals)
  counts.lines = counts.lines + 1
  local out, field, msg = align.align_line(input, row)
  local at = {}
  for _, v in ipairs(vals) do
    at[#at + 1] = string.format('%s@%d-%d', v.text, v.a, v.b)
  end
  written_at = table.concat(at, ' ')
  -- Values that touch are one run of non-blanks, read apart only side by side in their own fields
  -- (the second filling its field and no text, or the continuation mark): a shift that moved them
  -- leaves one value, the line's values are what it shows.
  local pieces = {} -- a text with blanks in it is runs of non-blanks, as the line shows it
  for _, v in ipairs(vals) do
    for a, w in v.text:gmatch('()([^ ]+)') do
      pieces[#pieces + 1] = { j = v.j, text = w, a = v.a + a - 1, b = v.a + a - 1 + #w - 1 }
    end
  end
  local merged = {}
  for _, v in ipairs(pieces) do
    local m = merged[#merged]
    if m and m.b + 1 == v.a then
      local fj, gj = field_of(row, m), field_of(row, v)
      local f, g = row.fields[fj], row.fields[gj]
      local apart = f and g and fj + 1 == gj and f.to == m.b and g.from == v.a
        and (g.code == CONT or (g.code ~= STR and v.b == g.to))
      if not apart then
        m.text, m.b = m.text .. v.text, v.b
        m.merged = true
      else
        merged[#merged + 1] = { j = v.j, text = v.text, a = v.a, b = v.b }
      end
    else
      merged[#merged + 1] = { j = v.j, text = v.text, a = v.a, b = v.b }
    end
  end
  -- And a value over boundaries of touching value fields whose parts read as values side by side
  -- (each valid in its field, each after the first filling its field and no text, or the
  -- continuation mark) is those values, as the line shows it (fields are read by their columns).
  vals = {}
  for _, v in ipairs(merged) do
    local start, parts = v.a, {}
    for j, f in ipairs(row.fields) do
      local g = row.fields[j + 1]
      if g and holds(f) and holds(g) and g.from == f.to + 1 and start >= f.from and start <= f.to and v.b >= g.from
        and (g.code == CONT or (g.code ~= STR and v.b >= g.to)) then
        local left = sub(v.text, start - v.a + 1, f.to - v.a + 1)
        local right = sub(v.text, g.from - v.a + 1, g.to - v.a + 1)
        if valid(row, j, left) and valid(row, j + 1, right) then
          parts[#parts + 1] = { j = j, text = left, a = start, b = f.to }
          start = g.from
        end
      end
    end
    local last = { j = v.j, text = sub(v.text, start - v.a + 1), a = start, b = v.b }
    if #parts > 0 and field_of(row, last) then
      for _, p in ipairs(parts) do
        vals[#vals + 1] = p
      end
      vals[#vals + 1] = last
    else
      vals[#vals + 1] = v -- not values side by side up to its end: one value over the boundaries
    end
  end
  local placed = in_place(row, vals)
  local want = nil
  if not placed then
    want = rule(row, input)
  end
  if not out then
    counts.refused = counts.refused + 1
    local named = false
    for _, f in ipairs(row.fields) do
      named = named or f.name == field
    end
    if not named or not msg or msg == '' then
      fail(e, r, 'refused without naming a field: ' .. tostring(field) .. ' ' .. tostring(msg), input, out)
    end
    if placed and #problems.line_diagnostics(input, e, r, 0) == 0 then
      fail(e, r, 'a line in place refused: ' .. field .. ': ' .. msg, input, out)
    end
    if want then
      fail(e, r, 'a shifted line the rule re-splits refused: ' .. field .. ': ' .. msg, input, out)
    end
    return
  end
  counts.aligned = counts.aligned + 1
  if out ~= input then
    counts.moved = counts.moved + 1
  end
  -- 1. the same values in the same order
  local written = {}
  for _, v in ipairs(vals) do
    written[#written + 1] = v.text
  end
  if words(line_values(out, row)) ~= words(written) then
    fail(e, r, 'values changed: ' .. words(line_values(out, row)) .. ' for ' .. words(written), input, out)
    return
  end
  -- 2. each value in one field, the fixed text as it was, aligning again changes nothing
  local ro, ri = readings(out, row), readings(input, row)
  for j, f in ipairs(row.fields) do
    if fixed_text(f) and sub(out, f.from, f.to) ~= sub(input, f.from, f.to) then
      fail(e, r, 'fixed text changed in ' .. f.name, input, out)
    elseif holds(f) and ro[j] ~= '' and fields.status(out, row, j) ~= 0 then
      fail(e, r, 'field ' .. f.name .. ' reads an invalid value', input, out)
    end
  end
  local covered = {}
  for _, f in ipairs(row.fields) do
    if f.code ~= BLANK then
      for c = f.from, f.to do
        covered[c] = true
      end
    end
  end
  for c = 1, #out do
    if not covered[c] and byte(out, c) ~= 32 and (not placed or byte(out, c) ~= byte(input, c)) then
      fail(e, r, 'text in column ' .. c .. ', outside the fields', input, out)
      break
    end
  end
  if align.align_line(out, row) ~= out then
    fail(e, r, 'aligning again changes it: ' .. tostring(align.align_line(out, row)), input, out)
  end
  -- 3. a line in place: every field reads as before
  if placed then
    for c = 1, math.max(#out, #input) do
      if not covered[c] and (byte(out, c) or 32) ~= (byte(input, c) or 32) then
        fail(e, r, 'column ' .. c .. ', outside the fields, changed', input, out)
        return
      end
    end
    for j, f in ipairs(row.fields) do
      if ro[j] ~= ri[j] then
        fail(e, r, 'field ' .. f.name .. ' read "' .. ri[j] .. '", now "' .. ro[j] .. '"', input, out)
        return
      end
    end
  else
    -- 4. a shifted line: re-split exactly as the rule says
    counts.resplit = counts.resplit + 1
    if not want then
      fail(e, r, 'a shifted line re-split that the rule leaves', input, out)
      return
    end
    for j, f in ipairs(row.fields) do
      if holds(f) and ro[j] ~= (want[j] or '') then
        fail(e, r, 'field ' .. f.name .. ' reads "' .. ro[j] .. '", the rule gives "' .. (want[j] or '') .. '"', input,
          out)
        return
      end
    end
  end
end

local function buffer_mode()
  local templates, rows = require('nvimpam.edit.templates.build'), require('nvimpam.model.rows')
  for _, e in ipairs(layout.get().entries) do
    if layout.pick(layout.all(e.key), e.version) == e then
      for r, row in ipairs(e.rows) do
        if row.n > 0 and row.kind ~= layout.END then
          -- A card in which the row appears: the conditions of its `if` row and of those before it
          -- set, one line per `repeat` row.
          local values = {}
          for _, o in ipairs(e.rows) do
            if o.kind == layout.REPEAT then
              values[o.count_field] = '1'
            end
          end
          for k = r, 1, -1 do
            local o = e.rows[k]
            if o.kind == layout.IF and values[o.cond_field] == nil then
              -- FIELD:V1,V2 holds with V1; FIELD!V1,V2 with the field blank
              values[o.cond_field] = o.cond_negated and '' or o.cond_values[1]
            end
          end
          local deck = { 'INPUTVERSION ' .. e.version }
          for _, l in ipairs(templates.lines(e, { values = values, headers = false })) do
            deck[#deck + 1] = l
          end
          local c = rows.classify_lines(deck, e.version)
          local at
          for i, k in ipairs(c) do
            if k == e.key .. '@' .. e.version .. '#' .. r then
              at = i
              break
            end
          end
          local line, vals = make(row, e.word)
          if at and line then
            counts.rows = counts.rows + 1
            local input = shift(row, line, vals)
            if r == 1 then
              input = deck[at]:sub(1, 8) .. input:sub(9)
            end
            deck[at] = input
            -- The line may now be another row (a header's variant field): the walk says which.
            local kind, ent, rowi = rows.classify(deck, e.version)
            local ue, ur, urow = e, r, row
            if kind[at] == rows.ROW and ent[at].rows[rowi[at]].n > 0 then
              ue, ur, urow = ent[at], rowi[at], ent[at].rows[rowi[at]]
            end
            vim.api.nvim_buf_set_lines(0, 0, -1, false, deck)
            _G.notes = {}
            vim.cmd(at .. 'NvimpamAlign')
            local got = vim.api.nvim_buf_get_lines(0, at - 1, at, false)[1]
            local want, field = align.align_line(input, urow)
            counts.lines = counts.lines + 1
            if want then
              counts.aligned = counts.aligned + 1
              if got ~= want then
                fail(ue, ur, 'the buffer line is not what align_line() gives: ' .. want, input, got)
              end
            else
              counts.refused = counts.refused + 1
              local note = _G.notes[1] and _G.notes[1][1] or ''
              local head = string.format('line %d: %s / %s: ', at, ue.word, field)
              if got ~= input or not note:find(head, 1, true) then
                fail(ue, ur, 'refused, but the note is "' .. note .. '", not "' .. head .. '..."', input, got)
              end
            end
          end
        end
      end
    end
  end
  return { bad, counts }
end
if mode == 'buffer' then
  return buffer_mode()
end

for _, e in ipairs(layout.get().entries) do
  for r, row in ipairs(e.rows) do
    if row.n > 0 then
      counts.rows = counts.rows + 1
      for _ = 1, cases do
        local line, vals = make(row, e.word)
        if line then
          check(e, r, row, line, vals)
          for _ = 1, 3 do
            local s, moved = shift(row, line, vals)
            if s ~= line then
              counts.shifted = counts.shifted + 1
              check(e, r, row, s, moved)
            end
          end
        end
      end
    end
  end
end
return { bad, counts }
