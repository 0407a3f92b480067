-- What a window shows of a buffer's folds, kept across a refresh: its view (winsaveview()),
-- 'foldlevel', and the open/closed state of every fold.
--
-- A fold's state is the user's: a refresh never opens a fold that was closed nor closes one that
-- was open. A fold is the same fold after edits when it is the same card: its first line, the
-- card's header, moved by the lines inserted or deleted above it (nvimpam.fold.state.image); a
-- group is the same group when it starts at the same card. A fold whose header an edit deleted, or
-- that no fold was before, is new: it starts as 'foldlevel' says, except that the new folds around
-- the cursor are open (see save()).
local M = {}

local api = vim.api
local fn = vim.fn
local plan = require('nvimpam.fold.plan')
local state = require('nvimpam.fold.state')

local key, image, first_ending_at = plan.key, state.image, plan.first_ending_at

--- Whether the current window has a closed fold at exactly lines s to e.
---@param s integer
---@param e integer
---@return boolean
function M.closed_at(s, e)
  return fn.foldclosed(s) == s and fn.foldclosedend(s) == e
end

-- The open group at line x, which an undo or redo that put lines back right above it may have
-- left at the first of them (`alt`), one line short: 0.12 then keeps its members at their own
-- lines, and those past its new end are out of sight. If so, the group is made again from alt to
-- its last line `e` today (`zd` lifts its members a level with their states, `:fold` takes them
-- back in), so that each member is read where it is. Open again after, as is the member at x.
local function whole_again(x, alt, e, depth_closed)
  local cmd = api.nvim_command
  local member_open = false -- x's member, closed here to reach the group
  if fn.foldclosed(x) == -1 then
    cmd(x .. 'foldclose')
    if depth_closed(x) ~= 1 then
      member_open = true
      cmd(x .. 'foldclose')
    end
  else
    cmd(x .. 'foldclose') -- x's member is closed: the group closes
  end
  if fn.foldclosed(x) == alt and fn.foldclosedend(x) < e and depth_closed(x) == 1 then
    api.nvim_win_set_cursor(0, { x, 0 })
    cmd('normal! zd')
    cmd(alt .. ',' .. e .. 'fold')
  end
  cmd(x .. 'foldopen') -- the group
  if member_open then
    cmd(x .. 'foldopen')
  end
end

