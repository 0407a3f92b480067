-- Starting one JVM process: the job of the command line nvimpam.host.java makes, with the tail of
-- its stderr kept for the message when it dies (a stale shared archive it names is removed, so
-- that the next start writes a new one). nvimpam.host decides when to start one.
local M = {}

local java = require('nvimpam.host.java')

--- Starts a JVM (`serve` with the arguments `extra`); returns its channel id and the list
--- collecting the tail of its stderr, or nil and why not.
---@param on_exit fun(id: integer, code: integer, stderr: string[])
---@param extra? string[]
---@return integer|nil id
---@return string[]|string stderr, or why it did not start
function M.spawn(on_exit, extra)
  local cmd, err = java.jvm_command_line(extra)
  if not cmd then
    return nil, err
  end
  local stderr = {}
  local id = vim.fn.jobstart(cmd, {
    rpc = true,
    on_stderr = function(_, data)
      for _, line in ipairs(data) do
        -- an archive this Java cannot use (another build of it): the next start writes a new one
        local stale = line:match('Unable to use shared archive.-: (%S+%.jsa)$')
        if stale then
          os.remove(stale)
        end
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

--- `msg`, followed by the tail of the JVM's stderr when there is one.
---@param msg string
---@param stderr string[]
---@return string
function M.with_stderr(msg, stderr)
  return #stderr > 0 and (msg .. ':\n' .. table.concat(stderr, '\n')) or msg
end

return M
