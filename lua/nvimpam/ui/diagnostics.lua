-- Field problems as vim.diagnostic entries (namespace `nvimpam`), pushed by the JVM, which checks
-- the whole deck off Neovim's main loop; and :NvimpamCheck, the same list in the quickfix list.
local M = {}

local config = require('nvimpam.core.config')
local host = require('nvimpam.host')

local api = vim.api

M.ns = api.nvim_create_namespace('nvimpam')

--- What the last set() of each buffer got: buf -> { changedtick, shown, total }.
M.last = {}

local function checks_on(buf)
  if config.get().checks == false then
    return false
  end
  local ok, v = pcall(api.nvim_buf_get_var, buf, 'nvimpam_checks')
  return not (ok and (v == false or v == 0))
end

-- Neovim 0.12's vim.diagnostic.set reads every line of the buffer into Lua to place the extmarks
-- that keep its positions across edits (nvim_buf_get_lines(buf, 0, -1, true)), even for one
-- diagnostic: 0.36 s at 1M lines and 3 to 8 s at 10M (0.12.4), on Neovim's main loop. During our
-- own set, that one call (from vim/diagnostic.lua, for this buffer, all lines) gets a view that
-- reads only the lines it is asked for; every other call goes through as it is. Should a Neovim
-- use the list in a way the view cannot serve, the set is made again the plain way, and the view
-- stays off for the session.
local view_works = true

local function line_view(buf, get_lines)
  local count = api.nvim_buf_line_count(buf)
  local view = newproxy(true)
  local mt = getmetatable(view)
  mt.__len = function()
    return count
  end
  mt.__index = function(_, i)
    if type(i) == 'number' and i >= 1 and i <= count then
      return get_lines(buf, i - 1, i, true)[1]
    end
  end
  return view
end

--- vim.diagnostic.set(ns, buf, list), without reading the whole buffer where Neovim would.
---@param ns integer
---@param buf integer
---@param list table[]
function M.put(ns, buf, list)
  buf = buf == 0 and api.nvim_get_current_buf() or buf
  if not view_works then
    return vim.diagnostic.set(ns, buf, list)
  end
  local get_lines = api.nvim_buf_get_lines
  api.nvim_buf_get_lines = function(b, s, e, strict, ...)
    if b == buf and s == 0 and e == -1 and strict and (debug.getinfo(2, 'S').source or ''):match('vim/diagnostic%.lua$') then
      return line_view(buf, get_lines)
    end
    return get_lines(b, s, e, strict, ...)
  end
  local ok, err = pcall(vim.diagnostic.set, ns, buf, list)
  api.nvim_buf_get_lines = get_lines
  if not ok then
    view_works = false
    vim.notify_once('nvimpam: diagnostics are set the plain way from now on (' .. tostring(err) .. ')',
      vim.log.levels.DEBUG, { title = 'nvimpam' })
    vim.diagnostic.set(ns, buf, list)
  end
end

--- The summary shown when a deck has more problems than are shown.
---@param total integer
---@param shown integer
---@return string
function M.summary(total, shown)
  return string.format('nvimpam: %d field problems, the first %d shown; :NvimpamCheck lists them', total, shown)
end

