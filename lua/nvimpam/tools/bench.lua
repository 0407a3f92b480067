-- The benchmark's hooks inside Neovim (the `bench` command and :NvimpamFoldBench): clearing the
-- folds between runs, the floor, and the check that a strategy left exactly the plan's folds.
-- Nothing here runs while a user edits; lua/nvimpam/fold/init.lua is the product. The measures of
-- Neovim's own part of the strategies (`bench --floor-row` only) are in nvimpam.tools.bench_inside,
-- loaded when asked for.
local M = {}

local api = vim.api
local fn = vim.fn
local folds = require('nvimpam.fold')
local closed_at = require('nvimpam.fold.view').closed_at
local bufnr = require('nvimpam.core.buf').nr

local hrtime = require('nvimpam.core.compat').uv.hrtime

--- Clears a buffer's folds in every window that shows it, and collects Lua's garbage, so that
--- no timed run pays for the strings of the runs before it.
---@param buf integer? 0 or nil for the current buffer
function M.clear(buf)
  collectgarbage()
  for _, win in ipairs(fn.win_findbuf(bufnr(buf))) do
    api.nvim_win_call(win, function()
      vim.wo.foldmethod = 'manual'
      api.nvim_command('normal! zE')
    end)
  end
end

--- Forgets a buffer's plan and clears its folds (every timed run starts from here).
---@param buf integer? 0 or nil for the current buffer
function M.reset(buf)
  buf = bufnr(buf)
  folds.forget(buf)
  M.clear(buf)
end

-- The floor's commands, built once per plan and sizes outside the timed part: a Lua table, the
-- same list as a VimL variable, one newline-joined script, and lines of `per_line` commands
-- joined by '|' (as a list and as one newline-joined script, what `lua` and `viml` send).
local prebuilt = {}

-- Lines of `k` commands joined by '|'.
local function joined(cmds, k)
  local lines = {}
  for i = 1, #cmds, k do
    lines[#lines + 1] = table.concat(cmds, '|', i, math.min(#cmds, i + k - 1))
  end
  return lines
end

local function commands(buf, chunk, per_line)
  local plan = folds.applied(buf)
  local p = prebuilt
  if p.plan ~= plan or p.chunk ~= chunk or p.per_line ~= per_line then
    local cmds = folds.commands(buf)
    local lines = joined(cmds, per_line)
    p = { plan = plan, chunk = chunk, per_line = per_line, cmds = cmds, script = table.concat(cmds, '\n'),
          pipe = joined(cmds, chunk) }
    vim.g.nvimpam_bench_cmds = cmds
    vim.g.nvimpam_bench_lines = lines
    vim.g.nvimpam_bench_lines_script = table.concat(lines, '\n')
    prebuilt = p
  end
  return p
end

-- Ways to create the same folds from prebuilt `S,Efold` strings, with no RPC in between. The
-- floor is the fastest of them on the running Neovim.
local candidates = {
  ['execute-list'] = function()
    api.nvim_command('call execute(g:nvimpam_bench_cmds)')
  end,
  -- the lines `lua` and `viml` send, ready as a list
  ['execute-joined'] = function()
    api.nvim_command('call execute(g:nvimpam_bench_lines)')
  end,
  ['lua-loop'] = function(p)
    local cmd, cmds = api.nvim_command, p.cmds
    for k = 1, #cmds do
      cmd(cmds[k])
    end
  end,
}
-- 0.9+ (1.1x execute(list) on 0.12.4, 4.5x on 0.10.4; 0.7.2's nvim_exec is quadratic in lines)
if api.nvim_exec2 then
  candidates['exec2-script'] = function(p)
    api.nvim_exec2(p.script, {})
  end
end

local function names_of(t)
  local names = {}
  for name in pairs(t) do
    names[#names + 1] = name
  end
  table.sort(names)
  return names
end

--- The names of the floor's candidates on this Neovim.
---@return string[]
function M.floor_candidates()
  return names_of(candidates)
end

--- The names of the measures of Neovim's own part of the strategies (nvimpam.tools.bench_inside).
---@return string[]
function M.inside_measures()
  return names_of(require('nvimpam.tools.bench_inside'))
end

--- Prepares the floor's commands for the last applied plan (not timed): `chunk` folds per pipe
--- line, `per_line` per line of `lua` and `viml`.
---@param buf integer? 0 or nil for the current buffer
---@param chunk integer
---@param per_line integer
function M.floor_prepare(buf, chunk, per_line)
  commands(bufnr(buf), chunk, per_line)
end

--- One floor sample: creates the last applied plan's folds in the current window with the named
--- candidate (or inside measure), from what floor_prepare() built, and returns the milliseconds
--- it took. Call clear() first in a request of its own, as the strategies get reset() (Neovim
--- finishes a zE lazily).
---@param buf integer? 0 or nil for the current buffer
---@param name string
---@return number ms
function M.floor(buf, name)
  local p = prebuilt
  if p.plan ~= folds.applied(bufnr(buf)) then
    error('floor_prepare() was not called for the last applied plan', 0)
  end
  local run = candidates[name] or require('nvimpam.tools.bench_inside')[name]
  if not run then
    error('unknown floor candidate or measure ' .. tostring(name), 0)
  end
  local t0 = hrtime()
  run(p)
  return (hrtime() - t0) / 1e6
end

--- Checks that the first window showing `buf` has exactly the folds of the last plan, with their
--- ranges and nesting: closes everything, then opens the plan's folds parents first, each of which
--- must be closed at its own range when reached; afterwards no plan fold's start may still be
--- hidden. Returns the number of folds found, or -1 when there are extra folds; benchmarks compare
--- it with the plan's size, so that a broken strategy cannot look fast.
---@param buf integer? 0 or nil for the current buffer
---@return integer
function M.verify(buf)
  buf = bufnr(buf)
  local plan = folds.applied(buf)
  local n = plan.n
  local win = fn.win_findbuf(buf)[1]
  if not win then
    return 0
  end
  local found = 0
  api.nvim_win_call(win, function()
    local foldlevel = vim.wo.foldlevel
    api.nvim_command('normal! zM')
    for f = n - 1, 0, -1 do
      local s, e = plan.s(f), plan.e(f)
      if closed_at(s, e) then
        found = found + 1
        api.nvim_command(s .. 'foldopen')
      end
    end
    if found == n then
      for f = 0, n - 1 do
        if fn.foldclosed(plan.s(f)) ~= -1 then
          found = -1
          break
        end
      end
    end
    vim.wo.foldlevel = foldlevel
  end)
  return found
end

return M
