-- :NvimpamDiff: the semantic diff of the current buffer's deck (its text as in Neovim, unsaved
-- edits included, with its include files) against a deck file, in the quickfix list. The JVM
-- compares off Neovim's main loop: the command returns at once and fills the list when the
-- answer comes.
local M = {}

local api = vim.api
local host = require('nvimpam.host')
local messages = require('nvimpam.ui.messages')

--- The arguments of :NvimpamDiff: `[--tol=REL] {file}`.
---@param fargs string[]
---@return string file, number tol
local function parse(fargs)
  local file, tol = nil, 0
  for _, a in ipairs(fargs) do
    local t = a:match('^%-%-tol=(.*)$')
    if t then
      tol = tonumber(t)
      if not tol or tol < 0 then
        error(host.error('bad_argument', 'nvimpam: --tol takes a number 0 or more, not ' .. t), 0)
      end
    elseif file then
      error(host.error('bad_argument', 'nvimpam: :NvimpamDiff takes one file'), 0)
    else
      file = a
    end
  end
  if not file then
    error(host.error('bad_argument', 'nvimpam: :NvimpamDiff needs the deck to compare with: :NvimpamDiff {file}'), 0)
  end
  return file, tol
end

--- The JVM's answer as quickfix items (changed fields, added cards, removed cards where they would be).
---@param answer table { files, items, changed, fields, added, removed, moved, ... }
---@return table[]
local function qf_items(answer)
  local files, items, qf = answer.files or {}, answer.items or {}, {}
  for k = 0, math.floor(#items / 3) - 1 do
    local f = files[items[3 * k + 1]] or {}
    local it = { lnum = items[3 * k + 2] + 1, col = 1, text = items[3 * k + 3] }
    if (f.buf or 0) > 0 then
      it.bufnr = f.buf
    else
      it.filename = f.path
    end
    qf[#qf + 1] = it
  end
  return qf
end

--- :NvimpamDiff [--tol=REL] {file}: compares the deck of `buf` (as Neovim holds it, unsaved edits
--- included) with deck file `{file}` and the files they include, as models: cards matched by kind
--- and id, else keyword and title; values as the solver reads them. The differences go to the
--- quickfix list on `buf`'s lines (and its include files'); moves between files are counted in its
--- title. `done(answer)`, when given, runs after the list is set.
---@param buf integer
---@param fargs string[]
---@param done? fun(answer: table)
function M.run(buf, fargs, done)
  local file, tol = parse(fargs)
  local path = vim.fn.fnamemodify(vim.fn.expand(file), ':p')
  local name = vim.fn.fnamemodify(file, ':t')
  host.call('diff', { buf, path, tol }, function(e, answer)
    vim.schedule(function()
      if e then
        messages.report(e)
        return
      end
      local qf = qf_items(answer)
      local moved = (answer.moved or 0) > 0 and string.format(', %d moved between files', answer.moved) or ''
      local title = string.format('nvimpam diff with %s: %d changed (%d fields), %d added, %d removed%s', name,
        answer.changed or 0, answer.fields or 0, answer.added or 0, answer.removed or 0, moved)
      vim.fn.setqflist({}, ' ', { title = title, items = qf })
      if #qf > 0 then
        vim.cmd('copen')
      else
        messages.info('nvimpam: the same model as ' .. name .. moved)
      end
      if done then
        done(answer)
      end
    end)
  end, buf)
end

return M
