-- Live refolds: after an edit, only the folds that differ from what Neovim holds are changed.
--
-- Neovim moves manual folds itself when lines are inserted or deleted (foldMarkAdjust in fold.c):
-- folds above an edit stay, folds below it shift, and only the folds an edit touches are cut,
-- stretched or dropped (in Insert mode a new line joins the fold above it). So after an edit the
-- previous plan, shifted through the edits seen since, is still exact wherever no edit touched it.
-- A refold then deletes every fold Neovim holds on the lines around the edits (whatever Neovim made
-- of them), deletes the shifted folds the new plan no longer has, and creates the new plan's folds
-- that Neovim lacks: work in proportion to the edit, not to the deck. Other folds keep their
-- open/closed state; the folds deleted and made again get back the state they had, by their
-- identity (nvimpam.fold.view): the same card's fold, or the group that starts at the same card.
local M = {}

local api = vim.api
local fn = vim.fn
local compat = require('nvimpam.core.compat')
local plans = require('nvimpam.fold.plan')
local state = require('nvimpam.fold.state')
local view = require('nvimpam.fold.view')
local apply = require('nvimpam.fold.create').apply

local shift, closed_at = state.shift, view.closed_at
local in_group, first_ending_at, plan_level = plans.in_group, plans.first_ending_at, plans.level
local bufnr = state.bufnr

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

-- Whether the fold [s, e] meets one of the sorted spans.
local function intersects(spans, s, e)
  for k = 1, #spans do
    if spans[k][1] <= e and spans[k][2] >= s then
      return true
    end
  end
  return false
end

-- The diff between the shifted previous plan and the new one. Both are in creation order (end
-- ascending, start descending), which shifting keeps, so one merge finds the folds of both.
-- Returns: the new plan's folds to create (indexes), the shifted old folds to delete ({s, e,
-- has_members}), and the old folds that go, on the dirty lines or deleted (ascending indexes: their
-- states are read before Neovim's folds there are deleted).
local function diff(st, p, spans)
  local old, on, n, edits = st.plan, st.plan.n, p.n, st.edits
  local old_s, old_e, new_s, new_e = old.s, old.e, p.s, p.e
  local create, delete, gone = {}, {}, {}
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
        return s, e, members, f - 1
      end
      gone[#gone + 1] = f - 1 -- an edit touched it: on the dirty lines
    end
    return nil
  end
  local s1, e1, m1, f1 = next_old()
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
        gone[#gone + 1] = f1
        create[#create + 1] = g
      end
      g = g + 1
      s1, e1, m1, f1 = next_old()
    elseif order < 0 then
      gone[#gone + 1] = f1
      if not intersects(spans, s1, e1) then
        delete[#delete + 1] = { s1, e1, m1 }
      end
      s1, e1, m1, f1 = next_old()
    else
      create[#create + 1] = g
      g = g + 1
    end
  end
  return create, delete, gone
end

-- Deletes the deepest fold at line l, or the outermost closed one there; the folds inside it move
-- up a level. (No Ex command deletes a fold: `zd` at the cursor it is.)
local function delete_at(l)
  api.nvim_win_set_cursor(0, { l, 0 })
  api.nvim_command('normal! zd')
end

-- Opens the closed folds that reach beyond [s, e] at either end: an Ex range starting or ending
-- inside a closed fold is stretched over it (which is why plans come children first). Each one
-- opened is added to `opened` ({s, e}), to be closed again.
local function open_containers(s, e, opened)
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
    opened[#opened + 1] = { fn.foldclosed(at), fn.foldclosedend(at) }
    api.nvim_command(at .. 'foldopen')
  end
end

-- Deletes the fold [s, e] that Neovim holds exactly there, keeping the folds inside it.
local function delete_fold(s, e, has_members, opened)
  open_containers(s, e, opened)
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

-- Refolds the current window (see the top of this file): deletes the folds on the dirty lines
-- `spans` and the old folds in `delete`, then creates plan p's folds in `create`. Each fold made
-- again is open or closed as it was (`gone`, the old folds that go, says which were), a new one as
-- 'foldlevel' (`foldlevel`) makes it, or open around line `cursor`; a fold that stays and had to
-- be opened to reach inside it is closed again.
local function refold_window(st, p, spans, create, delete, gone, foldlevel, cursor)
  local cmd = api.nvim_command
  -- Read before anything is deleted: parents first, closed groups opened to read their members
  -- (they are deleted next anyway).
  local states = {}
  view.read(st.plan, st.edits, states, gone)
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
  local opened = {}
  -- Parents before members, so that a member is never hidden by the parent it is deleted from.
  for k = #delete, 1, -1 do
    delete_fold(delete[k][1], delete[k][2], delete[k][3], opened)
  end
  -- Children first: each fold gets its state before its parent is made around it.
  for _, f in ipairs(create) do
    local s, e = p.s(f), p.e(f)
    open_containers(s, e, opened)
    cmd(s .. ',' .. e .. 'fold')
    local group = p.count(f) > 0
    local depth = (not group and in_group(p, f)) and 2 or 1
    if view.want(states, s, e, group, depth, foldlevel, cursor) and closed_at(s, e) then
      cmd(s .. 'foldopen')
    end
  end
  for k = #opened, 1, -1 do -- innermost first
    local s, e = opened[k][1], opened[k][2]
    local f = plans.find(p, s, e)
    if f and fn.foldclosed(s) == -1 then
      if p.count(f) > 0 then
        view.close_group(p, f)
      else
        cmd(s .. 'foldclose')
      end
    end
  end
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

--- The diff of a refold (see diff() above); a field, so that nvimpam.tools.testing can watch it.
M.diff = diff

--- A live refold of `plan.buf` to `plan` (as apply() takes it, plus `tick`, the changedtick the
--- plan was computed for). Changes only the folds that differ from what Neovim holds, in every
--- window that shows the buffer; falls back to apply() when the windows are not those of the last
--- plan or the buffer was reloaded. Returns the number of folds deleted and created, -1 when
--- the plan is stale (the buffer changed since: the refold of that change follows), -2 after a
--- whole refresh, or { error = value } as apply() does.
---@param plan nvimpam.PlanMessage
---@return integer|nvimpam.Applied
function M.refold(plan)
  local buf = bufnr(plan.buf)
  local st = state.find(buf)
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
    local applied = apply(plan)
    return applied.error and applied or -2
  end
  local p = plans.read(plan)
  local spans = dirty_lines(st.edits, api.nvim_buf_line_count(buf))
  local create, delete, gone = M.diff(st, p, spans)
  local origin = api.nvim_get_current_win()
  local check_lines, check_levels = levels_near(p, spans, api.nvim_buf_line_count(buf))
  local ok, err = pcall(function()
    for _, win in ipairs(wins) do
      api.nvim_win_call(win, function()
        local saved = fn.winsaveview()
        refold_window(st, p, spans, create, delete, gone, vim.wo.foldlevel, saved.lnum)
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
    st.refold_error = err -- why it fell back (nvimpam.tools.testing reads it); the whole refresh repairs it
    -- Never leave a half-done refold: start again from no folds, or report why that failed too.
    local ok2, applied = pcall(apply, plan)
    local failed = not ok2 and { code = 'failed', message = tostring(applied) } or applied.error
    if failed then
      failed.message = 'refold failed (' .. tostring(err) .. '), then the full refresh: ' .. failed.message
      return { error = failed }
    end
    return -2
  end
  st.plan, st.names, st.edits = p, plan.names, {}
  st.tick, st.applied_ns = api.nvim_buf_get_changedtick(buf), compat.uv.hrtime()
  return #create + #delete
end

return M
