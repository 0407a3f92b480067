-- Reading a fold plan as the JVM sends it, and the questions asked of a plan.
--
-- A plan message is one table: { buf = <bufnr>, folds = <binary>, kinds = <binary>, groups =
-- <binary>, names = { ... } }. `folds` holds start and end (1-based, inclusive) of each fold as
-- little-endian 32-bit integers; `kinds` the name of each (0-based index into `names`) as 1, 2 or
-- 4 bytes, the same width for every fold; `groups` a pair of integers per level-2 fold: its index
-- (0-based) and its member count (every other fold is level 1, count 0). Folds come in creation
-- order: children before parents (end ascending, then start descending), so every `:fold` appends
-- to its level and never lands inside a closed parent. Only integers and our own names travel: no
-- buffer text is ever executed.
--
-- The strings are read in place: Neovim turns a msgpack array into a Lua table one element at a
-- time, which costs more than creating the folds, and only the level-2 folds need a count.
local M = {}

---@class nvimpam.PlanMessage The plan as the JVM sends it (see the top of this file).
---@field buf integer? the buffer, 0 or nil for the current one
---@field folds string? start and end of each fold, little-endian int32 pairs
---@field kinds string? each fold's name index, 1, 2 or 4 bytes each
---@field groups string? (fold index, member count) int32 pairs of the level-2 folds
---@field names string[]? the names `kinds` indexes (0-based)
---@field cmds (string|string[])? the plan's `S,Efold` commands, newline-separated lines of
---   '|'-joined commands, when the JVM sent them
---@field tick integer? the changedtick the plan was computed for (live refolds)

---@class nvimpam.Plan A plan read in place: functions of the 0-based fold index f.
---@field n integer the number of folds
---@field s fun(f: integer): integer the first line of fold f
---@field e fun(f: integer): integer the last line of fold f
---@field name fun(f: integer): integer fold f's index into the names (0-based)
---@field count fun(f: integer): integer fold f's member count, 0 for a level-1 fold
---@field groups integer the number of level-2 folds
---@field group fun(g: integer): integer the fold index of the g-th level-2 fold (0-based, ascending)
---@field bounds ffi.cdata*? with LuaJIT's FFI only: start and end of fold f at [2f] and [2f + 1]
---@field holds string? the string `bounds` points into, kept alive with it

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

--- Reads a plan message in place. Raises an error when its strings disagree on the fold count.
---@param plan nvimpam.PlanMessage
---@return nvimpam.Plan
function M.read(plan)
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
      bounds = se, -- start and end of fold f at [2 * f] and [2 * f + 1]
      holds = folds, -- the string `bounds` points into
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

--- The plan of no folds.
---@type nvimpam.Plan
M.EMPTY = M.read({})

--- A number naming a fold by what makes it the same fold across edits (nvimpam.fold.state.image):
--- its first line, the card's header, and whether it is a group (a group starts at its first card).
---@param s integer
---@param group boolean
---@return integer
function M.key(s, group)
  return s * 2 + (group and 1 or 0)
end

--- The `S,Efold` command of fold f of plan p.
---@param p nvimpam.Plan
---@param f integer 0-based fold index
---@return string
function M.fold_command(p, f)
  return p.s(f) .. ',' .. p.e(f) .. 'fold'
end

--- The index of the first fold whose end is at or after line l (p.n if none), or with `group`, the
--- first level-2 fold's position among them: ends ascend in creation order.
---@param p nvimpam.Plan
---@param l integer
---@param group boolean?
---@return integer
function M.first_ending_at(p, l, group)
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

--- The plan's fold level at line l: 1 for its card's fold, plus 1 for its group's. The first fold
--- ending at or after l is a card, never a group (a group's last member ends with it and comes
--- first); the group is found among the level-2 folds.
---@param p nvimpam.Plan
---@param l integer
---@return integer
function M.level(p, l)
  local level = 0
  local f = M.first_ending_at(p, l)
  if f < p.n and p.s(f) <= l and p.count(f) == 0 then
    level = 1
  end
  local g = M.first_ending_at(p, l, true)
  if g < p.groups and p.s(p.group(g)) <= l then
    level = level + 1
  end
  return level
end

--- Whether fold f (0-based index, level 1) of a plan is a member of a level-2 fold: members share
--- their name and precede their parent, which comes right after the last of them.
---@param p nvimpam.Plan
---@param f integer
---@return boolean
function M.in_group(p, f)
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

--- The index of the fold [s, e] in plan p, or nil (binary search: ends ascend).
---@param p nvimpam.Plan
---@param s integer
---@param e integer
---@return integer?
function M.find(p, s, e)
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

return M
