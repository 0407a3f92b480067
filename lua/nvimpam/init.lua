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

local bufnr = require('nvimpam.buf').nr

-- An error value (or string) as a notification, unless the user has seen it already.
local function report(e)
  e = host.as_error(e)
  if not e.reported then
    err(tostring(e))
  end
end

local function report_scheduled(e)
  vim.schedule(function()
    report(e)
  end)
end

local function notify_summary(summary)
  if summary and summary.lines >= config.get().notify_lines then
    info(summary.message)
  end
end

--- Folds a buffer now; returns when the folds are in place, with the JVM's summary. Waits at
--- most timeout_ms; raises an error value (tostring() gives the message) otherwise.
---@param buf? integer the buffer (0 or nil: the current one)
---@return table summary { buf, lines, folds, message, ... }
function M.fold(buf)
  buf = bufnr(buf)
  local summary = host.wait('fold', { buf }, ':NvimpamFold', buf)
  notify_summary(summary)
  return summary
end

-- Background folding (a deck that opens, with live = false): nothing waits for it.
local function fold_async(buf)
  host.call('fold', { buf }, function(e, summary)
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
  local summary = host.wait('attach', { buf }, ':NvimpamFoldAttach', buf)
  attached_now(buf)
  if type(summary) == 'table' then
    notify_summary(summary)
  end
end

-- Background attach (a deck that opens, a reload, a restarted JVM): the folds appear when the
-- JVM has them, and the user goes on meanwhile.
local function attach_async(buf)
  host.serving(buf, true)
  host.call('attach', { buf }, function(e, summary)
    if e then
      host.serving(buf, false)
      report_scheduled(e)
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

-- Sends the options to a running JVM; a new one gets them when it starts.
local function send_options()
  if host.running() then
    host.call('setup', { config.for_jvm() }, function(e)
      if e then
        report_scheduled(e)
      end
    end)
  end
end

--- Shows the strategy, or switches to another one.
---@param name? string a strategy name (`:help nvimpam-strategies`); nil or '' to show it
---@return string the strategy in force
function M.strategy(name)
  if name == nil or name == '' then
    return config.get().strategy
  end
  config.set_strategy(name)
  send_options()
  return name
end

--- What :NvimpamFoldInfo shows, as a list of lines.
---@return string[]
function M.info_lines()
  if host.running() then
    return host.wait('info', {}, ':NvimpamFoldInfo').lines
  end
  local lines = { 'nvimpam: JVM not running (starts on first use)', '  strategy: ' .. config.get().strategy,
    '  jar: ' .. host.jar() }
  if host.last_error() then
    lines[#lines + 1] = '  last error: ' .. host.last_error()
  end
  return lines
end

--- Runs every strategy on a buffer; returns the rows and the table :NvimpamFoldBench shows.
---@param buf? integer the buffer (0 or nil: the current one)
---@return table { rows = table[], lines = string[] }
function M.bench(buf)
  buf = bufnr(buf)
  return host.wait('bench', { buf }, ':NvimpamFoldBench', buf)
end

--- The field under the cursor of window `win` (default: the current one), for a statusline or
--- winbar: { card, keyword, version, row, row_label, field, description, type, from, to, value,
--- kind, id } (see :help nvimpam-cells), or nil when the cursor is on no field of a known card
--- row. No RPC, no waiting: it reads the buffer's lines back to the card's header.
---@param win? integer
---@return table|nil
function M.cell(win)
  return require('nvimpam.cells').cell(win)
end

local function echo_lines(lines)
  local chunks = {}
  for _, l in ipairs(lines) do
    chunks[#chunks + 1] = { l .. '\n' }
  end
  api.nvim_echo(chunks, true, {})
end

-- Every command, defined once: setup() makes user commands of them, and the rplugin manifest
-- (:UpdateRemotePlugins) gets them from manifest_specs(). Both routes end in M.command().
M.commands = {
  {
    name = 'NvimpamFold',
    desc = 'nvimpam: fold the current buffer now',
    run = function(o)
      M.fold(o.buf)
    end,
  },
  {
    name = 'NvimpamFoldStrategy',
    nargs = '?',
    complete = 'custom,nvimpam#strategies',
    desc = 'nvimpam: show or switch the fold strategy',
    run = function(o)
      local name = M.strategy(o.args)
      if o.args == '' then
        echo_lines({ 'nvimpam strategy: ' .. name })
      end
    end,
  },
  {
    name = 'NvimpamFoldAttach',
    desc = 'nvimpam: fold the current buffer live while editing',
    run = function(o)
      M.attach(o.buf)
    end,
  },
  {
    name = 'NvimpamFoldDetach',
    desc = 'nvimpam: stop live folding of the current buffer',
    run = function(o)
      M.detach(o.buf)
    end,
  },
  {
    name = 'NvimpamFoldInfo',
    desc = 'nvimpam: version, JVM, strategy, buffers, last timings',
    run = function()
      echo_lines(M.info_lines())
    end,
  },
  {
    name = 'NvimpamFoldBench',
    desc = 'nvimpam: time every fold strategy on the current buffer',
    run = function(o)
      echo_lines(M.bench(o.buf).lines)
    end,
  },
  {
    name = 'NvimpamCells',
    nargs = '?',
    complete = "customlist,v:lua.require'nvimpam.cells'.complete",
    desc = 'nvimpam: cell highlighting on, off or toggled for all buffers',
    run = function(o)
      local now = require('nvimpam.cells').switch(o.args)
      if o.args == '' then
        echo_lines({ 'nvimpam cells: ' .. (now and 'on' or 'off') })
      end
    end,
  },
  {
    name = 'NvimpamCellInfo',
    desc = "nvimpam: the cursor's field, with its description, in a floating window",
    run = function()
      require('nvimpam.cells').show_info()
    end,
  },
  {
    name = 'NvimpamCheck',
    desc = "nvimpam: the whole deck's field problems in the quickfix list",
    run = function(o)
      require('nvimpam.diagnostics').check(bufnr(o.buf))
    end,
  },
  {
    name = 'NvimpamCard',
    nargs = '?',
    complete = "customlist,v:lua.require'nvimpam.templates'.complete",
    desc = 'nvimpam: insert a card template (without a keyword: pick one)',
    run = function(o)
      require('nvimpam.templates').command(o)
    end,
  },
  {
    name = 'NvimpamHeader',
    range = true,
    bang = true,
    desc = 'nvimpam: $# field header above the row, the range or (!) the card',
    run = function(o)
      require('nvimpam.fieldheader').command(o)
    end,
  },
  {
    name = 'NvimpamGoto',
    desc = 'nvimpam: go to the definition of the id under the cursor',
    run = function(o)
      require('nvimpam.ids').goto_definition(bufnr(o.buf))
    end,
  },
  {
    name = 'NvimpamRefs',
    desc = 'nvimpam: every line referencing the id under the cursor, in the quickfix list',
    run = function(o)
      require('nvimpam.ids').references(bufnr(o.buf))
    end,
  },
  {
    name = 'NvimpamRename',
    nargs = 1,
    desc = 'nvimpam: renumber the id under the cursor, its definition and every reference',
    run = function(o)
      require('nvimpam.ids').rename(o.args, bufnr(o.buf))
    end,
  },
  {
    name = 'NvimpamOutline',
    bang = true,
    desc = "nvimpam: the deck's parts, materials, contacts, ... and include files (! : location list)",
    run = function(o)
      require('nvimpam.ids').outline(o.bang, bufnr(o.buf))
    end,
  },
  {
    name = 'NvimpamAlign',
    range = true,
    bang = true,
    desc = 'nvimpam: align the fields of the line, the range or (!) the card',
    run = function(o)
      require('nvimpam.align').command(o)
    end,
  },
}

local by_name = {}
for _, c in ipairs(M.commands) do
  by_name[c.name] = c
end

-- Manifest commands on their way through the JVM, by ticket: a JVM that never passes one on
-- (stopped, hung) gets a message instead of silence.
local in_flight = {}
local next_ticket = 0

--- Runs command `name` with its arguments (a list, as <f-args>); `ctx.buf` is the buffer it was
--- given in. The one entry point of setup()'s commands and the rplugin manifest's. Errors become
--- notifications.
---@param name string a command of M.commands
---@param fargs? string[]
---@param ctx? table { buf, ticket, range, line1, line2, bang }
function M.command(name, fargs, ctx)
  ctx = type(ctx) == 'table' and ctx or {}
  if ctx.ticket then
    in_flight[ctx.ticket] = nil
  end
  local c = by_name[name]
  local run = function()
    if not c then
      error(host.error('bad_argument', 'no command ' .. tostring(name)), 0)
    end
    local args = type(fargs) == 'table' and table.concat(fargs, ' ') or ''
    local buf = tonumber(ctx.buf)
    c.run({ args = args, fargs = type(fargs) == 'table' and fargs or {}, buf = buf and buf > 0 and buf or 0,
      range = ctx.range, line1 = ctx.line1, line2 = ctx.line2, bang = ctx.bang })
  end
  local function guarded()
    local ok, e = pcall(run)
    if not ok then
      report(e)
    end
  end
  if ctx.ticket then
    vim.schedule(guarded) -- from the JVM's message: run at the top level, not inside its handler
  else
    guarded()
  end
end

--- The spec's `eval` of a manifest command: the buffer it runs in, and a ticket that expects the
--- command back from the JVM within timeout_ms.
---@param name string
---@return table { buf, ticket }
function M.manifest_sent(name)
  next_ticket = next_ticket + 1
  local ticket = next_ticket
  in_flight[ticket] = true
  local ms = config.get().timeout_ms
  vim.defer_fn(function()
    if in_flight[ticket] then
      in_flight[ticket] = nil
      local pid = host.pid()
      err(string.format('nvimpam: :%s got no answer from the JVM%s within %.1f s', name,
        pid and (' (pid ' .. pid .. ')') or '', ms / 1000))
    end
  end, ms)
  return { buf = api.nvim_get_current_buf(), ticket = ticket }
end

--- The rplugin manifest's view of M.commands, for the JVM's answer to `specs`: asynchronous, so
--- that a busy JVM never blocks Neovim.
---@return table[] one spec per command, as remote#define expects them
function M.manifest_specs()
  local specs = {}
  for _, c in ipairs(M.commands) do
    local opts = { eval = string.format("v:lua.require'nvimpam'.manifest_sent('%s')", c.name) }
    opts.nargs = c.nargs
    opts.complete = c.complete
    specs[#specs + 1] = { type = 'command', name = c.name, sync = 0, opts = opts }
  end
  return specs
end

local function define_commands()
  for _, c in ipairs(M.commands) do
    api.nvim_create_user_command(c.name, function(o)
      M.command(c.name, o.fargs, { buf = api.nvim_get_current_buf(), range = o.range, line1 = o.line1,
        line2 = o.line2, bang = o.bang })
    end, { nargs = c.nargs or 0, complete = c.complete, desc = c.desc, range = c.range, bang = c.bang })
  end
end

-- Folds a buffer that was just read, once Neovim is done with it: while it is still reading,
-- it later puts back the window's previous manual folds (:edit! of a folded buffer).
local function fold_when_read(buf, action)
  vim.schedule(function()
    if api.nvim_buf_is_loaded(buf) then
      action(buf)
    end
  end)
end

local function on_filetype(args)
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

--- Sets nvimpam up with the options in force (setup()'s, else `vim.g.nvimpam`, else the
--- defaults): its commands, the autocmds that fold pamcrash buffers and give them their
--- mappings, cells and the virtual header. plugin/nvimpam.vim calls it when Neovim starts, so
--- the plugin works without setup(); calling it again only applies the options again.
function M.start()
  local c = config.get()
  require('nvimpam.filestate').track() -- what each deck's file was when read: the JVM's disk fast path
  define_commands()
  define_autocmds()
  require('nvimpam.cells').setup(c.cells)
  require('nvimpam.header').setup(c.virtual_header)
  send_options()
  if vim.v.vim_did_enter == 0 then
    -- Commands the rplugin manifest defines after us (it is sourced later) would take the
    -- asynchronous route: define ours again once every plugin is loaded.
    api.nvim_create_autocmd('VimEnter', { group = group, once = true, callback = define_commands })
  end
  -- Buffers opened before (e.g. `nvim deck.pc` with a lazy plugin manager).
  for _, buf in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == 'pamcrash' then
      on_filetype({ buf = buf })
    end
  end
end

--- Configures nvimpam: `opts` (`:help nvimpam-options`) over the defaults. Safe to call again
--- with other options; without it the plugin runs with `vim.g.nvimpam` or the defaults.
---@param opts? table
function M.setup(opts)
  config.set(opts)
  M.start()
end

return M
