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

--- The Java feature version (17, 21, …) of `java`, or nil and a reason. Cached per executable
--- and modification time, so that only the first start ever pays for `java -version`.
function M.java_version(java)
  java = java or M.java()
  local exe = vim.fn.exepath(java)
  if exe == '' then
    return nil, 'no Java executable "' .. java .. '" (install JDK 17+ or set java = "/path/to/java" in setup())'
  end
  local stat = uv.fs_stat(vim.fn.resolve(exe))
  local key = exe .. ':' .. (stat and stat.mtime.sec or 0)
  if version_cache[key] then
    return version_cache[key]
  end
  local cache_file = vim.fn.stdpath('cache') .. '/nvimpam-java-version'
  local ok, lines = pcall(vim.fn.readfile, cache_file)
  if ok and lines[1] == key and tonumber(lines[2]) then
    version_cache[key] = tonumber(lines[2])
    return version_cache[key]
  end
  local out = vim.fn.system({ exe, '-version' })
  local major = out:match('version "(%d+)')
  if major == '1' then
    major = out:match('version "1%.(%d+)')
  end
  major = tonumber(major)
  if not major then
    return nil, 'could not read the version of ' .. exe .. ': ' .. out
  end
  version_cache[key] = major
  vim.fn.mkdir(vim.fn.stdpath('cache'), 'p')
  pcall(vim.fn.writefile, { key, tostring(major) }, cache_file)
  return major
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
  -- big decks are bound by moving their lines over RPC, not by parsing. jvm_args come last, so
  -- they can undo this (e.g. -XX:TieredStopAtLevel=4).
  local cmd = { vim.fn.exepath(java), '-Xlog:disable', '-Xlog:all=warning:stderr', '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC' }
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

--- The channel of the running JVM, started if needed; nil and an error message when it cannot
--- start.
function M.channel()
  if job then
    return job.id
  end
  local id, stderr = spawn(function(id, code, stderr)
    if job and job.id == id then
      job = nil
      if code ~= 0 and vim.v.exiting == vim.NIL then
        crashed = true
        last_error = with_stderr('the nvimpam JVM exited with code ' .. code, stderr)
        notify(last_error .. '\nThe next nvimpam command starts it again.')
      end
    end
  end)
  if not id then
    last_error = stderr
    return nil, last_error
  end
  job = { id = id, pid = vim.fn.jobpid(id) }
  local ok, res = pcall(vim.fn.rpcrequest, id, 'nvimpam_setup', config.for_jvm())
  if not ok then
    M.stop()
    last_error = with_stderr('the nvimpam JVM did not answer (' .. tostring(res) .. ')', stderr)
    return nil, last_error
  end
  local restarted = crashed
  last_error, crashed = nil, false
  if restarted then
    vim.schedule(function()
      for _, f in ipairs(restarted_hooks) do
        f()
      end
    end)
  end
  return id
end

--- For the `java` remote-plugin host: the shared JVM, or (for :UpdateRemotePlugins, which stops
--- the host it asked) a JVM of its own. Returns 0 when none could start.
function M.channel_for_rplugin(shared)
  if shared then
    return M.channel() or 0
  end
  local id, err = spawn(function() end)
  if not id then
    last_error = err
    return 0
  end
  return id
end

--- A request to the JVM; starts it when needed. Errors are raised with a message naming the cause.
function M.request(method, ...)
  local chan, err = M.channel()
  if not chan then
    error('nvimpam: ' .. err, 0)
  end
  local ok, res = pcall(vim.fn.rpcrequest, chan, method, ...)
  if not ok then
    error('nvimpam: ' .. tostring(res):gsub('^Vim:', ''), 0)
  end
  return res
end

function M.notify(method, ...)
  if job then
    vim.rpcnotify(job.id, method, ...)
  end
end

function M.stop()
  if job then
    local id = job.id
    job = nil
    vim.fn.jobstop(id)
  end
end

return M
