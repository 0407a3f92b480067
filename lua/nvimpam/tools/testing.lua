-- Hooks for the tests only: nothing in the product requires this module, and nothing here runs
-- unless a test calls it.
local M = {}

local state = require('nvimpam.fold.state')
local refold = require('nvimpam.fold.refold')

--- Why the last live refold of `buf` fell back to a whole refresh, or nil.
---@param buf integer? 0 or nil for the current buffer
---@return string?
function M.refold_error(buf)
  local st = state.find(state.bufnr(buf))
  return st and st.refold_error
end

local recording = false

--- From now on, every live refold's diff is kept in vim.g.nvimpam_debug_refold, as text: the
--- edits, the dirty lines, the folds created (as "S-E"), deleted, and the old folds that go (indexes).
---@return nil
function M.record_refolds()
  if recording then
    return
  end
  recording = true
  local diff = refold.diff
  refold.diff = function(st, p, spans)
    local create, delete, gone = diff(st, p, spans)
    local c = {}
    for _, f in ipairs(create) do
      c[#c + 1] = p.s(f) .. '-' .. p.e(f)
    end
    vim.g.nvimpam_debug_refold = vim.inspect({ edits = st.edits, spans = spans, create = c, delete = delete,
      gone = gone })
    return create, delete, gone
  end
end

return M
