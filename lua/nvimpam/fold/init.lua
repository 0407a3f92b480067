-- Applies fold plans computed by the nvimpam JVM to every window that shows a buffer: the entry
-- points the JVM, autoload/nvimpam.vim and the benchmark call. The work is done in the modules
-- under lua/nvimpam/fold/, one concern each:
--
--   plan.lua      reading a plan as the JVM sends it (its format is described there), in place
--   state.lua     per buffer: the plan last applied, the edit log since, the windows it went to
--   view.lua      what a window shows, kept across a refresh: view, 'foldlevel', fold states
--   frame.lua     begin(), adopt(), finish() and the like, which frame a refresh
--   create.lua    creating a plan's folds (foldCreate() or :fold), apply(), the failing fold
--   refold.lua    the live refold: only the folds that differ after an edit
--   foldtext.lua  'foldtext'
--
-- What the user had is kept: 'foldlevel', the view, and the open/closed state of every fold that
-- is still there after the refresh: the same card's fold, or the group that starts at the same
-- card, after the edits made since (nvimpam.fold.view).
local M = {}

local state = require('nvimpam.fold.state')
local frame = require('nvimpam.fold.frame')
local create = require('nvimpam.fold.create')

local bufnr = state.bufnr

-- The refresh, framed (nvimpam.fold.frame).
M.begin = frame.begin
M.adopt = frame.adopt
M.prepare = frame.prepare
M.stage = frame.stage
M.prepare_staged = frame.prepare_staged
M.finish = frame.finish

-- Creating the folds (nvimpam.fold.create).
M.apply = create.apply
M.creates_natively = create.creates_natively
M.create_natively_in = create.create_natively_in
M.commands = create.commands
M.failing_fold = create.failing_fold

-- The live refold (nvimpam.fold.refold) and 'foldtext' (nvimpam.fold.foldtext).
M.refold = require('nvimpam.fold.refold').refold
M.foldtext = require('nvimpam.fold.foldtext').foldtext

--- The plan a buffer's folds were last made from, as read (see nvimpam.fold.plan: n, and s, e,
--- name and count by fold index; for nvimpam#apply(), benchmarks and tests); a new table with
--- every new plan.
---@param buf integer? 0 or nil for the current buffer
---@return nvimpam.Plan
function M.applied(buf)
  return state.get(bufnr(buf)).plan
end

--- The buffer's changedtick when its folds were last applied (nil before the first time).
---@param buf integer? 0 or nil for the current buffer
---@return integer?
function M.applied_tick(buf)
  local st = state.find(bufnr(buf))
  return st and st.tick
end

--- When the buffer's folds were last put in place, in `hrtime()` nanoseconds (nil before
--- the first time): benchmarks time an edit to its folds on Neovim's own clock.
---@param buf integer? 0 or nil for the current buffer
---@return integer?
function M.applied_at(buf)
  local st = state.find(bufnr(buf))
  return st and st.applied_ns
end

--- Forgets a buffer's plan (benchmarks start every run from no plan).
---@param buf integer? 0 or nil for the current buffer
function M.forget(buf)
  state.forget(bufnr(buf))
end

return M
