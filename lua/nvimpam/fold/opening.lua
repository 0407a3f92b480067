-- Buffers whose folds are on their way (from FileType until the JVM answers), and what waits until
-- none of some size is: the card-layout table's parse (30 ms of Lua, nvimpam.view.cells) held up
-- the folds of a 1M-line deck by 11-16 ms when it ran alongside the JVM's read on two cores.
-- nvimpam.live marks the buffers; whoever would compete with their read asks after().
local M = {}

local api = vim.api

local opening = {} -- buf -> true
local waiting = {} -- { fn, min_lines }

local function opening_of(min_lines)
  for buf in pairs(opening) do
    if api.nvim_buf_is_loaded(buf) and api.nvim_buf_line_count(buf) >= min_lines then
      return true
    end
  end
  return false
end

--- Marks `buf` as opening: its folds are on their way.
---@param buf integer
function M.start(buf)
  opening[buf] = true
end

--- Marks `buf` as opened (its folds came, or never will); runs what no longer waits.
---@param buf integer
function M.done(buf)
  if not opening[buf] then
    return
  end
  opening[buf] = nil
  local still = {}
  for _, w in ipairs(waiting) do
    if opening_of(w[2]) then
      still[#still + 1] = w
    else
      vim.schedule(w[1])
    end
  end
  waiting = still
end

--- Calls `fn` (scheduled) once no buffer of at least `min_lines` lines that opened waits for its
--- folds: at once when none does.
---@param fn fun()
---@param min_lines integer
function M.after(fn, min_lines)
  if opening_of(min_lines) then
    waiting[#waiting + 1] = { fn, min_lines }
  else
    vim.schedule(fn)
  end
end

return M
