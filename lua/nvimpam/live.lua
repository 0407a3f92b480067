-- Buffers folded live: attaching and detaching them, the autocmds that fold pamcrash buffers as
-- they open and tell the JVM about insert mode and new windows, and the re-attach after a reload
-- or a restarted JVM.
local M = {}

local config = require('nvimpam.core.config')
local host = require('nvimpam.host')
local messages = require('nvimpam.ui.messages')

local api = vim.api
local bufnr = require('nvimpam.core.buf').nr
local report, report_scheduled, notify_summary = messages.report, messages.report_scheduled, messages.notify_summary
local group = nil
local attached = {} -- buffers folded live, so that a reload (:edit!) attaches again
local opening = require('nvimpam.fold.opening')

--- The augroup of the autocmds, once define_autocmds() made it.
---@return integer|nil
function M.group()
  return group
end

-- Background folding (a deck that opens, with live = false): nothing waits for it.
local function fold_async(buf)
  host.call('fold', { buf }, function(e, summary)
    opening.done(buf)
    vim.schedule(function()
      if e then
        report(e)
      else
        notify_summary(summary)
      end
    end)
  end, buf)
end

local function attached_now(buf)
  attached[buf] = true
  host.serving(buf, true)
end

--- Starts live folding: the buffer is folded now and again after every change. Returns when the
--- folds are in place (waits at most timeout_ms).
---@param buf? integer the buffer (0 or nil: the current one)
function M.attach(buf)
  buf = bufnr(buf)
  local summary = host.wait('attach', { buf, api.nvim_buf_line_count(buf) }, ':NvimpamFoldAttach', buf)
  attached_now(buf)
  if type(summary) == 'table' then
    notify_summary(summary)
  end
end

-- Background attach (a deck that opens, a reload, a restarted JVM): the folds appear when the
-- JVM has them, and the user goes on meanwhile.
local function attach_async(buf)
  host.serving(buf, true)
  host.call('attach', { buf, api.nvim_buf_line_count(buf) }, function(e, summary)
    opening.done(buf)
    if e then
      host.serving(buf, false)
      if api.nvim_buf_is_loaded(buf) then -- a buffer wiped or unloaded meanwhile is no error
        report_scheduled(e)
      end
    else
      attached_now(buf)
      if type(summary) == 'table' then
        vim.schedule(function()
          notify_summary(summary)
        end)
      end
    end
  end, buf)
end

--- Stops live folding of a buffer; its folds stay as they are.
---@param buf? integer the buffer (0 or nil: the current one)
function M.detach(buf)
  buf = bufnr(buf)
  attached[buf] = nil
  host.serving(buf, false)
  if host.running() then
    host.call('detach', { buf }, function(e)
      if e then
        report_scheduled(e)
      end
    end, buf)
  end
end

--- Sends the options to a running JVM; a new one gets them when it starts.
---@return nil
function M.send_options()
  if host.running() then
    host.call('setup', { config.for_jvm() }, function(e)
      if e then
        report_scheduled(e)
      end
    end)
  end
end

--- Folds a buffer now; returns when the folds are in place, with the JVM's summary (notified).
--- Waits at most timeout_ms; raises an error value otherwise.
---@param buf? integer the buffer (0 or nil: the current one)
---@return table summary { buf, lines, folds, message, ... }
function M.fold(buf)
  buf = bufnr(buf)
  local summary = host.wait('fold', { buf }, ':NvimpamFold', buf)
  notify_summary(summary)
  return summary
end

--- Shows the strategy, or switches to another one (and tells a running JVM).
---@param name? string a strategy name; nil or '' to show it
---@return string the strategy in force
function M.strategy(name)
  if name == nil or name == '' then
    return config.get().strategy
  end
  config.set_strategy(name)
  M.send_options()
  return name
end

--- Runs every strategy on a buffer; returns the rows and the table :NvimpamFoldBench shows.
---@param buf? integer the buffer (0 or nil: the current one)
---@return table { rows = table[], lines = string[] }
function M.bench(buf)
  buf = bufnr(buf)
  return host.wait('bench', { buf }, ':NvimpamFoldBench', buf)
end

-- Folds a buffer that was just read, once Neovim is done with it: while it is still reading,
-- it later puts back the window's previous manual folds (:edit! of a folded buffer).
local function fold_when_read(buf, action)
  opening.start(buf)
  vim.schedule(function()
    if api.nvim_buf_is_loaded(buf) then
      action(buf)
    else
      opening.done(buf)
    end
  end)
end

--- A pamcrash buffer: its mappings and navigation, then its folds (live or once).
---@param args table { buf }
function M.on_filetype(args)
  local c = config.get()
  require('nvimpam.mappings').attach(args.buf) -- buffer-local mappings and 'formatexpr' (writing cards)
  require('nvimpam.ids').attach(args.buf) -- 'omnifunc', 'includeexpr', 'path' (navigation)
  if c.auto_attach then
    fold_when_read(args.buf, c.live and attach_async or fold_async)
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

-- A *.pc deck about to be read (BufReadPre): the JVM (started now if needed) reads and folds it
-- from disk while Neovim reads it; the attach that follows FileType uses that read when the
-- buffer is provably the file's text. Decks recognised by their content (*.inc) are known only
-- once read: they start at FileType.
local function read_early(buf, path)
  local c = config.get()
  if c.auto_attach and c.live and path:sub(-3) == '.pc' then
    host.read_early(buf, path)
  end
end

--- The autocmds of pamcrash buffers (again when called again: the augroup is cleared).
---@return nil
function M.define_autocmds()
  require('nvimpam.host.filestate').early = read_early
  group = api.nvim_create_augroup('nvimpam', { clear = true })
  api.nvim_create_autocmd('FileType', { group = group, pattern = 'pamcrash', callback = M.on_filetype })
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
        fold_when_read(args.buf, attach_async)
      end
    end,
  })
  -- Folds live in windows: a window that starts showing an attached buffer needs them too.
  forward('BufWinEnter', 'nvimpam_refresh')
  api.nvim_create_autocmd('BufWipeout', {
    group = group,
    callback = function(args)
      attached[args.buf] = nil
      opening.done(args.buf)
      host.serving(args.buf, false)
    end,
  })
  api.nvim_create_autocmd('VimLeavePre', { group = group, callback = host.stop })
end

-- A restarted JVM knows nothing of the buffers its predecessor folded live.
host.on_restart(function()
  for buf in pairs(attached) do
    if api.nvim_buf_is_loaded(buf) then
      attach_async(buf)
    else
      attached[buf] = nil
      host.serving(buf, false)
    end
  end
end)


return M
