-- A change the JVM planned as hunks of new lines (plugin.HunkAnswer: :NvimpamOffset,
-- :NvimpamRenumber, :NvimpamTransform, :NvimpamExtract), checked and then applied in parts: every
-- buffer and file it changes is checked first (each buffer may change and did not change since the
-- plan was asked for, each file not open is as read and may be written, a new file does not exist),
-- the files not open are loaded into listed buffers, and only then do the new lines, asked from the
-- JVM a page at a time, go in through nvimpam.tree.paced. A refusal lists every reason and changes
-- nothing. Nothing is written to disk.
local M = {}

local api = vim.api
local messages = require('nvimpam.ui.messages')
local plural = messages.plural
local tree = require('nvimpam.tree.apply')
local paced = require('nvimpam.tree.paced')
local host = require('nvimpam.host')
local uv = require('nvimpam.core.compat').uv
local pages = require('nvimpam.host.pages')

--- The loaded buffers with their changedtick: taken when the plan is asked for, for M.apply.
---@return table<integer, integer>
function M.ticks()
  local t = {}
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) then
      t[b] = api.nvim_buf_get_changedtick(b)
    end
  end
  return t
end

-- The new lines of each file of the plan, in order.
local function counts_of(files)
  local counts = {}
  for k, f in ipairs(files) do
    counts[k] = f.count
  end
  return counts
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

