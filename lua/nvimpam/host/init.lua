-- The one JVM that serves every buffer of this Neovim: started lazily, restarted after a crash,
-- stopped when Neovim exits; the calls made to it and the waits for their answers. Finding Java
-- and the JVM's command line are in nvimpam.host.java, starting one process in
-- nvimpam.host.process, error values and the out-of-memory advice in nvimpam.host.errors; this
-- module re-exports the public functions of java and errors.
local M = {}

local config = require('nvimpam.core.config')
local java = require('nvimpam.host.java')
local errors = require('nvimpam.host.errors')
local process = require('nvimpam.host.process')
local spawn, with_stderr = process.spawn, process.with_stderr

local hrtime = require('nvimpam.core.compat').uv.hrtime

-- Finding Java (nvimpam.host.java).
M.root = java.root
M.jar = java.jar
M.java = java.java
M.java_version = java.java_version
M.java_version_async = java.java_version_async
M.java_version_known = java.java_version_known
M.jvm_command_line = java.jvm_command_line

-- Error values (nvimpam.host.errors).
M.error = errors.error
M.as_error = errors.as_error

local job = nil -- { id = channel, pid = number }
local last_error = nil
local crashed = false -- the JVM died under us; its successor must restore what it served
local restarted_hooks = {}

--- Registers `f`, called after the JVM started again following a crash.
---@param f fun()
function M.on_restart(f)
  restarted_hooks[#restarted_hooks + 1] = f
end

local function notify(msg, level)
  vim.schedule(function()
    vim.notify(msg, level or vim.log.levels.ERROR, { title = 'nvimpam' })
  end)
end

--- Whether the JVM is running.
---@return boolean
function M.running()
  return job ~= nil
end

--- The process id of the running JVM, or nil.
---@return integer?
function M.pid()
  return job and job.pid or nil
end

--- Why the JVM last failed to start or died, or nil.
---@return string?
function M.last_error()
  return last_error
end

-- Calls waiting for the JVM's answer: id -> { cb, chan, method, buf }.
local pending = {}

--- Whether a call to the JVM still awaits its answer.
---@return boolean
function M.busy()
  return next(pending) ~= nil
end

local next_id = 0
local starting = nil -- the calls made while `java -version` runs before the first start

-- The buffers the JVM was serving: folded live, or named by a call still waiting.
local served = {}

--- Remembers that the JVM holds `buf` (live folding) or stops doing so; for the out-of-memory
--- message.
---@param buf integer
---@param yes boolean?
function M.serving(buf, yes)
  served[buf] = yes or nil
end

-- What to tell the user when the JVM died of OutOfMemoryError: the decks it served, and those
-- the calls `dead_pending` named.
local function out_of_memory_message(stderr, dead_pending)
  local bufs = {}
  for buf in pairs(served) do
    bufs[buf] = true
  end
  for _, p in pairs(dead_pending) do
    if p.buf then
      bufs[p.buf] = true
    end
  end
  return errors.out_of_memory_message(stderr, bufs)
end

-- Forgets the calls still waiting on channel `id`; returns them.
local function fail_pending(id)
  local dead = {}
  for call_id, p in pairs(pending) do
    if p.chan == id then
      dead[call_id] = p
      pending[call_id] = nil
    end
  end
  return dead
end

local function exited(id, code, stderr)
  if not (job and job.id == id) then
    return
  end
  if job.rplugin then
    -- the manifest's commands would keep calling this dead channel
    local ok, e = pcall(vim.fn['nvimpam#rplugin_reset'])
    if not ok then
      notify('nvimpam: could not reset the remote-plugin commands: ' .. tostring(e))
    end
  end
  job = nil
  local dead = fail_pending(id)
  if vim.v.exiting ~= vim.NIL then
    return
  end
  local e
  if errors.out_of_memory(stderr) then
    e = M.error('out_of_memory', out_of_memory_message(stderr, dead))
  else
    e = M.error('jvm_exited', with_stderr('the nvimpam JVM exited with code ' .. code, stderr)
      .. '\nThe next nvimpam command starts it again.')
  end
  crashed = true
  last_error = e.message
  notify(e.message)
  e.reported = true -- the callbacks below must not show it again
  for _, p in pairs(dead) do
    p.cb(e)
  end
end

local function start_jvm(extra)
  local id, stderr = spawn(exited, extra)
  if not id then
    last_error = stderr
    return nil, last_error
  end
  job = { id = id, pid = vim.fn.jobpid(id), stderr = stderr }
  local restarted = crashed
  last_error, crashed = nil, false
  -- The handshake is a call like any other: nothing waits for it. A JVM that cannot start
  -- fails it (and every call queued behind it) when it exits.
  M.call('setup', { config.for_jvm() }, function(e, info)
    if e then
      if not e.reported then
        notify(tostring(e))
      end
    elseif job and job.id == id then
      job.version = info.version
    end
  end)
  if restarted then
    vim.schedule(function()
      for _, f in ipairs(restarted_hooks) do
        f()
      end
    end)
  end
  return id
end

--- The channel of the running JVM, started if needed (without waiting for it); nil and an error
--- message when it cannot start.
---@return integer? chan
---@return string? why
function M.channel()
  if job then
    return job.id
  end
  return start_jvm()
end

--- For the `java` remote-plugin host: the shared JVM, or (for :UpdateRemotePlugins, which stops
--- the host it asked) a JVM of its own. Returns 0 when none could start.
---@param shared boolean
---@return integer chan
function M.channel_for_rplugin(shared)
  if shared then
    local id = M.channel()
    if id then
      job.rplugin = true
    end
    return id or 0
  end
  local id, err = spawn(function() end)
  if not id then
    last_error = err
    return 0
  end
  return id
end

-- Lua's calls and notifications into the JVM are declared in contract.properties (call.*,
-- notify.*), as the JVM's answers are: one that is not, or that has more arguments than declared,
-- is a bug of nvimpam, raised where it is made.
local function declared(kind, method, nargs)
  local params = config.contract()[kind .. '.' .. tostring(method)]
  if not params then
    error(string.format('nvimpam: %s %s is not declared in contract.properties', kind, tostring(method)), 3)
  end
  local count = params == '' and 0 or #vim.split(params, ',', { plain = true })
  if nargs > count then
    error(string.format('nvimpam: %s %s takes %d arguments (%s), not %d', kind, method, count, params, nargs), 3)
  end
