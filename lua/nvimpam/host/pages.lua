-- A large result the JVM holds under a token (plugin.Pages), asked for a page of lines at a time:
-- a whole answer would hold Neovim's main loop while it is decoded, and Lua would hold all of it.
local M = {}

local host = require('nvimpam.host')

--- Lines per page (a page's answer is decoded in one go on the main loop: a few ms at most).
M.page_lines = 500

--- Drops the result held under `token` for the page call `call`.
---@param call string
---@param token integer
function M.drop(call, token)
  host.call(call, { token, 0, 0, -1 }, function() end)
end

--- Asks the page call `call` for the lines of the files held under `token` (`counts[k]` lines in
--- file k; an empty file is one empty page), in order, M.page_lines at a time: the first page now,
--- each next one when the handle's more() asks for it (a consumer asks while it still has lines to
--- put, so that the next page is on its way, and never holds more than a few pages: the JVM keeps
--- the rest). `on_page(k, at, lines)` runs on the main loop for each, `on_error(err)` once instead
--- of the rest. The result is dropped after the last page, on an error, or on the handle's stop().
---@param call string
---@param token integer
---@param counts integer[]
---@param on_page fun(k: integer, at: integer, lines: string[])
---@param on_error fun(err: any)
---@return table handle { more = function(), stop = function() }
function M.fetch(call, token, counts, on_page, on_error)
  local k, at, stopped, asked = 1, 0, false, false
  local handle = {}
  function handle.stop()
    if not stopped then
      stopped = true
      M.drop(call, token)
    end
  end
  function handle.more()
    if stopped or asked then
      return -- one page on its way at a time
    end
    if k > #counts then
      return handle.stop() -- every page asked for and come: the JVM can let the result go
    end
    local fk, fat = k, at
    local n = math.min(M.page_lines, counts[k] - at)
    at = at + n
    if at >= counts[k] then
      k, at = k + 1, 0
    end
    asked = true
    host.call(call, { token, fk - 1, fat, n }, function(err, lines)
      vim.schedule(function()
        asked = false
        if stopped then
          return
        end
        if err then
          handle.stop()
          return on_error(err)
        end
        on_page(fk, fat, lines)
      end)
    end)
  end
  handle.more()
  return handle
end

--- The page call `call` as a source of lines: { fetch(token, counts, on_page, on_error), drop(token) }
--- (fetch as M.fetch).
---@param call string
---@return table
function M.source(call)
  return {
    fetch = function(token, counts, on_page, on_error)
      return M.fetch(call, token, counts, on_page, on_error)
    end,
    drop = function(token)
      M.drop(call, token)
    end,
  }
end

return M
