-- Finding Java and the plugin's jar, and the command line that starts the JVM. Nothing here
-- starts it: nvimpam.host does.
local M = {}

local uv = require('nvimpam.core.compat').uv
local config = require('nvimpam.core.config')

--- The plugin's root folder (the one holding lua/, autoload/ and target/).
---@return string
function M.root()
  local src = debug.getinfo(1, 'S').source:sub(2) -- <root>/lua/nvimpam/host/java.lua
  return vim.fn.fnamemodify(src, ':p:h:h:h:h')
end

--- The jar the JVM runs: `jar` of setup(), else target/nvimpam.jar in the root.
---@return string
function M.jar()
  local jar = config.get().jar
  if jar and jar ~= '' then
    return vim.fn.expand(jar)
  end
  return M.root() .. '/target/nvimpam.jar'
end

--- The Java executable: `java` of setup(), else $JAVA_HOME/bin/java, else `java` on $PATH.
---@return string
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

-- Values kept in stdpath('cache')/`name`, a line with the key (what it was found for) and one
-- with the value each, the newest first: several, for a machine with more than one Java or Neovim.
local CACHED_KEYS = 8

local function cached_lines(name)
  local ok, lines = pcall(vim.fn.readfile, vim.fn.stdpath('cache') .. '/' .. name)
  return ok and lines or {}
end

-- The value kept for `key`, or nil when the file holds none for it.
local function cached(name, key)
  local lines = cached_lines(name)
  for i = 1, #lines - 1, 2 do
    if lines[i] == key then
      return lines[i + 1]
    end
  end
  return nil
end

local function cache(name, key, value)
  local out = { key, value }
  local lines = cached_lines(name)
  for i = 1, #lines - 1, 2 do
    if lines[i] ~= key and #out < 2 * CACHED_KEYS then
      out[#out + 1] = lines[i]
      out[#out + 1] = lines[i + 1]
    end
  end
  vim.fn.mkdir(vim.fn.stdpath('cache'), 'p')
  pcall(vim.fn.writefile, out, vim.fn.stdpath('cache') .. '/' .. name)
end

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
    local known = cached('nvimpam-java-version', key)
    version_cache[key] = known and tonumber(known)
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
  cache('nvimpam-java-version', v.key, tostring(major))
  return major
end

--- The Java feature version (17, 21, …) of `java`, or nil and a reason. Cached per executable
--- and modification time, so that only the first start ever pays for `java -version`.
---@param java string? the executable, M.java() when nil
---@return integer? major
---@return string? why
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
---@param java string? the executable, M.java() when nil
---@param cb fun(major: integer?, why: string?)
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

--- Whether the Java version is known without running `java -version`.
---@return boolean
function M.java_version_known()
  local v = known_version(M.java())
  return v == nil or v.major ~= nil -- a missing java is known too: starting the JVM says so
end

--- The class-data sharing archive of a jar build and a Java installation (its executable's
--- modification time tells an update of the same major version, whose JVM would refuse an older
--- archive for good).
---@param major integer
---@param jar string
---@param java string the Java executable
---@return string
function M.cds_archive(major, jar, java)
  local st = uv.fs_stat(jar)
  local jst = uv.fs_stat(vim.fn.resolve(vim.fn.exepath(java)))
  return string.format('%s/nvimpam-%d-%d-%d.jsa', vim.fn.stdpath('cache'), major, st and st.mtime.sec or 0,
    jst and jst.mtime.sec or 0)
end

--- How many archives of other jar builds and Java installations are kept (2.5 MB each).
M.KEEP_ARCHIVES = 3

-- Removes the archives but the KEEP_ARCHIVES newest: each jar build writes one of its own, and
-- they piled up with every update of the plugin (437 of them, 1.1 GB, on a machine that built it often).
local function prune_archives()
  local dir = vim.fn.stdpath('cache')
  local handle = uv.fs_scandir(dir)
  local list = {}
  while handle do
    local name = uv.fs_scandir_next(handle)
    if not name then
      break
    end
    if name:match('^nvimpam%-.+%.jsa$') then
      local st = uv.fs_stat(dir .. '/' .. name)
      if st then
        list[#list + 1] = { path = dir .. '/' .. name, mtime = st.mtime.sec }
      end
    end
  end
  table.sort(list, function(a, b)
    return a.mtime > b.mtime
  end)
  for i = M.KEEP_ARCHIVES + 1, #list do
    os.remove(list[i].path)
  end
end

-- Class-data sharing: an archive per jar build and Java installation in stdpath('cache'), created
-- on the first run and used by every later start. A missing or unusable archive only costs speed:
-- the JVM warns on stderr and starts without it. A start that writes a new one prunes the old ones.
local function cds_args(major, jar, java)
  local archive = M.cds_archive(major, jar, java)
  local exists = uv.fs_stat(archive) ~= nil
  if not exists then
    prune_archives()
  end
  if major >= 19 then
    return { '-XX:+AutoCreateSharedArchive', '-XX:SharedArchiveFile=' .. archive }
  elseif exists then
    return { '-XX:SharedArchiveFile=' .. archive }
  else
    vim.fn.mkdir(vim.fn.stdpath('cache'), 'p')
    return { '-XX:ArchiveClassesAtExit=' .. archive }
  end
end

local ext_types -- this Neovim's, once known

-- `--ext-types=B,W,T`: this Neovim's msgpack codes of Buffer, Window and Tabpage. With them the
-- JVM starts without asking for the API metadata, a round trip and tens of KB to read at its
-- coldest (12 ms of the 100 from opening a deck to its folds). They come from api_info() (2 ms
-- on 0.7), kept in stdpath('cache') per Neovim version, as the Java version is.
local function ext_types_arg()
  if not ext_types then
    local key = require('nvimpam.core.compat').cache_key
    local known = cached('nvimpam-ext-types', key)
    if known and known:match('^%d+,%d+,%d+$') then
      ext_types = known
    else
      local t = vim.fn.api_info().types
      ext_types = string.format('%d,%d,%d', t.Buffer.id, t.Window.id, t.Tabpage.id)
      cache('nvimpam-ext-types', key, ext_types)
    end
  end
  return '--ext-types=' .. ext_types
end

--- The command line that starts the JVM, or nil and a message saying what to fix.
---@param extra string[]? more arguments of `serve`
---@return string[]? cmd
---@return string? why
function M.jvm_command_line(extra)
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
  -- -XX:-UsePerfData: no hsperfdata file to create and map (a few ms of every start).
  local cmd = { vim.fn.exepath(java), '-Xlog:disable', '-Xlog:all=warning:stderr', '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC', '-XX:PretenureSizeThreshold=1m', '-XX:NewRatio=4', '-XX:-UsePerfData' }
  vim.list_extend(cmd, cds_args(major, jar, java))
  vim.list_extend(cmd, config.get().jvm_args or {})
  vim.list_extend(cmd, { '-jar', jar, 'serve', ext_types_arg() })
  vim.list_extend(cmd, extra or {})
  return cmd
end

return M
