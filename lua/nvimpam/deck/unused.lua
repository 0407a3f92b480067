-- :NvimpamUnused[!] (:help nvimpam-unused): the definitions nothing references in the include
-- tree of the current deck (open buffers as they are, the other files as on disk), found by the
-- JVM off Neovim's main loop (org.nvimpam.model.Unused): the command returns at once; the quickfix
-- list is filled, or (!) the definitions deleted, when the answer comes.
local M = {}

local api = vim.api
local host = require('nvimpam.host')
local messages = require('nvimpam.ui.messages')
local plural = messages.plural
local tree = require('nvimpam.tree.apply')
local paced = require('nvimpam.tree.paced')
local uv = require('nvimpam.core.compat').uv

-- A quickfix item at 0-based `lnum`, `col` of the tree's file `f` ({ buf } or { file }).
local function item(f, lnum, col, text, type)
  local it = { lnum = lnum + 1, col = col + 1, text = text, type = type }
  if (f.buf or 0) > 0 then
    it.bufnr = f.buf
  else
    it.filename = f.file
  end
  return it
end

-- The deck and how many include files: "main.pc and 2 include files".
local function scope(buf, files)
  local name = vim.fn.fnamemodify(api.nvim_buf_get_name(buf), ':t')
  return #files > 1 and string.format('%s and %s', name, plural(#files - 1, 'include file')) or name
end

