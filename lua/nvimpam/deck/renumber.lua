-- :NvimpamOffset and :NvimpamRenumber (:help nvimpam-renumber): every id of a kind moved (or
-- renumbered densely) across the include tree, in the buffers. The JVM computes the new lines
-- (model.Renumber, the same rewrite as the headless `renumber`) off Neovim's main loop;
-- nvimpam.tree.hunks checks every buffer and applies them in parts.
local M = {}

local messages = require('nvimpam.ui.messages')
local plural = messages.plural
local host = require('nvimpam.host')
local hunks = require('nvimpam.tree.hunks')
local pages = require('nvimpam.host.pages')
local paced = require('nvimpam.tree.paced')
local layout = require('nvimpam.model.layout')
local named = require('nvimpam.ids.at').named
local bufnr = require('nvimpam.core.buf').nr

--- The last run: { done, refused, error, result, turns, longest_ms, longest_cpu_ms } (for tests and
--- scripts: the turns of the main loop the changes took, the longest in ms of wall and of CPU time);
--- `User NvimpamRenumberDone` follows it.
M.last = nil

local done = paced.outcome(M, 'NvimpamRenumberDone')

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
  M.last = { done = false }
  hunks.call('renumber', { buf, kind, amount, dense, scope }, { buf = buf, head = head, what = what, done = done,
    lines = pages.source('renumber_lines'),
    on_done = function(files, stats, plan)
      if not stats then
        done(paced.finished(plan))
        vim.notify(head .. ': nothing to change', vim.log.levels.INFO, { title = 'nvimpam' })
        return
      end
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
      done(paced.finished(plan, stats))
      vim.notify(messages.fit({
        string.format('%s: %s in %s%s', head, plural(plan.changed, 'value'), plural(#files, 'file'), tail[1]),
        string.format('%s: %s%s', head, plural(plan.changed, 'value'), tail[2]) }), vim.log.levels.INFO, { title = 'nvimpam' })
    end })
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
