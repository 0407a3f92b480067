-- The fold tree of window `...`, read from Neovim itself, not from nvimpam's Lua: for each depth d,
-- 'foldlevel' is set to d - 1 and every closed fold met is a fold of depth d. Returns a flat list
-- start, end, depth, ... sorted by start, then end descending. 'foldlevel' is put back; which
-- folds were open is not (reading closes them).
local win = ...
return vim.api.nvim_win_call(win, function()
  local last = vim.fn.line('$')
  local folds = {}
  local saved = vim.wo.foldlevel
  for depth = 1, 20 do
    vim.wo.foldlevel = depth - 1
    local found = false
    local l = 1
    while l <= last do
      local s = vim.fn.foldclosed(l)
      if s ~= -1 then
        local e = vim.fn.foldclosedend(l)
        if vim.fn.foldlevel(s) >= depth then
          folds[#folds + 1] = { s, e, depth }
          found = true
        end
        l = e + 1
      else
        l = l + 1
      end
    end
    if not found then
      break
    end
  end
  vim.wo.foldlevel = saved
  table.sort(folds, function(a, b)
    if a[1] ~= b[1] then
      return a[1] < b[1]
    end
    return a[2] > b[2]
  end)
  local flat = {}
  for _, f in ipairs(folds) do
    flat[#flat + 1] = f[1]
    flat[#flat + 1] = f[2]
    flat[#flat + 1] = f[3]
  end
  return flat
end)
