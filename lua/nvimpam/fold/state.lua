-- What nvimpam remembers per buffer between refreshes: the plan its folds were last made from,
-- the line edits since then (the edit log, which maps that plan to today's line numbers), the
-- windows it went to, and the changedtick of the last refresh.
local M = {}

local api = vim.api
local plan = require('nvimpam.fold.plan')

--- One on_lines event: first line, last line (old numbering, 0-based, end-exclusive), the new
--- last line, and the changedtick (math.huge when Neovim gave none).
---@alias nvimpam.Edit { [1]: integer, [2]: integer, [3]: integer, [4]: number }

---@class nvimpam.WindowView What begin() saved of a window, for finish() to put back.
---@field win integer
---@field view table what winsaveview() returned
---@field foldlevel integer
---@field states table<integer, boolean> open (true) or closed by plan.key() of the fold's range

---@class nvimpam.BufferState
---@field plan nvimpam.Plan the plan the folds were last made from (or are being made from)
---@field names string[] that plan's names
---@field edits nvimpam.Edit[] the edits since that plan was applied
---@field attached boolean whether on_lines records the edits
---@field wins table<integer, true>? the windows the plan went to
---@field tick integer? the changedtick of the last finished refresh
---@field applied_ns integer? when it finished (hrtime)
---@field pending_tick integer? the changedtick of the refresh under way
---@field saved nvimpam.WindowView[]? the windows of the refresh under way
---@field origin integer? the window that was current when the refresh began
---@field staged nvimpam.PlanMessage? the plan stage() kept for prepare_staged()
---@field refold_error string? why the last live refold fell back to a whole refresh

---@type table<integer, nvimpam.BufferState>
local buffers = {}

--- The buffer `buf` names: itself, or the current buffer for 0 or nil.
M.bufnr = require('nvimpam.core.buf').nr

--- The state of buffer `buf` (a number, not 0), made empty the first time.
---@param buf integer
---@return nvimpam.BufferState
function M.get(buf)
  local st = buffers[buf]
  if not st then
    st = { plan = plan.EMPTY, names = {}, edits = {}, attached = false }
    buffers[buf] = st
  end
  return st
end

--- The state of buffer `buf` (a number, not 0), or nil when it has none.
---@param buf integer
---@return nvimpam.BufferState?
function M.find(buf)
  return buffers[buf]
end

--- Forgets a buffer's state; its edit log detaches at the next edit.
---@param buf integer
function M.forget(buf)
  buffers[buf] = nil
end

--- Appends the edit { first, last, new_last, tick } to `edits`, merged into the edit before it
--- where the two are exactly one edit to M.shift, M.image and a refold: line-for-line replacements
--- that overlap or meet, and deletions at the same line (not the deletion of a :move, which a
--- refold recognises by the insertion before it). A large change put in by parts
--- (nvimpam.tree.paced: 100,000 calls for 10M lines) so leaves one edit, not one table per call
--- for Lua's collector to walk and for the refold after it to map every fold through.
---@param edits nvimpam.Edit[]
---@param first integer
---@param last integer
---@param new_last integer
---@param tick number
function M.record(edits, first, last, new_last, tick)
  local n = #edits
  local p = edits[n]
  if p then
    local pf, pl, pn = p[1], p[2], p[3]
    if last == new_last and pl == pn and first <= pl and last >= pf then
      p[1], p[2], p[4] = math.min(pf, first), math.max(pl, last), math.max(p[4], tick)
      p[3] = p[2]
      return
    end
    local q = edits[n - 1]
    if new_last == first and last > first and pn == pf and pl > pf and first == pf
      and not (q and q[2] == q[1] and q[3] > q[1]) then
      p[2], p[4] = pl + last - first, math.max(p[4], tick)
      return
    end
  end
  edits[n + 1] = { first, last, new_last, tick }
end

--- Records line edits so that the previous plan can be mapped to the current line numbers.
---@param buf integer
---@param st nvimpam.BufferState
function M.track_edits(buf, st)
  if st.attached then
    return
  end
  st.attached = api.nvim_buf_attach(buf, false, {
    on_lines = function(_, _, tick, first, last, new_last)
      if buffers[buf] ~= st then
        return true -- forgotten (reset): detach
      end
      M.record(st.edits, first, last, new_last, tick or math.huge)
    end,
    on_reload = function()
      st.edits = { { 0, math.huge, 0, 0 } } -- nothing survives a reload
    end,
    on_detach = function()
      st.attached = false
    end,
  })
end

--- Maps a 1-based fold range through the edits; nil when an edit touched it.
---@param s integer
---@param e integer
---@param edits nvimpam.Edit[]
---@return integer? s
---@return integer? e
function M.shift(s, e, edits)
  for i = 1, #edits do
    local first, last, new_last = edits[i][1], edits[i][2], edits[i][3]
    if e - 1 >= first then
      if s - 1 < last then
        return nil
      end
      local delta = new_last - last
      s, e = s + delta, e + delta
    end
  end
  return s, e
end

--- Maps the lines s to e (1-based) of the previous plan's fold through the edits, as its identity
--- needs: the line its first line (the card's header) is on today, nil when an edit deleted it; and
--- the first and the last of its lines that are left, nil when none is. An edit that replaces lines
--- keeps as many of them in place as it puts back (a changed line is the same line) and deletes
--- the rest, at its end; lines below it move by the lines it inserted or deleted. And `alt`,
--- where Neovim 0.12 may hold the fold instead: when an undo puts lines back right above a fold,
--- Neovim leaves the fold at the first of them (cut to its old length less one).
---@param s integer
---@param e integer
---@param edits nvimpam.Edit[]
---@return integer? head
---@return integer? first
---@return integer? last
---@return integer? alt
function M.image(s, e, edits)
  local head, alt = s, nil
  for i = 1, #edits do
    local first, last, new_last = edits[i][1], edits[i][2], edits[i][3]
    local kept = math.min(last, new_last) -- old lines first+1..kept stay, kept+1..last go
    local delta = new_last - last
    if alt then
      alt = alt > last and alt + delta or (alt <= kept and alt or nil)
    end
    if head then
      if head > last then
        if head == last + 1 and delta > 0 then
          alt = first + 1
        end
        head = head + delta
      elseif head > kept then
        head = nil
      end
    end
    if s > last then
      s = s + delta
    elseif s > kept then
      s = new_last + 1 -- the line after the deleted ones
    end
    if e > last then
      e = e + delta
    elseif e > kept then
      e = kept -- the line before them
    end
    if e < s then
      return nil, nil, nil, nil
    end
  end
  return head, s, e, head and alt
end

return M
