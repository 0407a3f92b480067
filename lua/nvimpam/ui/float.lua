-- A floating window in the middle of the editor, for what is longer than the command line: a
-- picker's list, or a report (:NvimpamFoldInfo, :NvimpamFoldBench) that echoed would end in a
-- hit-enter prompt. It closes with q, <Esc> and <C-c> on every version.
local M = {}

local api = vim.api
local compat = require('nvimpam.core.compat')

--- Opens `lines` in a read-only scratch buffer in a centred float, entered.
--- `on_close` runs once, when the float closes by a key, or when it is left (a click elsewhere,
--- CTRL-W). With `stay` it stays open when left (a view that follows what is edited elsewhere:
--- :NvimpamPlot), and on_close runs when it closes in any way; `row` and `col` place it
--- elsewhere than the middle.
---@param lines string[]
---@param opts { title?: string, on_close?: fun(), stay?: boolean, row?: integer, col?: integer }
---@return integer win, integer buf, fun() close
function M.open(lines, opts)
  local width = vim.fn.strdisplaywidth(opts.title or '') + 2
  for _, l in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(l))
  end
  local buf = api.nvim_create_buf(false, true)
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].bufhidden = 'wipe'
  width = math.max(1, math.min(width, vim.o.columns - 4))
  local height = math.max(1, math.min(#lines, vim.o.lines - 6))
  local config = { relative = 'editor', width = width, height = height, style = 'minimal', border = 'single',
    row = opts.row or math.max(0, math.floor((vim.o.lines - height) / 2) - 1),
    col = opts.col or math.max(0, math.floor((vim.o.columns - width) / 2)) }
  if compat.float_title and opts.title then
    config.title = ' ' .. opts.title .. ' '
  end
  local win = api.nvim_open_win(buf, true, config)
  local closed = false
  local function close()
    if closed then
      return
    end
    closed = true
    if api.nvim_win_is_valid(win) then
      api.nvim_win_close(win, true)
    end
    if opts.on_close then
      opts.on_close()
    end
  end
  for _, key in ipairs({ 'q', '<Esc>', '<C-c>' }) do
    vim.keymap.set('n', key, close, { buffer = buf, nowait = true, silent = true })
  end
  if opts.stay then
    api.nvim_create_autocmd('WinClosed', { pattern = tostring(win), once = true, callback = function()
      vim.schedule(close)
    end })
  else
    -- Leaving the float closes it; not inside WinLeave, where a window cannot be closed.
    api.nvim_create_autocmd('WinLeave', { buffer = buf, once = true, callback = function()
      vim.schedule(close)
    end })
  end
  return win, buf, close
end

--- Shows `lines` in one message when they fit the command line (one line), else in a float:
--- never a hit-enter prompt.
---@param lines string[]
---@param title string
function M.show(lines, title)
  if #lines == 1 and vim.fn.strdisplaywidth(lines[1]) < vim.o.columns - 12 then
    api.nvim_echo({ { lines[1] } }, true, {})
    return
  end
  M.open(lines, { title = title })
end

return M
