-- A large result the JVM holds under a token (plugin.Pages), asked for a page of lines at a time:
-- a whole answer would hold Neovim's main loop while it is decoded. The next page is asked for as
-- soon as one arrives, so it is on its way while that one is used.
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

--- Asks the page call `call` for every line of the files held under `token` (`counts[k]` lines in
--- file k; an empty file is one empty page), in order, M.page_lines at a time: `on_page(k, at,
--- lines)` on the main loop for each, `on_error(err)` once instead of the rest. The result is
--- dropped after the last page, on an error, or on the handle's stop().
---@param call string
---@param token integer
---@param counts integer[]
---@param on_page fun(k: integer, at: integer, lines: string[])
---@param on_error fun(err: any)
---@return table handle { stop = function() }
function M.fetch(call, token, counts, on_page, on_error)
  local k, at, stopped = 1, 0, false
  local handle = {}
  function handle.stop()
    if not stopped then
      stopped = true
      M.drop(call, token)
    end
  end
  local function ask()
    if stopped then
      return
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
    host.call(call, { token, fk - 1, fat, n }, function(err, lines)
      vim.schedule(function()
        if stopped then
          return
        end
        if err then
          handle.stop()
          return on_error(err)
        end
        ask()
        on_page(fk, fat, lines)
      end)
    end)
  end
  ask()
  return handle
end

--- The page call `call` as a source of lines: { fetch(token, counts, on_page, on_error), drop(token) }.
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
