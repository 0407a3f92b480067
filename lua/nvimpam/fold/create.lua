-- Creating a plan's folds in a window: by Neovim's foldCreate() (nvimpam.fold.native) where it can be
-- called, else by `:fold` commands; and, when one fails, which fold it was. apply() is the whole
-- refresh in one call, the `lua` strategy.
local M = {}

local api = vim.api
local fn = vim.fn
local native = require('nvimpam.fold.native')
local plan = require('nvimpam.fold.plan')
local state = require('nvimpam.fold.state')
local frame = require('nvimpam.fold.frame')

local bufnr = state.bufnr
local fold_command = plan.fold_command

-- Whether foldCreate() (nvimpam.fold.native) may make plan p's folds in buffer `buf`: it can be called
-- here, and every fold lies inside the buffer (foldCreate() does not check; the :fold commands name
-- the first fold outside). Asked once per refresh, for all its windows.
local function natively_creatable(p, buf)
  if not native.creator() or not p.bounds or p.n == 0 then
    return false
  end
  local count, bounds = api.nvim_buf_line_count(buf), p.bounds
  for f = 0, 2 * p.n - 1, 2 do
    local s, e = bounds[f], bounds[f + 1]
    if s < 1 or e < s or e > count then
      return false
    end
  end
  return true
end

-- Creates the folds of plan p, which natively_creatable() accepted, in the current window by
-- calling foldCreate(); false, with no folds made, when the window's folds are not manual or the
-- first fold came out other than asked (then never again this session).
local function create_natively(p)
  local create = native.creator()
  if not create or vim.wo.foldmethod ~= 'manual' then
    return false
  end
  local count, bounds = api.nvim_buf_line_count(0), p.bounds
  local s, e = bounds[0], bounds[1]
  create(s, e)
  -- The only fold so far: lines s to e at level 1, their neighbours at 0 ('foldminlines' may keep
  -- a short fold from showing closed, so foldclosed() cannot tell).
  local level = fn.foldlevel
  if level(s) ~= 1 or level(e) ~= 1 or (s > 1 and level(s - 1) ~= 0) or (e < count and level(e + 1) ~= 0) then
    native.disable(string.format('foldCreate() gave lines %d-%d fold levels %d-%d', s, e, level(s), level(e)))
    api.nvim_command('normal! zE')
    return false
  end
  for f = 2, 2 * p.n - 1, 2 do
    create(bounds[f], bounds[f + 1])
  end
  return true
end

-- Creates plan p's folds in the current window one `:fold` command at a time, from no folds; nil,
-- or the error value (see contract.properties) naming the first that fails, counted from 1 in
-- plan order. The one place that names a failing fold, for every strategy that runs commands.
local function one_by_one(p)
  local cmd = api.nvim_command
  local f = 0
  local ok, err = pcall(function()
    while f < p.n do
      cmd(fold_command(p, f))
      f = f + 1
    end
  end)
  if not ok then
    return { code = 'fold_failed', message = (tostring(err):gsub('^.-Vim%(%a*%):', '')), fold = f + 1, of = p.n,
             lines = { p.s(f), p.e(f) } }
  end
end

-- Creates the plan's folds in the current window; nil, or the error value naming the failing
-- fold. Natively where `natively` (what natively_creatable() said) and the window allow, else by
-- commands: with `cmds`, the plan's commands in one string of newline-separated lines of
-- '|'-joined commands, nvimpam#execute_lines() runs them from C (a Lua loop of nvim_command costs
-- a fifth more); when one fails, the folds are made again one by one to name it.
local function create_folds(p, cmds, natively)
  if natively and create_natively(p) then
    return
  end
  if cmds then
    local ok = pcall(fn['nvimpam#execute_lines'], cmds)
    if ok then
      return
    end
    api.nvim_command('normal! zE')
  end
  return one_by_one(p)
end

--- An error as the JVM and the VimL side exchange it (lua/nvimpam/contract.properties).
---@alias nvimpam.ErrorValue { code: string, message: string, fold: integer?, of: integer?, lines: integer[]? }

---@class nvimpam.Applied
---@field ok integer? the number of folds made in each window
---@field native boolean? whether the next plan can come without its commands
---@field error nvimpam.ErrorValue? why no folds were made

--- The whole refresh in one call: the `lua` strategy. Returns { ok = folds per window, native =
--- whether the next plan can come without its commands (nvimpam.fold.native creates the folds) }, or
--- { error = value } with no folds left behind: a returned value reaches the JVM whole, where a
--- table raised by error() arrives as NULL.
---@param p nvimpam.PlanMessage
---@return nvimpam.Applied
function M.apply(p)
  local wins = frame.prepare(p)
  local buf = bufnr(p.buf)
  local st = state.find(buf)
  local failed
  local ok, err = pcall(function()
    local natively = natively_creatable(st.plan, buf)
    for _, win in ipairs(wins) do
      api.nvim_win_call(win, function()
        failed = failed or create_folds(st.plan, p.cmds, natively)
      end)
    end
  end)
  if not ok then
    failed = { code = 'failed', message = tostring(err) }
  end
  frame.finish(p.buf, failed ~= nil)
  if failed then
    return { error = failed }
  end
  return { ok = st.plan.n, native = M.creates_natively() }
end

--- Whether the next plan can come without its commands: nvimpam.fold.native creates the folds.
---@return boolean
function M.creates_natively()
  return native.creator() ~= nil
end

--- The `viml` strategy's native step: creates the prepared plan's folds by foldCreate() in each of
--- `wins`, and returns the windows where that could not be done (no folds made there), for
--- nvimpam#apply() to run the commands in.
---@param buf integer? 0 or nil for the current buffer
---@param wins integer[]
---@return integer[] left
function M.create_natively_in(buf, wins)
  buf = bufnr(buf)
  local p = state.get(buf).plan
  if not natively_creatable(p, buf) then
    return wins
  end
  local left = {}
  for _, win in ipairs(wins) do
    if not api.nvim_win_call(win, function()
          return create_natively(p)
        end) then
      left[#left + 1] = win
    end
  end
  return left
end

--- The `S,Efold` commands of the plan prepared or last applied for `buf`, one per item: for
--- nvimpam#apply() when the JVM left them out (its last answer said that foldCreate() makes the
--- folds) and this time it cannot, and for the benchmark's floor.
---@param buf integer? 0 or nil for the current buffer
---@return string[]
function M.commands(buf)
  local p = state.get(bufnr(buf)).plan
  local cmds = {}
  for f = 0, p.n - 1 do
    cmds[f + 1] = fold_command(p, f)
  end
  return cmds
end

--- For nvimpam#apply() after running the prepared plan's commands failed with `exception`:
--- which fold failed, found again by clearing each of `wins` in turn and making the folds one by
--- one (execute() does not say which); the error value apply() returns too. Leaves folds behind:
--- finish(buf, true) removes them.
---@param buf integer? 0 or nil for the current buffer
---@param wins integer[]
---@param exception string the error that stopped the commands
---@return nvimpam.ErrorValue
function M.failing_fold(buf, wins, exception)
  local p = state.get(bufnr(buf)).plan
  for _, win in ipairs(wins) do
    local found
    api.nvim_win_call(win, function()
      api.nvim_command('normal! zE')
      found = one_by_one(p)
    end)
    if found then
      return found
    end
  end
  return { code = 'failed', message = (tostring(exception):gsub('^Vim%(%a*%):', '')) }
end

return M
