-- One step of the card-layout table's parse (nvimpam.model.layout.parse): a field line, `FROM-TO TYPE
-- NAME [key=value ...] | DESCRIPTION`, checked and added to the row being read.
local M = {}

local codes = require('nvimpam.model.layout.codes')

local TYPES, RIGHT, KINDS = codes.TYPES, codes.RIGHT, codes.KIND_SET

--- Reads a field line into `p.row`; raises through p.fail() for a malformed one.
---@param p table the parse: { row (the row field lines add to), fail(fmt, ...) }
---@param toks string[] the line's words before `|`
---@param desc? string the description after `|`
function M.line(p, toks, desc)
  local row, fail = p.row, p.fail
  if not row then
    fail('a field outside a row: "%s"', table.concat(toks, ' '))
  end
  if row.kind == codes.GES or row.kind == codes.BLOCK then
    fail('a %s row has no fields', row.kind_name)
  end
  local a, b
  if row.kind == codes.KEY then -- the value's place on the value line, the next after the fields before it
    a = tonumber(toks[1]:match('^%d+$'))
    if a ~= #row.fields + 1 then
      fail('"%s" is not value place %d', toks[1], #row.fields + 1)
    end
    b = a
  else
    a, b = toks[1]:match('^(%d+)-(%d+)$')
    a, b = tonumber(a), tonumber(b)
    if not a then
      fail('"%s" is not a column range FROM-TO', toks[1])
    end
  end
  local tname, name = toks[2], toks[3]
  if not tname then
    fail('a field needs FROM-TO TYPE NAME')
  end
  if not TYPES[tname] then
    fail('unknown field type "%s" (kw, fixed, int, int_or_blank, float, str, blank, flags, choice, cont)', tname)
  end
  if not name then
    fail('a field needs a name after its type')
  end
  if a < 1 or b < a then
    fail('bad column range %d-%d', a, b)
  end
  if tname == 'cont' then
    if a ~= 81 or b ~= 81 then
      fail('a cont field is column 81 (81-81), not %d-%d', a, b)
    end
  elseif b > 80 then
    fail('field %s ends in column %d, past 80', name, b)
  end
  local last = row.fields[#row.fields]
  if last and a <= last.to then
    fail('field %s (%d-%d) overlaps or precedes field %s (%d-%d)', name, a, b, last.name, last.from, last.to)
  end
  local f = { from = a, to = b, type = tname, code = TYPES[tname], name = name }
  local given = {}
  for i = 4, #toks do
    local k, v = toks[i]:match('^([%a_]+)=(.+)$')
    if not k then
      fail('"%s" is not an attribute (key=value)', toks[i])
    end
    if given[k] then
      fail('attribute %s given twice', k)
    end
    given[k] = true
    if k == 'default' then
      f.default = v
    elseif k == 'def' or k == 'ref' then
      if not KINDS[v] then
        fail('unknown id kind "%s"', v)
      end
      f[k] = v
    elseif k == 'values' then
      if tname ~= 'choice' then
        fail('values= belongs to a choice field, not %s', tname)
      end
      f.values = vim.split(v, ',', { plain = true })
      f.value_set = {}
      for _, w in ipairs(f.values) do
        if w == '' then
          fail('an empty word in values=%s', v)
        end
        f.value_set[w] = true
      end
    elseif k == 'align' then
      if v ~= 'left' and v ~= 'right' then
        fail('align is left or right, not "%s"', v)
      end
      f.align = v
    else
      fail('unknown attribute "%s"', k)
    end
  end
  if row.kind == codes.KEY and ((tname ~= 'int' and tname ~= 'float') or f.def or f.ref) then
    fail('a key row\'s field is int or float, without def= or ref=')
  end
  if tname == 'choice' and not f.values then
    fail('choice field %s needs values=', name)
  end
  if tname == 'kw' and (a ~= 1 or b ~= 8) then
    fail('a kw field is columns 1-8, not %d-%d', a, b)
  end
  f.align = f.align or (RIGHT[tname] and 'right' or 'left')
  if not desc or desc == '' then
    fail('field %s has no description (| DESCRIPTION)', name)
  end
  f.description = desc
  row.fields[#row.fields + 1] = f
end

return M
