-- Page-by-page scrolling in the current window, timed inside Neovim (bench-cells): the window's
-- top line is put at `start`, then `pages` times <C-f> and :redraw, each timed on its own. With a
-- UI attached, :redraw draws the window into the grid and sends it to the UI (grid_line, flush)
-- before it returns, so each time covers the whole redraw of a page, decoration providers included,
-- and no RPC round trip. Returns { ms of each page..., top line at the end, lines the cells
-- looked at while paging (nvimpam's counter; -1 without nvimpam) }.
local start, pages = ...
local hrtime = (vim.uv or vim.loop).hrtime
vim.cmd('normal! ' .. start .. 'Gzt')
vim.cmd('redraw')
local cells = package.loaded['nvimpam.view.cells']
if cells then
  cells.reset_stats()
end
local ms = {}
for i = 1, pages do
  local t0 = hrtime()
  vim.cmd('normal! \6')
  vim.cmd('redraw')
  ms[i] = (hrtime() - t0) / 1e6
end
ms[#ms + 1] = vim.fn.line('w0')
ms[#ms + 1] = cells and cells.stats().lines or -1
return ms