-- Refuses: every reason in the quickfix list (where a reason has a place, there), and in the
-- message when they fit the command line; else the message says how many.
local function refuse(head, reasons, done)
  local items, texts = {}, {}
  for i, r in ipairs(reasons) do
    items[i] = { bufnr = r.buf, filename = r.file, lnum = r.lnum, col = r.col, text = r.text }
    texts[i] = r.text
  end
  local msg = string.format('%s: %s; nothing changed', head, table.concat(texts, '; '))
  vim.fn.setqflist({}, ' ', { title = msg, items = items })
  if vim.fn.strdisplaywidth(msg) > vim.v.echospace then
    local first = reasons[1].text .. (#reasons > 1 and string.format(' and %d more', #reasons - 1) or '')
    msg = messages.fit({ string.format('%s: %s; nothing changed; :copen lists them', head, first),
      string.format('%s: %s, nothing changed; :copen lists them', head, plural(#reasons, 'reason')),
      string.format('%s: %s; :copen', head, plural(#reasons, 'reason')) })
  end
  done({ done = true, refused = reasons })
  vim.notify(msg, vim.log.levels.ERROR, { title = 'nvimpam' })
end

-- Applies the checked plan: the new lines asked from the JVM a page at a time (the next on its
-- way while the last one's lines are put in, no more held), put in top down by
-- nvimpam.tree.paced as they come.
local function apply(o, files)
  local head, what = o.head, o.what
  local total, bufs = 0, {}
  for _, f in ipairs(files) do
    total = total + f.count
    bufs[#bufs + 1] = f.target
    f.hunk, f.put, f.delta = 0, 0, 0 -- the hunk (0-based) being put, its lines put, the lines added above it
  end
  local fetch
  local job = paced.start({ bufs = bufs, head = head, total = total, low = pages.page_lines, on_low = function()
    fetch.more() -- the next page, while the last one's lines go in
  end, on_done = function(stats)
    o.on_done(files, stats, o.plan)
  end, on_error = function(e, n)
    fetch.stop()
    o.done({ done = true, error = e })
    messages.report(host.error('failed', string.format(
      'nvimpam: %s stopped after %d of %d lines (u undoes each buffer\'s part): %s', what, n, total,
      tostring(host.as_error(e)))))
  end })
  local open, pushed = #files, 0
  -- a part of lines i .. j of a page
  local function push(f, from, to, lines, i, j)
    local part = {}
    for x = i, j do
      part[x - i + 1] = lines[x]
    end
    job.push({ buf = f.target, from = from, to = to, lines = part }, j - i + 1)
    pushed = pushed + 1
  end
  -- the lines of a page of file f, in its hunks, as parts: a hunk's first lines replace its old
  -- ones line for line, the lines beyond those are inserted after them, and the old lines beyond
  -- its new ones are deleted after them (nvimpam.tree.paced splits a part into calls of 100 lines)
  local function parts(f, lines)
    local h, i = f.hunks, 1
    while 3 * f.hunk < #h do
      local first, last, n = h[3 * f.hunk + 1], h[3 * f.hunk + 2], h[3 * f.hunk + 3]
      local span, at = last - first, first + f.delta + f.put
      local take = math.min(n - f.put, #lines - i + 1)
      if take <= 0 and f.put < n then
        return -- the hunk goes on in the next page
      end
      local replace = math.max(0, math.min(take, span - f.put))
      if replace > 0 then
        push(f, at, at + replace, lines, i, i + replace - 1)
      end
      if take > replace then
        push(f, at + replace, at + replace, lines, i + replace, i + take - 1)
      end
      i, f.put = i + take, f.put + take
      if f.put >= n then
        if n < span then
          job.push({ buf = f.target, from = first + f.delta + n, to = last + f.delta, lines = {} }, 0)
          pushed = pushed + 1
        end
        f.hunk, f.put, f.delta = f.hunk + 1, 0, f.delta + n - span
      end
    end
    open = open - 1
    if open == 0 then
      job.finish()
    end
  end
  fetch = o.lines.fetch(o.plan.token, counts_of(files), function(k, _, lines)
    local f = files[k]
    if f.dos then
      for j, l in ipairs(lines) do
        lines[j] = l:gsub('\r$', '')
      end
    end
    local before = pushed
    parts(f, lines)
    if pushed == before and open > 0 then
      fetch.more() -- nothing to put from this page: no turn asks for the next
    end
  end, job.fail)
end

--- Checks the plan `o.plan` (a plugin.HunkAnswer, asked for when `o.before` = M.ticks() was
--- taken) and applies it in parts. `o.lines` (nvimpam.host.pages.source of the command's page
--- call) asks the JVM for the new lines, and lets them go; `o.head` starts the progress, and
--- `o.refuse_head` (else `o.head`) a refusal; `o.done(state)` records the end ({ done, refused |
--- error }); `o.on_done(files, stats, plan)` follows the last part (each file's `target` buffer
--- set; stats nil when there was nothing to change).
---@param o { plan: table, before: table<integer, integer>, buf: integer, head: string, refuse_head?: string, what: string, lines: table, done: fun(state: table), on_done: fun(files: table[], stats: table|nil, plan: table) }
function M.apply(o)
  local plan = o.plan
  local reasons = {}
  for _, r in ipairs(plan.refusals or {}) do
    reasons[#reasons + 1] = r
  end
  for b, t in pairs(o.before) do
    if api.nvim_buf_is_valid(b) and api.nvim_buf_is_loaded(b) and api.nvim_buf_get_changedtick(b) ~= t then
      reasons[#reasons + 1] = { buf = b, lnum = 1, col = 1,
        text = tree.name_of(b, tostring(b), o.buf) .. ' changed while the change was planned (run it again)' }
    end
  end
  local files = plan.files or {}
  for _, f in ipairs(files) do
    if f.buf then
      f.target = f.buf
      local why = not api.nvim_buf_is_loaded(f.buf) and 'was closed' or tree.cannot_change(f.buf)
      if why then
        reasons[#reasons + 1] = { buf = f.buf, lnum = 1, col = 1, text = tree.name_of(f.buf, f.label, o.buf) .. ' ' .. why }
      end
    elseif f.new then
      local why = (vim.fn.filereadable(f.file) == 1 or uv.fs_stat(f.file)) and 'exists already'
        or (tree.buffer_of(f.file) and api.nvim_buf_is_loaded(tree.buffer_of(f.file)) and 'is open in a buffer already')
      if why then
        reasons[#reasons + 1] = { file = f.file, lnum = 1, col = 1, text = f.file .. ' ' .. why }
      end
    else
      local open = tree.buffer_of(f.file)
      if open and not api.nvim_buf_is_loaded(open) then
        open = nil -- a buffer without text (a quickfix entry's file): loaded below like a file not open
      end
      local why = (open and o.before[open] and 'is open in a buffer nvimpam does not read as a deck (:setfiletype pamcrash)')
        or (open and 'was opened while the change was planned (run it again)') or stale_file(f) or tree.not_writable(f.file)
      if why then
        reasons[#reasons + 1] = { file = f.file, lnum = 1, col = 1, text = f.label .. ' ' .. why }
      end
    end
  end
  if #reasons > 0 then
    o.lines.drop(plan.token) -- the JVM lets the new lines go
    return refuse(o.refuse_head or o.head, reasons, o.done)
  end
  local loaded = {}
  for _, f in ipairs(files) do
    if not f.target then
      local b = tree.load(f.file)
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
    tree.unload(loaded)
    o.lines.drop(plan.token) -- the JVM lets the new lines go
    return refuse(o.refuse_head or o.head, reasons, o.done)
  end
  if #files == 0 then
    o.lines.drop(plan.token)
    return o.on_done(files, nil, plan)
  end
  apply(o, files)
end

--- Asks the JVM's call `method` (with `args`) for a plan of hunks, off Neovim's main loop, and
--- applies it as M.apply does (`o` as for M.apply, without `plan` and `before`); an error of the
--- call is reported and recorded with `o.done`.
---@param method string
---@param args any[]
---@param o table
function M.call(method, args, o)
  local before = M.ticks()
  api.nvim_echo({ { o.head .. ': planning…' } }, false, {})
  host.call(method, args, function(err, plan)
    vim.schedule(function()
      if err then
        o.done({ done = true, error = err })
        return messages.report(err)
      end
      o.plan, o.before = plan, before
      M.apply(o)
    end)
  end, o.buf)
end

return M
