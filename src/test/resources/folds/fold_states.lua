-- The fold tree of window `win` and whether each of its folds is closed, read in copies of the
-- window (a split copies the folds with their states), so that the window itself is not changed
-- and no autocmd tells nvimpam of them. Returns start, end, depth, closed (0 or 1) per fold, sorted
-- by start, then end descending. The tree is read by soak/window_folds.lua (`reader`, its source);
-- a fold's own state is read with its parents open (a closed parent is opened in the copy).
local win, reader = ...
local function copy_of()
  return vim.api.nvim_win_call(win, function()
    vim.cmd('noautocmd split')
    return vim.api.nvim_get_current_win()
  end)
end
local function close(w)
  vim.cmd('noautocmd call nvim_win_close(' .. w .. ', v:true)')
end
local first = copy_of()
local read_ok, tree = pcall(loadstring(reader), first)
close(first)
if not read_ok then
  error(tree, 0)
end
local copy = copy_of()
local out = {}
local ok, err = pcall(vim.api.nvim_win_call, copy, function()
  local fn = vim.fn
  for i = 1, #tree, 3 do
    local s, e = tree[i], tree[i + 1]
    -- Every parent of this fold is open by now: the closed fold at s, if any, is this one.
    local closed = fn.foldclosed(s) == s and fn.foldclosedend(s) == e
    vim.list_extend(out, { s, e, tree[i + 2], closed and 1 or 0 })
    if closed then
      vim.cmd(s .. 'foldopen')
    end
  end
end)
close(copy)
if not ok then
  error(err, 0)
end
return out
