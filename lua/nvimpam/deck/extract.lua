-- :NvimpamExtract (:help nvimpam-extract): moves cards of a deck's include tree into a new include
-- file, and adds its INCLU line to the deck. The JVM plans it with the headless `extract`'s model
-- (model.Extract) off Neovim's main loop, as hunks; nvimpam.tree.hunks checks and applies them in
-- parts: each buffer one undo step of its own, the new file a new buffer, nothing written.
local M = {}

local hunks = require('nvimpam.tree.hunks')
local pages = require('nvimpam.host.pages')
local paced = require('nvimpam.tree.paced')
local messages = require('nvimpam.ui.messages')
local bufnr = require('nvimpam.core.buf').nr

--- The last run: { done, refused, error, result, buffer (the new file's), turns, longest_ms,
--- longest_cpu_ms } (for tests and scripts); `User NvimpamExtractDone` follows it.
M.last = nil

local done = paced.outcome(M, 'NvimpamExtractDone')

--- :[range]NvimpamExtract {file} [part={ids}]: moves the parts' PART cards, their elements and the
--- nodes no other element uses (or the whole cards the range touches) into {file}, a new file
--- beside the deck, and adds `INCLU / {file}` to the deck. Refuses, changing nothing, when {file}
--- exists (on disk or as a buffer), a buffer cannot change or changed since the plan was read.
--- Asynchronous: M.last and `User NvimpamExtractDone` tell the end.
---@param o table the command's { fargs, buf, range, line1, line2 }
function M.command(o)
  local buf = bufnr(o.buf)
  local file = o.fargs[1]
  local words = vim.list_slice(o.fargs, 2)
  local line1, line2 = 0, 0
  if o.range and o.range > 0 then
    line1, line2 = o.line1, o.line2
  end
  local head = 'nvimpam: extract to ' .. tostring(file)
  M.last = { done = false }
  hunks.call('extract', { buf, file or '', words, line1, line2 }, { buf = buf, head = head,
    refuse_head = 'nvimpam: cannot extract to ' .. tostring(file), what = 'extract', done = done,
    lines = pages.source('extract_lines'),
    on_done = function(files, stats, plan)
      local nb, changed = nil, 0
      for _, f in ipairs(files) do
        if f.new then
          nb = f.target
        else
          changed = changed + 1
        end
      end
      done(paced.finished(plan, stats, { buffer = nb }))
      local c, name = plan.cards, vim.fn.fnamemodify(plan.target, ':t')
      vim.notify(messages.fit({ string.format(
        'nvimpam: %d cards (%d parts, %d elements, %d nodes) moved to %s, a new buffer; :wall writes it and %s',
        c[1], c[2], c[3], c[4], name, messages.plural(changed, 'changed file')),
        string.format('nvimpam: %d cards moved to %s; :wall writes it', c[1], name) }), vim.log.levels.INFO,
        { title = 'nvimpam' })
    end })
end

return M
