-- Asking the JVM's id index: commands wait with a message after a second (progress), completion
-- and the templates with a short deadline (within).
local M = {}

local api = vim.api
local host = require('nvimpam.host')

--- Runs `f` (which waits for the JVM); after a second a message says what is waited for.
---@param what string
---@param f fun(): any
---@return any what f returns
function M.progress(what, f)
  local done = false
  local timer = vim.defer_fn(function()
    if not done then
      api.nvim_echo({ { 'nvimpam: ' .. what .. '… (Ctrl-C stops waiting)' } }, false, {})
      vim.cmd('redraw')
    end
  end, 1000)
  local ok, res = pcall(f)
  done = true
  pcall(function()
    timer:stop()
    timer:close()
  end)
  if not ok then
    error(res, 0)
  end
  return res
end

--- Asks the JVM with a deadline of `ms`; nil when it is not running or did not answer in time,
--- and then `late(result)` runs (scheduled) when the answer comes.
---@param method string
---@param args any[]
---@param ms integer
---@param buf integer
---@param late? fun(result: any)
---@return any
function M.within(method, args, ms, buf, late)
  if not host.running() then
    return nil
  end
  local done, waited, res = false, false, nil
  host.call(method, args, function(e, r)
    if not e then
      res = r
    end
    done = true
    if waited and late and res then
      vim.schedule(function()
        late(res)
      end)
    end
  end, buf)
  if not done then
    vim.fn.wait(ms, function()
      return done
    end, 5)
  end
  waited = not done
  return res
end

return M
