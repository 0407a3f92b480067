"""What both peers send: the obvious Lua and VimL loops, the clear and the check."""

# The lua strategy done plainly: a flat {s1, e1, s2, e2, ...} list, one nvim_command per fold.
LUA_LOOP = """local f = ...
for i = 1, #f, 2 do
  vim.api.nvim_command(f[i] .. ',' .. f[i + 1] .. 'fold')
end"""

# The viml strategy done plainly: a VimL loop over the same flat list.
VIML_LOOP = """function! PeerFold(f) abort
  let i = 0
  while i < len(a:f)
    execute a:f[i] . ',' . a:f[i + 1] . 'fold'
    let i += 2
  endwhile
endfunction"""

CLEAR = "lua collectgarbage() vim.cmd('normal! zE')"

# Counts the plan's folds that Neovim holds at their ranges (zM, then open them parents first).
CHECK_LUA = """local f = ...
local found = 0
vim.cmd('normal! zM')
for i = #f - 1, 1, -2 do
  local s, e = f[i], f[i + 1]
  if vim.fn.foldclosed(s) == s and vim.fn.foldclosedend(s) == e then
    found = found + 1
    vim.cmd(s .. 'foldopen')
  end
end
return found"""

# nvimpam's sizes (folds per pipe line, folds per nvim_call_atomic) come as arguments.
def atomic_batches(cmds, batch):
    for i in range(0, len(cmds), batch):
        yield [["nvim_command", [c]] for c in cmds[i:i + batch]]


def pipe_lines(cmds, chunk):
    for i in range(0, len(cmds), chunk):
        yield "|".join(cmds[i:i + chunk])
