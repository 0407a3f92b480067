-- :NvimpamTransform (:help nvimpam-model): translates, rotates, scales or mirrors the nodes of a
-- range, a selection, part={ids} or the whole include tree. The JVM plans the edits with the
-- headless `transform`'s model (model.Transform: decimal arithmetic, each coordinate in its
-- field); they are checked and applied through nvimpam.tree.apply, each buffer as one undo step
-- of its own. Nothing is written to disk.
local M = {}

local api = vim.api
local messages = require('nvimpam.ui.messages')
local plural = messages.plural
local tree = require('nvimpam.tree.apply')
local progress = require('nvimpam.ids.ask').progress
local host = require('nvimpam.host')
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

--- :[range]NvimpamTransform[!] {op} {args} [part={ids}]: moves the nodes of the range (the NODE
--- cards on its lines), of the parts' elements (part=10,11: across the include tree; nodes other
--- parts use too are refused unless `!`), or of the whole include tree. A mirror or a negative
--- scale also reverses the node order of each element whose nodes all move. Each buffer changed is
--- one undo step; files not open are loaded into listed buffers; nothing is written. Refuses, and
--- changes nothing, with every reason. The cards with geometry of their own that stay (FRAME
--- vectors, MASS offsets, PLANE normals, RBODY centres) go to the quickfix list.
---@param o table the command's { fargs, buf, range, line1, line2, bang }
---@return table the JVM's plan
function M.command(o)
  local buf = bufnr(o.buf)
  local words = o.fargs or {}
  local line1, line2 = 0, 0
  if o.range and o.range > 0 then
    line1, line2 = o.line1, o.line2
  end
  local what = table.concat(words, ' ')
  local tick = api.nvim_buf_get_changedtick(buf)
  local plan = progress('planning ' .. what, function()
    return host.wait('transform', { buf, words, line1, line2, o.bang == true }, ':NvimpamTransform', buf)
  end)
  local refused = {}
  for _, r in ipairs(plan.refusals or {}) do
    refused[#refused + 1] = r
  end
  local function refuse()
    tree.refuse('nvimpam: cannot ' .. what, refused)
  end
  if api.nvim_buf_get_changedtick(buf) ~= tick then
    refused[#refused + 1] = 'the buffer changed while the transform was planned (run it again)'
  end
  if #refused > 0 then
    refuse()
  end
  local files = plan.files or {}
  tree.apply_files(files, buf, refused, refuse, 'transform')
  -- One line (a longer one waits for Enter); the quickfix list names each file changed, at its
  -- first change, and each card with geometry of its own that stayed.
  local names, items = {}, {}
  for _, f in ipairs(files) do
    local name = api.nvim_buf_get_name(f.target)
    names[#names + 1] = name ~= '' and vim.fn.fnamemodify(name, ':t') or f.label
    items[#items + 1] = { bufnr = f.target, lnum = f.edits[1] + 1, col = f.edits[2] + 1,
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
  return plan
end

return M
