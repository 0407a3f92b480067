-- :NvimpamTransform (:help nvimpam-model): translates, rotates, scales or mirrors the nodes of a
-- range, a selection, part={ids} or the whole include tree. The JVM plans the edits with the
-- headless `transform`'s model (model.Transform: decimal arithmetic, each coordinate in its
-- field), as hunks of new lines; nvimpam.tree.hunks checks and applies them in parts, each
-- buffer as one undo step of its own. Nothing is written to disk.
local M = {}

local api = vim.api
local messages = require('nvimpam.ui.messages')
local plural = messages.plural
local hunks = require('nvimpam.tree.hunks')
local pages = require('nvimpam.host.pages')
local paced = require('nvimpam.tree.paced')
local bufnr = require('nvimpam.core.buf').nr

--- The operations, for completion.
M.ops = { 'translate', 'rotate', 'scale', 'mirror' }

--- Completion of :NvimpamTransform: the operation, then an axis where one is asked.
---@param arg string the word being completed
---@param line string the command line
---@return string[]
function M.complete(arg, line)
  local words = vim.split(line:gsub('^%S+%s*', ''), '%s+')
  local list = #words <= 1 and M.ops or ((words[1] == 'rotate' or words[1] == 'mirror') and #words == 2) and { 'x', 'y', 'z' }
    or {}
  return vim.tbl_filter(function(w)
    return w:sub(1, #arg) == arg
  end, list)
end

--- The last run: { done, refused, error, result, turns, longest_ms, longest_cpu_ms } (for tests
--- and scripts); `User NvimpamTransformDone` follows it.
M.last = nil

local done = paced.outcome(M, 'NvimpamTransformDone')

-- What the transform did: one line (a longer one waits for Enter); the quickfix list names each
-- file changed, at its first change, and each card with geometry of its own that stayed.
local function report(what, plan, files, buf)
  local names, items = {}, {}
  for _, f in ipairs(files) do
    local name = api.nvim_buf_get_name(f.target)
    names[#names + 1] = name ~= '' and vim.fn.fnamemodify(name, ':t') or f.label
    items[#items + 1] = { bufnr = f.target, lnum = f.hunks[1] + 1, col = 1,
      text = string.format('%s: %s changed', what, plural(f.lines, 'line')) }
  end
  local untouched = plan.untouched or {}
  for _, u in ipairs(untouched) do
    items[#items + 1] = { bufnr = u.buf, filename = u.buf == nil and u.file or nil, lnum = u.lnum, text = 'not transformed: ' .. u.text }
  end
  local head = string.format('nvimpam: %s: %s moved%s', what, plural(plan.nodes, 'node'),
    plan.reversed > 0 and (', ' .. plural(plan.reversed, 'element') .. ' reversed') or '')
  if #files == 0 then
    head = string.format('nvimpam: %s: no node %s', what, plan.nodes > 0 and 'changes' or 'to move')
  end
  local wall = (#files > 1 or (#files == 1 and files[1].target ~= buf)) and '; :wall writes them' or ''
  local full = head .. (#files > 0 and (' in ' .. table.concat(names, ', ')) or '') .. wall
  if #untouched > 0 then
    full = full .. string.format('; %s with geometry of their own not transformed', plural(#untouched, 'card'))
  end
  local msg
  if #items > 1 or #untouched > 0 then
    vim.fn.setqflist({}, ' ', { title = full, items = items })
    msg = messages.fit({ full .. '; :copen lists them', head .. ' in ' .. plural(#files, 'file') .. wall .. '; :copen lists them',
      head .. '; :copen' })
  else
    msg = messages.fit({ full, head })
  end
  vim.notify(msg, vim.log.levels.INFO, { title = 'nvimpam' })
end

--- :[range]NvimpamTransform[!] {op} {args} [part={ids}]: moves the nodes of the range (the NODE
--- cards on its lines), of the parts' elements (part=10,11: across the include tree; nodes other
--- parts use too are refused unless `!`), or of the whole include tree. A mirror or a negative
--- scale also reverses the node order of each element whose nodes all move. The JVM plans it off
--- Neovim's main loop; the buffers change in parts after its answer (nvimpam.tree.hunks: each
--- buffer one undo step, 'nomodifiable' meanwhile; files not open are loaded into listed buffers;
--- nothing is written). Refuses, and changes nothing, with every reason. The cards with geometry
--- of their own that stay (FRAME vectors, MASS offsets, PLANE normals, RBODY centres) go to the
--- quickfix list. Asynchronous: M.last and `User NvimpamTransformDone` tell the end.
---@param o table the command's { fargs, buf, range, line1, line2, bang }
function M.command(o)
  local buf = bufnr(o.buf)
  local words = o.fargs or {}
  local line1, line2 = 0, 0
  if o.range and o.range > 0 then
    line1, line2 = o.line1, o.line2
  end
  local what = table.concat(words, ' ')
  local head = 'nvimpam: ' .. what
  M.last = { done = false }
  hunks.call('transform', { buf, words, line1, line2, o.bang == true }, { buf = buf, head = head,
    refuse_head = 'nvimpam: cannot ' .. what, what = what, done = done, lines = pages.source('transform_lines'),
    on_done = function(files, stats, plan)
      done(paced.finished(plan, stats))
      report(what, plan, files, buf)
    end })
end

return M
