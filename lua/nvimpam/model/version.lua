-- The version of a buffer's deck (CARDS.md "Versions"), which picks the layouts its cards are read
-- with: every reader of a buffer (cells, the virtual header, ids, the plot, the writing commands)
-- asks here, so that they all read a card the same way.
local M = {}

local api = vim.api

local versions = {} -- buf -> { tick, own version or false }

--- A deck's version (CARDS.md "Versions"): the first integer after `INPUTVERSION` at the start
--- of one of its first 200 lines (on the first such line), or nil.
---@param lines string[] the deck's first lines (more than 200 are not read)
---@return integer|nil
function M.of_lines(lines)
  for i = 1, math.min(#lines, 200) do
    local l = lines[i]
    if l:byte(1) == 73 and l:sub(1, 12) == 'INPUTVERSION' then -- I
      return tonumber(l:match('^%D*(%d+)', 13))
    end
  end
  return nil
end

--- The version of a buffer's deck: its own INPUTVERSION (first 200 lines, read again only after
--- a change), else b:nvimpam_inherited_version (an include file of an open deck), else nil (the
--- newest layouts).
---@param buf integer
---@param tick? integer its changedtick, when the caller has it
---@return integer|nil
function M.of(buf, tick)
  tick = tick or api.nvim_buf_get_changedtick(buf)
  local c = versions[buf]
  if not c or c.tick ~= tick then
    c = { tick = tick, own = M.of_lines(api.nvim_buf_get_lines(buf, 0, 200, false)) or false }
    versions[buf] = c
  end
  if c.own then
    return c.own
  end
  local ok, v = pcall(api.nvim_buf_get_var, buf, 'nvimpam_inherited_version')
  return ok and tonumber(v) or nil
end

--- Forgets what of() keeps of `buf` (of every buffer when nil): a buffer wiped, the table reloaded.
---@param buf? integer
function M.forget(buf)
  if buf then
    versions[buf] = nil
  else
    versions = {}
  end
end

return M
