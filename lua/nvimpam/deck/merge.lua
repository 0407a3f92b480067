-- :NvimpamMerge (:help :NvimpamMerge): the headless `merge` of the current deck with other decks,
-- into new buffers. The JVM merges the trees as the plugin holds them (open files as their buffers
-- hold them, unsaved edits included) with the headless merge's model (model.Merge), off Neovim's
-- main loop; here each output file becomes a new, unsaved buffer named where `merge -o OUTDIR`
-- writes it, filled a few milliseconds at a time. Nothing is written: :wall writes them.
local M = {}

local api = vim.api
local messages = require('nvimpam.ui.messages')
local plural = messages.plural
local paced = require('nvimpam.tree.paced')
local pages = require('nvimpam.host.pages')
local host = require('nvimpam.host')
local bufnr = require('nvimpam.core.buf').nr

--- The last run: { done, refused, error, result, buffers, turns, longest_ms, longest_cpu_ms }
--- (for tests and scripts: the turns of the main loop the buffers took, the longest in ms of wall
--- and of CPU time); `User NvimpamMergeDone` follows it.
M.last = nil

local done = paced.outcome(M, 'NvimpamMergeDone')

--- The words of :NvimpamMerge: { outdir, decks, offsets } (paths absolute), or an error value.
---@param fargs string[]
---@return table
function M.parse(fargs)
  local outdir, decks, offsets = nil, {}, {}
  for _, w in ipairs(fargs) do
    local o = w:match('^offset=(.*)$')
    if o then
      for item in o:gmatch('[^,]+') do
        offsets[#offsets + 1] = item
      end
    elseif not outdir then
      outdir = w
    else
      decks[#decks + 1] = vim.fn.fnamemodify(vim.fn.expand(w), ':p')
    end
  end
  if not outdir or #decks == 0 then
    error(host.error('bad_argument', 'nvimpam: :NvimpamMerge takes {outdir} {deck}... [offset=auto|KIND=N,...]'), 0)
  end
  outdir = vim.fn.fnamemodify(vim.fn.expand(outdir), ':p'):gsub('(.)/$', '%1')
  return { outdir = outdir, decks = decks, offsets = offsets }
end

local function refuse(head, reasons)
  local items = {}
  for _, r in ipairs(reasons) do
    items[#items + 1] = { bufnr = r.buf, filename = r.buf == nil and r.file or nil, lnum = r.lnum or 0, col = r.col or 0,
      text = r.text, type = 'E' }
  end
  vim.fn.setqflist({}, ' ', { title = head .. ': refused, nothing created', items = items })
  done({ done = true, refused = reasons })
  local first = reasons[1] and reasons[1].text or ''
  vim.notify(messages.fit({
    string.format('%s: refused (%s), nothing created: %s; :copen lists them', head, plural(#reasons, 'reason'), first),
    string.format('%s: refused, %s; :copen', head, plural(#reasons, 'reason')) }), vim.log.levels.ERROR, { title = 'nvimpam' })
end

-- Makes each file a new buffer, its lines asked from the JVM a page at a time (the next page on
-- its way while one is filled) and put in by nvimpam.tree.paced; on_done with the buffers and the
-- turns' figures, or every buffer made wiped on an error.
local function create(token, files, head, on_done)
  local made, counts, total = {}, {}, 0
  for k, f in ipairs(files) do
    counts[k] = f.count
    total = total + f.count
  end
  local fetch
  local job = paced.start({ bufs = {}, head = head, total = total, low = pages.page_lines, on_low = function()
    fetch.more() -- the next page, while the last one's lines go in
  end, on_done = function(stats)
    on_done(made, stats)
  end, on_error = function(e)
    fetch.stop()
    for _, b in ipairs(made) do -- never written: no half merge left behind
      pcall(api.nvim_buf_delete, b, { force = true })
    end
    done({ done = true, error = e })
    messages.report(host.error('failed', string.format('nvimpam: %s stopped, no buffer kept: %s', head,
      tostring(host.as_error(e)))))
  end })
  local function start(f)
    local b = api.nvim_create_buf(true, false)
    made[#made + 1] = b
    f.target = b
    api.nvim_buf_set_name(b, f.name)
    vim.bo[b].undolevels = -1 -- the text is the buffer's start, as a file read is: nothing to undo
    vim.bo[b].fileformat = (f.buf and api.nvim_buf_is_valid(f.buf)) and vim.bo[f.buf].fileformat or 'unix'
    if not f.eol then
      vim.bo[b].eol = false
      vim.bo[b].fixeol = false
    end
    -- :write does not make folders: the buffer's own, on its first write
    api.nvim_create_autocmd('BufWritePre', { buffer = b, callback = function()
      vim.fn.mkdir(vim.fn.fnamemodify(api.nvim_buf_get_name(b), ':h'), 'p')
    end })
  end
  local function finish(f)
    local b = f.target
    vim.bo[b].undolevels = -123456 -- the global value again
    api.nvim_buf_call(b, function()
      vim.cmd('filetype detect')
    end)
  end
  local open = #files
  fetch = pages.fetch('merge_lines', token, counts, function(k, at, lines)
    local f = files[k]
    if at == 0 then
      start(f)
    end
    job.push({ buf = f.target, from = at, to = at, lines = lines }, #lines)
    if at + #lines >= f.count then -- the file's last page: the new buffer's one empty line goes
      job.push({ buf = f.target, from = f.count, to = f.count + 1, lines = {} }, 0)
      job.push({ run = function()
        finish(f)
      end })
      open = open - 1
      if open == 0 then
        job.finish()
      end
    end
  end, job.fail)
end

--- Merges the deck of `buf` (the first deck: its control section is kept) with `decks` into
--- `outdir`, as `merge DECK... -o OUTDIR --offset ...` does, into new unsaved buffers named where
--- it writes the files; opens the master deck, lists the offsets, renamed groups, control lines left
--- out and copied files in the quickfix list. Refused (nothing created) as the headless merge
--- refuses, and when a buffer of an output file's name exists. Asynchronous: M.last and `User
--- NvimpamMergeDone` tell the end.
---@param buf integer
---@param outdir string absolute
---@param decks string[] absolute
---@param offsets string[] `auto` or `KIND=N`
function M.run(buf, outdir, decks, offsets)
  local head = string.format('nvimpam: merge into %s', vim.fn.fnamemodify(outdir, ':~:.'))
  M.last = { done = false }
  api.nvim_echo({ { head .. ': merging…' } }, false, {})
  host.call('merge', { buf, outdir, decks, offsets, vim.fn.getcwd() }, function(err, plan)
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
      for _, f in ipairs(plan.files) do
        if vim.fn.bufexists(f.name) == 1 then
          reasons[#reasons + 1] = { file = f.name, lnum = 0, col = 0,
            text = f.name .. ' is a buffer already: merge makes no buffer over another (choose another outdir)' }
        end
      end
      if #reasons > 0 then
        if #plan.files > 0 then -- the JVM holds them for nothing
          host.call('merge_lines', { plan.token, 0, 0, -1 }, function() end)
        end
        return refuse(head, reasons)
      end
      create(plan.token, plan.files, head, function(made, stats)
        local items = {}
        for _, n in ipairs(plan.notes) do
          items[#items + 1] = { filename = n.file, lnum = n.lnum, text = n.text }
        end
        local master = made[1]
        api.nvim_set_current_buf(master)
        local title = string.format('%s: %s merged, %s new buffers', head, plural(#decks + 1, 'deck'), #made)
        vim.fn.setqflist({}, ' ', { title = title, items = items })
        done(paced.finished(plan, stats, { buffers = made }))
        vim.notify(messages.fit({
          string.format('%s: %s merged into %s new buffers, not written; :wall writes them, :copen lists the offsets',
            head, plural(#decks + 1, 'deck'), #made),
          string.format('%s: %s new buffers; :wall writes them', head, #made) }), vim.log.levels.INFO, { title = 'nvimpam' })
      end)
    end)
  end, buf)
end

--- The command's entry: o as commands.lua gives it (fargs, buf).
---@param o table
function M.command(o)
  local a = M.parse(o.fargs)
  M.run(bufnr(o.buf), a.outdir, a.decks, a.offsets)
end

return M
