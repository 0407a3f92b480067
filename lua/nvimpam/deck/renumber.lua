-- :NvimpamOffset and :NvimpamRenumber (:help nvimpam-renumber): every id of a kind moved (or
-- renumbered densely) across the include tree, in the buffers. The JVM computes the new lines
-- (model.Renumber, the same rewrite as the headless `renumber`) off Neovim's main loop; here every
-- buffer is checked, then the changes, asked from the JVM a page at a time, go in a few milliseconds
-- at a time, each buffer 'nomodifiable' meanwhile and its change one undo step (:undojoin between
-- the parts).
local M = {}

local api = vim.api
local messages = require('nvimpam.ui.messages')
local plural = messages.plural
local tree = require('nvimpam.tree.apply')
local uv = require('nvimpam.core.compat').uv
local hrtime = uv.hrtime
local host = require('nvimpam.host')
local undo = require('nvimpam.core.undo')
local layout = require('nvimpam.model.layout')
local named = require('nvimpam.ids.at').named
local bufnr = require('nvimpam.core.buf').nr

--- Milliseconds of changes per turn of the main loop.
M.budget_ms = 8
--- Lines per nvim_buf_set_lines call at most.
M.lines_per_call = 200
--- New lines per page asked from the JVM (a page's answer is decoded in one go on the main loop).
M.page_lines = 2000

--- The last run: { done, refused, error, result, turns, longest_ms, longest_cpu_ms } (for tests and
--- scripts: the turns of the main loop the changes took, the longest in ms of wall and of CPU time);
--- `User NvimpamRenumberDone` follows it.
M.last = nil

local function done(state)
  M.last = state
  api.nvim_exec_autocmds('User', { pattern = 'NvimpamRenumberDone', modeline = false })
end

-- part=1,2,5:9 -> { 1, 2, 5, 6, 7, 8, 9 }, or nil and why.
local function part_ids(s)
  local out = {}
  for item in s:gmatch('[^,%s]+') do
    local a, b = item:match('^(%d+):(%d+)$')
    a, b = tonumber(a or item:match('^%d+$')), tonumber(b or a or item:match('^%d+$'))
    if not a or a < 1 or b < a or b - a > 1000000 then
      return nil, string.format('part= takes part ids (1,2,5:9), not "%s"', item)
    end
    for i = a, b do
      out[#out + 1] = i
    end
  end
  if #out == 0 then
    return nil, 'part= names no part'
  end
  return out
end

--- The arguments of :NvimpamOffset / :NvimpamRenumber: { kind, amount, parts } or an error value.
---@param fargs string[]
---@param what string the command's name
---@return table
function M.parse(fargs, what)
  local bad = function(msg)
    error(host.error('bad_argument', 'nvimpam: :' .. what .. ' ' .. msg), 0)
  end
  local kind, n, parts = fargs[1], fargs[2], nil
  for i = 3, #fargs do
    local p = fargs[i]:match('^part=(.*)$')
    if not p then
      bad('takes {kind} {number} [part={ids}], not "' .. fargs[i] .. '"')
    end
    local ids, why = part_ids(p)
    if not ids then
      bad(why)
    end
    parts = ids
  end
  if not kind or not n then
    bad('takes {kind} {number} [part={ids}]')
  end
  if named[kind] then
    bad('cannot take ' .. kind .. 's: they are named by their titles, not numbered')
  end
  local amount = tonumber(n:match('^[+-]?%d+$') and n or '')
  if not amount then
    bad('takes an integer, not "' .. n .. '"')
  end
  return { kind = kind, amount = amount, parts = parts }
end

-- The buffers loaded now, with their changedtick.
local function ticks()
  local t = {}
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) then
      t[b] = api.nvim_buf_get_changedtick(b)
    end
  end
  return t
end

-- Why file `f` of the plan (not open when planned) is no longer as read, or nil.
local function stale_file(f)
  local st = uv.fs_stat(f.file)
  if not st then
    return 'is gone'
  end
  local ms = st.mtime.sec * 1000 + math.floor(st.mtime.nsec / 1e6)
  if st.size ~= f.stamp[1] or ms ~= f.stamp[2] then
    return 'changed on disk while the change was planned (run it again)'
  end
  return nil
end

-- Refuses: every reason in the quickfix list (where a reason has a place, there), the message fitted.
local function refuse(head, reasons)
  local items = {}
  for i, r in ipairs(reasons) do
    items[i] = { bufnr = r.buf, filename = r.file, lnum = r.lnum, col = r.col, text = r.text }
  end
  local msg = string.format('%s: %s; nothing changed', head, reasons[1].text)
  vim.fn.setqflist({}, ' ', { title = #reasons == 1 and msg or string.format('%s: %s, nothing changed', head,
    plural(#reasons, 'reason')), items = items })
  if #reasons > 1 or vim.fn.strdisplaywidth(msg) > vim.v.echospace then
    local first = reasons[1].text .. (#reasons > 1 and string.format(' and %d more', #reasons - 1) or '')
    msg = messages.fit({ string.format('%s: %s; nothing changed; :copen lists them', head, first),
      string.format('%s: %s, nothing changed; :copen lists them', head, plural(#reasons, 'reason')),
      string.format('%s: %s; :copen', head, plural(#reasons, 'reason')) })
  end
  done({ done = true, refused = reasons })
  vim.notify(msg, vim.log.levels.ERROR, { title = 'nvimpam' })
end

-- Applies the checked plan: the new lines asked from the JVM a page at a time (the next on its
-- way while one is put in), put in top down, a budget of milliseconds per turn of the main loop;
-- each buffer 'nomodifiable' between the turns and its change one undo step.
local function apply(token, files, head, what, on_done)
  local saved, counts, total = {}, {}, 0
  for k, f in ipairs(files) do
    saved[f.target] = vim.bo[f.target].modifiable
    vim.bo[f.target].modifiable = false
    counts[k] = f.count
    total = total + f.count
    f.hunk, f.put, f.delta, f.wrap = 0, 0, 0, {} -- the hunk (0-based) being put, its lines put, the lines added above it
  end
  local pages, started = {}, {}
  local finished, doneLines, shown = 0, 0, -1
  local running, failed, fetch = false, false, nil
  local turns, longest, longest_cpu = 0, 0, 0 -- for M.last: how the work was spread (wall and CPU ms)
  local function restore()
    for b, m in pairs(saved) do
      if api.nvim_buf_is_valid(b) then
        vim.bo[b].modifiable = m
        if started[b] then
          undo.close(b)
        end
      end
    end
  end
  local function fail(e)
    if failed then
      return
    end
    failed = true
    fetch.stop()
    restore()
    done({ done = true, error = e })
    messages.report(host.error('failed', string.format(
      'nvimpam: %s stopped after %d of %d lines (u undoes each buffer\'s part): %s', what, doneLines, total,
      tostring(host.as_error(e)))))
  end
  -- lines [from, to) of the file's buffer become `new`
  local function set(f, from, to, new)
    if f.dos then
      for k, l in ipairs(new) do
        new[k] = l:gsub('\r$', '')
      end
    end
    local b = f.target
    vim.bo[b].modifiable = true
    api.nvim_buf_call(b, function()
      if started[b] then
        vim.cmd('undojoin')
      else
        undo.close(b)
        started[b] = true
      end
      api.nvim_buf_set_lines(b, from, to, true, new)
    end)
    vim.bo[b].modifiable = false
  end
  -- puts lines of page p in its file's current hunk: how many it took
  local function put(p)
    local f = p.f
    local h = f.hunks
    local first, last, n = h[3 * f.hunk + 1], h[3 * f.hunk + 2], h[3 * f.hunk + 3]
    local took
    if n ~= last - first then -- a GES line continued on new lines: the hunk at once
      took = math.min(n - #f.wrap, #p.lines - p.put)
      for j = 1, took do
        f.wrap[#f.wrap + 1] = p.lines[p.put + j]
      end
      if #f.wrap == n then
        set(f, first + f.delta, last + f.delta, f.wrap)
        f.delta = f.delta + n - (last - first)
        f.put, f.wrap = n, {}
      end
    else
      took = math.min(M.lines_per_call, n - f.put, #p.lines - p.put)
      local from = first + f.delta + f.put
      set(f, from, from + took, { unpack(p.lines, p.put + 1, p.put + took) })
      f.put = f.put + took
    end
    if f.put >= n then
      f.hunk, f.put = f.hunk + 1, 0
      if 3 * f.hunk >= #h then
        finished = finished + 1
      end
    end
    return took
  end
  local function turn()
    local ok, e = pcall(function()
      local t0, c0 = hrtime(), os.clock()
      repeat -- at least one part a turn
        local p = pages[1]
        local took = put(p)
        p.put = p.put + took
        doneLines = doneLines + took
        if p.put >= #p.lines then
          table.remove(pages, 1)
        end
      until not pages[1] or (hrtime() - t0) / 1e6 >= M.budget_ms
      turns = turns + 1
      longest = math.max(longest, (hrtime() - t0) / 1e6)
      longest_cpu = math.max(longest_cpu, (os.clock() - c0) * 1000)
    end)
    if not ok then
      return fail(e)
    end
    if finished == #files then
      restore()
      return on_done(turns, longest, longest_cpu)
    end
    local pct = math.floor(100 * doneLines / math.max(total, 1))
    if pct ~= shown then
      shown = pct
      api.nvim_echo({ { string.format('%s: %d%%', head, pct) } }, false, {})
    end
    if pages[1] then
      vim.defer_fn(turn, 0)
    else
      running = false -- the next page's answer starts the next turn
    end
  end
  fetch = require('nvimpam.host.pages').fetch('renumber_lines', token, counts, M.page_lines, function(k, at, lines)
    if failed then
      return
    end
    pages[#pages + 1] = { f = files[k], at = at, lines = lines, put = 0 }
    if not running then
      running = true
      vim.defer_fn(turn, 0) -- not in the turn that decoded the page
    end
  end, fail)
end

--- Offsets (`dense` false: every id + `amount`) or renumbers (`dense`: `amount`, `amount` + 1, …
--- in deck order) the ids of `kind` in the include tree of `buf`; `opts.range` = { line1, line2 }
--- (1-based) takes the ids the cards there define, `opts.parts` the parts' elements and nodes.
--- Asynchronous: the buffers change a part at a time after the JVM's answer; M.last and
--- `User NvimpamRenumberDone` tell the end.
---@param buf integer
---@param kind string
---@param amount integer
---@param dense boolean
---@param opts? table { range = { line1, line2 }, parts = { ids } }
function M.run(buf, kind, amount, dense, opts)
  opts = opts or {}
  local what = dense and 'renumber' or 'offset'
  local head = dense and string.format('nvimpam: %s ids from %d', kind, amount)
    or string.format('nvimpam: %s ids %+d', kind, amount)
  local scope = vim.empty_dict()
  if opts.parts then
    scope = { parts = opts.parts }
    head = head .. ' (part=' .. #opts.parts .. ' parts)'
  elseif opts.range then
    scope = { from = opts.range[1] - 1, to = opts.range[2] }
    head = head .. string.format(' (lines %d-%d)', opts.range[1], opts.range[2])
  end
  local before = ticks()
  M.last = { done = false }
  api.nvim_echo({ { head .. ': planning…' } }, false, {})
  host.call('renumber', { buf, kind, amount, dense, scope }, function(err, plan)
    vim.schedule(function()
      if err then
        done({ done = true, error = err })
        messages.report(err)
        return
      end
      local reasons = {}
      for _, r in ipairs(plan.refusals or {}) do
        reasons[#reasons + 1] = r
      end
      for b, t in pairs(before) do
        if api.nvim_buf_is_valid(b) and api.nvim_buf_is_loaded(b) and api.nvim_buf_get_changedtick(b) ~= t then
          reasons[#reasons + 1] = { buf = b, lnum = 1, col = 1,
            text = tree.name_of(b, tostring(b), buf) .. ' changed while the change was planned (run it again)' }
        end
      end
      local files = plan.files or {}
      for _, f in ipairs(files) do
        if f.buf then
          f.target = f.buf
          local why = not api.nvim_buf_is_loaded(f.buf) and 'was closed' or tree.cannot_change(f.buf)
          if why then
            reasons[#reasons + 1] = { buf = f.buf, lnum = 1, col = 1, text = tree.name_of(f.buf, f.label, buf) .. ' ' .. why }
          end
        else
          local open = tree.buffer_of(f.file)
          local why = (open and before[open] and 'is open in a buffer nvimpam does not read as a deck (:setfiletype pamcrash)')
            or (open and 'was opened while the change was planned (run it again)') or stale_file(f) or tree.not_writable(f.file)
          if why then
            reasons[#reasons + 1] = { file = f.file, lnum = 1, col = 1, text = f.label .. ' ' .. why }
          end
        end
      end
      if #reasons > 0 then
        host.call('renumber_lines', { plan.token, 0, 0, -1 }, function() end) -- the JVM lets the new lines go
        return refuse(head, reasons)
      end
      local loaded = {}
      for _, f in ipairs(files) do
        if not f.target then
          local b = vim.fn.bufadd(f.file)
          vim.fn.bufload(b)
          vim.bo[b].buflisted = true
          loaded[#loaded + 1] = b
          f.target = b
          f.dos = vim.bo[b].fileformat == 'dos'
          local why = tree.cannot_change(b)
          if why then
            reasons[#reasons + 1] = { buf = b, lnum = 1, col = 1, text = f.label .. ' ' .. why }
          end
        end
      end
      if #reasons > 0 then
        for _, b in ipairs(loaded) do -- loaded for nothing: as they were, not open
          pcall(api.nvim_buf_delete, b, {})
        end
        host.call('renumber_lines', { plan.token, 0, 0, -1 }, function() end) -- the JVM lets the new lines go
        return refuse(head, reasons)
      end
      if #files == 0 then
        done({ done = true, result = plan })
        vim.notify(head .. ': nothing to change', vim.log.levels.INFO, { title = 'nvimpam' })
        return
      end
      apply(plan.token, files, head, what, function(turns, longest, longest_cpu)
        local items, lines = {}, 0
        for _, f in ipairs(files) do
          lines = lines + f.lines
          items[#items + 1] = { bufnr = f.target, lnum = f.hunks[1] + 1, col = 1,
            text = string.format('%s: %s changed', (head:gsub('^nvimpam: ', '')), plural(f.lines, 'line')) }
        end
        local others = #files > 1 or files[1].target ~= buf
        vim.fn.setqflist({}, ' ', { title = string.format('%s: %s in %s, %s', head, plural(plan.changed, 'value'),
          plural(#files, 'file'), plural(lines, 'line')), items = items })
        local tail = others and { '; :wall writes them, :copen lists them', '; :wall, :copen' } or { '', '' }
        done({ done = true, result = plan, turns = turns, longest_ms = longest, longest_cpu_ms = longest_cpu })
        vim.notify(messages.fit({
          string.format('%s: %s in %s%s', head, plural(plan.changed, 'value'), plural(#files, 'file'), tail[1]),
          string.format('%s: %s%s', head, plural(plan.changed, 'value'), tail[2]) }), vim.log.levels.INFO, { title = 'nvimpam' })
      end)
    end)
  end, buf)
end

--- The commands' entry: o as commands.lua gives it (fargs, buf, range, line1, line2); `dense`
--- for :NvimpamRenumber.
---@param o table
---@param dense boolean
function M.command(o, dense)
  local a = M.parse(o.fargs, dense and 'NvimpamRenumber' or 'NvimpamOffset')
  local buf = bufnr(o.buf)
  if dense and a.amount < 1 then
    error(host.error('bad_argument', 'nvimpam: :NvimpamRenumber starts at a positive id, not ' .. a.amount), 0)
  end
  local opts = { parts = a.parts }
  if not a.parts and o.range and o.range > 0 then
    opts.range = { o.line1, o.line2 }
  end
  M.run(buf, a.kind, a.amount, dense, opts)
end

--- Completion of the kinds (not group), for the first argument.
---@param arglead string
---@param cmdline string
---@return string[]
function M.complete(arglead, cmdline)
  local words = vim.split(cmdline, '%s+')
  if #words > 2 then
    return {}
  end
  local out = {}
  for _, k in ipairs(layout.KINDS) do
    if k ~= 'group' and k:sub(1, #arglead) == arglead then
      out[#out + 1] = k
    end
  end
  return out
end

return M