-- Where it must, read() sets (by `set`) 'foldminlines' to 0, so that a fold an edit cut down to one
-- line still shows that it is closed (0.12 cuts a fold whose last line nvim_buf_set_lines()
-- replaces; setting it costs a pass over every fold, so only then), and 'foldtext' to v:foldlevel:
-- foldtextresult() then gives the depth of the closed fold at a line, which tells a closed group
-- from its closed first card when both end there.
--
-- Neovim holds an old fold where its first line is today, except after an undo or redo that put
-- back more lines than it took out: foldMarkAdjust() then moves the folds that start up to that many
-- lines above the change down by the difference, first line and all (0.7 to 0.12); and 0.12 leaves
-- a fold right below lines an undo puts back at the first of them (state.image's `alt`). So a fold
-- is looked for from its first line on, at most as many lines further as the edits inserted, and
-- among its own lines, never in the fold after it; else where 0.12 leaves it.
local function read_states(old, edits, states, pick, set)
  local foldclosed, foldlevel = fn.foldclosed, fn.foldlevel
  local last = api.nvim_buf_line_count(0)
  -- foldclosed(x), also for a fold of one line: one whose lines left end at x (`e`), or that the
  -- line after x is outside of (0.12 cuts a fold whose last line nvim_buf_set_lines() replaces)
  local function closed_at(x, e)
    local c = foldclosed(x)
    if c == -1 and (e <= x or x == last or foldlevel(x + 1) < foldlevel(x)) then
      set('foldminlines', 0)
      c = foldclosed(x)
    end
    return c
  end
  local function depth_closed(x) -- the depth of the closed fold at line x
    set('foldtext', 'v:foldlevel')
    return tonumber(fn.foldtextresult(x))
  end
  local reach = 0
  for i = 1, #edits do
    reach = reach + math.max(0, edits[i][3] - edits[i][2])
  end
  local function at(l, e, depth) -- the first of lines l to e in a fold `depth` deep, or nil
    for x = l, math.min(e, l + reach) do
      if foldlevel(x) >= depth then
        return x
      end
    end
  end
  -- The last group met (old numbering), whether it is open now, and how far from its place Neovim
  -- holds it (its members moved with it).
  local gs, ge, group_open, moved = -1, -2, false, 0
  for k = pick and #pick or old.n, 1, -1 do
    local f = pick and pick[k] or k - 1
    local os, oe = old.s(f), old.e(f)
    local head, s, e, alt = image(os, oe, edits)
    if old.count(f) > 0 then
      gs, ge, group_open, moved = os, oe, false, 0
      -- Neovim keeps a group whose header went from its first line left to its last.
      local x = s and (at(s, e, 1) or (alt and at(alt, alt, 1)))
      if x and alt and foldclosed(x) == alt then
        x = alt -- closed where 0.12 left it
      end
      if x then
        moved = x - s
        local closed = foldclosed(x) == x and depth_closed(x) == 1
        if head then
          states[key(head, true)] = not closed
        end
        if closed then
          api.nvim_command(x .. 'foldopen') -- so that its members can be read
        end
        -- in a whole read only: every fold is made again after it
        if alt and not pick and foldlevel(alt) >= 1 then
          whole_again(x, alt, e, depth_closed)
        end
        group_open = true
      end
    elseif head then
      local member = os >= gs and oe <= ge
      local depth = member and 2 or 1
      local x = (member and moved ~= 0 and at(head + moved, e + moved, depth)) or at(head, e, depth)
        or (alt and at(alt, alt, depth))
      if x and alt and foldclosed(x) == alt then
        x = alt -- closed where 0.12 left it
      end
      if x then
        local c = closed_at(x, e)
        if c == -1 then
          states[key(head, false)] = true
        elseif c == x and (group_open or not member or depth_closed(x) == 2) then
          states[key(head, false)] = false
        end -- else hidden in a closed fold not read: unknown
      end
    end
  end
end

--- Reads, in the current window, whether folds of the previous plan `old` are open, into `states`
--- by plan.key() of their identity today (lines moved through `edits`). `pick` lists the folds to
--- read (ascending indexes into old), nil for all. Parents are read first, and a closed group is
--- opened to read its members: the caller deletes or clears the folds read. A fold counts only
--- while the window still has a fold that deep at its header: after a reload or a user's zE the
--- old folds are gone, and "not closed" must not read as "open".
---@param old nvimpam.Plan
---@param edits nvimpam.Edit[]
---@param states table<integer, boolean>
---@param pick integer[]?
function M.read(old, edits, states, pick)
  local wo, was = vim.wo, {}
  local function set(name, value)
    if was[name] == nil then
      was[name] = wo[name]
      wo[name] = value
    end
  end
  local ok, err = pcall(read_states, old, edits, states, pick, set)
  for name, value in pairs(was) do
    wo[name] = value
  end
  if not ok then
    error(err, 0)
  end
end

local read = M.read

--- Closes the open group [s, e], fold g of plan p, leaving its members as they are. `:foldclose`
--- closes the deepest open fold at a line, so at a closed member's line it closes the group; when
--- every member is open, the group is made again around them (`:fold` makes a closed fold and
--- keeps the folds inside it as they are).
---@param p nvimpam.Plan
---@param g integer
function M.close_group(p, g)
  local s, e = p.s(g), p.e(g)
  local first
  for f = first_ending_at(p, s), g - 1 do
    if p.s(f) >= s then
      if fn.foldclosed(p.s(f)) ~= -1 then
        api.nvim_command(p.s(f) .. 'foldclose')
        return
      end
      first = first or p.s(f)
    end
  end
  if not first then
    api.nvim_command(s .. 'foldclose')
    return
  end
  local cmd = api.nvim_command
  cmd(first .. 'foldclose') -- the member
  cmd(first .. 'foldclose') -- the group
  api.nvim_win_set_cursor(0, { first, 0 })
  cmd('normal! zd') -- the group, closed at the cursor
  cmd(first .. 'foldopen') -- the member, now outside it
  cmd(s .. ',' .. e .. 'fold')
end

local close_group = M.close_group

--- Whether fold [s, e] of depth `depth` is to be open in the current window: as `states` says
--- when it held this fold (by plan.key of its header and kind), else as 'foldlevel' makes a new
--- fold, or open when it holds line `cursor`.
---@param states table<integer, boolean>
---@param s integer
---@param e integer
---@param group boolean
---@param depth integer
---@param foldlevel integer
---@param cursor integer?
---@return boolean
function M.want(states, s, e, group, depth, foldlevel, cursor)
  local want = states[key(s, group)]
  if want == nil then
    want = depth <= foldlevel or (cursor ~= nil and s <= cursor and cursor <= e)
  end
  return want
end

local want_open = M.want

-- Gives every fold of plan p, made afresh with 'foldlevel' `foldlevel` (so each is as that level
-- makes it), the state want_open() says. Groups come before their members here (backwards through
-- the plan), and each group is closed last, once its members are as they should be.
local function restore_states(p, states, foldlevel, cursor)
  local cmd = api.nvim_command
  local gs, ge, g = -1, -2, nil -- the group whose members follow
  local g_open, g_want = false, false
  local function finish_group()
    if g and g_open ~= g_want then
      if g_want then
        cmd(gs .. 'foldopen')
      else
        close_group(p, g)
      end
    end
    g = nil
  end
  for f = p.n - 1, 0, -1 do
    local s, e = p.s(f), p.e(f)
    if g and not (s >= gs and e <= ge) then
      finish_group()
    end
    if p.count(f) > 0 then
      gs, ge, g = s, e, f
      g_open = 1 <= foldlevel
      g_want = want_open(states, s, e, true, 1, foldlevel, cursor)
    else
      local depth = g and 2 or 1
      local open = depth <= foldlevel
      if want_open(states, s, e, false, depth, foldlevel, cursor) ~= open then
        if g and not g_open then
          cmd(gs .. 'foldopen') -- to reach the member
          g_open = true
        end
        cmd(s .. (open and 'foldclose' or 'foldopen'))
      end
    end
  end
  finish_group()
end

--- Saves what window `win`, the current one, shows: its view, 'foldlevel' and (while its folds are
--- manual, so made from st.plan) the state of each fold of st.plan, by its identity after the
--- edits since. Reading opens closed groups: the caller clears the folds next.
---@param st nvimpam.BufferState
---@param win integer
---@return nvimpam.WindowView
function M.save(st, win)
  local w = { win = win, view = fn.winsaveview(), foldlevel = vim.wo.foldlevel, states = {} }
  if vim.wo.foldmethod == 'manual' then
    read(st.plan, st.edits, w.states)
  end
  -- New folds around the cursor open: after an edit, the user is editing there; and where a
  -- window gets its first folds with the cursor past the first line, a jump (gd into an include
  -- file, a quickfix entry) or a restored position put it there, and it stays in sight.
  if st.plan.n > 0 or w.view.lnum > 1 then
    w.cursor = w.view.lnum
  end
  return w
end

--- Puts back, in the current window, what save() saved, over the folds of st.plan.
---@param st nvimpam.BufferState
---@param w nvimpam.WindowView
function M.restore(st, w)
  api.nvim_command('setlocal foldlevel=' .. w.foldlevel)
  restore_states(st.plan, w.states, w.foldlevel, w.cursor)
  fn.winrestview(w.view)
end

return M
