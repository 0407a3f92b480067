-- nvimpam: folds for PAM-CRASH input decks, computed by a JVM and pushed into Neovim.
--
--   require('nvimpam').setup({ strategy = 'lua' })
--
-- See :help nvimpam for the options and commands.
local M = {}

local config = require('nvimpam.config')
local host = require('nvimpam.host')

local api = vim.api
local group = nil
local attached = {} -- buffers folded live, so that a reload (:edit!) attaches again

local function err(e)
  vim.notify(tostring(e), vim.log.levels.ERROR, { title = 'nvimpam' })
end

local function info(msg)
  vim.notify(msg, vim.log.levels.INFO, { title = 'nvimpam' })
end

local function bufnr(buf)
  return (buf == nil or buf == 0) and api.nvim_get_current_buf() or buf
end

--- Folds a buffer now; returns when the folds are in place. Returns the JVM's summary.
function M.fold(buf)
  buf = bufnr(buf)
  local summary = host.request('nvimpam_fold', buf)
  if summary.lines >= config.get().notify_lines then
    info(summary.message)
  end
  return summary
end

--- Starts live folding: the buffer is folded now and again after every change.
function M.attach(buf)
  buf = bufnr(buf)
  host.request('nvimpam_attach', buf)
  attached[buf] = true
end

function M.detach(buf)
  buf = bufnr(buf)
  attached[buf] = nil
  if host.running() then
    host.request('nvimpam_detach', buf)
  end
end

--- Shows the strategy, or switches to another one.
function M.strategy(name)
  if name == nil or name == '' then
    return config.get().strategy
  end
  config.set_strategy(name)
  if host.running() then
    host.request('nvimpam_setup', config.for_jvm())
  end
  return name
end

--- What :NvimpamFoldInfo shows, as a list of lines.
function M.info_lines()
  if host.running() then
    return host.request('nvimpam_info').lines
  end
  local lines = { 'nvimpam: JVM not running (starts on first use)', '  strategy: ' .. config.get().strategy,
    '  jar: ' .. host.jar() }
  if host.last_error() then
    lines[#lines + 1] = '  last error: ' .. host.last_error()
  end
  return lines
end

--- Runs every strategy on a buffer; returns the rows and the table :NvimpamFoldBench shows.
function M.bench(buf)
  return host.request('nvimpam_bench', bufnr(buf))
end

local function echo_lines(lines)
  local chunks = {}
  for _, l in ipairs(lines) do
    chunks[#chunks + 1] = { l .. '\n' }
  end
  api.nvim_echo(chunks, true, {})
end

-- Runs f and turns its error into a notification: commands never end in a Lua traceback.
local function guarded(f)
  return function(opts)
    local ok, e = pcall(f, opts)
    if not ok then
      err(e)
    end
  end
end

local function define_commands()
  local cmd = api.nvim_create_user_command
  cmd('NvimpamFold', guarded(function()
    M.fold(0)
  end), { desc = 'nvimpam: fold the current buffer now' })
  cmd('NvimpamFoldStrategy', guarded(function(o)
    local name = M.strategy(o.args)
    if o.args == '' then
      echo_lines({ 'nvimpam strategy: ' .. name })
    end
  end), {
    nargs = '?',
    complete = function(lead)
      return vim.tbl_filter(function(n)
        return n:sub(1, #lead) == lead
      end, config.strategies)
    end,
    desc = 'nvimpam: show or switch the fold strategy',
  })
  cmd('NvimpamFoldAttach', guarded(function()
    M.attach(0)
  end), { desc = 'nvimpam: fold the current buffer live while editing' })
  cmd('NvimpamFoldDetach', guarded(function()
    M.detach(0)
  end), { desc = 'nvimpam: stop live folding of the current buffer' })
  cmd('NvimpamFoldInfo', guarded(function()
    echo_lines(M.info_lines())
  end), { desc = 'nvimpam: version, JVM, strategy, buffers, last timings' })
  cmd('NvimpamFoldBench', guarded(function()
    echo_lines(M.bench(0).lines)
  end), { desc = 'nvimpam: time every fold strategy on the current buffer' })
end

-- Folds a buffer that was just read, once Neovim is done with it: while it is still reading,
-- it later puts back the window's previous manual folds (:edit! of a folded buffer).
local function fold_when_read(buf, action)
  vim.schedule(function()
    if api.nvim_buf_is_loaded(buf) then
      guarded(action)(buf)
    end
  end)
end

local function on_filetype(args)
  local c = config.get()
  if c.auto_attach then
    fold_when_read(args.buf, c.live and M.attach or M.fold)
  end
end

-- Tells the JVM about `event` in buffers folded live.
local function forward(event, method)
  api.nvim_create_autocmd(event, {
    group = group,
    callback = function(args)
      if attached[args.buf] then
        host.notify(method, args.buf)
      end
    end,
  })
end

local function define_autocmds()
  group = api.nvim_create_augroup('nvimpam', { clear = true })
  api.nvim_create_autocmd('FileType', { group = group, pattern = 'pamcrash', callback = on_filetype })
  -- Live refreshes wait while the user types (the JVM tracks the mode from these two); InsertLeave
  -- brings the waiting one.
  forward('InsertEnter', 'nvimpam_insert_enter')
  forward('InsertLeave', 'nvimpam_insert_leave')
  -- :edit! detaches Neovim's buffer updates; FileType attaches again with auto_attach, this
  -- covers buffers attached by hand.
  api.nvim_create_autocmd('BufReadPost', {
    group = group,
    callback = function(args)
      if attached[args.buf] and not (config.get().auto_attach and vim.bo[args.buf].filetype == 'pamcrash') then
        fold_when_read(args.buf, M.attach)
      end
    end,
  })
  -- Folds live in windows: a window that starts showing an attached buffer needs them too.
  forward('BufWinEnter', 'nvimpam_refresh')
  api.nvim_create_autocmd('BufWipeout', {
    group = group,
    callback = function(args)
      attached[args.buf] = nil
    end,
  })
  api.nvim_create_autocmd('VimLeavePre', { group = group, callback = host.stop })
end

-- A restarted JVM knows nothing of the buffers its predecessor folded live.
host.on_restart(function()
  for buf in pairs(attached) do
    if api.nvim_buf_is_loaded(buf) then
      guarded(M.attach)(buf)
    else
      attached[buf] = nil
    end
  end
end)

--- Configures nvimpam and defines its commands. Safe to call again with other options.
function M.setup(opts)
  config.set(opts)
  require('nvimpam.filestate').track() -- what each deck's file was when read: the JVM's disk fast path
  define_commands()
  define_autocmds()
  if host.running() then
    host.request('nvimpam_setup', config.for_jvm())
  end
  -- Buffers opened before setup() ran (e.g. `nvim deck.pc` with a lazy plugin manager).
  for _, buf in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == 'pamcrash' then
      on_filetype({ buf = buf })
    end
  end
end

return M
