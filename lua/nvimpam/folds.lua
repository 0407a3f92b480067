-- Applies fold plans computed by the nvimpam JVM to every window that shows a buffer.
--
-- A plan is one table: { buf = <bufnr>, folds = <binary>, kinds = <binary>, groups = <binary>,
-- names = { ... } }. `folds` holds start and end (1-based, inclusive) of each fold as little-endian
-- 32-bit integers; `kinds` the name of each (0-based index into `names`) as 1, 2 or 4 bytes, the
-- same width for every fold; `groups` a pair of integers per level-2 fold: its index (0-based) and
-- its member count (every other fold is level 1, count 0). Folds come in creation order: children
-- before parents (end ascending, then start descending), so every `:fold` appends to its level and
-- never lands inside a closed parent. Only integers and our own names travel: no buffer text is
-- ever executed.
--
-- The strings are read in place: Neovim turns a msgpack array into a Lua table one element at a
-- time, which costs more than creating the folds, and only the level-2 folds need a count.
--
-- What the user had is kept: 'foldlevel', the view, and the open/closed state of every fold that
-- still exists after the refresh (matched by range, after shifting by the edits made since).
local M = {}

local api = vim.api
local fn = vim.fn
local native = require('nvimpam.native')
local compat = require('nvimpam.compat')

local FOLDTEXT = "v:lua.require'nvimpam.folds'.foldtext()"

-- LuaJIT's FFI reads the integers in place on little-endian machines; elsewhere string.byte does.
local has_ffi, ffi = pcall(require, 'ffi')
local little_endian_ffi = has_ffi and ffi.abi('le')

-- The little-endian unsigned integer of `width` bytes at `at` (1-based) in `str`.
local function le_int(str, at, width)
  local v, mul = 0, 1
  for k = at, at + width - 1 do
    v = v + str:byte(k) * mul
    mul = mul * 256
  end
  return v
end

