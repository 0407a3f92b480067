-- A large change applied a few milliseconds at a time (:NvimpamOffset, :NvimpamRenumber,
-- :NvimpamTransform, :NvimpamExtract, :NvimpamUnused!, :NvimpamMerge): Neovim's main loop stays
-- the user's. Its parts come from a
-- producer (often as pages of lines from the JVM) and go in, in the order they came, a budget of
-- milliseconds per turn of the main loop. Meanwhile each buffer changed is 'nomodifiable' (the
-- user's typing cannot interleave), its change one undo step (:undojoin between the parts), and
-- held: the JVM neither refolds nor checks its partial states, and its diagnostics are hidden
-- (Neovim's vim.diagnostic reads every extmark of a buffer that shows diagnostics on each change:
-- with thousands shown, each part cost milliseconds). The end releases them: one refold and one
-- check of the result.
local M = {}

local api = vim.api
local host = require('nvimpam.host')
local undo = require('nvimpam.core.undo')
local hrtime = require('nvimpam.core.compat').uv.hrtime

--- Milliseconds of changes per turn of the main loop.
M.budget_ms = 5
--- Lines per nvim_buf_set_lines call at most, where a part can be split.
M.lines_per_call = 100

--- The end of a command that changes in parts: a function of its outcome that keeps it in
--- `mod.last` (for tests and scripts) and fires `User {pattern}`.
---@param mod table the command's module
---@param pattern string the User event: 'NvimpamRenumberDone'
---@return fun(state: table)
function M.outcome(mod, pattern)
  return function(state)
    mod.last = state
    api.nvim_exec_autocmds('User', { pattern = pattern, modeline = false })
  end
end

--- The outcome of a change that went in: { done, result, turns, longest_ms, longest_cpu_ms } (stats
--- nil or {} when nothing went in), with the fields of `extra`.
---@param result any
---@param stats? table
---@param extra? table
---@return table
function M.finished(result, stats, extra)
  stats = stats or {}
  return vim.tbl_extend('force', { done = true, result = result, turns = stats.turns, longest_ms = stats.longest_ms,
    longest_cpu_ms = stats.longest_cpu_ms }, extra or {})
end

--- Starts a paced change of the buffers `o.bufs` (held from now on). The producer
--- gives its parts with job.push(part, units) in the order they go in, and job.finish() after the
--- last. A part is { buf, from, to, lines } (0-based lines [from, to) become `lines`, numbered as
--- the parts before it left the buffer) or { run = function } (a step of its own, such as making
--- a buffer). `o.total` units make 100% of the progress echoed after `o.head`. At the end
--- `o.on_done({ turns, longest_ms, longest_cpu_ms })`; on an error (a part that fails, or job.fail)
--- `o.on_error(err, units_done)` after the buffers are released, the parts put in kept (`u` undoes
--- each buffer's). `o.on_low()`, when given, runs after each turn that leaves fewer than
--- `o.low` lines waiting: the producer asks for more then (and holds no more than that).
---@param o { bufs: integer[], head: string, total: integer, on_done: fun(stats: table), on_error: fun(err: any, done: integer), on_low?: fun(), low?: integer }
---@return table job { push = fun(part: table, units?: integer), finish = fun(), fail = fun(err: any) }
function M.start(o)
  local job = {}
  local queue, first, last = {}, 1, 0 -- parts waiting: queue[first .. last] (those put in are let go)
  local saved, started = {}, {}
  local finished, running = false, false
  local units, shown = 0, -1
  local waiting = 0 -- lines of the parts waiting
  local stats = { turns = 0, longest_ms = 0, longest_cpu_ms = 0 } -- CPU too: a loaded machine's wall time counts other processes

  for _, b in ipairs(o.bufs) do
    if saved[b] == nil and api.nvim_buf_is_valid(b) then
      saved[b] = vim.bo[b].modifiable
      vim.bo[b].modifiable = false
      host.hold(b, true)
      vim.diagnostic.hide(nil, b)
    end
  end
  local function release()
    for b, m in pairs(saved) do
      host.hold(b, false)
      if api.nvim_buf_is_valid(b) then
        vim.bo[b].modifiable = m
        if started[b] then
          undo.close(b) -- the user's next change is an undo step of its own
        end
        vim.diagnostic.show(nil, b) -- where they are enabled
      end
    end
    saved = {}
  end
  local ended = false -- done or failed
  function job.fail(e)
    if ended then
      return
    end
    ended = true
    queue, first, last = {}, 1, 0
    release()
    o.on_error(e, units)
  end
  -- lines [from, to) of b become `lines`, joined to the parts before in b's undo step
  local function set(b, from, to, lines)
    local held = saved[b] ~= nil -- else a buffer the change makes
    if held then
      vim.bo[b].modifiable = true
    end
    api.nvim_buf_call(b, function()
      if started[b] then
        vim.cmd('undojoin')
      else
        undo.close(b)
        started[b] = true
      end
      api.nvim_buf_set_lines(b, from, to, true, lines)
    end)
    if held then
      vim.bo[b].modifiable = false
    end
  end
  -- lines i .. j of `lines`
  local function slice(lines, i, j)
    local out = {}
    for x = i, j do
      out[x - i + 1] = lines[x]
    end
    return out
  end
  -- puts (some of) the first part in; a part replaced or inserted line for line, or deleted, is
  -- split, its lines p.lines[p.i ..] still to go
  local function put(p)
    if p.run then
      queue[first], first = nil, first + 1
      return p.run()
    end
    local i = p.i or 1
    local n, span = #p.lines - i + 1, p.to - p.from
    if n == 0 and span > M.lines_per_call then -- a deletion, from its top, a call's worth at a time
      set(p.buf, p.from, p.from + M.lines_per_call, {})
      p.to = p.to - M.lines_per_call
      return
    end
    if n <= M.lines_per_call or (span ~= n and span ~= 0) then -- the rest at once
      queue[first], first = nil, first + 1
      waiting = waiting - n
      set(p.buf, p.from, p.to, i == 1 and p.lines or slice(p.lines, i, #p.lines))
      units = units + (p.units or 0)
      return
    end
    local k = M.lines_per_call
    waiting = waiting - k
    set(p.buf, p.from, span == 0 and p.from or p.from + k, slice(p.lines, i, i + k - 1))
    local share = math.floor((p.units or 0) * k / n)
    units = units + share
    p.units, p.i, p.from = (p.units or 0) - share, i + k, p.from + k
    p.to = span == 0 and p.from or p.to
  end
  local function turn()
    if ended then
      return
    end
    if first <= last then
      local ok, e = pcall(function()
        local t0, c0 = hrtime(), os.clock()
        local call = 0 -- the longest put of this turn: one more that long must still fit the budget
        repeat -- at least one part a turn
          local t1 = hrtime()
          put(queue[first])
          call = math.max(call, hrtime() - t1)
        until first > last or (hrtime() - t0 + call) / 1e6 >= M.budget_ms
        -- The lines put are garbage now. A step of the collector each turn keeps them from piling
        -- up: LuaJIT's string table grows with them, and its resize (a rehash, and an array zeroed
        -- on fresh pages) falls in one go on whatever makes a string, as a page's decode: 10-20 ms.
        collectgarbage('step', 0)
        stats.turns = stats.turns + 1
        stats.longest_ms = math.max(stats.longest_ms, (hrtime() - t0) / 1e6)
        stats.longest_cpu_ms = math.max(stats.longest_cpu_ms, (os.clock() - c0) * 1000)
      end)
      if not ok then
        return job.fail(e)
      end
    end
    if first > last then
      queue, first, last, running = {}, 1, 0, false
      if finished then
        ended = true
        release()
        return o.on_done(stats)
      end
    else
      vim.defer_fn(turn, 0)
    end
    if o.on_low and not ended and waiting < (o.low or 0) then
      o.on_low()
    end
    local pct = math.floor(100 * units / math.max(o.total, 1))
    if pct ~= shown then
      shown = pct
      api.nvim_echo({ { string.format('%s: %d%%', o.head, pct) } }, false, {})
    end
  end
  local function wake()
    if not running and not ended then
      running = true
      vim.defer_fn(turn, 0) -- not in the turn that made the part (it may have decoded a page)
    end
  end
  function job.push(part, n)
    if ended then
      return
    end
    part.units = n
    waiting = waiting + (part.lines and #part.lines or 0)
    last = last + 1
    queue[last] = part
    wake()
  end
  function job.finish()
    finished = true
    wake()
  end
  return job
end

return M
