-- The buffer-local mappings of pamcrash buffers (field and card motions, text objects, <Tab> in
-- Insert and Replace mode) and their 'formatexpr'. attach(buf) sets them, from the options
-- `mappings` (a table of name -> key or false, or false for none) and `formatexpr`.
local M = {}

local api = vim.api
local lsp_keys = require('nvimpam.core.compat').lsp_default_keys

--- Every mapping: its option name, default key, modes, what it does (the :help text).
M.specs = {
  { name = 'field_next', key = '<Tab>', modes = { 'n' }, desc = 'next field start',
    rhs = function() require('nvimpam.edit.motions').field_next() end },
  { name = 'field_prev', key = '<S-Tab>', modes = { 'n' }, desc = 'previous field start',
    rhs = function() require('nvimpam.edit.motions').field_prev() end },
  { name = 'insert_field_next', key = '<Tab>', modes = { 'i' }, desc = 'next field start (Insert and Replace mode)',
    rhs = function() require('nvimpam.edit.motions').insert_next() end },
  { name = 'card_next', key = ']]', modes = { 'n', 'x', 'o' }, desc = 'next card',
    rhs = function() require('nvimpam.edit.motions').card_next() end },
  { name = 'card_prev', key = '[[', modes = { 'n', 'x', 'o' }, desc = 'previous card',
    rhs = function() require('nvimpam.edit.motions').card_prev() end },
  { name = 'field_inner', key = 'if', modes = { 'x', 'o' }, desc = 'the value of the field under the cursor',
    object = 'field', inner = true },
  { name = 'field_outer', key = 'af', modes = { 'x', 'o' }, desc = 'the field under the cursor, all its columns',
    object = 'field', inner = false },
  { name = 'card_inner', key = 'ic', modes = { 'x', 'o' }, desc = 'the card under the cursor',
    object = 'card', inner = true },
  { name = 'card_outer', key = 'ac', modes = { 'x', 'o' }, desc = 'the card under the cursor and the comments above it',
    object = 'card', inner = false },
  { name = 'field_doc', key = 'K', modes = { 'n' }, desc = "the field under the cursor: its doc in a floating window",
    rhs = function() require('nvimpam.view.cells').show_info() end },
  -- ids.lua (:help nvimpam-navigation); grr, grn and gO where Neovim 0.11+ has them as LSP defaults
  { name = 'goto_definition', key = 'gd', modes = { 'n' }, desc = 'go to the definition of the id under the cursor',
    rhs = function() require('nvimpam.ids').command('goto') end },
  { name = 'references', key = lsp_keys and 'grr' or false, modes = { 'n' },
    desc = 'references to the id under the cursor in the quickfix list',
    rhs = function() require('nvimpam.ids').command('refs') end },
  { name = 'rename', key = lsp_keys and 'grn' or false, modes = { 'n' },
    desc = 'rename the id under the cursor', rhs = function() require('nvimpam.ids').rename_prompt() end },
  { name = 'outline', key = lsp_keys and 'gO' or false, modes = { 'n' },
    desc = "the deck's outline in a picker", rhs = function() require('nvimpam.ids').command('outline') end },
  -- parts.lua: keys of the :NvimpamParts table buffer (parts = true), not of pamcrash buffers
  { name = 'parts_sort', key = 's', modes = { 'n' }, parts = true,
    desc = 'parts table: sort by the column under the cursor (again: the other way)',
    rhs = function() require('nvimpam.deck.parts').sort() end },
  { name = 'parts_jump', key = '<CR>', modes = { 'n' }, parts = true,
    desc = 'parts table: go to the card of the line', rhs = function() require('nvimpam.deck.parts').jump() end },
  { name = 'parts_refresh', key = 'R', modes = { 'n' }, parts = true,
    desc = 'parts table: compute it again from the saved files', rhs = function() require('nvimpam.deck.parts').refresh() end },
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

local function set(buf, s, key)
  local opts = { buffer = buf, silent = true, desc = 'nvimpam: ' .. s.desc }
  if s.object == 'field' then
    vim.keymap.set('x', key, function()
      require('nvimpam.edit.motions').select_field(s.inner)
    end, opts)
    vim.keymap.set('o', key, function()
      require('nvimpam.edit.motions').field_object(s.inner)
    end, opts)
  elseif s.object == 'card' then
    vim.keymap.set({ 'x', 'o' }, key, function()
      require('nvimpam.edit.motions').select_card(s.inner)
    end, opts)
  else
    vim.keymap.set(s.modes, key, s.rhs, opts)
  end
end

--- Sets the mappings (and 'formatexpr') of a pamcrash buffer, as the options say. Again on the
--- same buffer: the earlier ones are removed first.
---@param buf integer
function M.attach(buf)
  buf = require('nvimpam.core.buf').nr(buf)
  local c = require('nvimpam.core.config').get()
  M.detach(buf)
  local keys = c.mappings
  local set_keys = {}
  if keys ~= false then
    for _, s in ipairs(M.specs) do
      local key = keys[s.name]
      if key == nil then
        key = s.key
      end
      if key and not s.parts then
        set(buf, s, key)
        for _, m in ipairs(s.modes) do
          set_keys[#set_keys + 1] = { m, key }
        end
      end
    end
  end
  api.nvim_buf_set_var(buf, 'nvimpam_mappings', set_keys)
  if c.formatexpr then
    vim.bo[buf].formatexpr = "v:lua.require'nvimpam.edit.align'.formatexpr()"
  end
end

--- Removes the mappings attach() set on `buf` (and its 'formatexpr').
---@param buf integer
function M.detach(buf)
  local ok, list = pcall(api.nvim_buf_get_var, buf, 'nvimpam_mappings')
  if not ok or type(list) ~= 'table' then
    return
  end
  for _, mk in ipairs(list) do
    pcall(vim.keymap.del, mk[1], mk[2], { buffer = buf })
  end
  api.nvim_buf_set_var(buf, 'nvimpam_mappings', {})
  if vim.bo[buf].formatexpr == "v:lua.require'nvimpam.edit.align'.formatexpr()" then
    vim.bo[buf].formatexpr = ''
  end
end

return M
