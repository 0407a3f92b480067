-- Going where an id is: its definition (:NvimpamGoto, gd), its references (:NvimpamRefs, grr) and
-- the outline of a deck (:NvimpamOutline, gO), from the JVM's id index.
local M = {}

local config = require('nvimpam.core.config')
local at = require('nvimpam.ids.at')
local progress = require('nvimpam.ids.ask').progress
local messages = require('nvimpam.ui.messages')
local picker = require('nvimpam.ui.picker')
local host = require('nvimpam.host')

local api = vim.api
local bufnr = require('nvimpam.core.buf').nr
local info, warn = messages.info, messages.warn

local function call(method, args, what, buf)
  return host.wait(method, args, what, buf)
end

--- Opens where a definition or reference is; the folds there open (zv), and a file whose folds are
--- still to come opens them around the cursor (nvimpam.fold.view).
---@param loc table { buf = N } or { file = path }, and lnum
function M.jump(loc)
  vim.cmd("normal! m'")
  if loc.buf and loc.buf ~= api.nvim_get_current_buf() then
    vim.cmd('buffer ' .. loc.buf)
  elseif loc.file then
    local b = vim.fn.bufnr(loc.file)
    if b > 0 and api.nvim_buf_is_loaded(b) then
      vim.cmd('buffer ' .. b)
    else
      vim.cmd('edit ' .. vim.fn.fnameescape(loc.file))
    end
  end
  local n = api.nvim_buf_line_count(0)
  api.nvim_win_set_cursor(0, { math.min(loc.lnum, n), 0 })
  vim.cmd('normal! ^zv')
end

local function qf_item(loc)
  return { bufnr = loc.buf, filename = loc.file, lnum = loc.lnum, col = loc.col or 1, text = loc.text }
end

-- Go to definition ---------------------------------------------------------------------------

--- :NvimpamGoto / gd: jumps to the card that defines the id under the cursor, opening an include
--- file where it is there. With no definition it says so; with several it lists them in the
--- quickfix list. Returns the definitions found.
---@param buf? integer
---@return table[]
function M.goto_definition(buf)
  buf = bufnr(buf)
  local id = at.cursor()
  local what = at.label(id.kind, id.id)
  local defs = progress('looking for ' .. what, function()
    return call('ids_goto', { buf, id.kind, id.id }, ':NvimpamGoto', buf)
  end) or {}
  if #defs == 0 then
    warn('nvimpam: no definition of ' .. what)
  elseif #defs == 1 then
    M.jump(defs[1])
  else
    local items = {}
    for i, d in ipairs(defs) do
      items[i] = qf_item(d)
    end
    vim.fn.setqflist({}, ' ', { title = string.format('nvimpam: %s is defined %d times', what, #defs), items = items })
    M.jump(defs[1])
    warn(string.format('nvimpam: %s is defined %d times; :copen lists them', what, #defs))
  end
  return defs
end

-- References ---------------------------------------------------------------------------------

--- :NvimpamRefs / grr: every line that references the id under the cursor (fields, GES items
--- and GES ranges that hold it, in the deck and its include files) in the quickfix list, at most
--- `refs_max`. Returns { items, total }.
---@param buf? integer
---@return table
function M.references(buf)
  buf = bufnr(buf)
  local id = at.cursor()
  local what = at.label(id.kind, id.id)
  local res = progress('looking for the references to ' .. what, function()
    return call('ids_refs', { buf, id.kind, id.id, config.get().refs_max }, ':NvimpamRefs', buf)
  end)
  local items = {}
  for i, r in ipairs(res.items or {}) do
    items[i] = qf_item(r)
  end
  local title
  if res.total > #items then
    title = string.format('nvimpam: %d references to %s, the first %d listed', res.total, what, #items)
  else
    title = string.format('nvimpam: %d references to %s', res.total, what)
  end
  vim.fn.setqflist({}, ' ', { title = title, items = items })
  if #items > 0 then
    vim.cmd('copen')
  else
    info('nvimpam: no references to ' .. what)
  end
  return res
end
-- Outline ------------------------------------------------------------------------------------

--- The outline of `buf`: its cards except nodes and elements (each PART with its NAME title and
--- element count, materials, contacts, rigid bodies, ...) and its include files:
--- { { lnum, text, kind }, ... }.
---@param buf? integer
---@return table[]
function M.outline_items(buf)
  buf = bufnr(buf)
  return progress('making the outline', function()
    return call('ids_outline', { buf }, ':NvimpamOutline', buf)
  end) or {}
end

--- :NvimpamOutline / gO: picks an outline entry with vim.ui.select and jumps there; with `loclist`
--- (:NvimpamOutline!) puts the outline in the window's location list instead.
---@param loclist? boolean
---@param buf? integer
function M.outline(loclist, buf)
  buf = bufnr(buf)
  local items = M.outline_items(buf)
  if #items == 0 then
    info('nvimpam: the outline is empty (no parts, materials or other top-level cards)')
    return
  end
  if loclist then
    local l = {}
    for i, it in ipairs(items) do
      l[i] = { bufnr = buf, lnum = it.lnum, col = 1, text = it.text }
    end
    vim.fn.setloclist(0, {}, ' ', { title = 'nvimpam outline', items = l })
    vim.cmd('lopen')
    return
  end
  picker.select(items, {
    prompt = 'nvimpam outline',
    format_item = function(it)
      return string.format('%6d  %s', it.lnum, it.text)
    end,
  }, function(choice)
    if choice then
      M.jump({ lnum = choice.lnum })
    end
  end)
end

return M
