-- Buffer numbers as the API takes them.
local M = {}

local api = vim.api

--- The buffer `buf` names: itself, or the current buffer for 0 or nil.
---@param buf integer?
---@return integer
function M.nr(buf)
  return (buf == nil or buf == 0) and api.nvim_get_current_buf() or buf
end

return M
