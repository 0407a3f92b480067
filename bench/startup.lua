-- Time from opening a deck to its folds being in place, through the plugin as a user has it
-- (setup() with defaults, so the JVM starts lazily on the FileType event). Run from the repository
-- root after `mvn -q package -DskipTests`:
--
--   nvim --headless -u NONE -i NONE -n -c 'luafile bench/startup.lua'
--
-- The first run after a build also writes the JVM's class-data-sharing archive; later runs use
-- it. $DECK picks another deck (default: the bundled example.pc).
local root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h')
vim.opt.rtp:prepend(root)
vim.cmd('filetype on')
local deck = os.getenv('DECK') or (root .. '/src/main/resources/decks/example.pc')
local uv = vim.uv or vim.loop -- vim.uv since 0.10
local t0 = uv.hrtime()
require('nvimpam').setup({})
vim.cmd('edit ' .. vim.fn.fnameescape(deck))
local ok = vim.wait(30000, function()
  return require('nvimpam.fold').applied_tick(0) ~= nil
end, 1)
local ms = (uv.hrtime() - t0) / 1e6
io.stdout:write(string.format('%s: %s after %.0f ms\n', vim.fn.fnamemodify(deck, ':t'),
  ok and 'folds in place' or 'NO FOLDS', ms))
vim.cmd('qa!')