--- A plan's folds, read through functions of the 0-based fold index f: s(f) and e(f) its lines,
--- name(f) its index into the names, count(f) its member count (0 for a level-1 fold); n folds.
--- group(g) is the fold index of the g-th level-2 fold (0-based, ascending), of `groups`.
local function view(plan)
  local folds, kinds, groups = plan.folds or '', plan.kinds or '', plan.groups or ''
  local n = math.floor(#folds / 8)
  local width = n > 0 and math.floor(#kinds / n) or 1
  if n > 0 and (#kinds ~= n * width or (width ~= 1 and width ~= 2 and width ~= 4)) then
    error('nvimpam: a plan of ' .. n .. ' folds with ' .. #kinds .. ' bytes of names', 0)
  end
  local groups_n = math.floor(#groups / 8)
  if little_endian_ffi then
    -- Counts in an array of their own, zero for level 1: a Lua table of them costs more to build
    -- than their bytes cost to send.
    local counts = ffi.new('int32_t[?]', math.max(n, 1))
    local group_ints = ffi.cast('const int32_t *', groups)
    for g = 0, groups_n - 1 do
      local f = group_ints[2 * g]
      if f < 0 or f >= n then -- never write outside the array
        error('nvimpam: a plan of ' .. n .. ' folds with a group at fold ' .. f, 0)
      end
      counts[f] = group_ints[2 * g + 1]
    end
    local se = ffi.cast('const int32_t *', folds)
    local kind = ffi.cast(width == 1 and 'const uint8_t *' or width == 2 and 'const uint16_t *' or 'const int32_t *',
      kinds)
    -- Each function holds its string, and so the memory its pointer reads.
    return {
      n = n,
      ends = se, -- start and end of fold f at [2 * f] and [2 * f + 1]
      holds = folds, -- the string `ends` points into
      s = function(f)
        local _ = folds
        return se[2 * f]
      end,
      e = function(f)
        local _ = folds
        return se[2 * f + 1]
      end,
      name = function(f)
        local _ = kinds
        return kind[f]
      end,
      count = function(f)
        return counts[f]
      end,
      groups = groups_n,
      group = function(g)
        local _ = groups
        return group_ints[2 * g]
      end,
    }
  end
  local counts = {}
  for g = 0, groups_n - 1 do
    counts[le_int(groups, 8 * g + 1, 4)] = le_int(groups, 8 * g + 5, 4)
  end
  return {
    n = n,
    s = function(f)
      return le_int(folds, 8 * f + 1, 4)
    end,
    e = function(f)
      return le_int(folds, 8 * f + 5, 4)
    end,
    name = function(f)
      return le_int(kinds, width * f + 1, width)
    end,
    count = function(f)
      return counts[f] or 0
    end,
    groups = groups_n,
    group = function(g)
      return le_int(groups, 8 * g + 1, 4)
    end,
  }
end

local EMPTY = view({})

-- Per buffer: the plan last applied (a view), the edits since then, the windows being refreshed,
-- and the changedtick of the last refresh.
local buffers = {}

local function buffer_state(buf)
  local st = buffers[buf]
  if not st then
    st = { plan = EMPTY, names = {}, edits = {}, attached = false }
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
    on_lines = function(_, _, tick, first, last, new_last)
      if buffers[buf] ~= st then
        return true -- forgotten (reset): detach
      end
      local edits = st.edits
      edits[#edits + 1] = { first, last, new_last, tick or math.huge }
    end,
    on_reload = function()
      st.edits = { { 0, math.huge, 0, 0 } } -- nothing survives a reload
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
  local p, edits = st.plan, st.edits
  local ps, pe = -1, -2
  for f = p.n - 1, 0, -1 do
    local level2 = p.count(f) > 0
    local s, e = shift(p.s(f), p.e(f), edits)
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
  local p = st.plan
  local opened, closed = {}, {}
  local ps, pe = -1, -2
  for f = p.n - 1, 0, -1 do
    local s, e = p.s(f), p.e(f)
    local level2 = p.count(f) > 0
    if level2 then
      ps, pe = s, e
    end
    local want = states[key(s, e)]
    if want ~= nil then
      local depth = (not level2 and s >= ps and e <= pe) and 2 or 1
      local default_open = depth <= foldlevel
      if want and not default_open then
        opened[#opened + 1] = f
      elseif not want and default_open then
        closed[#closed + 1] = f
      end
    end
  end
  -- Parents first: opening a member inside a closed parent opens the parent on the way.
  for _, f in ipairs(opened) do
    local s, e = p.s(f), p.e(f)
    while fn.foldclosed(s) ~= -1 and not (fn.foldclosed(s) == s and fn.foldclosedend(s) == e) do
      api.nvim_command(s .. 'foldopen')
    end
    if fn.foldclosed(s) == s then
      api.nvim_command(s .. 'foldopen')
    end
  end
  -- Members first: `:S,Efoldclose` closes the innermost open folds in the range.
  for j = #closed, 1, -1 do
    local f = closed[j]
    if fn.foldclosed(p.s(f)) == -1 then
      api.nvim_command(p.s(f) .. ',' .. p.e(f) .. 'foldclose')
    end
  end
end

--- Starts a refresh of `buf`: remembers each window's view, 'foldlevel' and fold states (read
--- with the plan the folds were made from), then clears its folds. Returns the windows that show
--- the buffer and must get the folds. The new plan comes with prepare(), or later with adopt().
function M.begin(buf)
  buf = bufnr(buf)
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
  st.edits = {}
  st.wins = {}
  for _, w in ipairs(saved) do
    st.wins[w.win] = true
  end
  -- Applied only once finish() says so: a refresh cut short (the JVM gone) is not passed off as done.
  st.tick, st.pending_tick = nil, api.nvim_buf_get_changedtick(buf)
  st.saved, st.origin = saved, api.nvim_get_current_win()
  track_edits(buf, st)
  local wins = {}
  for i, w in ipairs(saved) do
    wins[i] = w.win
  end
  return wins
end

--- The plan of the refresh begun for `plan.buf`: what finish() restores fold states by and the
--- fold texts are read from. The strategies that send their folds as separate commands send it
--- after them, so that its bytes travel while Neovim creates the folds.
function M.adopt(plan)
  local st = buffer_state(bufnr(plan.buf))
  st.plan, st.names = view(plan), plan.names
end

--- begin() and adopt() in one.
function M.prepare(plan)
  local wins = M.begin(plan.buf)
  M.adopt(plan)
  return wins
end

--- Keeps a plan for prepare_staged(): the `viml` strategy sends the plan in a request of its own,
--- as a binary string only Lua can read, and the commands to run in the next one.
function M.stage(plan)
  buffer_state(bufnr(plan.buf)).staged = plan
end

--- prepare() with the plan staged for `buf`.
function M.prepare_staged(buf)
  local st = buffer_state(bufnr(buf))
  local plan = st.staged
  st.staged = nil
  if not plan then
    error('nvimpam: no staged plan for buffer ' .. tostring(buf), 0)
  end
  return M.prepare(plan)
end

--- Ends a refresh started by prepare(): restores 'foldlevel', fold states, views and the current
--- window. With `failed` set, the partly created folds are removed instead, so that an error
--- never leaves half a fold tree behind.
function M.finish(buf, failed)
  buf = bufnr(buf)
  local st = buffer_state(buf)
  if failed then
    st.plan, st.wins = EMPTY, {}
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
  if not failed then
    st.tick = st.pending_tick
  end
end

-- Whether foldCreate() (nvimpam.native) may make plan p's folds in buffer `buf`: it can be called
-- here, and every fold lies inside the buffer (foldCreate() does not check; the :fold commands name
-- the first fold outside). Asked once per refresh, for all its windows.
local function natively_creatable(p, buf)
  if not native.creator() or not p.ends or p.n == 0 then
    return false
  end
  local count, ends = api.nvim_buf_line_count(buf), p.ends
  for f = 0, 2 * p.n - 1, 2 do
    local s, e = ends[f], ends[f + 1]
    if s < 1 or e < s or e > count then
      return false
    end
  end
  return true
end

-- Creates the folds of plan p, which natively_creatable() accepted, in the current window by
-- calling foldCreate(); false, with no folds made, when the window's folds are not manual or the
-- first fold came out other than asked (then never again this session).
local function create_natively(p)
  local create = native.creator()
  if not create or vim.wo.foldmethod ~= 'manual' then
    return false
  end
  local count, ends = api.nvim_buf_line_count(0), p.ends
  local s, e = ends[0], ends[1]
  create(s, e)
  -- The only fold so far: lines s to e at level 1, their neighbours at 0 ('foldminlines' may keep
  -- a short fold from showing closed, so foldclosed() cannot tell).
  local level = fn.foldlevel
  if level(s) ~= 1 or level(e) ~= 1 or (s > 1 and level(s - 1) ~= 0) or (e < count and level(e + 1) ~= 0) then
    native.disable(string.format('foldCreate() gave lines %d-%d fold levels %d-%d', s, e, level(s), level(e)))
    api.nvim_command('normal! zE')
    return false
  end
  for f = 2, 2 * p.n - 1, 2 do
    create(ends[f], ends[f + 1])
  end
  return true
end

-- The `S,Efold` command of fold f of plan p.
local function fold_command(p, f)
  return p.s(f) .. ',' .. p.e(f) .. 'fold'
end

-- Creates the plan's folds in the current window; nil, or the error value (see contract.properties)
-- naming the failing fold, counted from 1 in plan order. Natively where `natively` (what
-- natively_creatable() said) and the window allow, else by commands: with `cmds`, the plan's
-- commands in one string of newline-separated lines of '|'-joined commands,
-- nvimpam#execute_lines() runs them from C (a Lua loop of nvim_command costs a fifth more); when
-- one fails, the folds are made again one by one to name it.
local function create_folds(p, cmds, natively)
  if natively and create_natively(p) then
    return
  end
  if cmds then
    local ok = pcall(fn['nvimpam#execute_lines'], cmds)
    if ok then
      return
    end
    api.nvim_command('normal! zE')
  end
  local cmd = api.nvim_command
  local f = 0
  local ok, err = pcall(function()
    while f < p.n do
      cmd(fold_command(p, f))
      f = f + 1
    end
  end)
  if not ok then
    return { code = 'fold_failed', message = (tostring(err):gsub('^.-Vim%(%a*%):', '')), fold = f + 1, of = p.n,
             lines = { p.s(f), p.e(f) } }
  end
end

--- The whole refresh in one call: the `lua` strategy. Returns { ok = folds per window, native =
--- whether the next plan can come without its commands (nvimpam.native creates the folds) }, or
--- { error = value } with no folds left behind: a returned value reaches the JVM whole, where a
--- table raised by error() arrives as NULL.
function M.apply(plan)
  local wins = M.prepare(plan)
  local buf = bufnr(plan.buf)
  local st = buffers[buf]
  local failed
  local ok, err = pcall(function()
    local natively = natively_creatable(st.plan, buf)
    for _, win in ipairs(wins) do
      api.nvim_win_call(win, function()
        failed = failed or create_folds(st.plan, plan.cmds, natively)
      end)
    end
  end)
  if not ok then
    failed = { code = 'failed', message = tostring(err) }
  end
  M.finish(plan.buf, failed ~= nil)
  if failed then
    return { error = failed }
  end
  return { ok = st.plan.n, native = M.creates_natively() }
end

--- Whether the next plan can come without its commands: nvimpam.native creates the folds.
function M.creates_natively()
  return native.creator() ~= nil
end

--- The `viml` strategy's native step: creates the prepared plan's folds by foldCreate() in each of
--- `wins`, and returns the windows where that could not be done (no folds made there), for
--- nvimpam#apply() to run the commands in.
function M.create_natively_in(buf, wins)
  buf = bufnr(buf)
  local p = buffer_state(buf).plan
  if not natively_creatable(p, buf) then
    return wins
  end
  local left = {}
  for _, win in ipairs(wins) do
    if not api.nvim_win_call(win, function()
          return create_natively(p)
        end) then
      left[#left + 1] = win
    end
  end
  return left
end

--- The `S,Efold` commands of the plan prepared or last applied for `buf`, one per item: for
--- nvimpam#apply() when the JVM left them out (its last answer said that foldCreate() makes the
--- folds) and this time it cannot, and for the benchmark's floor.
function M.commands(buf)
  local p = buffer_state(bufnr(buf)).plan
  local cmds = {}
  for f = 0, p.n - 1 do
    cmds[f + 1] = fold_command(p, f)
  end
  return cmds
end

-- Live refolds ------------------------------------------------------------------------------------
--
-- Neovim moves manual folds itself when lines are inserted or deleted (foldMarkAdjust in fold.c):
-- folds above an edit stay, folds below it shift, and only the folds an edit touches are cut,
-- stretched or dropped (in Insert mode a new line joins the fold above it). So after an edit the
-- previous plan, shifted through the edits seen since, is still exact wherever no edit touched it.
-- A refold then deletes every fold Neovim holds on the lines around the edits (whatever Neovim made
-- of them), deletes the shifted folds the new plan no longer has, and creates the new plan's folds
-- that Neovim lacks: work in proportion to the edit, not to the deck. Other folds keep their
-- open/closed state; the folds re-created around the edit get back the state they had.

-- The lines around the edits since the last plan, in today's numbering: per edit, the line above
-- it, its new lines and the line below it (a cut fold ends above, a shifted one starts below).
-- Sorted, disjoint {a, b} pairs, 1-based and inclusive.
local function dirty_lines(edits, line_count)
  local spans = {}
  for k = 1, #edits do
    local first, last, new_last = edits[k][1], edits[k][2], edits[k][3]
    local delta = new_last - last
    local a, b = first, new_last + 1 -- 1-based: line `first` is the one above the edit
    local out = {}
    for _, sp in ipairs(spans) do
      if sp[2] < a then
        out[#out + 1] = sp -- above the edit (and its margin): unchanged
      elseif sp[1] > last + 1 then
        out[#out + 1] = { sp[1] + delta, sp[2] + delta }
      else -- overlaps: merge into the edit's span
        a = math.min(a, sp[1])
        b = math.max(b, sp[2] > last and sp[2] + delta or b)
      end
    end
    out[#out + 1] = { a, b }
    table.sort(out, function(x, y)
      return x[1] < y[1]
    end)
    spans = {}
    for _, sp in ipairs(out) do
      local prev = spans[#spans]
      if prev and sp[1] <= prev[2] + 1 then
        prev[2] = math.max(prev[2], sp[2])
      else
        spans[#spans + 1] = { sp[1], sp[2] }
      end
    end
  end
  local clamped = {}
  for _, sp in ipairs(spans) do
    local a, b = math.max(1, sp[1]), math.min(line_count, sp[2])
    if a <= b then
      clamped[#clamped + 1] = { a, b }
    end
  end
  return clamped
end

local function intersects(spans, s, e)
  for k = 1, #spans do
    if spans[k][1] <= e and spans[k][2] >= s then
      return true
    end
  end
  return false
end

-- Whether fold f (0-based index, level 1) of a plan is a member of a level-2 fold: members share
-- their name and precede their parent, which comes right after the last of them.
local function in_group(p, f)
  local name, s = p.name(f), p.s(f)
  for g = f + 1, p.n - 1 do
    if p.count(g) > 0 then
      return p.s(g) <= s
    end
    if p.name(g) ~= name then
      return false
    end
  end
  return false
end

-- The diff between the shifted previous plan and the new one. Both are in creation order (end
-- ascending, start descending), which shifting keeps, so one merge finds the folds of both.
-- Returns: the new plan's folds to create (indexes), the shifted old folds to delete ({s, e,
-- has_members}), and the old folds on the dirty lines that the new plan keeps (their states are
-- read before Neovim's folds there are deleted).
local function diff(st, p, spans)
  local old, on, n, edits = st.plan, st.plan.n, p.n, st.edits
  local old_s, old_e, new_s, new_e = old.s, old.e, p.s, p.e
  local create, delete, around = {}, {}, {}
  -- Skip what both plans share: folds before every edit, equal and unmoved, and folds after every
  -- edit, equal once moved by the edits' line count. Both sit outside the dirty lines, so Neovim
  -- holds them as they are; only the folds in between are merged (O(edit), not O(deck)).
  local before, after, delta = math.huge, spans[1] and spans[1][1] or math.huge, 0
  for k = 1, #edits do
    before = math.min(before, edits[k][1])
    delta = delta + edits[k][3] - edits[k][2]
  end
  local last_dirty = spans[#spans] and spans[#spans][2] or -1
  before = math.min(before, after)
  local pre = 0
  while pre < on and pre < n do
    if old_e(pre) >= before or old_s(pre) ~= new_s(pre) or old_e(pre) ~= new_e(pre) then
      break
    end
    pre = pre + 1
  end
  local suf = 0
  while suf < on - pre and suf < n - pre do
    local i, j = on - 1 - suf, n - 1 - suf
    local s = old_s(i) + delta
    if s <= last_dirty + 1 or s ~= new_s(j) or old_e(i) + delta ~= new_e(j) then
      break
    end
    suf = suf + 1
  end
  on = on - suf
  local f, g = pre, pre -- old, new
  n = n - suf
  local function next_old()
    while f < on do
      local s, e = shift(old_s(f), old_e(f), edits)
      local members = old.count(f) > 0
      f = f + 1
      if s then
        return s, e, members
      end
    end
    return nil
  end
  local s1, e1, m1 = next_old()
  while g < n or s1 do
    local s2, e2
    if g < n then
      s2, e2 = new_s(g), new_e(g)
    end
    local order -- < 0: old first, > 0: new first, 0: same fold
    if not s1 then
      order = 1
    elseif not s2 then
      order = -1
    elseif e1 ~= e2 then
      order = e1 < e2 and -1 or 1
    else
      order = s1 > s2 and -1 or (s1 < s2 and 1 or 0)
    end
    if order == 0 then
      if intersects(spans, s2, e2) then
        around[#around + 1] = { s2, e2, m1 }
        create[#create + 1] = g
      end
      g = g + 1
      s1, e1, m1 = next_old()
    elseif order < 0 then
      if not intersects(spans, s1, e1) then
        delete[#delete + 1] = { s1, e1, m1 }
      end
      s1, e1, m1 = next_old()
    else
      create[#create + 1] = g
      g = g + 1
    end
  end
  return create, delete, around
end

-- Deletes the deepest fold at line l, or the outermost closed one there; the folds inside it move
-- up a level. (No Ex command deletes a fold: `zd` at the cursor it is.)
local function delete_at(l)
  api.nvim_win_set_cursor(0, { l, 0 })
  api.nvim_command('normal! zd')
end

local function closed_at(s, e)
  return fn.foldclosed(s) == s and fn.foldclosedend(s) == e
end

-- Opens the closed folds that reach beyond [s, e] at either end: an Ex range starting or ending
-- inside a closed fold is stretched over it (the trap of DESIGN.md).
local function open_containers(s, e)
  for _ = 1, 40 do
    local at
    for _, l in ipairs({ s, e }) do
      local cs = fn.foldclosed(l)
      if cs ~= -1 and (cs < s or fn.foldclosedend(l) > e) then
        at = l
        break
      end
    end
    if not at then
      return
    end
    api.nvim_command(at .. 'foldopen')
  end
end

-- Deletes the fold [s, e] that Neovim holds exactly there, keeping the folds inside it.
local function delete_fold(s, e, has_members)
  open_containers(s, e)
  if not closed_at(s, e) and has_members then
    -- `zd` takes the deepest open fold at a line: close the first member, then this fold.
    local member_was_open = fn.foldclosed(s) == -1
    local guard = 0
    while not closed_at(s, e) and guard < 3 do
      api.nvim_command(s .. 'foldclose')
      guard = guard + 1
    end
    delete_at(s)
    if member_was_open and fn.foldclosed(s) == s then
      api.nvim_command(s .. 'foldopen')
    end
    return
  end
  delete_at(s)
end

-- Refolds the current window; see the section's comment. `states` maps fold keys to open/closed.
local function refold_window(p, spans, create, delete, around, foldlevel)
  local cmd = api.nvim_command
  -- The states of the folds on the dirty lines that come back; parents first, opened to read
  -- their members (they are deleted next anyway).
  local states = {}
  for k = #around, 1, -1 do
    local s, e, members = around[k][1], around[k][2], around[k][3]
    local fc = fn.foldclosed(s)
    if fc == s and fn.foldclosedend(s) == e then
      states[key(s, e)] = false
      if members then
        cmd(s .. 'foldopen')
      end
    elseif fc == -1 and fn.foldlevel(s) > 0 then
      states[key(s, e)] = true
    end
  end
  -- Every fold on the dirty lines goes, whatever Neovim made of it.
  for _, sp in ipairs(spans) do
    for x = sp[1], sp[2] do
      local guard = 0
      while fn.foldlevel(x) > 0 and guard < 64 do
        delete_at(x)
        guard = guard + 1
      end
    end
  end
  -- Parents before members, so that a member is never hidden by the parent it is deleted from.
  for k = #delete, 1, -1 do
    delete_fold(delete[k][1], delete[k][2], delete[k][3])
  end
  for _, f in ipairs(create) do
    local s, e = p.s(f), p.e(f)
    open_containers(s, e)
    cmd(s .. ',' .. e .. 'fold')
    local want = states[key(s, e)]
    if want == nil then
      local depth = (p.count(f) == 0 and in_group(p, f)) and 2 or 1
      want = depth <= foldlevel
    end
    if want and closed_at(s, e) then
      cmd(s .. 'foldopen')
    end
  end
end

-- The index of the first fold whose end is at or after line l (p.n if none), or with `group`, the
-- first level-2 fold's position among them: ends ascend in creation order.
local function first_ending_at(p, l, group)
  local lo, hi = 0, group and p.groups or p.n
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if p.e(group and p.group(mid) or mid) < l then
      lo = mid + 1
    else
      hi = mid
    end
  end
  return lo
end

-- The plan's fold level at line l: 1 for its card's fold, plus 1 for its group's. The first fold
-- ending at or after l is a card, never a group (a group's last member ends with it and comes
-- first); the group is found among the level-2 folds.
local function plan_level(p, l)
  local level = 0
  local f = first_ending_at(p, l)
  if f < p.n and p.s(f) <= l and p.count(f) == 0 then
    level = 1
  end
  local g = first_ending_at(p, l, true)
  if g < p.groups and p.s(p.group(g)) <= l then
    level = level + 1
  end
  return level
end

-- Lines around each end of each dirty span whose fold levels are checked after a refold.
local CHECKED_AROUND = 100

-- The lines around each end of each dirty span (of a buffer of `last` lines) and the plan's fold
-- level at each, as two arrays: computed once per refold, then compared with every window.
local function levels_near(p, spans, last)
  local ranges = {}
  for _, sp in ipairs(spans) do
    for _, at in ipairs({ sp[1], sp[2] }) do
      local a, b = math.max(1, at - CHECKED_AROUND), math.min(last, at + CHECKED_AROUND)
      local prev = ranges[#ranges]
      if prev and a <= prev[2] + 1 then -- spans are sorted: merge, so no line is checked twice
        prev[2] = math.max(prev[2], b)
      else
        ranges[#ranges + 1] = { a, b }
      end
    end
  end
  local lines, levels = {}, {}
  for _, r in ipairs(ranges) do
    for l = r[1], r[2] do
      lines[#lines + 1] = l
      levels[#levels + 1] = plan_level(p, l)
    end
  end
  return lines, levels
end

-- The first of `lines` whose fold level in the current window differs from `levels`, or nil: the
-- net for whatever leaves Neovim's folds other than the refold made them (it caught 0.7.2's
-- misplaced members, see may_misplace_members, before their cause was known). Levels show a fold
-- that was cut, stretched, lost or added; the refold then falls back to the whole refresh.
local function level_off(lines, levels)
  local foldlevel = fn.foldlevel
  for k = 1, #lines do
    if foldlevel(lines[k]) ~= levels[k] then
      return k
    end
  end
  return nil
end

-- Whether the edits may hold a :move: Neovim moves the folds of the moved lines along with them
-- (foldMoveRange), which the edits cannot tell apart from an insert and a delete, so such a refold
-- starts from no folds. :move always puts the k lines in first and then takes the k lines out
-- (0.7 to 0.12); a delete followed by an insert (ddp, ddkP) moves no fold and refolds as usual.
local function has_move(edits)
  for k = 2, #edits do
    local a, b = edits[k - 1], edits[k]
    local a_in, a_out = a[3] - a[1], a[2] - a[1]
    local b_in, b_out = b[3] - b[1], b[2] - b[1]
    if a_out == 0 and b_in == 0 and a_in == b_out and a_in > 0 then
      return true
    end
  end
  return false
end

-- Whether an edit removed lines from above a level-2 fold of the previous plan to inside it. Before
-- Neovim 0.10 that misplaces the group's members (compat.misplaces_nested_folds), and a refold's zd
-- of the group would move a misplaced one among the top-level folds out of order, where a later
-- :fold merges it into its neighbour; such an edit refreshes the whole plan instead (zE clears it).
local function may_misplace_members(st)
  local old, edits = st.plan, st.edits
  local inserted = 0 -- lines the edits before edit k added at most: today's line l was at least l - inserted
  for k = 1, #edits do
    local first, last = edits[k][1], edits[k][2] -- lines first + 1 .. last went
    if last > first + 1 then
      local before = { unpack(edits, 1, k - 1) }
      for g = first_ending_at(old, first + 2 - inserted, true), old.groups - 1 do
        local f = old.group(g)
        local s, e = shift(old.s(f), old.e(f), before)
        if not s then
          return true -- moved by an earlier edit of these: cannot tell
        end
        if s > last then
          break
        end
        if s > first + 1 and e > last then
          return true
        end
      end
    end
    inserted = inserted + math.max(0, edits[k][3] - edits[k][2])
  end
  return false
end

-- Whether the windows showing `buf` are exactly those the last plan went to, all still manual.
local function same_windows(st, buf)
  local wins = fn.win_findbuf(buf)
  local count = 0
  for _ in pairs(st.wins or {}) do
    count = count + 1
  end
  if #wins ~= count then
    return nil
  end
  for _, win in ipairs(wins) do
    if not st.wins[win] or vim.wo[win].foldmethod ~= 'manual' then
      return nil
    end
  end
  return wins
end

--- A live refold of `plan.buf` to `plan` (as apply() takes it, plus `tick`, the changedtick the
--- plan was computed for). Changes only the folds that differ from what Neovim holds, in every
--- window that shows the buffer; falls back to apply() when the windows are not those of the last
--- plan or the buffer was reloaded. Returns the number of folds deleted and created, -1 when
--- the plan is stale (the buffer changed since: the refold of that change follows), -2 after a
--- whole refresh, or { error = value } as apply() does.
function M.refold(plan)
  local buf = bufnr(plan.buf)
  local st = buffers[buf]
  -- Stale: the plan is older than an edit seen here. (A changedtick that moved without an edit,
  -- e.g. an undo that changed nothing, does not make it stale.)
  for _, ed in ipairs(st and st.edits or {}) do
    if plan.tick and ed[4] > plan.tick then
      return -1
    end
  end
  local wins = st and st.attached and st.plan.n > 0 and same_windows(st, buf)
  local reloaded = st and st.edits[1] and st.edits[1][2] == math.huge
  if not wins or reloaded or has_move(st.edits) or (compat.misplaces_nested_folds and may_misplace_members(st)) then
    local applied = M.apply(plan)
    return applied.error and applied or -2
  end
  local p = view(plan)
  local spans = dirty_lines(st.edits, api.nvim_buf_line_count(buf))
  local create, delete, around = diff(st, p, spans)
  if vim.g.nvimpam_debug_refold then
    local c = {}
    for _, f in ipairs(create) do c[#c + 1] = p.s(f) .. '-' .. p.e(f) end
    vim.g.nvimpam_debug_refold = vim.inspect({ edits = st.edits, spans = spans, create = c, delete = delete, around = around })
  end
  local origin = api.nvim_get_current_win()
  local check_lines, check_levels = levels_near(p, spans, api.nvim_buf_line_count(buf))
  local ok, err = pcall(function()
    for _, win in ipairs(wins) do
      api.nvim_win_call(win, function()
        local saved = fn.winsaveview()
        refold_window(p, spans, create, delete, around, vim.wo.foldlevel)
        local off = level_off(check_lines, check_levels)
        if off then
          error(string.format('nvimpam: after the refold, line %d has fold level %d where the plan has %d',
            check_lines[off], fn.foldlevel(check_lines[off]), check_levels[off]), 0)
        end
        fn.winrestview(saved)
      end)
    end
  end)
  if api.nvim_win_is_valid(origin) then
    api.nvim_set_current_win(origin)
  end
  if not ok then
    st.refold_error = err -- kept for :checkhealth and tests; the whole refresh below repairs it
    -- Never leave a half-done refold: start again from no folds, or report why that failed too.
    local ok2, applied = pcall(M.apply, plan)
    local failed = not ok2 and { code = 'failed', message = tostring(applied) } or applied.error
    if failed then
      failed.message = 'refold failed (' .. tostring(err) .. '), then the full refresh: ' .. failed.message
      return { error = failed }
    end
    return -2
  end
  st.plan, st.names, st.edits = p, plan.names, {}
  st.tick = api.nvim_buf_get_changedtick(buf)
  return #create + #delete
end

--- Why the last live refold of `buf` fell back to a whole refresh, or nil.
function M.refold_error(buf)
  local st = buffers[bufnr(buf)]
  return st and st.refold_error
end

--- The plan a buffer's folds were last made from, as a view (see view(): n, and s, e, name and
--- count by fold index; for benchmarks and tests); a new table with every new plan.
function M.applied(buf)
  return buffer_state(bufnr(buf)).plan
end

--- Forgets a buffer's plan (benchmarks start every run from no plan).
function M.forget(buf)
  buffers[bufnr(buf)] = nil
end

-- Binary search for the fold (s, e) in a plan sorted by end ascending; its index.
local function find(p, s, e)
  local lo, hi = 0, p.n - 1
  while lo <= hi do
    local mid = math.floor((lo + hi) / 2)
    local me = p.e(mid)
    if me < e then
      lo = mid + 1
    elseif me > e then
      hi = mid - 1
    else
      -- At most a level-1 and a level-2 fold share an end; they are neighbours.
      for f = math.max(0, mid - 1), math.min(p.n - 1, mid + 1) do
        if p.s(f) == s and p.e(f) == e then
          return f
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
  local f = st and find(st.plan, s, e)
  if not f then
    return fn.foldtext()
  end
  local name = st.names[st.plan.name(f) + 1] or '?'
  local count = st.plan.count(f)
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
