-- :NvimpamRename / grn: an id renumbered (a group retitled) in the deck and its include tree, as
-- the JVM plans it; checked and applied by nvimpam.tree.apply (every file checked before any
-- changes, each buffer one undo step).
local M = {}

local at = require('nvimpam.ids.at')
local progress = require('nvimpam.ids.ask').progress
local messages = require('nvimpam.ui.messages')
local plural = messages.plural
local host = require('nvimpam.host')
local tree = require('nvimpam.tree.apply')

local api = vim.api
local bufnr = require('nvimpam.core.buf').nr
local info, warn = messages.info, messages.warn

-- The new id :NvimpamRename was given for an id of `kind`: a positive integer, or a title (one
-- pair of quotes around it dropped, none inside: GES items quote it).
local function new_id(kind, arg)
  local s = vim.trim(tostring(arg or ''))
  if at.named[kind] then
    local title = vim.trim(s:match("^'(.*)'$") or s)
    if title == '' or title:find("'", 1, true) then
      error(host.error('bad_argument', string.format('nvimpam: :NvimpamRename takes a %s title without quotes inside, not "%s"',
        kind, tostring(arg))), 0)
    end
    return title, "'" .. title .. "'"
  end
  local n = tonumber(s:match('^%+?(%d+)$') or '')
  if not n or n <= 0 then
    error(host.error('bad_argument', 'nvimpam: :NvimpamRename takes a positive integer id, not "'
      .. tostring(arg) .. '"'), 0)
  end
  return n, tostring(n)
end

--- :NvimpamRename {new} / grn: renumbers the id under the cursor (a group: gives it the title
--- {new}): its definition and every reference (fields in their columns, GES items, GES ranges
--- split around it) in the deck and every file of its include tree, each buffer as one undo step.
--- Files not open are loaded into listed buffers and changed there; nothing is written. Refuses,
--- and changes nothing, with every reason at once: `new` is defined already, does not fit a field
--- or a GES line, a file of the tree is read-only, binary or 'nomodifiable' (in the quickfix list
--- when they do not fit the command line). When files other than the current buffer change, or
--- include files are not found, a one-line summary, and the quickfix list names each file changed
--- (at its first change) and each include file not searched.
---@param new string|integer
---@param buf? integer
---@return table the JVM's plan: { files = { { buf|file, label, lines, edits, adds } }, defined, refusals, missing }
function M.rename(new, buf)
  buf = bufnr(buf)
  local id = at.cursor()
  local value, shown = new_id(id.kind, new)
  local what = at.label(id.kind, id.id)
  local tick = api.nvim_buf_get_changedtick(buf)
  local plan = progress('renaming ' .. what, function()
    return host.wait('ids_rename', { buf, id.kind, id.id, value }, ':NvimpamRename', buf)
  end)
  local refused = {}
  for _, r in ipairs(plan.refusals or {}) do
    refused[#refused + 1] = r
  end
  local function refuse()
    tree.refuse(string.format('nvimpam: cannot rename %s to %s', what, shown), refused)
  end
  if api.nvim_buf_get_changedtick(buf) ~= tick then
    refused[#refused + 1] = 'the buffer changed while the rename was planned (run it again)'
  end
  tree.apply_files(plan.files or {}, buf, refused, refuse, 'rename')
  local files = plan.files or {}
  local total, items, others = 0, {}, false
  for _, f in ipairs(files) do
    total = total + f.lines
    local e, lnum, col = f.edits, nil, 1
    if #e > 0 then
      lnum, col = e[1] + 1, e[2] + 1
    else
      lnum = f.adds[1] + 2 -- the first line it added
    end
    items[#items + 1] = { bufnr = f.target, lnum = lnum, col = col,
      text = string.format('%s -> %s: %s changed', what, shown, plural(f.lines, 'line')) }
    others = others or f.target ~= buf
  end
  local missing = plan.missing or {}
  local msg
  if #files > 1 or others or #missing > 0 then
    -- One line (a longer one waits for Enter); the quickfix list names each file changed, at its
    -- first change, and each include file not searched.
    for _, m in ipairs(missing) do
      items[#items + 1] = { text = 'not searched (not found): ' .. m }
    end
    local head = string.format('%s -> %s in %s', what, shown, plural(#files, 'file'))
    local long, short = plural(total, 'line'), plural(total, 'line')
    if #missing > 0 then
      long = long .. ', ' .. plural(#missing, 'include file') .. ' not searched'
      short = short .. ', ' .. #missing .. ' not searched'
    end
    if not plan.defined then
      long, short = long .. ', defined nowhere', short .. ', defined nowhere'
    end
    local wall = #files > 1 or others
    vim.fn.setqflist({}, ' ', { title = string.format('nvimpam: %s, %s%s', head, long, wall and '; :wall writes them' or ''),
      items = items })
    local tail = wall and { '; :wall writes them, :copen lists them', '; :wall writes, :copen lists', '; :wall, :copen' }
      or { '; :copen lists them', '; :copen lists them', '; :copen' }
    -- shorter words first, then less said; the last resort names the id and the files
    msg = messages.fit({ 'nvimpam: ' .. head .. ', ' .. long .. tail[1], 'nvimpam: ' .. head .. ', ' .. short .. tail[2],
      'nvimpam: ' .. head .. ', ' .. short .. tail[3], head .. ', ' .. short .. tail[3], head .. tail[3] })
  else
    local head = string.format('nvimpam: %s -> %s: %s changed', what, shown, plural(total, 'line'))
    msg = messages.fit(plan.defined and { head }
      or { head .. ' (no card of the deck and its include files defines it)', head .. ' (defined nowhere)' })
  end
  info(msg)
  return plan
end

--- grn: asks for the new id (a group: the new title, the old one to edit), then renames.
---@return nil
function M.rename_prompt()
  local id, why = at.at()
  if not id then
    warn('nvimpam: ' .. why)
    return
  end
  local opts = { prompt = string.format('Rename %s to: ', at.label(id.kind, id.id)) }
  if at.named[id.kind] then
    opts.default = id.id
  end
  vim.ui.input(opts, function(v)
    if v and v ~= '' then
      local ok, e = pcall(M.rename, v)
      if not ok then
        vim.notify(tostring(host.as_error(e)), vim.log.levels.ERROR, { title = 'nvimpam' })
      end
    end
  end)
end

return M
