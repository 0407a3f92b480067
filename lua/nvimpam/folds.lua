-- Applies fold plans computed by the nvimpam JVM to every window that shows a buffer.
--
-- A plan is one table: { buf = <bufnr>, folds = <4 integers per fold>, names = { ... } }. Each
-- fold is start, end (1-based, inclusive), name (0-based index into `names`) and count (0 for a
-- level-1 fold, the number of member folds for a level-2 fold). Folds come in creation order:
-- children before parents (end ascending, then start descending), so every `:fold` appends to its
-- level and never lands inside a closed parent. Only integers and our own names travel: no buffer
-- text is ever executed.
--
-- From the JVM, `folds` is a string of little-endian 32-bit integers, read in place: Neovim turns
-- a msgpack array into a Lua table one element at a time, which costs more than creating the
-- folds. From VimL it is a list.
--
-- What the user had is kept: 'foldlevel', the view, and the open/closed state of every fold that
-- still exists after the refresh (matched by range, after shifting by the edits made since).
local M = {}

local api = vim.api
local fn = vim.fn

local STRIDE = 4
local FOLDTEXT = "v:lua.require'nvimpam.folds'.foldtext()"

-- LuaJIT's FFI reads the integers in place on little-endian machines; elsewhere string.byte does.
local has_ffi, ffi = pcall(require, 'ffi')
local little_endian_ffi = has_ffi and ffi.abi('le')

