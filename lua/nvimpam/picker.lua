-- The pickers of nvimpam (the outline, the card templates): vim.ui.select when a picker plugin
-- replaced it; else a list in a floating window. Neovim's own vim.ui.select asks through
-- inputlist(), which pages a long list (the 400 templates) behind a more-prompt that q and <Esc>
-- do not close on 0.12. The list closes with q, <Esc> and <C-c> on every version, and picks with
-- <CR> (or a double click).
local M = {}

local api = vim.api

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
  local width = vim.fn.strdisplaywidth(opts.prompt or '') + 2
  for i, it in ipairs(items) do
    lines[i] = format_item(it)
    width = math.max(width, vim.fn.strdisplaywidth(lines[i]))
  end
  local buf = api.nvim_create_buf(false, true)
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = 'wipe'
  width = math.max(1, math.min(width, vim.o.columns - 4))
  local height = math.max(1, math.min(#lines, vim.o.lines - 6))
  local config = { relative = 'editor', width = width, height = height, style = 'minimal', border = 'single',
    row = math.max(0, math.floor((vim.o.lines - height) / 2) - 1), col = math.max(0, math.floor((vim.o.columns - width) / 2)) }
  if vim.fn.has('nvim-0.9') == 1 and opts.prompt then
    config.title = ' ' .. opts.prompt .. ' '
  end
  local win = api.nvim_open_win(buf, true, config)
  vim.wo[win].cursorline = true
  local done = false
  local function finish(index)
    if done then
      return
    end
    done = true
    if api.nvim_win_is_valid(win) then
      api.nvim_win_close(win, true)
    end
    on_choice(index and items[index] or nil, index)
  end
  local map = { buffer = buf, nowait = true, silent = true }
  for _, key in ipairs({ 'q', '<Esc>', '<C-c>' }) do
    vim.keymap.set('n', key, function()
      finish(nil)
    end, map)
  end
  for _, key in ipairs({ '<CR>', '<2-LeftMouse>' }) do
    vim.keymap.set('n', key, function()
      finish(api.nvim_win_get_cursor(win)[1])
    end, map)
  end
  -- Leaving the list (a click elsewhere, CTRL-W) closes it without a pick; not inside WinLeave.
  api.nvim_create_autocmd('WinLeave', { buffer = buf, once = true, callback = function()
    vim.schedule(function()
      finish(nil)
    end)
  end })
  return win
end

return M
