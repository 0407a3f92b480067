-- A card's template from the card-layout table (docs/CARDS.md): the keyword line, every row the
-- card needs (fields blank or at their defaults, a `repeat` row as often as its count says), a `$#`
-- field header above each row. :NvimpamCard (nvimpam.edit.templates) inserts it.
local M = {}

local layout = require('nvimpam.model.layout')
local rows = require('nvimpam.model.rows')
local fieldheader = require('nvimpam.edit.fieldheader')

local rep, sub, match = string.rep, string.sub, string.match

local NUMERIC = { [layout.INT] = true, [layout.INT_OR_BLANK] = true, [layout.FLOAT] = true, [layout.FLAGS] = true,
  [layout.CHOICE] = true }

--- How many lines a `repeat` row of a template takes at most (a count beyond is cut to this).
M.MAX_REPEAT = 100

--- `value` placed in the columns of field `f`: right- or left-aligned as the field says, padded
--- with blanks to its width. Raises when the value is wider than the field.
---@param f table a field of a layout row
---@param value string
---@return string
function M.cell(f, value)
  local w = f.to - f.from + 1
  if #value > w then
    error(string.format('"%s" does not fit field %s (%d columns)', value, f.name, w), 0)
  end
  if f.align == 'right' then
    return rep(' ', w - #value) .. value
  end
  return value .. rep(' ', w - #value)
end

-- The value a template writes in field f of entry e: an override, the variant for the select
-- columns, the default, or nothing.
local function value_of(e, f, values, is_head)
  if values and values[f.name] ~= nil then
    return tostring(values[f.name])
  end
  local base = is_head and e.variant and layout.all(e.word)[1]
  if base and base.select and f.from == base.select[1] and f.to == base.select[2] then
    return e.variant
  end
  if is_head and e.select and f.from == e.select[1] and f.to == e.select[2] and f.default
    and layout.get().by_key[e.word .. ':' .. f.default] then
    return '' -- the default would make the card a variant: the base entry's template leaves it blank
  end
  return f.default or ''
end

-- The text of one template line of `row`, with values; lines end after the last numeric field
-- (so that <Tab> and Replace mode reach every field), otherwise after their last non-blank.
local function row_line(e, row, values, is_head)
  local parts, col, pad = {}, 1, 0
  for _, f in ipairs(row.fields) do
    if f.from > col then
      parts[#parts + 1] = rep(' ', f.from - col)
    end
    local text
    if f.code == layout.KW then
      text = (e.word .. rep(' ', 6)):sub(1, 6) .. '/ '
    elseif f.code == layout.FIXED then
      text = M.cell(f, f.name)
    elseif f.code == layout.BLANK or f.code == layout.CONT then
      text = M.cell(f, values and values[f.name] or '')
    else
      text = M.cell(f, value_of(e, f, values, is_head))
      if NUMERIC[f.code] then
        pad = f.to
      end
    end
    parts[#parts + 1] = text
    col = f.to + 1
  end
  local line = table.concat(parts):gsub(' +$', '')
  if is_head and #line < 8 then
    line = line .. rep(' ', 8 - #line)
    line = line:gsub(' +$', '')
  end
  if #line < pad then
    line = line .. rep(' ', pad - #line)
  end
  return line
end

-- Whether an `if` row holds for the lines built so far, as nvimpam.model.rows reads it.
local function holds(row, built)
  local at = built[row.cond_row]
  if not at then
    return false
  end
  local f = at.row.fields[row.cond_index]
  return rows.condition_holds(row, at.line, f.from, f.to)
end

local function count_of(row, built)
  local at = built[row.count_row]
  if not at then
    return 0
  end
  local f = at.row.fields[row.count_index]
  return math.min(rows.repeat_count(at.line, f.from, f.to), M.MAX_REPEAT)
end

local function title_of(e)
  local head = match(e.description or '', '^([^:]+):') or e.key
  return sub(head, 1, 76)
end

--- The lines of the template of entry `e`: for each row it takes, its `$#` header (when it has
--- fields to name) and its line. `opts.values` gives field values by name (the fields' text,
--- which also decides `if` rows and `repeat` counts, and writes the optional `when` rows it gives
--- a field of); `opts.headers = false` leaves the headers out.
---@param e table an entry of the layout table
---@param opts? table { values = { FIELD = text }, headers = boolean }
---@return string[]
function M.lines(e, opts)
  opts = opts or {}
  local values = opts.values
  local with_headers = opts.headers ~= false
  local out, built = {}, {}
  local function add(row, line)
    if with_headers then
      local h = fieldheader.line(row)
      if h then
        out[#out + 1] = h
      end
    end
    out[#out + 1] = line
  end
  for r, row in ipairs(e.rows) do
    local k = row.kind
    if k == layout.ROW or k == layout.IF then
      if k == layout.ROW or holds(row, built) then
        local line = row_line(e, row, values, r == 1)
        built[r] = { row = row, line = line }
        add(row, line)
      end
    elseif k == layout.NAME then
      local f = row.fields[2]
      local title = values and values[f and f.name or 'TITLE'] or title_of(e)
      local line = ('NAME ' .. title):gsub(' +$', '')
      built[r] = { row = row, line = line }
      add(row, line)
    elseif k == layout.REPEAT then
      local n = count_of(row, built)
      for _ = 1, n do
        local line = row_line(e, row, values, false)
        built[r] = { row = row, line = line }
        add(row, line)
      end
    elseif k == layout.GES then
      out[#out + 1] = '        END'
    elseif k == layout.END then
      out[#out + 1] = row.word
    elseif k == layout.WHEN then
      -- optional: written only when `values` gives one of its fields
      local given = false
      for _, f in ipairs(row.fields) do
        given = given or (values ~= nil and values[f.name] ~= nil)
      end
      if given then
        local line = row_line(e, row, values, false)
        built[r] = { row = row, line = line }
        add(row, line)
      end
    elseif k == layout.UNTIL then
      -- one line of the row (a FUNCT's first point), then the word's line under its first field
      local line = row_line(e, row, values, false)
      built[r] = { row = row, line = line }
      add(row, line)
      out[#out + 1] = rep(' ', row.fields[1] and row.fields[1].from - 1 or 0) .. row.word
    end
    -- block and key rows are optional: a template leaves them out.
  end
  return out
end

return M