-- The warnings of the answer as quickfix items (type W).
local function warning_items(answer)
  local files, w, qf = answer.files or {}, answer.warnings or {}, {}
  for k = 0, #w / 4 - 1 do
    local b = 4 * k
    qf[#qf + 1] = item(files[w[b + 1]] or {}, w[b + 2], w[b + 3], w[b + 4], 'W')
  end
  return qf
end

-- The list: every unused definition (type I), then the warnings.
local function list(buf, answer, finish)
  local files, items, qf = answer.files or {}, answer.items or {}, {}
  for k = 0, #items / 6 - 1 do
    local b = 6 * k
    qf[#qf + 1] = item(files[items[b + 1]] or {}, items[b + 2], items[b + 3], items[b + 6], 'I')
  end
  local shown = #qf
  vim.list_extend(qf, warning_items(answer))
  local total = answer.total or shown
  local title = string.format('nvimpam: %s in %s', plural(total, 'unused definition'), scope(buf, files))
  if total > shown then
    title = title .. string.format(', the first %d listed', shown)
  end
  local warnings = #qf - shown
  if warnings > 0 then
    title = title .. ', ' .. plural(warnings, 'warning')
  end
  vim.fn.setqflist({}, ' ', { title = title, items = qf })
  if #qf > 0 then
    vim.cmd('copen')
  else
    messages.info('nvimpam: nothing unused in ' .. scope(buf, files))
  end
  finish()
end

-- Refuses with every reason: in the message when they fit the command line, else in the
-- quickfix list.
local function refuse(reasons)
  local head = 'nvimpam: cannot remove the unused definitions'
  local msg = string.format('%s: %s; nothing changed', head, table.concat(reasons, '; '))
  if vim.fn.strdisplaywidth(msg) > vim.v.echospace then
    local qf = {}
    for i, r in ipairs(reasons) do
      qf[i] = type(r) == 'table' and r or { text = r }
    end
    vim.fn.setqflist({}, ' ', { title = msg, items = qf })
    msg = messages.fit({ string.format('%s: %s, nothing changed; :copen lists them', head, plural(#reasons, 'reason')),
      string.format('%s: %s; :copen', head, plural(#reasons, 'reason')) })
  end
  error(host.error('bad_argument', msg), 0)
end

--- The most time a slice of :NvimpamUnused!'s work holds Neovim's main loop, in ms.
M.slice_ms = 8

-- Runs `step()` until it returns true, in slices of at most M.slice_ms (events and typing are
-- served between them), then `after()`; an error in a step ends it with `failed(e)`.
local function sliced(step, after, failed)
  local function go()
    local t0 = uv.hrtime()
    local ok, done = pcall(function()
      repeat
        if step() then
          return true
        end
      until (uv.hrtime() - t0) / 1e6 >= M.slice_ms
      return false
    end)
    if not ok then
      failed(done)
    elseif done then
      after()
    else
      vim.schedule(go)
    end
  end
  go()
end

-- A step over the plans in order: `step(r)` on the current one until it returns true.
local function over(plans, step)
  local p = 1
  return function()
    if p <= #plans and step(plans[p]) then
      p = p + 1
    end
    return p > #plans
  end
end

-- One step of the check of plan `r`: its next run of lines compared with the text the JVM read
-- (a final CR aside); true when done. r.stale: the first line (1-based) that differs.
local function check_step(r)
  local k = r.checked
  if k >= #r.runs / 2 then
    return true
  end
  local first, count = r.runs[2 * k + 1], r.runs[2 * k + 2]
  if first + count > api.nvim_buf_line_count(r.target) then
    r.stale = first + 1
    return true
  end
  local got = api.nvim_buf_get_lines(r.target, first, first + count, true)
  for i = 1, count do
    if got[i]:gsub('\r$', '') ~= r.lines[r.read + i] then
      r.stale = first + i
      return true
    end
  end
  r.read, r.checked = r.read + count, k + 1
  return r.checked >= #r.runs / 2
end

-- Deletes what the answer says, after checking every file (no warning, each buffer modifiable
-- and holding the text the JVM read, files not open writable): each buffer one undo step of its
-- own, the buffers 'nomodifiable' from the check to their last change. Then `finish()`.
local function remove(buf, answer, finish)
  local files = answer.files or {}
  local reasons = {}
  for _, it in ipairs(warning_items(answer)) do
    local f = it.bufnr and tree.name_of(it.bufnr, '', buf) or vim.fn.fnamemodify(it.filename or '', ':t')
    reasons[#reasons + 1] = string.format('%s line %d: %s', f, it.lnum, it.text)
  end
  local plans = answer.remove or {}
  local function name(r)
    return tree.name_of(r.target, files[r.file].label, buf)
  end
  for _, r in ipairs(plans) do
    local f = files[r.file]
    local b = f.buf or tree.buffer_of(f.file)
    local why
    if b and api.nvim_buf_is_loaded(b) then
      r.target = b
      why = tree.cannot_change(b)
    else
      why = tree.not_writable(f.file)
    end
    if why then
      reasons[#reasons + 1] = (r.target and name(r) or f.label) .. ' ' .. why
    end
  end
  if #reasons > 0 then
    refuse(reasons)
  end
  local removed = 0
  local items = answer.items or {}
  for k = 0, #items / 6 - 1 do
    if items[6 * k + 5] then
      removed = removed + 1
    end
  end
  if #plans == 0 then
    messages.info('nvimpam: nothing unused to remove in ' .. scope(buf, files))
    finish()
    return
  end
  local loaded = {}
  for _, r in ipairs(plans) do
    if not r.target then
      local b = vim.fn.bufadd(files[r.file].file)
      vim.fn.bufload(b)
      vim.bo[b].buflisted = true
      loaded[#loaded + 1] = b
      r.target = b
    end
    r.checked, r.read, r.done = 0, 0, 0
  end
  local deleting = false
  local function failed(e)
    for _, b in ipairs(deleting and {} or loaded) do -- loaded for nothing: as they were, not open
      pcall(api.nvim_buf_delete, b, {})
    end
    messages.report(e)
    finish()
  end
  local function done()
    local lines, names, qf = 0, {}, {}
    for _, r in ipairs(plans) do
      lines = lines + r.done
      names[#names + 1] = name(r)
      -- each file changed, where its first lines went
      qf[#qf + 1] = { bufnr = r.target, lnum = math.min(r.runs[1] + 1, api.nvim_buf_line_count(r.target)), col = 1,
        text = plural(r.done, 'line') .. ' removed' }
    end
    local head = string.format('nvimpam: %s removed (%s)', plural(removed, 'unused definition'), plural(lines, 'line'))
    vim.fn.setqflist({}, ' ', { title = string.format('%s in %s; :wall writes them', head, table.concat(names, ', ')), items = qf })
    messages.info(messages.fit({ string.format('%s in %s; :wall writes them', head, table.concat(names, ', ')),
      string.format('nvimpam: %d unused removed from %s; :wall writes them, :copen lists them', removed, plural(#names, 'file')),
      string.format('nvimpam: %d unused removed from %s; :wall writes, :copen lists', removed, plural(#names, 'file')),
      string.format('nvimpam: %d unused removed; :wall, :copen', removed) }))
    finish()
  end
  -- the buffers held ('nomodifiable' among others) from the check to their last change
  local bufs, total = {}, 0
  for _, r in ipairs(plans) do
    bufs[#bufs + 1] = r.target
    for k = 1, #r.runs, 2 do
      total = total + r.runs[k + 1]
    end
  end
  local job = paced.start({ bufs = bufs, head = 'nvimpam: removing the unused definitions', total = total,
    on_done = done, on_error = failed })
  sliced(over(plans, check_step), function()
    for _, r in ipairs(plans) do
      if r.stale then
        reasons[#reasons + 1] = string.format('%s line %d is not the text read (write or reload the buffer)', name(r), r.stale)
      end
    end
    if #reasons > 0 then
      local _, e = pcall(refuse, reasons)
      return job.fail(e)
    end
    deleting = true
    for _, r in ipairs(plans) do
      for k = #r.runs / 2 - 1, 0, -1 do -- from the bottom: the runs above keep their numbers
        local first, count = r.runs[2 * k + 1], r.runs[2 * k + 2]
        job.push({ buf = r.target, from = first, to = first + count, lines = {} }, count)
        r.done = r.done + count
      end
    end
    job.finish()
  end, job.fail)
end

--- :NvimpamUnused[!]: the unused definitions of the include tree of `buf` (nodes, parts,
--- materials, functions, groups, frames: :help nvimpam-unused) in the quickfix list, with the
--- rows the table does not describe that may name one (warnings). With `bang`, deletes them
--- instead: every file checked first (no warning, each buffer modifiable and holding the text the
--- JVM read, files not open writable), then each buffer changed as one undo step; files not open
--- are loaded into listed buffers, nothing is written. Returns at once; `done(answer)` runs after.
---@param buf integer
---@param bang boolean
---@param done? fun(answer: table?)
function M.run(buf, bang, done)
  host.call('unused', { buf, bang and true or false }, function(e, answer)
    vim.schedule(function()
      if e then
        messages.report(e)
      else
        local finish = function()
          if done then
            done(answer)
          end
        end
        local ok, err = pcall(bang and remove or list, buf, answer, finish)
        if not ok then
          messages.report(err)
          finish()
        end
        return
      end
      if done then
        done(answer)
      end
    end)
  end, buf)
end

return M