--- A reader of a plan's folds: get(k) is the k-th integer (1-based), n the number of folds.
local function reader(folds)
  if type(folds) == 'table' then
    return function(k)
      return folds[k]
    end, math.floor(#folds / STRIDE)
  end
  local n = math.floor(#folds / (4 * STRIDE))
  if little_endian_ffi then
    local ints = ffi.cast('const int32_t *', folds)
    return function(k)
      local _ = folds -- keeps the string, and so the memory `ints` points into, alive
      return ints[k - 1]
    end, n
  end
  local byte = string.byte
  return function(k)
    local a, b, c, d = byte(folds, 4 * k - 3, 4 * k)
    return a + b * 256 + c * 65536 + d * 16777216
  end, n
end

local EMPTY_GET, EMPTY_N = reader({})

-- Per buffer: the plan last applied (as a reader), the edits since then, the windows being
-- refreshed, and the changedtick of the last refresh.
local buffers = {}

local function buffer_state(buf)
  local st = buffers[buf]
  if not st then
    st = { get = EMPTY_GET, n = EMPTY_N, names = {}, edits = {}, attached = false }
    buffers[buf] = st
  end
  return st
end

local function bufnr(buf)
  return (buf == nil or buf == 0) and api.nvim_get_current_buf() or buf
end

-- Records line edits so that the previous plan can be mapped to the current line numbers.
local function track_edits(buf, st)
  if st.attached then
    return
  end
  st.attached = api.nvim_buf_attach(buf, false, {
    on_lines = function(_, _, _, first, last, new_last)
      if buffers[buf] ~= st then
        return true -- forgotten (reset): detach
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
-- in today's numbering. Parents come first so a closed parent can be opened to read its members.
-- A fold counts only while the window still has a fold that deep at its start: after a reload or
-- a user's zE the old folds are gone, and "not closed" must not read as "open".
local function read_states(st)
  local states = {}
  local get, edits = st.get, st.edits
  local ps, pe = -1, -2
  for f = st.n - 1, 0, -1 do
    local i = f * STRIDE + 1
    local level2 = get(i + 3) > 0
    local s, e = shift(get(i), get(i + 1), edits)
    if level2 then
      ps, pe = s or -1, e or -2
    end
    if s then
      local depth = (not level2 and s >= ps and e <= pe) and 2 or 1
      if fn.foldlevel(s) >= depth then
        local closed = fn.foldclosed(s) == s and fn.foldclosedend(s) == e
        if closed and level2 then
          api.nvim_command(s .. 'foldopen') -- so that its members can be read
        end
        states[key(s, e)] = not closed
      end
    end
  end
  return states
end

-- Puts back the open/closed state the user gave to folds that still exist, after 'foldlevel' set
-- every fold to its default (open when its depth is at most 'foldlevel').
local function restore_states(st, states, foldlevel)
  if next(states) == nil then
    return
  end
  local get = st.get
  local opened, closed = {}, {}
  local ps, pe = -1, -2
  for f = st.n - 1, 0, -1 do
    local i = f * STRIDE + 1
    local s, e = get(i), get(i + 1)
    local level2 = get(i + 3) > 0
    if level2 then
      ps, pe = s, e
    end
    local want = states[key(s, e)]
    if want ~= nil then
      local depth = (not level2 and s >= ps and e <= pe) and 2 or 1
      local default_open = depth <= foldlevel
      if want and not default_open then
        opened[#opened + 1] = i
      elseif not want and default_open then
        closed[#closed + 1] = i
      end
    end
  end
  -- Parents first: opening a member inside a closed parent opens the parent on the way.
  for _, i in ipairs(opened) do
    local s, e = get(i), get(i + 1)
    while fn.foldclosed(s) ~= -1 and not (fn.foldclosed(s) == s and fn.foldclosedend(s) == e) do
      api.nvim_command(s .. 'foldopen')
    end
    if fn.foldclosed(s) == s then
      api.nvim_command(s .. 'foldopen')
    end
  end
  -- Members first: `:S,Efoldclose` closes the innermost open folds in the range.
  for j = #closed, 1, -1 do
    local i = closed[j]
    if fn.foldclosed(get(i)) == -1 then
      api.nvim_command(get(i) .. ',' .. get(i + 1) .. 'foldclose')
    end
  end
end

--- Starts a refresh of `plan.buf`: remembers each window's view, 'foldlevel' and fold states,
--- then clears its folds. Returns the windows that show the buffer and must get the folds.
function M.prepare(plan)
  local buf = bufnr(plan.buf)
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
  st.get, st.n = reader(plan.folds)
  st.names, st.edits = plan.names, {}
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
  buf = bufnr(buf)
  local st = buffer_state(buf)
  if failed then
    st.get, st.n = EMPTY_GET, EMPTY_N
  end
  for _, w in ipairs(st.saved or {}) do
    if api.nvim_win_is_valid(w.win) then
      api.nvim_win_call(w.win, function()
        if failed then
          api.nvim_command('normal! zE')
        end
        api.nvim_command('setlocal foldlevel=' .. w.foldlevel)
        restore_states(st, w.states, w.foldlevel)
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
local function create_folds(get, n)
  local cmd = api.nvim_command
  local f = 0
  local ok, err = pcall(function()
    while f < n do
      local i = f * STRIDE + 1
      cmd(get(i) .. ',' .. get(i + 1) .. 'fold')
      f = f + 1
    end
  end)
  if not ok then
    local i = f * STRIDE + 1
    error(string.format('fold %d of %d (lines %d-%d): %s', f + 1, n, get(i), get(i + 1), err), 0)
  end
end

--- The whole refresh in one call: the `lua` strategy. Returns the number of folds per window.
function M.apply(plan)
  local wins = M.prepare(plan)
  local st = buffers[bufnr(plan.buf)]
  local ok, err = pcall(function()
    for _, win in ipairs(wins) do
      api.nvim_win_call(win, function()
        create_folds(st.get, st.n)
      end)
    end
  end)
  M.finish(plan.buf, not ok)
  if not ok then
    error(err, 0)
  end
  return st.n
end

--- Clears a buffer's folds in every window that shows it, and collects Lua's garbage, so that
--- no timed run pays for the strings of the runs before it (used by benchmarks).
function M.clear(buf)
  collectgarbage()
  for _, win in ipairs(fn.win_findbuf(bufnr(buf))) do
    api.nvim_win_call(win, function()
      vim.wo.foldmethod = 'manual'
      api.nvim_command('normal! zE')
    end)
  end
end

--- Forgets a buffer's plan and clears its folds (benchmarks start every run from here).
function M.reset(buf)
  buf = bufnr(buf)
  buffers[buf] = nil
  M.clear(buf)
end

--- The benchmark floor: creates the last applied plan's folds with a Lua loop already inside
--- Neovim, in the current window, and returns the milliseconds it took. Call clear() first, in a
--- request of its own, as the strategies get reset() (Neovim finishes a zE lazily).
function M.floor(buf)
  local st = buffer_state(bufnr(buf))
  local t0 = require('nvimpam.compat').uv.hrtime()
  create_folds(st.get, st.n)
  return (require('nvimpam.compat').uv.hrtime() - t0) / 1e6
end

--- Checks that the first window showing `buf` has exactly the folds of the last plan, with their
--- ranges and nesting: closes everything, then opens the plan's folds parents first, each of which
--- must be closed at its own range when reached; afterwards no plan fold's start may still be
--- hidden. Returns the number of folds found, or -1 when there are extra folds; benchmarks compare
--- it with the plan's size, so that a broken strategy cannot look fast.
function M.verify(buf)
  buf = bufnr(buf)
  local st = buffer_state(buf)
  local get = st.get
  local win = fn.win_findbuf(buf)[1]
  if not win then
    return 0
  end
  local found = 0
  api.nvim_win_call(win, function()
    local foldlevel = vim.wo.foldlevel
    api.nvim_command('normal! zM')
    for f = st.n - 1, 0, -1 do
      local i = f * STRIDE + 1
      local s, e = get(i), get(i + 1)
      if fn.foldclosed(s) == s and fn.foldclosedend(s) == e then
        found = found + 1
        api.nvim_command(s .. 'foldopen')
      end
    end
    if found == st.n then
      for f = 0, st.n - 1 do
        if fn.foldclosed(get(f * STRIDE + 1)) ~= -1 then
          found = -1
          break
        end
      end
    end
    vim.wo.foldlevel = foldlevel
  end)
  return found
end

-- Binary search for the fold (s, e) in a plan sorted by end ascending; its first integer's index.
local function find(st, s, e)
  local get = st.get
  local lo, hi = 0, st.n - 1
  while lo <= hi do
    local mid = math.floor((lo + hi) / 2)
    local me = get(mid * STRIDE + 2)
    if me < e then
      lo = mid + 1
    elseif me > e then
      hi = mid - 1
    else
      -- At most a level-1 and a level-2 fold share an end; they are neighbours.
      for f = math.max(0, mid - 1), math.min(st.n - 1, mid + 1) do
        local i = f * STRIDE + 1
        if get(i) == s and get(i + 1) == e then
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
  local i = st and find(st, s, e)
  if not i then
    return fn.foldtext()
  end
  local name = st.names[st.get(i + 2) + 1] or '?'
  local count = st.get(i + 3)
  if count > 0 then
    return ' ' .. count .. ' ' .. name .. 's '
  end
  return ' ' .. (e - s + 1) .. ' lines: ' .. name .. ' '
end

--- The buffer's changedtick when its folds were last applied (nil before the first time).
function M.applied_tick(buf)
  local st = buffers[bufnr(buf)]
  return st and st.tick
end

return M
