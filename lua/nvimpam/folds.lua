-- Applies fold plans computed by the nvimpam JVM to every window that shows a buffer.
--
-- A plan is one table: { buf = <bufnr>, folds = { s, e, name, count, ... }, names = { ... } }.
-- `folds` holds 4 integers per fold, 1-based inclusive lines, in creation order: children before
-- parents (end ascending, then start descending), so every `:fold` appends to its level and never
-- lands inside a closed parent. `name` is a 0-based index into `names`; `count` is 0 for a level-1
-- fold and the number of member folds for a level-2 fold. Only integers and our own names travel:
-- no buffer text is ever executed.
--
-- What the user had is kept: 'foldlevel', the view, and the open/closed state of every fold that
-- still exists after the refresh (matched by range, after shifting by the edits made since).
local M = {}

local api = vim.api
local fn = vim.fn

local STRIDE = 4
local FOLDTEXT = "v:lua.require'nvimpam.folds'.foldtext()"

-- Per buffer: the plan last applied, the edits since then, and the windows being refreshed.
local buffers = {}

local function buffer_state(buf)
  local st = buffers[buf]
  if not st then
    st = { folds = {}, names = {}, edits = {}, attached = false }
    buffers[buf] = st
  end
  return st
end

-- Records line edits so that the previous plan can be mapped to the current line numbers.
local function track_edits(buf, st)
  if st.attached then
    return
  end
  st.attached = api.nvim_buf_attach(buf, false, {
    on_lines = function(_, _, _, first, last, new_last)
      if buffers[buf] ~= st then
        return true
      end
      local edits = st.edits
      edits[#edits + 1] = { first, last, new_last }
    end,
    on_reload = function()
      st.edits = { { 0, math.huge, 0 } } -- nothing survives a reload
    end,
    on_detach = function()
      st.attached = false
    end,
  })
end

-- Maps a 1-based fold range through the edits; nil when an edit touched it.
local function shift(s, e, edits)
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

local function key(s, e)
  return s * 16777216 + e
end

-- Reads, in the current window, whether each fold of the previous plan is open, keyed by its range
-- in today's numbering. Parents come first so a closed parent can be opened to read its children.
local function read_states(st)
  local states = {}
  local folds, edits = st.folds, st.edits
  for i = #folds - STRIDE + 1, 1, -STRIDE do
    local s, e = shift(folds[i], folds[i + 1], edits)
    if s then
      local closed = fn.foldclosed(s) == s and fn.foldclosedend(s) == e
      if closed and folds[i + 3] > 0 then
        api.nvim_command(s .. 'foldopen') -- so that its members can be read
      end
      states[key(s, e)] = not closed
    end
  end
  return states
end

local function depth_of(level2, s, parent_start, parent_end)
  if level2 or s < parent_start or s > parent_end then
    return 1
  end
  return 2
end

-- Puts back the open/closed state the user gave to folds that still exist, after 'foldlevel' set
-- every fold to its default.
local function restore_states(folds, states, foldlevel)
  if next(states) == nil then
    return
  end
  local opened, closed = {}, {}
  local ps, pe = -1, -2
  for i = #folds - STRIDE + 1, 1, -STRIDE do
    local s, e = folds[i], folds[i + 1]
    local level2 = folds[i + 3] > 0
    if level2 then
      ps, pe = s, e
    end
    local want = states[key(s, e)]
    if want ~= nil then
      local default_open = depth_of(level2, s, ps, pe) <= foldlevel
      if want and not default_open then
        opened[#opened + 1] = i
      elseif not want and default_open then
        closed[#closed + 1] = i
      end
    end
  end
  -- Parents first: opening a child inside a closed parent opens the parent on the way.
  for _, i in ipairs(opened) do
    local s = folds[i]
    while fn.foldclosed(s) ~= -1 and not (fn.foldclosed(s) == s and fn.foldclosedend(s) == folds[i + 1]) do
      api.nvim_command(s .. 'foldopen')
    end
    if fn.foldclosed(s) == s then
      api.nvim_command(s .. 'foldopen')
    end
  end
  -- Children first: `:N foldclose` closes the innermost open fold at N.
  for j = #closed, 1, -1 do
    local i = closed[j]
    if fn.foldclosed(folds[i]) == -1 then
      api.nvim_command(folds[i] .. ',' .. folds[i + 1] .. 'foldclose')
    end
  end
end

--- Starts a refresh of `plan.buf`: remembers each window's view, 'foldlevel' and fold states,
--- then clears its folds. Returns the windows that show the buffer and must get the folds.
function M.prepare(plan)
  local buf = plan.buf
  if buf == 0 then
    buf = api.nvim_get_current_buf()
  end
  local st = buffer_state(buf)
  local saved = {}
  for _, win in ipairs(fn.win_findbuf(buf)) do
    api.nvim_win_call(win, function()
      local w = { win = win, view = fn.winsaveview(), foldlevel = vim.wo.foldlevel }
      w.states = vim.wo.foldmethod == 'manual' and read_states(st) or {}
      vim.wo.foldmethod = 'manual'
      vim.wo.foldtext = FOLDTEXT
      api.nvim_command('normal! zE')
      saved[#saved + 1] = w
    end)
  end
  st.folds, st.names, st.edits = plan.folds, plan.names, {}
  st.tick = api.nvim_buf_get_changedtick(buf)
  st.saved, st.origin = saved, api.nvim_get_current_win()
  track_edits(buf, st)
  local wins = {}
  for i, w in ipairs(saved) do
    wins[i] = w.win
  end
  return wins
end

--- Ends a refresh started by prepare(): restores 'foldlevel', fold states, views and the current
--- window. With `failed` set, the partly created folds are removed instead, so that an error
--- never leaves half a fold tree behind.
function M.finish(buf, failed)
  if buf == 0 then
    buf = api.nvim_get_current_buf()
  end
  local st = buffer_state(buf)
  if failed then
    st.folds, st.names = {}, {}
  end
  for _, w in ipairs(st.saved or {}) do
    if api.nvim_win_is_valid(w.win) then
      api.nvim_win_call(w.win, function()
        if failed then
          api.nvim_command('normal! zE')
        end
        api.nvim_command('setlocal foldlevel=' .. w.foldlevel)
        restore_states(st.folds, w.states, w.foldlevel)
        fn.winrestview(w.view)
      end)
    end
  end
  if st.origin and api.nvim_win_is_valid(st.origin) then
    api.nvim_set_current_win(st.origin)
  end
  st.saved, st.origin = nil, nil
end

-- Creates the plan's folds in the current window. An error names the fold, counted from 1 in
-- plan order, in the form the JVM reads back: "fold N of M (lines S-E): reason".
local function create_folds(folds)
  local cmd = api.nvim_command
  local i = 1
  local ok, err = pcall(function()
    while i <= #folds do
      cmd(folds[i] .. ',' .. folds[i + 1] .. 'fold')
      i = i + STRIDE
    end
  end)
  if not ok then
    error(string.format('fold %d of %d (lines %d-%d): %s', (i - 1) / STRIDE + 1, #folds / STRIDE,
      folds[i], folds[i + 1], err), 0)
  end
end

--- The whole refresh in one call: the `lua` strategy. Returns the number of folds per window.
function M.apply(plan)
  local wins = M.prepare(plan)
  local ok, err = pcall(function()
    for _, win in ipairs(wins) do
      api.nvim_win_call(win, function()
        create_folds(plan.folds)
      end)
    end
  end)
  M.finish(plan.buf, not ok)
  if not ok then
    error(err, 0)
  end
  return #plan.folds / STRIDE
end

--- Forgets a buffer's plan and clears its folds in every window (benchmarks start from here).
function M.reset(buf)
  if buf == 0 then
    buf = api.nvim_get_current_buf()
  end
  buffers[buf] = nil
  for _, win in ipairs(fn.win_findbuf(buf)) do
    api.nvim_win_call(win, function()
      vim.wo.foldmethod = 'manual'
      api.nvim_command('normal! zE')
    end)
  end
end

--- The benchmark floor: creates the last applied plan's folds with a Lua loop already inside
--- Neovim, in the current window, and returns the milliseconds it took.
function M.floor(buf)
  if buf == 0 then
    buf = api.nvim_get_current_buf()
  end
  local folds = buffer_state(buf).folds
  api.nvim_command('normal! zE')
  local t0 = vim.loop.hrtime()
  create_folds(folds)
  return (vim.loop.hrtime() - t0) / 1e6
end

-- Binary search for the fold (s, e) in a plan sorted by end ascending.
local function find(folds, s, e)
  local lo, hi = 1, #folds / STRIDE
  while lo <= hi do
    local mid = math.floor((lo + hi) / 2)
    local me = folds[(mid - 1) * STRIDE + 2]
    if me < e then
      lo = mid + 1
    elseif me > e then
      hi = mid - 1
    else
      -- At most a level-1 and a level-2 fold share an end; look around mid.
      for j = math.max(1, mid - 1), math.min(#folds / STRIDE, mid + 1) do
        local i = (j - 1) * STRIDE + 1
        if folds[i] == s and folds[i + 1] == e then
          return i
        end
      end
      return nil
    end
  end
  return nil
end

--- 'foldtext': " N lines: Name " for a card, " K Names " for a group (FOLDS.md §9). Folds the
--- user's edits have reshaped since the last refresh get Neovim's default text.
function M.foldtext()
  local st = buffers[api.nvim_get_current_buf()]
  local s, e = vim.v.foldstart, vim.v.foldend
  local i = st and find(st.folds, s, e)
  if not i then
    return fn.foldtext()
  end
  local name = st.names[st.folds[i + 2] + 1] or '?'
  local count = st.folds[i + 3]
  if count > 0 then
    return ' ' .. count .. ' ' .. name .. 's '
  end
  return ' ' .. (e - s + 1) .. ' lines: ' .. name .. ' '
end

--- Checks that the first window showing `buf` has exactly the folds of the last plan, with their
--- ranges and nesting: closes everything, then opens the plan's folds parents first, each of which
--- must be closed at its own range when reached. Returns the number of folds found; benchmarks
--- compare it with the plan's size, so that a broken strategy cannot look fast.
function M.verify(buf)
  if buf == 0 then
    buf = api.nvim_get_current_buf()
  end
  local folds = buffer_state(buf).folds
  local win = fn.win_findbuf(buf)[1]
  if not win then
    return 0
  end
  local found = 0
  api.nvim_win_call(win, function()
    local foldlevel = vim.wo.foldlevel
    api.nvim_command('normal! zM')
    for i = #folds - STRIDE + 1, 1, -STRIDE do
      local s, e = folds[i], folds[i + 1]
      if fn.foldclosed(s) == s and fn.foldclosedend(s) == e then
        found = found + 1
        api.nvim_command(s .. 'foldopen')
      end
    end
    -- Nothing may stay closed once every fold of the plan is open: no extra folds.
    if found == #folds / STRIDE then
      for i = 1, #folds, STRIDE do
        if fn.foldclosed(folds[i]) ~= -1 then
          found = -1
          break
        end
      end
    end
    vim.wo.foldlevel = foldlevel
  end)
  return found
end

--- The buffer's changedtick when its folds were last applied (nil before the first time).
function M.applied_tick(buf)
  local st = buffers[buf == 0 and api.nvim_get_current_buf() or buf]
  return st and st.tick
end

--- The plan last applied to a buffer (for the VimL strategy, tests and :NvimpamFoldInfo).
function M.plan(buf)
  local st = buffers[buf == 0 and api.nvim_get_current_buf() or buf]
  return st and { folds = st.folds, names = st.names } or nil
end

return M
