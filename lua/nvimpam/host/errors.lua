-- Error values, and the advice given when the JVM ran out of memory.
--
-- Errors are values: { code = ..., message = ... } (plus fold, of, lines and strategy for a
-- failing fold), the shape the JVM sends (lua/nvimpam/contract.properties); tostring() gives the
-- message. `reported` marks one the user has already been shown.
local M = {}

local config = require('nvimpam.core.config')

---@class nvimpam.Error
---@field code string what went wrong, one of contract.properties' codes
---@field message string for the user, starting with "nvimpam"
---@field reported boolean? whether the user has been shown it already
---@field fold integer? the failing fold, counted from 1 in plan order
---@field of integer? the plan's fold count
---@field lines integer[]? the failing fold's first and last line
---@field strategy string? the strategy that failed

local error_mt = {
  __tostring = function(e)
    return e.message
  end,
}

--- An error value with `code` and a message starting with "nvimpam: ".
---@param code string
---@param message string
---@param fields table? more fields (fold, of, lines, strategy)
---@return nvimpam.Error
function M.error(code, message, fields)
  local e = vim.tbl_extend('force', fields or {}, { code = code, message = message })
  if not tostring(e.message):match('^nvimpam') then
    e.message = 'nvimpam: ' .. tostring(e.message)
  end
  return setmetatable(e, error_mt)
end

--- `e` as an error value: itself when it is one, else made from a table's code and message or
--- from a string.
---@param e any
---@return nvimpam.Error
function M.as_error(e)
  if getmetatable(e) == error_mt then
    return e
  end
  if type(e) == 'table' then
    return M.error(e.code or 'failed', e.message or vim.inspect(e), e)
  end
  return M.error('failed', tostring(e))
end

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

--- Whether the JVM's last stderr lines say it died of OutOfMemoryError.
---@param stderr string[]
---@return boolean
function M.out_of_memory(stderr)
  for _, l in ipairs(stderr) do
    if l:find('OutOfMemoryError', 1, true) then
      return true
    end
  end
  return false
end

-- The calls that plan a change of the model beside the decks (call.* in contract.properties).
local model_calls = { renumber = true, merge = true, transform = true, extract = true, unused = true, diff = true }

--- What to tell the user when the JVM died of OutOfMemoryError: the decks it served and a heap
--- to give it (1.5x the decks' bytes, 4x when a model command ran out, plus room for the JVM; more
--- than jvm_args give it now).
---@param stderr string[] the JVM's last stderr lines
---@param bufs table<integer, true> the buffers it served
---@return string
function M.out_of_memory_message(stderr, bufs)
  local total, parts = 0, {}
  for buf in pairs(bufs) do
    local bytes = buffer_bytes(buf)
    if bytes > 0 then
      total = total + bytes
      parts[#parts + 1] = string.format('%s (%s lines, %s)', vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':t'),
        grouped(vim.api.nvim_buf_line_count(buf)), mb(bytes))
    end
  end
  local line
  for _, l in ipairs(stderr) do
    if l:find('OutOfMemoryError', 1, true) then
      line = l
      break
    end
  end
  -- 1.5x the decks' bytes plus room for the JVM itself, in steps of 100 MB; a model command plans
  -- its change beside the decks (a 592 MB deck's offset of every node id peaked at 1.6 GB live and
  -- ran in -Xmx2400m): 4x.
  local during = line and line:match('during ([%w_]+)')
  local factor = model_calls[during] and 4 or 1.5
  local suggest = math.max(256, math.ceil((total * factor + 64e6) / 1e8) * 100)
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
  return string.format("nvimpam: the JVM ran out of memory %s (%s). Give it more heap: setup({ jvm_args = { '-Xmx%dm' } }); the next nvimpam command starts it again.",
    what, vim.trim(line or 'OutOfMemoryError'), suggest)
end

return M
