-- The pickers of nvimpam (the outline, the card templates): vim.ui.select when a picker plugin
-- replaced it; else a list in a floating window. Neovim's own vim.ui.select asks through
-- inputlist(), which pages a long list (the 400 templates) behind a more-prompt that q and <Esc>
-- do not close on 0.12. The list closes with q, <Esc> and <C-c> on every version, and picks with
-- <CR> (or a double click).
local M = {}

local api = vim.api
local float = require('nvimpam.ui.float')

--- Whether vim.ui.select is Neovim's own (no picker plugin replaced it).
---@return boolean
function M.builtin()
  local info = debug.getinfo(vim.ui.select, 'S')
  return info ~= nil and (info.source or ''):match('vim/ui%.lua$') ~= nil
end

--- vim.ui.select(items, opts, on_choice), or the floating list when vim.ui.select is Neovim's own.
--- `on_choice(item, index)` runs once: with nil when the list is closed without a pick.
---@param items any[]
---@param opts { prompt?: string, format_item?: fun(item: any): string }
---@param on_choice fun(item: any, index: integer|nil)
function M.select(items, opts, on_choice)
  if not M.builtin() then
    return vim.ui.select(items, opts, on_choice)
  end
  local format_item = opts.format_item or tostring
  local lines = {}
  for i, it in ipairs(items) do
    lines[i] = format_item(it)
  end
  local picked
  local win, buf, close = float.open(lines, { title = opts.prompt, on_close = function()
    on_choice(picked and items[picked] or nil, picked)
  end })
  vim.wo[win].cursorline = true
  for _, key in ipairs({ '<CR>', '<2-LeftMouse>' }) do
    vim.keymap.set('n', key, function()
      picked = api.nvim_win_get_cursor(win)[1]
      close()
    end, { buffer = buf, nowait = true, silent = true })
  end
  return win
end

return M