end

--- Calls `method` in the JVM without waiting: `cb(err, result)` runs when the JVM answers (inside
--- the handler of its message: schedule anything slow), when it dies, or at once when it cannot
--- start. `buf` names the buffer the call serves. Returns the call's id, or nil when the JVM could
--- not start.
---@param method string
---@param args any[]?
---@param cb fun(err: nvimpam.Error?, result: any)
---@param buf integer?
---@return integer? id
function M.call(method, args, cb, buf)
  declared('call', method, args and #args or 0)
  next_id = next_id + 1
  local id = next_id
  local call = { id = id, cb = cb, method = method, args = args or {}, buf = buf }
  if not job and not starting and not M.java_version_known() then
    -- First start with this Java: `java -version` runs as a job, and calls wait in a queue.
    starting = { call }
    M.java_version_async(nil, function()
      local queued = starting
      starting = nil
      for _, c in ipairs(queued) do
        if not c.forgotten then
          M.send(c)
        end
      end
    end)
    return id
  end
  if starting then
    starting[#starting + 1] = call
    return id
  end
  return M.send(call)
end

-- Forgets call `id`: its answer, when it comes, finds nothing to call.
local function forget(id)
  pending[id] = nil
  for _, c in ipairs(starting or {}) do
    if c.id == id then
      c.forgotten = true
    end
  end
end

--- Sends a call made by M.call (starting the JVM if needed); for M.call only.
---@param call table
---@return integer? id
function M.send(call)
  local id = call.id
  local chan, err = M.channel()
  if not chan then
    call.cb(M.error('no_jvm', err))
    return nil
  end
  call.chan = chan
  pending[id] = call
  declared('notify', 'nvimpam_call', 3)
  vim.rpcnotify(chan, 'nvimpam_call', id, call.method, call.args)
  return id
end

--- The JVM's answer to call `id` (it runs this through nvim_exec_lua). Answers to calls that
--- are no longer waited for (a timeout, an interrupt) are dropped.
---@param id integer
---@param err any an error value, or nil (vim.NIL) on success
---@param result any
function M._done(id, err, result)
  local p = pending[id]
  if not p then
    return
  end
  pending[id] = nil
  if err ~= nil and err ~= vim.NIL then
    local e = errors.as_error(err)
    if e.code == 'out_of_memory' then
      e.message = out_of_memory_message({ e.message }, { p })
    end
    p.cb(e)
  else
    p.cb(nil, result ~= vim.NIL and result or nil)
  end
end

-- Why a wait ended without an answer, for the user: a stopped JVM says so.
local function no_answer(what, ms, status)
  if status == -2 then
    return M.error('interrupted', 'nvimpam: interrupted while waiting for ' .. what
      .. ' (it goes on in the JVM; its answer will be dropped)')
  end
  local pid = M.pid()
  local state = ''
  if pid then
    local ok, stat = pcall(vim.fn.readfile, '/proc/' .. pid .. '/stat')
    local s = ok and stat[1] and stat[1]:match('^%d+ %b() (%a)')
    if s == 'T' or s == 't' then
      state = string.format(' The JVM (pid %d) is stopped: resume it with `kill -CONT %d`, or end it with `kill %d` (the next command starts a new one).', pid, pid, pid)
    else
      state = string.format(' The JVM (pid %d) may still be working; timeout_ms in setup() waits longer.', pid)
    end
  end
  return M.error('timeout', string.format('nvimpam: no answer to %s within %.1f s.%s', what, ms / 1000, state))
end

--- Calls `method` in the JVM and waits for its answer at most timeout_ms (setup()), serving
--- everything else meanwhile: other RPC clients are answered, Ctrl-C ends the wait. Returns the
--- result, or raises an error value (see M.error).
---@param method string
---@param args any[]?
---@param what string? what is waited for, for the messages (`method` when nil)
---@param buf integer? the buffer the call serves
---@return any result
function M.wait(method, args, what, buf)
  local done, err, res = false, nil, nil
  local id = M.call(method, args, function(e, r)
    done, err, res = true, e, r
  end, buf)
  local ms = config.get().timeout_ms
  local cond = function()
    return done
  end
  -- vim.fn.wait, not vim.wait: on 0.7 vim.wait with a condition ignores Ctrl-C. wait() also ends,
  -- with -3, at any error message of what it runs meanwhile (an autocmd's, a timer's, one inside
  -- a pcall): the wait goes on then, for what is left of the deadline.
  local status, start = 0, hrtime()
  while not done do
    local left = ms - math.floor((hrtime() - start) / 1e6)
    if left <= 0 then
      status = -1
      break
    end
    status = vim.fn.wait(left, cond, 10)
    if status == -1 or status == -2 then
      break
    end
  end
  if not done then
    -- The JVM that never answered: a late answer finds nothing to call.
    forget(id)
    error(no_answer(what or method, ms, status), 0)
  end
  if err then
    error(err, 0)
  end
  return res
end

--- Tells the JVM something without an answer (live buffer events); nothing when it is not running.
---@param method string
---@param ... any
function M.notify(method, ...)
  declared('notify', method, select('#', ...))
  if job then
    vim.rpcnotify(job.id, method, ...)
  end
end

--- The buffers a change applied in parts holds (nvimpam.tree.paced): the JVM neither refolds nor
--- checks them, and no diagnostics are put in, until it ends.
M.held = {}

--- Holds `buf` (or releases it: the JVM refolds and checks it at once).
---@param buf integer
---@param on boolean
function M.hold(buf, on)
  M.held[buf] = on or nil
  M.notify('nvimpam_hold', buf, on)
end

--- Has the JVM read `path` from disk for `buf`, which Neovim is about to read (see
--- nvimpam.host.filestate). A JVM that is not running starts now, with the read on its command line, so
--- that it begins while the JVM connects. Nothing happens while the first start with a new Java
--- still waits for `java -version`, or when the JVM cannot start (the attach that follows says why).
---@param buf integer
---@param path string
function M.read_early(buf, path)
  if job then
    declared('notify', 'nvimpam_early_read', 2)
    vim.rpcnotify(job.id, 'nvimpam_early_read', buf, path)
  elseif not starting and M.java_version_known() then
    start_jvm({ '--early-read=' .. path, '--early-buffer=' .. buf })
  end
end

--- What :NvimpamFoldInfo shows, as a list of lines: the JVM's, or what is known without it.
---@return string[]
function M.info_lines()
  if M.running() then
    return M.wait('info', {}, ':NvimpamFoldInfo').lines
  end
  local lines = { 'nvimpam: JVM not running (starts on first use)', '  strategy: ' .. config.get().strategy,
    '  jar: ' .. M.jar() }
  if M.last_error() then
    lines[#lines + 1] = '  last error: ' .. M.last_error()
  end
  return lines
end

--- Stops the JVM; the calls still waiting get a `stopped` error.
---@return nil
function M.stop()
  if job then
    local id = job.id
    job = nil
    local e = M.error('stopped', 'nvimpam: the JVM was stopped')
    for _, p in pairs(fail_pending(id)) do
      p.cb(e)
    end
    vim.fn.jobstop(id)
  end
end

return M
