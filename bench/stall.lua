-- How long Neovim keeps another client waiting while a deck opens through the plugin (setup()
-- with defaults): the longest wait for the answer to a trivial request, as a GUI or another
-- plugin would feel it. Run from the repository root after `mvn -q package -DskipTests`:
--
--   DECK=path/to/deck1m.pc nvim --headless -u NONE -i NONE -n -c 'luafile bench/stall.lua'
--
-- It starts a second headless Neovim with $ROOT (default: this repository) on 'runtimepath',
-- opens $DECK there and asks it `nvim_eval` every 2 ms from here, until the folds have been in
-- place for a second. Point $ROOT at another checkout to compare two versions in one run; $SETUP
-- adds options to setup(), e.g. SETUP='live = false'.
local uv = vim.loop
local root = os.getenv('ROOT') or vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h')
local deck = os.getenv('DECK') or (root .. '/src/main/resources/decks/example.pc')
local sock = vim.fn.tempname() .. '.sock'
local server = vim.fn.jobstart({ vim.v.progpath, '--headless', '-u', 'NONE', '-i', 'NONE', '-n', '--listen', sock,
  '--cmd', 'set rtp^=' .. root, '-c', 'filetype on', '-c', "lua require('nvimpam').setup({" .. (os.getenv('SETUP') or '') .. '})' })
local ch
vim.wait(5000, function()
  local ok, id = pcall(vim.fn.sockconnect, 'pipe', sock, { rpc = true })
  ch = ok and id or nil
  return ch ~= nil
end, 10)

local function now()
  return uv.hrtime() / 1e6
end

local folded = "&filetype ==# 'pamcrash' && luaeval('require(\"nvimpam.fold\").applied_tick(0) == vim.b.changedtick')"
vim.rpcnotify(ch, 'nvim_command', 'edit ' .. vim.fn.fnameescape(deck))
local t0 = now()
local worst, worst_at, requests, folded_at = 0, 0, 0, nil
while now() - t0 < 60000 and not (folded_at and now() - t0 > folded_at + 1000) do
  local a = now()
  local done = vim.rpcrequest(ch, 'nvim_eval', folded)
  local wait = now() - a
  requests = requests + 1
  if wait > worst then
    worst, worst_at = wait, a - t0
  end
  if done == 1 and not folded_at then
    folded_at = now() - t0
  end
  uv.sleep(2)
end
io.stdout:write(string.format('%s: folds after %s ms; longest wait for an answer %.1f ms (at %.0f ms), %d requests\n',
  vim.fn.fnamemodify(deck, ':t'), folded_at and string.format('%.0f', folded_at) or 'NO FOLDS', worst, worst_at,
  requests))
vim.fn.jobstop(server)
vim.cmd('qa!')
