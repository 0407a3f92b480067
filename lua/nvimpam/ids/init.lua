-- Following the ids of a deck (:help nvimpam-navigation): go to definition, references, rename,
-- outline, 'omnifunc', gf on INCLU lines, and the cross-reference diagnostics (namespace
-- `nvimpam.refs`) the JVM pushes. The JVM holds the id index of every deck it folds live (built
-- after the first folds, off Neovim's main loop, updated by every edit); what is under the cursor
-- is found here, from the card-layout table, without any call.
--
-- The work is in the modules under lua/nvimpam/ids/, one concern each:
--
--   at.lua        the id under the cursor (no call)
--   ask.lua       asking the JVM's index: with a message after a second, or a short deadline
--   navigate.lua  go to definition, references, the outline
--   rename.lua    rename, checked in every file before any changes
--   complete.lua  'omnifunc' and the next free id
--   include.lua   INCLU lines: 'includeexpr' and where a name points
local M = {}

local config = require('nvimpam.core.config')
local host = require('nvimpam.host')
local diagnostics = require('nvimpam.ui.diagnostics')
local at = require('nvimpam.ids.at')
local navigate = require('nvimpam.ids.navigate')
local rename = require('nvimpam.ids.rename')
local complete = require('nvimpam.ids.complete')
local include = require('nvimpam.ids.include')

local api = vim.api
local bufnr = require('nvimpam.core.buf').nr

M.ns = api.nvim_create_namespace('nvimpam.refs')

--- What the last set() of each buffer got: buf -> { shown, total }.
M.last = {}

-- The API, from the modules that do the work.
M.named, M.label, M.at = at.named, at.label, at.at
M.goto_definition, M.references = navigate.goto_definition, navigate.references
M.outline_items, M.outline = navigate.outline_items, navigate.outline
M.rename, M.rename_prompt = rename.rename, rename.rename_prompt
M.omnifunc, M.next_free = complete.omnifunc, complete.next_free
M.include_name, M.resolve, M.includeexpr = include.include_name, include.resolve, include.includeexpr

-- Diagnostics --------------------------------------------------------------------------------

--- Sets the cross-reference diagnostics of `buf` (called by the JVM through nvim_exec_lua):
--- `items` is a flat list { lnum, col, end_col, severity, message, code, ... } (0-based), already
--- capped at max_diagnostics; `total` the number of problems in the whole deck. When total exceeds
--- the items, an INFO diagnostic on line 0 says so.
---@param buf integer
---@param items any[]
---@param total integer
function M.set(buf, items, total)
  if not api.nvim_buf_is_loaded(buf) then
    return
  end
  local list, n
  list, n, total = diagnostics.entries(buf, items, total, 'nvimpam.refs', function(t, shown)
    return string.format('nvimpam: %d cross-reference problems, the first %d shown', t, shown)
  end)
  diagnostics.put(M.ns, buf, list)
  M.last[buf] = { shown = n, total = total }
end

---@param what string
function M.command(what)
  local ok, e = pcall(function()
    if what == 'goto' then
      M.goto_definition()
    elseif what == 'refs' then
      M.references()
    elseif what == 'outline' then
      M.outline(false)
    end
  end)
  if not ok then
    local err = host.as_error(e)
    if not err.reported then
      vim.notify(tostring(err), vim.log.levels.ERROR, { title = 'nvimpam' })
    end
  end
end

-- Attach -------------------------------------------------------------------------------------

local group = api.nvim_create_augroup('nvimpam_ids', { clear = true })

--- Sets 'omnifunc', 'includeexpr' and 'path' of a pamcrash buffer and the completion fix-up.
---@param buf? integer
function M.attach(buf)
  buf = bufnr(buf)
  local bo = vim.bo[buf]
  if config.get().omnifunc ~= false then
    bo.omnifunc = "v:lua.require'nvimpam.ids'.omnifunc"
  end
  bo.includeexpr = "v:lua.require'nvimpam.ids'.includeexpr(v:fname)"
  bo.path = '.,,'
  api.nvim_clear_autocmds({ group = group, buffer = buf })
  api.nvim_create_autocmd('CompleteDone', { group = group, buffer = buf, callback = complete.complete_done })
  -- an include file changed on disk, or a deck written: the JVM checks again
  api.nvim_create_autocmd({ 'BufWritePost', 'FocusGained' }, { group = group, buffer = buf, callback = function(args)
    if host.running() then
      host.call('ids_check', { args.buf }, function() end, args.buf)
    end
  end })
end

return M
