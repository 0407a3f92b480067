-- Undo steps of nvimpam's own changes. Neovim closes the undo block when the user types a
-- command, but not between API calls: a change made through the API joins the change before it
-- when no key was typed in between (a command run from a mapping, a script, an RPC client, another
-- plugin), and `u` takes both. Every nvimpam command that changes a buffer makes its change
-- through M.step(), so that it is one undo step of its own.
local M = {}

local api = vim.api

--- Closes the undo block of `buf`: its next change starts a new undo step. Setting 'undolevels'
--- closes it, even to the value it has (:help undo-blocks); the global value, which closes the
--- block of the current buffer also where it has a value of its own, and changes neither. No
--- OptionSet autocommand sees it.
---@param buf integer
function M.close(buf)
  api.nvim_buf_call(buf, function()
    vim.cmd('noautocmd let &g:undolevels = &g:undolevels')
  end)
end

--- Runs `change`, which changes `buf` through the API, as one undo step of its own: the undo
--- block before it (the user's last change) is closed first, and its own after it, so that
--- neither joins the other. Call it only when there is something to change: a command that
--- changes nothing leaves no undo step. Returns what `change` returns; an error in `change`
--- is raised again (after the block is closed).
---@param buf integer
---@param change fun(): any
---@return any
function M.step(buf, change)
  M.close(buf)
  local ok, a, b, c = pcall(change)
  M.close(buf)
  if not ok then
    error(a, 0)
  end
  return a, b, c
end

return M
