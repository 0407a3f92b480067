-- The messages nvimpam shows: errors (an error value, or a string), and the summary of a big
-- deck's folds.
local M = {}

local config = require('nvimpam.core.config')
local host = require('nvimpam.host')

--- An error as a notification.
---@param e any an error value or a message
function M.err(e)
  vim.notify(tostring(e), vim.log.levels.ERROR, { title = 'nvimpam' })
end

--- A count with its noun: "1 file", "3 files".
---@param n integer
---@param noun string
---@return string
function M.plural(n, noun)
  return string.format('%d %s%s', n, noun, n == 1 and '' or 's')
end

--- A message for the record.
---@param msg string
function M.info(msg)
  vim.notify(msg, vim.log.levels.INFO, { title = 'nvimpam' })
end

--- A warning: what the user asked for found nothing, or found too much.
---@param msg string
function M.warn(msg)
  vim.notify(msg, vim.log.levels.WARN, { title = 'nvimpam' })
end

--- The first of `variants` (longest first) that fits the command line (v:echospace), else the
--- last one with its middle cut out (its start says what, its end what to do): a message wider
--- than that waits for Enter (a hit-enter prompt).
---@param variants string[]
---@return string
function M.fit(variants)
  local fn = vim.fn
  local space = vim.v.echospace
  for _, v in ipairs(variants) do
    if fn.strdisplaywidth(v) <= space then
      return v
    end
  end
  local last = variants[#variants]
  local n = fn.strchars(last)
  local tail = fn.strcharpart(last, n - math.floor(space / 3))
  local k = space - 1 - fn.strdisplaywidth(tail)
  while k > 0 and fn.strdisplaywidth(fn.strcharpart(last, 0, k)) > space - 1 - fn.strdisplaywidth(tail) do
    k = k - 1
  end
  return fn.strcharpart(last, 0, math.max(k, 0)) .. '…' .. tail
end

--- An error value (or string) as a notification, unless the user has seen it already.
---@param e any
function M.report(e)
  e = host.as_error(e)
  if not e.reported then
    M.err(tostring(e))
  end
end

--- report(), at the top level: for callbacks that may run inside a fast event.
---@param e any
function M.report_scheduled(e)
  vim.schedule(function()
    M.report(e)
  end)
end

--- The JVM's summary of a fold, for decks of at least notify_lines lines.
---@param summary? table { lines, message, ... }
function M.notify_summary(summary)
  if summary and summary.lines >= config.get().notify_lines then
    M.info(summary.message)
  end
end

return M