--- The vim.diagnostic entries of a flat item list (as set() takes it), with `source`: lines past
--- the buffer's end go on its last line, and when `total` exceeds the items, an INFO entry on line
--- 0 says `summary(total, shown)`. Also returns how many items it shows, and the total.
---@param buf integer
---@param items any[]
---@param total integer?
---@param source string
---@param summary fun(total: integer, shown: integer): string
---@return table[] entries
---@return integer shown
---@return integer total
function M.entries(buf, items, total, source, summary)
  local count = api.nvim_buf_line_count(buf)
  local list = {}
  local n = math.floor(#items / 6)
  for k = 0, n - 1 do
    local b = 6 * k
    local lnum = math.min(items[b + 1], count - 1)
    list[k + 1] = { lnum = lnum, end_lnum = lnum, col = items[b + 2], end_col = items[b + 3],
      severity = items[b + 4], message = items[b + 5], code = items[b + 6], source = source }
  end
  if type(total) ~= 'number' then
    total = n
  end
  if total > n then
    list[#list + 1] = { lnum = 0, end_lnum = 0, col = 0, end_col = 0, severity = vim.diagnostic.severity.INFO,
      message = summary(total, n), source = source }
  end
  return list, n, total
end

--- Sets the diagnostics of `buf` (called by the JVM through nvim_exec_lua): `items` is a flat
--- list { lnum, col, end_col, severity, message, code, lnum, ... } (0-based lines and byte columns,
--- end exclusive; severity 1 ERROR, 2 WARN; code as :help nvimpam-codes lists), already capped; `total` the number of problems in the
--- whole deck. Lines past the buffer's end are put on its last line; when total exceeds the items,
--- an INFO diagnostic on line 0 says so. Ignored while a change in parts holds the buffer (the
--- check of its result follows); ignored, and the namespace reset, when checks are off
--- (setup{ checks = false } or b:nvimpam_checks = false).
---@param buf integer
---@param changedtick integer the buffer's changedtick the JVM checked
---@param items any[]
---@param total integer
function M.set(buf, changedtick, items, total)
  if not api.nvim_buf_is_loaded(buf) or host.held[buf] then
    return -- a held buffer is checked again when released
  end
  if not checks_on(buf) then
    vim.diagnostic.reset(M.ns, buf)
    M.last[buf] = nil
    return
  end
  local list, n
  list, n, total = M.entries(buf, items, total, 'nvimpam', M.summary)
  M.put(M.ns, buf, list)
  M.last[buf] = { changedtick = changedtick, shown = n, total = total }
end

--- Removes the diagnostics of `buf` (checks turned off for it).
---@param buf integer
function M.reset(buf)
  vim.diagnostic.reset(M.ns, buf)
  M.last[buf] = nil
end

local QF_TYPE = { 'E', 'W', 'I', 'N' } -- by vim.diagnostic severity

--- :NvimpamCheck: asks the JVM for every problem of the deck of `buf` and its include files
--- (fields, TABs and header shapes, undefined and duplicate ids, include files missing, unreadable,
--- binary or in a cycle; capped at max_diagnostics) and puts them in the quickfix list, file by
--- file (the deck first), each by line; its title names the total. Opens it when not empty.
---@param buf integer
---@return { files: table[], items: any[], total: integer }
function M.check(buf)
  local answer = host.wait('check', { buf }, ':NvimpamCheck', buf)
  local files, items = answer.files or {}, answer.items or {}
  local qf = {}
  for k = 0, math.floor(#items / 7) - 1 do
    local b = 7 * k
    local f = files[items[b + 1]] or {}
    local it = { lnum = items[b + 2] + 1, col = items[b + 3] + 1, end_col = items[b + 4] + 1,
      type = QF_TYPE[items[b + 5]] or 'E', text = items[b + 6] }
    if (f.buf or 0) > 0 then
      it.bufnr = f.buf
    else
      it.filename = f.path
    end
    qf[#qf + 1] = it
  end
  local total = answer.total or #qf
  local name = vim.fn.fnamemodify(api.nvim_buf_get_name(buf), ':t')
  local scope = #files > 1 and string.format('%s and %d include files', name, #files - 1) or name
  local title = string.format('nvimpam: %d problems in %s', total, scope)
  if total > #qf then
    title = title .. string.format(', the first %d listed', #qf)
  end
  vim.fn.setqflist({}, ' ', { title = title, items = qf })
  if #qf > 0 then
    vim.cmd('copen')
  else
    vim.notify('nvimpam: no problems in ' .. scope, vim.log.levels.INFO, { title = 'nvimpam' })
  end
  return answer
end

return M
