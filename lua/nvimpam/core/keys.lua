-- The buffer-local mappings nvimpam knows: each one's name in the `mappings` option, default key,
-- modes and :help text, with the option's default and its validation. Data only: what a key does
-- is bound where it is set (nvimpam.mappings for pamcrash buffers, nvimpam.deck.parts for the
-- parts table), so that the configuration needs none of the modules the keys call.
local M = {}

local lsp_keys = require('nvimpam.core.compat').lsp_default_keys

--- Every mapping: its option name, default key, modes, what it does (the :help text).
M.specs = {
  { name = 'field_next', key = '<Tab>', modes = { 'n' }, desc = 'next field start' },
  { name = 'field_prev', key = '<S-Tab>', modes = { 'n' }, desc = 'previous field start' },
  { name = 'insert_field_next', key = '<Tab>', modes = { 'i' }, desc = 'next field start (Insert and Replace mode)' },
  { name = 'card_next', key = ']]', modes = { 'n', 'x', 'o' }, desc = 'next card' },
  { name = 'card_prev', key = '[[', modes = { 'n', 'x', 'o' }, desc = 'previous card' },
  { name = 'field_inner', key = 'if', modes = { 'x', 'o' }, desc = 'the value of the field under the cursor',
    object = 'field', inner = true },
  { name = 'field_outer', key = 'af', modes = { 'x', 'o' }, desc = 'the field under the cursor, all its columns',
    object = 'field', inner = false },
  { name = 'card_inner', key = 'ic', modes = { 'x', 'o' }, desc = 'the card under the cursor',
    object = 'card', inner = true },
  { name = 'card_outer', key = 'ac', modes = { 'x', 'o' }, desc = 'the card under the cursor and the comments above it',
    object = 'card', inner = false },
  { name = 'field_doc', key = 'K', modes = { 'n' }, desc = "the field under the cursor: its doc in a floating window" },
  -- nvimpam.ids (:help nvimpam-navigation); grr, grn and gO where Neovim 0.11+ has them as LSP defaults
  { name = 'goto_definition', key = 'gd', modes = { 'n' }, desc = 'go to the definition of the id under the cursor' },
  { name = 'references', key = lsp_keys and 'grr' or false, modes = { 'n' },
    desc = 'references to the id under the cursor in the quickfix list' },
  { name = 'rename', key = lsp_keys and 'grn' or false, modes = { 'n' },
    desc = 'rename the id under the cursor' },
  { name = 'outline', key = lsp_keys and 'gO' or false, modes = { 'n' },
    desc = "the deck's outline in a picker" },
  -- nvimpam.deck.parts: keys of the :NvimpamParts table buffer (parts = true), not of pamcrash buffers
  { name = 'parts_sort', key = 's', modes = { 'n' }, parts = true,
    desc = 'parts table: sort by the column under the cursor (again: the other way)' },
  { name = 'parts_jump', key = '<CR>', modes = { 'n' }, parts = true,
    desc = 'parts table: go to the card of the line' },
  { name = 'parts_refresh', key = 'R', modes = { 'n' }, parts = true,
    desc = 'parts table: compute it again from the saved files' },
}

--- The default of the `mappings` option: name -> key.
---@return table<string, string>
function M.defaults()
  local out = {}
  for _, s in ipairs(M.specs) do
    out[s.name] = s.key
  end
  return out
end

--- Raises an error naming the valid names for a `mappings` option that is not false or a table
--- of name -> key (a string) or false.
---@param value any
function M.validate(value)
  if value == false then
    return
  end
  if type(value) ~= 'table' then
    error(string.format('nvimpam: option mappings: expected a table or false, got %s', vim.inspect(value)), 0)
  end
  local names = {}
  for _, s in ipairs(M.specs) do
    names[s.name] = true
  end
  for k, v in pairs(value) do
    if not names[k] then
      local list = vim.tbl_keys(names)
      table.sort(list)
      error(string.format("nvimpam: unknown mapping '%s'; valid names: %s", tostring(k), table.concat(list, ', ')), 0)
    end
    if v ~= false and (type(v) ~= 'string' or v == '') then
      error(string.format('nvimpam: mapping %s: expected a key (a string) or false, got %s', k, vim.inspect(v)), 0)
    end
  end
end

return M
