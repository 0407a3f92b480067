-- For `bench --floor-row` only (nvimpam.tools.bench loads this when asked for these measures): Neovim's
-- own part of the strategies that send commands, what running them costs once they arrived, with
-- no RPC. Not floor candidates (they start from what a strategy receives, not from ready
-- commands); the floor row reports them, to show what no client can avoid. Each takes what
-- nvimpam.bench's floor_prepare() built: { plan = the applied plan, pipe = the pipe's lines, ... }.
local api = vim.api
local fn = vim.fn
local native = require('nvimpam.fold.native')

---@type table<string, fun(p: table)>
return {
  -- lua and viml: one string of '|'-joined lines, split() and execute() (nvimpam#execute_lines)
  ['split-execute'] = function()
    api.nvim_command('call nvimpam#execute_lines(g:nvimpam_bench_lines_script)')
  end,
  -- lua where Neovim's foldCreate() can be called (nvimpam.fold.native): that, over the plan's folds
  ['fold-create'] = native.creator() and function(p)
    local create, plan = native.creator(), p.plan
    for f = 0, plan.n - 1 do
      create(plan.s(f), plan.e(f))
    end
  end or nil,
  -- pipe: win_execute() of each '|'-joined line
  ['pipe-lines'] = function(p)
    local lines, run, win = p.pipe, fn.win_execute, api.nvim_get_current_win()
    for i = 1, #lines do
      run(win, lines[i])
    end
  end,
}
