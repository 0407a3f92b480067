-- The calls that frame a refresh: begin() saves what every window shows of the buffer and clears
-- its folds, adopt() takes the new plan, finish() puts back what begin() saved. A strategy
-- creates the folds in between (nvimpam.fold.create, or the JVM's own commands); prepare() and
-- prepare_staged() are begin() and adopt() in one request.
local M = {}

local api = vim.api
local fn = vim.fn
local compat = require('nvimpam.core.compat')
local plan = require('nvimpam.fold.plan')
local state = require('nvimpam.fold.state')
local view = require('nvimpam.fold.view')

local bufnr = state.bufnr

--- The 'foldtext' of every window nvimpam folds.
M.FOLDTEXT = "v:lua.require'nvimpam.fold.foldtext'.foldtext()"

--- Starts a refresh of `buf`: remembers each window's view, 'foldlevel' and fold states (read
--- with the plan the folds were made from), then clears its folds. Returns the windows that show
--- the buffer and must get the folds. The new plan comes with prepare(), or later with adopt().
---@param buf integer? 0 or nil for the current buffer
---@return integer[] wins
function M.begin(buf)
  buf = bufnr(buf)
  local st = state.get(buf)
  local saved = {}
  for _, win in ipairs(fn.win_findbuf(buf)) do
    api.nvim_win_call(win, function()
      local w = view.save(st, win)
      vim.wo.foldmethod = 'manual'
      vim.wo.foldtext = M.FOLDTEXT
      api.nvim_command('normal! zE')
      saved[#saved + 1] = w
    end)
  end
  st.edits = {}
  st.wins = {}
  for _, w in ipairs(saved) do
    st.wins[w.win] = true
  end
  -- Applied only once finish() says so: a refresh cut short (the JVM gone) is not passed off as done.
  st.tick, st.pending_tick = nil, api.nvim_buf_get_changedtick(buf)
  st.saved, st.origin = saved, api.nvim_get_current_win()
  state.track_edits(buf, st)
  local wins = {}
  for i, w in ipairs(saved) do
    wins[i] = w.win
  end
  return wins
end

--- The plan of the refresh begun for `p.buf`: what finish() restores fold states by and the
--- fold texts are read from. The strategies that send their folds as separate commands send it
--- after them, so that its bytes travel while Neovim creates the folds.
---@param p nvimpam.PlanMessage
function M.adopt(p)
  local st = state.get(bufnr(p.buf))
  st.plan, st.names = plan.read(p), p.names
end

--- begin() and adopt() in one.
---@param p nvimpam.PlanMessage
---@return integer[] wins the windows that must get the folds
function M.prepare(p)
  local wins = M.begin(p.buf)
  M.adopt(p)
  return wins
end

--- Keeps a plan for prepare_staged(): the `viml` strategy sends the plan in a request of its own,
--- as a binary string only Lua can read, and the commands to run in the next one.
---@param p nvimpam.PlanMessage
function M.stage(p)
  state.get(bufnr(p.buf)).staged = p
end

--- prepare() with the plan staged for `buf`; raises an error when none is.
---@param buf integer? 0 or nil for the current buffer
---@return integer[] wins the windows that must get the folds
function M.prepare_staged(buf)
  local st = state.get(bufnr(buf))
  local p = st.staged
  st.staged = nil
  if not p then
    error('nvimpam: no staged plan for buffer ' .. tostring(buf), 0)
  end
  return M.prepare(p)
end

--- Ends a refresh started by prepare(): restores 'foldlevel', fold states, views and the current
--- window. With `failed` set, the partly created folds are removed instead, so that an error
--- never leaves half a fold tree behind.
---@param buf integer? 0 or nil for the current buffer
---@param failed boolean?
function M.finish(buf, failed)
  buf = bufnr(buf)
  local st = state.get(buf)
  if failed then
    st.plan, st.wins = plan.EMPTY, {}
  end
  for _, w in ipairs(st.saved or {}) do
    if api.nvim_win_is_valid(w.win) then
      api.nvim_win_call(w.win, function()
        if failed then
          api.nvim_command('normal! zE')
        end
        view.restore(st, w)
      end)
    end
  end
  if st.origin and api.nvim_win_is_valid(st.origin) then
    api.nvim_set_current_win(st.origin)
  end
  st.saved, st.origin = nil, nil
  if not failed then
    st.tick, st.applied_ns = st.pending_tick, compat.uv.hrtime()
  end
end

return M
