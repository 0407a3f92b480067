-- The codes of the card-layout table (docs/CARDS.md): field types, row kinds, categories and id
-- kinds, shared by its parse and by every reader of its entries (nvimpam.model.layout re-exports
-- them).
local M = {}

--- Type codes (row.type[i], field.code).
M.KW, M.FIXED, M.INT, M.INT_OR_BLANK, M.FLOAT, M.STR, M.BLANK, M.FLAGS, M.CHOICE, M.CONT =
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10
M.TYPES = {
  kw = M.KW, fixed = M.FIXED, int = M.INT, int_or_blank = M.INT_OR_BLANK, float = M.FLOAT,
  str = M.STR, blank = M.BLANK, flags = M.FLAGS, choice = M.CHOICE, cont = M.CONT,
}
--- The field types aligned to the right unless align= says otherwise.
M.RIGHT = { int = true, int_or_blank = true, float = true, flags = true, choice = true }

--- Row kinds (row.kind).
M.ROW, M.NAME, M.IF, M.REPEAT, M.GES, M.BLOCK, M.END, M.WHEN, M.UNTIL, M.KEY = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10


--- The categories of a card line.
M.CATEGORIES = {}
for _, c in ipairs({ 'Node', 'Element', 'Link', 'Part', 'Material', 'Contact', 'Constraint', 'Load',
  'Auxiliary', 'Output', 'Control', 'Safety', 'Other' }) do
  M.CATEGORIES[c] = true
end

--- The bundled table's folder: lua/nvimpam/layout.
---@return string
function M.default_dir()
  -- lua/nvimpam/model/layout/codes.lua -> lua/nvimpam/layout
  local src = debug.getinfo(1, 'S').source:sub(2)
  return (src:match('^(.*)[/\\][^/\\]+[/\\][^/\\]+[/\\][^/\\]+$') or '.') .. '/layout'
end

--- `s` without blanks around it.
---@param s string
---@return string
function M.trim(s)
  return (s:gsub('^%s+', ''):gsub('%s+$', ''))
end

--- The id kinds, in the order of layout/KINDS (one `NAME | description` a line), which the JVM
--- reads too (org.nvimpam.deck.CardLayouts.KINDS): { 'node', 'element', ... }.
M.KINDS = {}
--- The same as a set: name -> true.
M.KIND_SET = {}
for line in io.lines(M.default_dir() .. '/KINDS') do
  local name = M.trim((line:gsub('|.*$', '')))
  if name ~= '' and not name:match('^#') then
    M.KINDS[#M.KINDS + 1] = name
    M.KIND_SET[name] = true
  end
end

return M
