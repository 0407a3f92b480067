-- :checkhealth nvimpam
local M = {}

-- vim.health (0.9+) or the health module of 0.7/0.8.
local health = vim.health or require('health')
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local report_error = health.error or health.report_error
local info = health.info or health.report_info

--- Whether this Neovim has API function `name` (call-atomic is made of nvim_call_atomic,
--- deprecated since 0.10 and kept on purpose).
---@param name string
---@return boolean
function M.has_api_function(name)
  for _, f in ipairs(vim.fn.api_info().functions) do
    if f.name == name then
      return true
    end
  end
  return false
end

--- :checkhealth nvimpam: Neovim, Java, the jar, the options, the card-layout table and the JVM.
---@return nil
function M.check()
  local config = require('nvimpam.core.config')
  local host = require('nvimpam.host')

  start('nvimpam')
  local compat = require('nvimpam.core.compat')
  if not compat.at_least(compat.oldest_minor) then
    report_error('Neovim ' .. compat.version .. ' is too old', { 'nvimpam needs Neovim 0.' .. compat.oldest_minor .. ' or newer' })
  else
    ok('Neovim ' .. compat.version)
  end

  local java = host.java()
  local major, why = host.java_version(java)
  if not major then
    report_error(why, { 'Install a JDK 17 or newer, or set java = "/path/to/java" in setup()' })
  elseif major < 17 then
    report_error('Java ' .. major .. ' at ' .. vim.fn.exepath(java) .. ' is too old', { 'nvimpam needs Java 17 or newer' })
  else
    ok('Java ' .. major .. ' at ' .. vim.fn.exepath(java))
  end

  local jar = host.jar()
  if require('nvimpam.core.compat').uv.fs_stat(jar) then
    ok('jar: ' .. jar)
  else
    report_error('no jar at ' .. jar, { 'Build it: cd ' .. host.root() .. ' && ./mvnw -q package -DskipTests' })
  end

  local valid, why_invalid = pcall(config.get)
  if not valid then
    report_error(tostring(why_invalid), { 'Fix setup() or vim.g.nvimpam: :help nvimpam-options' })
    return
  end
  local set = {}
  for _, o in ipairs(require('nvimpam.core.options').list) do
    local value = config.get()[o.name]
    if not vim.deep_equal(value, config.defaults[o.name]) then
      set[#set + 1] = o.name .. ' = ' .. vim.inspect(value, { newline = ' ', indent = '' })
    end
  end
  info(#set == 0 and 'options: all at their defaults' or 'options not at their defaults: ' .. table.concat(set, ', '))

  local strategy = config.get().strategy
  if strategy == 'call-atomic' and not M.has_api_function('nvim_call_atomic') then
    report_error('strategy call-atomic needs nvim_call_atomic, which this Neovim no longer has',
      { "Choose another: :NvimpamFoldStrategy lua (the default), or pipe" })
  elseif pcall(config.check_strategy, strategy) then
    ok('strategy: ' .. strategy)
  else
    report_error('unknown strategy ' .. tostring(strategy), { 'Valid names: ' .. table.concat(config.strategies, ', ') })
  end

  local loaded, table_or_err = pcall(require('nvimpam.model.layout').get)
  if loaded then
    ok(string.format('card-layout table: %d layouts of %d cards (cells %s, checks %s)', #table_or_err.entries,
      #table_or_err.keys, config.get().cells and 'on' or 'off', config.get().checks and 'on' or 'off'))
  else
    report_error('the card-layout table does not load: ' .. tostring(table_or_err),
      { 'Cells and the cell hint are off until it does; fix the line named' })
  end

  local creates_natively, why_not = require('nvimpam.fold.native').creator()
  if creates_natively then
    ok("folds are created by Neovim's foldCreate(), called through LuaJIT's FFI (strategies lua and viml,"
      .. " and the whole refreshes while editing; the others send :fold commands)")
  else
    info('folds are created by :fold commands (' .. why_not .. ')')
  end

  if major and major >= 17 and require('nvimpam.core.compat').uv.fs_stat(jar) then
    -- The only way to know the JVM works is to ask it: this check starts it when it is not
    -- running (it then serves this Neovim's decks, as it would on first use).
    local was_running = host.running()
    local answered, reply = pcall(host.wait, 'info', {}, 'the health check')
    local how = was_running and 'was running' or 'started by this check'
    if answered then
      ok(string.format('JVM %s (pid %s) and answers: %s', how, tostring(host.pid()), tostring(reply.lines[1])))
    else
      report_error('the JVM does not answer: ' .. tostring(reply))
    end
  else
    warn('JVM not started: fix the errors above first')
  end
  info('filetype pamcrash: *.pc, and *.inc files with PAM-CRASH card headers')
end

return M
