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
local hunks = require('nvimpam.tree.hunks')
local pages = require('nvimpam.host.pages')

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

-- Deletes what the answer says (answer.change: a plugin.HunkAnswer, asked for when `before` =
-- nvimpam.tree.hunks.ticks() was taken), after checking every file (no warning, each buffer
-- modifiable and unchanged since, files not open as read and writable), in parts: each buffer one
-- undo step of its own, held ('nomodifiable' among others) until its last change. Then `finish()`.
local function remove(buf, answer, before, finish)
  local files = answer.files or {}
  local reasons = {}
  for _, it in ipairs(warning_items(answer)) do
    local f = it.bufnr and tree.name_of(it.bufnr, '', buf) or vim.fn.fnamemodify(it.filename or '', ':t')
    reasons[#reasons + 1] = { buf = it.bufnr, file = it.filename, lnum = it.lnum, col = it.col,
      text = string.format('%s line %d: %s', f, it.lnum, it.text) }
  end
  local removed = 0
  local items = answer.items or {}
  for k = 0, #items / 6 - 1 do
    if items[6 * k + 5] then
      removed = removed + 1
    end
  end
  local change = answer.change
  change.refusals = reasons
  if #reasons == 0 and #(change.files or {}) == 0 then
    pages.drop('unused_lines', change.token)
    messages.info('nvimpam: nothing unused to remove in ' .. scope(buf, files))
    return finish()
  end
  hunks.apply({ plan = change, before = before, buf = buf, head = 'nvimpam: removing the unused definitions',
    refuse_head = 'nvimpam: cannot remove the unused definitions', what = 'the removal', lines = pages.source('unused_lines'),
    done = function(state)
      if not state.result then
        finish()
      end
    end,
    on_done = function(changed)
      local lines, names, qf = 0, {}, {}
      for _, f in ipairs(changed) do
        lines = lines + f.lines
        names[#names + 1] = tree.name_of(f.target, f.label, buf)
        -- each file changed, where its first lines went
        qf[#qf + 1] = { bufnr = f.target, lnum = math.min(f.hunks[1] + 1, api.nvim_buf_line_count(f.target)), col = 1,
          text = plural(f.lines, 'line') .. ' removed' }
      end
      local head = string.format('nvimpam: %s removed (%s)', plural(removed, 'unused definition'), plural(lines, 'line'))
      vim.fn.setqflist({}, ' ', { title = string.format('%s in %s; :wall writes them', head, table.concat(names, ', ')), items = qf })
      messages.info(messages.fit({ string.format('%s in %s; :wall writes them', head, table.concat(names, ', ')),
        string.format('nvimpam: %d unused removed from %s; :wall writes them, :copen lists them', removed, plural(#names, 'file')),
        string.format('nvimpam: %d unused removed from %s; :wall writes, :copen lists', removed, plural(#names, 'file')),
        string.format('nvimpam: %d unused removed; :wall, :copen', removed) }))
      finish()
    end })
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
  local before = hunks.ticks()
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
        local ok, err
        if bang then
          ok, err = pcall(remove, buf, answer, before, finish)
        else
          ok, err = pcall(list, buf, answer, finish)
        end
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
