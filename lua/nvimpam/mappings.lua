-- The buffer-local mappings of pamcrash buffers (field and card motions, text objects, <Tab> in
-- Insert and Replace mode) and their 'formatexpr'. attach(buf) sets them, from the options
-- `mappings` (a table of name -> key or false, or false for none) and `formatexpr`.
local M = {}

local api = vim.api
local keys_spec = require('nvimpam.core.keys')

-- What each key of a pamcrash buffer does, by its name in nvimpam.core.keys (the text objects,
-- `object` there, are set in set()).
local actions = {
  field_next = function() require('nvimpam.edit.motions').field_next() end,
  field_prev = function() require('nvimpam.edit.motions').field_prev() end,
  insert_field_next = function() require('nvimpam.edit.motions').insert_next() end,
  card_next = function() require('nvimpam.edit.motions').card_next() end,
  card_prev = function() require('nvimpam.edit.motions').card_prev() end,
  field_doc = function() require('nvimpam.view.cells.hint').show_info() end,
  goto_definition = function() require('nvimpam.ids').command('goto') end,
  references = function() require('nvimpam.ids').command('refs') end,
  rename = function() require('nvimpam.ids').rename_prompt() end,
  outline = function() require('nvimpam.ids').command('outline') end,
}

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
    vim.keymap.set(s.modes, key, actions[s.name], opts)
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
    for _, s in ipairs(keys_spec.specs) do
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
