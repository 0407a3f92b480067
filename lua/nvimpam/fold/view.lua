-- What a window shows of a buffer's folds, kept across a refresh: its view (winsaveview()),
-- 'foldlevel', and the open/closed state of every fold that still exists after the refresh
-- (matched by range, after shifting by the edits made since).
local M = {}

local api = vim.api
local fn = vim.fn
local plan = require('nvimpam.fold.plan')
local state = require('nvimpam.fold.state')

local key, shift = plan.key, state.shift

--- Whether the current window has a closed fold at exactly lines s to e.
---@param s integer
---@param e integer
---@return boolean
function M.closed_at(s, e)
  return fn.foldclosed(s) == s and fn.foldclosedend(s) == e
end

local closed_at = M.closed_at

-- The depth of a fold [s, e] of a plan, read backwards (parents first): 2 for a level-1 fold
-- inside the last level-2 fold met, [ps, pe], else 1.
local function depth(level2, s, e, ps, pe)
  return (not level2 and s >= ps and e <= pe) and 2 or 1
end

-- Reads, in the current window, whether each fold of the previous plan is open, keyed by its range
-- in today's numbering. Parents come first so a closed parent can be opened to read its members.
-- A fold counts only while the window still has a fold that deep at its start: after a reload or
-- a user's zE the old folds are gone, and "not closed" must not read as "open".
local function read_states(st)
  local states = {}
  local p, edits = st.plan, st.edits
  local ps, pe = -1, -2
  for f = p.n - 1, 0, -1 do
    local level2 = p.count(f) > 0
    local s, e = shift(p.s(f), p.e(f), edits)
    if level2 then
      ps, pe = s or -1, e or -2
    end
    if s then
      if fn.foldlevel(s) >= depth(level2, s, e, ps, pe) then
        local closed = closed_at(s, e)
        if closed and level2 then
          api.nvim_command(s .. 'foldopen') -- so that its members can be read
        end
        states[key(s, e)] = not closed
      end
    end
  end
  return states
end

-- Puts back the open/closed state the user gave to folds that still exist, after 'foldlevel' set
-- every fold to its default (open when its depth is at most 'foldlevel').
local function restore_states(st, states, foldlevel)
  if next(states) == nil then
    return
  end
  local p = st.plan
  local opened, closed = {}, {}
  local ps, pe = -1, -2
  for f = p.n - 1, 0, -1 do
    local s, e = p.s(f), p.e(f)
    local level2 = p.count(f) > 0
    if level2 then
      ps, pe = s, e
    end
    local want = states[key(s, e)]
    if want ~= nil then
      local default_open = depth(level2, s, e, ps, pe) <= foldlevel
      if want and not default_open then
        opened[#opened + 1] = f
      elseif not want and default_open then
        closed[#closed + 1] = f
      end
    end
  end
  -- Parents first: opening a member inside a closed parent opens the parent on the way.
  for _, f in ipairs(opened) do
    local s, e = p.s(f), p.e(f)
    while fn.foldclosed(s) ~= -1 and not closed_at(s, e) do
      api.nvim_command(s .. 'foldopen')
    end
    if fn.foldclosed(s) == s then
      api.nvim_command(s .. 'foldopen')
    end
  end
  -- Members first: `:S,Efoldclose` closes the innermost open folds in the range.
  for j = #closed, 1, -1 do
    local f = closed[j]
    if fn.foldclosed(p.s(f)) == -1 then
      api.nvim_command(p.s(f) .. ',' .. p.e(f) .. 'foldclose')
    end
  end
end

--- Saves what window `win`, the current one, shows: its view, 'foldlevel' and (while its folds are
--- manual, so made from st.plan) the state of each fold of st.plan.
---@param st nvimpam.BufferState
---@param win integer
---@return nvimpam.WindowView
function M.save(st, win)
  local w = { win = win, view = fn.winsaveview(), foldlevel = vim.wo.foldlevel }
  -- After the view: reading the states opens closed parents.
  w.states = vim.wo.foldmethod == 'manual' and read_states(st) or {}
  return w
end

--- Puts back, in the current window, what save() saved, over the folds of st.plan.
---@param st nvimpam.BufferState
---@param w nvimpam.WindowView
function M.restore(st, w)
  api.nvim_command('setlocal foldlevel=' .. w.foldlevel)
  restore_states(st, w.states, w.foldlevel)
  fn.winrestview(w.view)
end

return M
