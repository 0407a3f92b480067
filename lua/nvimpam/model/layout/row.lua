-- One step of the card-layout table's parse (nvimpam.model.layout.parse): a row line (`row`, `row
-- name`, `row if=F:V`, `row repeat=F`, `row when=W`, `row until=W`, `row key=W`, `ges`, `block`,
-- `end`), checked and added to the card or fragment being read.
local M = {}

local codes = require('nvimpam.model.layout.codes')

local function label_of(tok)
  return tok and tok:match('^label=(.+)$')
end

--- Reads a row line into `p.target`'s rows; it becomes `p.row`, the row later field lines add to.
---@param p table the parse: { target (the card or fragment read), row, line, fail(fmt, ...) }
---@param toks string[] the line's words
function M.line(p, toks)
  local target, fail = p.target, p.fail
  if not target then
    fail('a row outside a card or fragment')
  end
  local kind = toks[1]
  local r = { fields = {}, line = p.line }
  local rest_from = 2
  if kind == 'row' then
    local t = toks[2]
    if t == 'name' then
      r.kind, r.kind_name, rest_from = codes.NAME, 'name', 3
    elseif t and t:match('^if=') then
      local f, sep, v = t:match('^if=([^:!,]+)([:!])([^:!,]+[^:!]*)$')
      if not f or v:match(',,') or v:match(',$') then
        fail('"%s" is not if=FIELD:VALUE (or FIELD:V1,V2 for any of them, FIELD!V1,V2 for none of them)', t)
      end
      r.kind, r.kind_name, r.cond_field, r.cond_value, rest_from = codes.IF, 'if', f, v, 3
      r.cond_sep, r.cond_negated, r.cond_values = sep, sep == '!', vim.split(v, ',', { plain = true })
    elseif t and (t:match('^when=') or t:match('^until=')) then
      local which, w = t:match('^(%a+)=(.*)$')
      if not w:match('^%u[%u%d_]*$') then
        fail('"%s" is not %s=WORD (a word in capitals)', t, which)
      end
      r.kind, r.kind_name, r.word, rest_from = which == 'when' and codes.WHEN or codes.UNTIL, which, w, 3
    elseif t and t:match('^key=') then
      local w = t:match('^key=(.*)$')
      if not w:match('^%u[%u%d_]*$') then
        fail('"%s" is not key=WORD (a word in capitals)', t)
      end
      r.kind, r.kind_name, r.word, rest_from = codes.KEY, 'key', w, 3
    elseif t and t:match('^repeat=') then
      local f = t:match('^repeat=(.+)$')
      if not f then
        fail('"%s" is not repeat=FIELD', t)
      end
      r.kind, r.kind_name, r.count_field, rest_from = codes.REPEAT, 'repeat', f, 3
    else
      r.kind, r.kind_name = codes.ROW, 'row'
    end
    if toks[rest_from] then
      r.label = label_of(toks[rest_from])
      if not r.label then
        fail('unexpected "%s" in a row line', toks[rest_from])
      end
      rest_from = rest_from + 1
    end
  elseif kind == 'ges' then
    r.kind, r.kind_name = codes.GES, 'ges'
    if toks[2] then
      r.ges_label = label_of(toks[2]) or toks[2]
    end
    rest_from = 3
  elseif kind == 'block' then
    r.kind, r.kind_name = codes.BLOCK, 'block'
    r.start_word, r.end_word = toks[2], toks[3]
    if not r.end_word then
      fail('a block needs START and END words')
    end
    rest_from = 4
    if toks[4] then
      r.label = label_of(toks[4])
      if not r.label then
        fail('unexpected "%s" in a block line', toks[4])
      end
      rest_from = 5
    end
  else -- end
    r.kind, r.kind_name, r.word = codes.END, 'end', toks[2]
    if not r.word then
      fail('an end row needs its WORD')
    end
    rest_from = 3
  end
  if toks[rest_from] then
    fail('unexpected "%s" in a %s line', toks[rest_from], kind)
  end
  target.rows[#target.rows + 1] = r
  p.row = r
end

return M
