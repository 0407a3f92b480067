-- The one JVM that serves every buffer of this Neovim: found, started lazily, restarted after a
-- crash, stopped when Neovim exits.
local M = {}

local uv = require('nvimpam.compat').uv
local config = require('nvimpam.config')

local job = nil -- { id = channel, pid = number }
local last_error = nil
local crashed = false -- the JVM died under us; its successor must restore what it served
local restarted_hooks = {}

--- Registers `f`, called after the JVM started again following a crash.
function M.on_restart(f)
  restarted_hooks[#restarted_hooks + 1] = f
end

local function notify(msg, level)
  vim.schedule(function()
    vim.notify(msg, level or vim.log.levels.ERROR, { title = 'nvimpam' })
  end)
end

--- The plugin's root folder (the one holding lua/, autoload/ and target/).
function M.root()
  local src = debug.getinfo(1, 'S').source:sub(2)
  return vim.fn.fnamemodify(src, ':p:h:h:h')
end

function M.jar()
  local jar = config.get().jar
  if jar and jar ~= '' then
    return vim.fn.expand(jar)
  end
  return M.root() .. '/target/nvimpam.jar'
end

function M.java()
  local java = config.get().java
  if java and java ~= '' then
    return vim.fn.expand(java)
  end
  local home = vim.env.JAVA_HOME
  if home and home ~= '' and vim.fn.executable(home .. '/bin/java') == 1 then
    return home .. '/bin/java'
  end
  return 'java'
end

local version_cache = {}

-- Where the version of `java` is found without running it: the executable, its cache key, and the
-- version when known (this session, or a file in stdpath('cache')); or nil and why not.
local function known_version(java)
  local exe = vim.fn.exepath(java)
  if exe == '' then
    return nil, 'no Java executable "' .. java .. '" (install JDK 17+ or set java = "/path/to/java" in setup())'
  end
  local stat = uv.fs_stat(vim.fn.resolve(exe))
  local key = exe .. ':' .. (stat and stat.mtime.sec or 0)
  if not version_cache[key] then
    local ok, lines = pcall(vim.fn.readfile, vim.fn.stdpath('cache') .. '/nvimpam-java-version')
    if ok and lines[1] == key and tonumber(lines[2]) then
      version_cache[key] = tonumber(lines[2])
    end
  end
  return { exe = exe, key = key, major = version_cache[key] }
end

-- Reads `java -version` output; caches and returns the major version, or nil and why not.
local function parse_version(v, out)
  local major = out:match('version "(%d+)')
  if major == '1' then
    major = out:match('version "1%.(%d+)')
  end
  major = tonumber(major)
  if not major then
    return nil, 'could not read the version of ' .. v.exe .. ': ' .. out
  end
  version_cache[v.key] = major
  vim.fn.mkdir(vim.fn.stdpath('cache'), 'p')
  pcall(vim.fn.writefile, { v.key, tostring(major) }, vim.fn.stdpath('cache') .. '/nvimpam-java-version')
  return major
end

--- The Java feature version (17, 21, …) of `java`, or nil and a reason. Cached per executable
--- and modification time, so that only the first start ever pays for `java -version`.
function M.java_version(java)
  local v, why = known_version(java or M.java())
  if not v then
    return nil, why
  end
  if v.major then
    return v.major
  end
  return parse_version(v, vim.fn.system({ v.exe, '-version' }))
end

--- As M.java_version, without waiting: `cb(major)` or `cb(nil, why)` runs once `java -version`
--- has answered (at once when the version is cached).
function M.java_version_async(java, cb)
  local v, why = known_version(java or M.java())
  if not v or v.major then
    return cb(v and v.major, why)
  end
  local out = {}
  local function collect(_, data)
    vim.list_extend(out, data)
  end
  local id = vim.fn.jobstart({ v.exe, '-version' }, {
    on_stdout = collect,
    on_stderr = collect,
    on_exit = function()
      cb(parse_version(v, table.concat(out, '\n')))
    end,
  })
  if id <= 0 then
    cb(nil, 'could not run ' .. v.exe .. ' -version')
  end
end

-- Class-data sharing: an archive per jar build and Java version in stdpath('cache'), created on the
-- first run and used by every later start.
local function cds_args(major, jar)
  local stat = uv.fs_stat(jar)
  local archive = string.format('%s/nvimpam-%d-%d.jsa', vim.fn.stdpath('cache'), major, stat and stat.mtime.sec or 0)
  if major >= 19 then
    return { '-XX:+AutoCreateSharedArchive', '-XX:SharedArchiveFile=' .. archive }
  elseif uv.fs_stat(archive) then
    return { '-XX:SharedArchiveFile=' .. archive }
  else
    vim.fn.mkdir(vim.fn.stdpath('cache'), 'p')
    return { '-XX:ArchiveClassesAtExit=' .. archive }
  end
end

--- The command line that starts the JVM, or nil and a message saying what to fix.
function M.command()
  local java = M.java()
  local major, err = M.java_version(java)
  if not major then
    return nil, err
  end
  if major < 17 then
    return nil, 'Java ' .. major .. ' is too old: nvimpam needs Java 17 or newer (set java = "/path/to/java" in setup())'
  end
  local jar = M.jar()
  if not uv.fs_stat(jar) then
    return nil, 'no ' .. jar .. ': build it with `./mvnw -q package -DskipTests` in ' .. M.root()
  end
  -- stdout is the RPC channel: the JVM must print nothing else there. C1 only and the serial
  -- collector start faster (opening example.pc to folds: ~360 ms instead of ~420 ms here), and
  -- big decks are bound by moving their lines, not by parsing (C2 did not parse 10M lines faster
  -- in the open benchmark). Serial, measured against G1 on a 10M-line open (bench/README.md):
  -- the same RSS, but G1 held 1.2 GB of heap after the load where Serial held 0.65 GB. Arrays of
  -- 1 MB and more (the deck's 4 MiB segments, frame buffers) are allocated in the old generation
  -- at once: young collections then never copy the deck (a 10M-line read from disk: 1.2 s
  -- instead of 2.1 s, of which 0.6 s were such copies). So the deck lives in the old generation:
  -- NewRatio=4 gives it 4/5 of the heap instead of 2/3, so that -Xmx900m still holds a 588 MB
  -- deck (1.15x in heap). jvm_args come last, so they can undo this (e.g.
  -- -XX:TieredStopAtLevel=4, or -Xmx: a deck needs about 1.3x its size of heap).
  local cmd = { vim.fn.exepath(java), '-Xlog:disable', '-Xlog:all=warning:stderr', '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC', '-XX:PretenureSizeThreshold=1m', '-XX:NewRatio=4' }
  vim.list_extend(cmd, cds_args(major, jar))
  vim.list_extend(cmd, config.get().jvm_args or {})
  vim.list_extend(cmd, { '-jar', jar, 'serve' })
  return cmd
end

--- Whether the JVM is running.
function M.running()
  return job ~= nil
end

function M.pid()
  return job and job.pid or nil
end

function M.last_error()
  return last_error
end

-- Errors are values: { code = ..., message = ... } (plus fold, of, lines and strategy for a
-- failing fold), the shape the JVM sends (lua/nvimpam/contract.properties); tostring() gives the
-- message. `reported` marks one the user has already been shown.
local error_mt = {
  __tostring = function(e)
    return e.message
  end,
}

--- An error value with `code` and a message starting with "nvimpam: ".
function M.error(code, message, fields)
  local e = vim.tbl_extend('force', fields or {}, { code = code, message = message })
  if not tostring(e.message):match('^nvimpam') then
    e.message = 'nvimpam: ' .. tostring(e.message)
  end
  return setmetatable(e, error_mt)
end

local function as_error(e)
  if getmetatable(e) == error_mt then
    return e
  end
  if type(e) == 'table' then
    return M.error(e.code or 'failed', e.message or vim.inspect(e), e)
  end
  return M.error('failed', tostring(e))
end
M.as_error = as_error

-- Calls waiting for the JVM's answer: id -> { cb, chan, method, buf }.
local pending = {}
local next_id = 0
local starting = nil -- the calls made while `java -version` runs before the first start

-- Bytes of a loaded buffer, as Neovim counts them (line2byte of the line after the last).
local function buffer_bytes(buf)
  if not vim.api.nvim_buf_is_loaded(buf) then
    return 0
  end
  return vim.api.nvim_buf_get_offset(buf, vim.api.nvim_buf_line_count(buf))
end

-- 1234567 -> "1,234,567"
local function grouped(n)
  local s = tostring(n)
  local head = #s % 3 == 0 and 3 or #s % 3
  return s:sub(1, head) .. s:sub(head + 1):gsub('(%d%d%d)', ',%1')
end

local function mb(bytes)
  return string.format('%.0f MB', bytes / 1e6)
end

-- The buffers the JVM was serving: folded live, or named by a call still waiting.
local served = {}

--- Remembers that the JVM holds `buf` (live folding) or stops doing so; for the out-of-memory
--- message.
function M.serving(buf, yes)
  served[buf] = yes or nil
end

-- What to tell the user when the JVM died of OutOfMemoryError: the decks and a heap to give it.
local function out_of_memory_message(stderr, dead_pending)
  local bufs, total, parts = {}, 0, {}
  for buf in pairs(served) do
    bufs[buf] = true
  end
  for _, p in pairs(dead_pending) do
    if p.buf then
      bufs[p.buf] = true
    end
  end
  for buf in pairs(bufs) do
    local bytes = buffer_bytes(buf)
    if bytes > 0 then
      total = total + bytes
      parts[#parts + 1] = string.format('%s (%s lines, %s)', vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':t'),
        grouped(vim.api.nvim_buf_line_count(buf)), mb(bytes))
    end
  end
  -- 1.5x the decks' bytes plus room for the JVM itself, in steps of 100 MB.
  local suggest = math.max(256, math.ceil((total * 1.5 + 64e6) / 1e8) * 100)
  local current = nil
  for _, a in ipairs(config.get().jvm_args or {}) do
    local n, unit = tostring(a):match('^%-Xmx(%d+)([kKmMgG]?)$')
    if n then
      local f = ({ k = 1 / 1024, m = 1, g = 1024 })[unit:lower()] or 1 / 1048576
      current = tonumber(n) * f
    end
  end
  if current and suggest <= current then
    suggest = math.ceil(current * 2 / 100) * 100
  end
  local what = #parts > 0 and ('while serving ' .. table.concat(parts, ', ')) or 'while serving no buffer'
  local line
  for _, l in ipairs(stderr) do
    if l:find('OutOfMemoryError', 1, true) then
      line = l
      break
    end
  end
  return string.format("nvimpam: the JVM ran out of memory %s (%s). Give it more heap: setup({ jvm_args = { '-Xmx%dm' } }); the next nvimpam command starts it again.",
    what, vim.trim(line or 'OutOfMemoryError'), suggest)
end

-- Starts a JVM; returns its channel id and the list collecting the tail of its stderr.
local function spawn(on_exit)
  local cmd, err = M.command()
  if not cmd then
    return nil, err
  end
  local stderr = {}
  local id = vim.fn.jobstart(cmd, {
    rpc = true,
    on_stderr = function(_, data)
      for _, line in ipairs(data) do
        if line ~= '' then
          stderr[#stderr + 1] = line
          if #stderr > 50 then
            table.remove(stderr, 1)
          end
        end
      end
    end,
    on_exit = function(id, code)
      on_exit(id, code, stderr)
    end,
  })
  if id <= 0 then
    return nil, 'could not start ' .. table.concat(cmd, ' ')
  end
  return id, stderr
end

local function with_stderr(msg, stderr)
  return #stderr > 0 and (msg .. ':\n' .. table.concat(stderr, '\n')) or msg
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
  local oom = false
  for _, l in ipairs(stderr) do
    oom = oom or l:find('OutOfMemoryError', 1, true) ~= nil
  end
  if oom then
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

local function start_jvm()
  local id, stderr = spawn(exited)
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
function M.channel()
  if job then
    return job.id
  end
  return start_jvm()
end

--- For the `java` remote-plugin host: the shared JVM, or (for :UpdateRemotePlugins, which stops
--- the host it asked) a JVM of its own. Returns 0 when none could start.
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

--- Calls `method` in the JVM without waiting: `cb(err, result)` runs when the JVM answers (inside
--- the handler of its message: schedule anything slow), when it dies, or at once when it cannot
--- start. `buf` names the buffer the call serves. Returns the call's id, or nil when the JVM could
--- not start.
function M.call(method, args, cb, buf)
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
function M.send(call)
  local id = call.id
  local chan, err = M.channel()
  if not chan then
    call.cb(M.error('no_jvm', err))
    return nil
  end
  call.chan = chan
  pending[id] = call
  vim.rpcnotify(chan, 'nvimpam_call', id, call.method, call.args)
  return id
end

--- Whether the Java version is known without running `java -version`.
function M.java_version_known()
  local v = known_version(M.java())
  return v == nil or v.major ~= nil -- a missing java is known too: M.channel() says so
end

--- The JVM's answer to call `id` (it runs this through nvim_exec_lua). Answers to calls that
--- are no longer waited for (a timeout, an interrupt) are dropped.
function M._done(id, err, result)
  local p = pending[id]
  if not p then
    return
  end
  pending[id] = nil
  if err ~= nil and err ~= vim.NIL then
    local e = as_error(err)
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
function M.wait(method, args, what, buf)
  local done, err, res = false, nil, nil
  local id = M.call(method, args, function(e, r)
    done, err, res = true, e, r
  end, buf)
  local ms = config.get().timeout_ms
  -- vim.fn.wait, not vim.wait: on 0.7 vim.wait with a condition ignores Ctrl-C.
  local status = done and 0 or vim.fn.wait(ms, function()
    return done
  end, 10)
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
function M.notify(method, ...)
  if job then
    vim.rpcnotify(job.id, method, ...)
  end
end

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
