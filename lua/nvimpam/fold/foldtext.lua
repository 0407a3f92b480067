-- The text of a closed fold, read from the plan the buffer's folds were made from.
local M = {}

local api = vim.api
local fn = vim.fn
local plan = require('nvimpam.fold.plan')
local state = require('nvimpam.fold.state')

--- 'foldtext': " N lines: Name " for a card, " K Names " for a group (FOLDS.md §9). Folds the
--- user's edits have reshaped since the last refresh get Neovim's default text.
---@return string
function M.foldtext()
  local st = state.find(api.nvim_get_current_buf())
  local s, e = vim.v.foldstart, vim.v.foldend
  local f = st and plan.find(st.plan, s, e)
  if not f then
    return fn.foldtext()
  end
  local name = st.names[st.plan.name(f) + 1] or '?'
  local count = st.plan.count(f)
  if count > 0 then
    return ' ' .. count .. ' ' .. name .. 's '
  end
  return ' ' .. (e - s + 1) .. ' lines: ' .. name .. ' '
end

return M
