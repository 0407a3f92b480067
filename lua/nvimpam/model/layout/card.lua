-- Steps of the card-layout table's parse (nvimpam.model.layout.parse): a card line, `card KEY
-- CATEGORY VERSION [select=A-B] | DESCRIPTION`, read into a new card; and a card made complete
-- once its rows are read: fragments expanded, implicit fields, references resolved, compiled.
local M = {}

local codes = require('nvimpam.model.layout.codes')

--- A new card from a card line; raises through p.fail() for a malformed one or a card defined
--- twice (p.seen: 'KEY@VERSION' -> where).
---@param p table the parse: { file, line, seen, fail(fmt, ...) }
---@param toks string[] the line's words before `|`
---@param desc? string the description after `|`
---@return table card
function M.line(p, toks, desc)
  local fail, seen = p.fail, p.seen
  local key, cat, ver = toks[1 + 1], toks[3], toks[4]
  if not ver then
    fail('a card line is card KEY CATEGORY VERSION [select=A-B] | DESCRIPTION')
  end
  local word, variant = key:match('^([A-Z][A-Z0-9_]*):(%S+)$')
  if not word then
    word = key:match('^[A-Z][A-Z0-9_]*$')
  end
  if not word or #word > 6 then
    fail('"%s" is not a card key (a header word of up to 6 letters, digits, _ ; or WORD:VARIANT)', key)
  end
  if not codes.CATEGORIES[cat] then
    fail('unknown category "%s"', cat)
  end
  if not ver:match('^%d+$') then
    fail('version "%s" is not a year', ver)
  end
  local card = { key = key, word = word, variant = variant, category = cat, version = tonumber(ver),
    file = p.file, line = p.line, rows = {} }
  if toks[5] then
    local a, b = toks[5]:match('^select=(%d+)-(%d+)$')
    a, b = tonumber(a), tonumber(b)
    if not a or a < 1 or b < a or b > 80 then
      fail('"%s" is not select=A-B', toks[5])
    end
    if variant then
      fail('a variant (%s) has no select=', key)
    end
    card.select = { a, b }
  end
  if toks[6] then
    fail('unexpected "%s" in a card line', toks[6])
  end
  if not desc or desc == '' then
    fail('card %s has no description (| DESCRIPTION)', key)
  end
  card.description = desc
  local id = key .. '@' .. ver
  if seen[id] then
    fail('card %s %s is defined twice (first at %s)', key, ver, seen[id])
  end
  seen[id] = p.file .. ':' .. p.line
  return card
end

--- Completes `card` (nothing for a fragment or nil) and appends it to p.entries.
---@param p table the parse: { entries, line, fail(fmt, ...) }
---@param card? table
function M.finish(p, card)
  local fail = p.fail
  if not card or card.fragment then
    return
  end
  local saved_line = p.line
  p.line = card.line
  local rows = {}
  for _, r in ipairs(card.rows) do
    if r.use then
      for _, fr in ipairs(r.use.rows) do
        rows[#rows + 1] = fr
      end
    else
      rows[#rows + 1] = r
    end
  end
  if #rows == 0 then
    fail('card %s has no rows', card.key)
  end
  local compiled = {}
  for i, src in ipairs(rows) do
    local r = {}
    for k, v in pairs(src) do
      r[k] = v
    end
    if #r.fields == 0 and r.kind == codes.NAME then
      r.fields = {
        { from = 1, to = 4, type = 'fixed', code = codes.FIXED, name = 'NAME', align = 'left',
          description = 'Fixed text NAME', implicit = true },
        { from = 5, to = 80, type = 'str', code = codes.STR, name = 'TITLE', align = 'left',
          description = 'Title', implicit = true },
      }
    elseif #r.fields == 0 and r.kind == codes.END then
      r.fields = { { from = 1, to = #r.word, type = 'fixed', code = codes.FIXED, name = r.word, align = 'left',
        description = 'Fixed text ' .. r.word, implicit = true } }
    end
    r.n, r.from, r.to, r.type = #r.fields, {}, {}, {}
    for j, f in ipairs(r.fields) do
      r.from[j], r.to[j], r.type[j] = f.from, f.to, f.code
    end
    local function find(name, what)
      p.line = r.line or card.line
      for k = i - 1, 1, -1 do
        for j, f in ipairs(compiled[k].fields) do
          if f.name == name then
            return k, j, f
          end
        end
      end
      fail('card %s, row %d: %s field %s is in no earlier row', card.key, i, what, name)
    end
    if r.kind == codes.IF then
      local f
      r.cond_row, r.cond_index, f = find(r.cond_field, 'if=')
      r.cond_numeric = f.code == codes.INT or f.code == codes.INT_OR_BLANK
    elseif r.kind == codes.REPEAT then
      r.count_row, r.count_index = find(r.count_field, 'repeat=')
    elseif r.kind == codes.END and not card.end_word then
      card.end_word, card.end_row = r.word, i
    end
    compiled[i] = r
  end
  local head = compiled[1]
  if head.kind ~= codes.ROW or head.n == 0 or head.type[1] ~= codes.KW then
    fail('card %s: its first row must be its header row, with 1-8 kw first', card.key)
  end
  card.rows = compiled
  p.entries[#p.entries + 1] = card
  p.line = saved_line
end

return M
