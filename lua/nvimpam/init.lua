-- nvimpam: PAM-CRASH input decks in Neovim (folds, cells, checks, writing, navigation). This is
-- the public API; the commands are in nvimpam.commands, buffers folded live in nvimpam.live
-- (docs/ARCHITECTURE.md has the map of the modules).
--
--   require('nvimpam').setup({ strategy = 'lua' })
--
-- See :help nvimpam for the options and commands.
local M = {}

local config = require('nvimpam.core.config')
local host = require('nvimpam.host')

local commands = require('nvimpam.commands')
local live = require('nvimpam.live')

local api = vim.api

--- Folds a buffer now; returns when the folds are in place, with the JVM's summary. Waits at
--- most timeout_ms; raises an error value (tostring() gives the message) otherwise.
---@param buf? integer the buffer (0 or nil: the current one)
---@return table summary { buf, lines, folds, message, ... }
function M.fold(buf)
  return live.fold(buf)
end

--- Starts live folding: the buffer is folded now and again after every change. Returns when the
--- folds are in place (waits at most timeout_ms).
---@param buf? integer the buffer (0 or nil: the current one)
function M.attach(buf)
  live.attach(buf)
end

--- Shows the strategy, or switches to another one.
---@param name? string a strategy name (`:help nvimpam-strategies`); nil or '' to show it
---@return string the strategy in force
function M.strategy(name)
  return live.strategy(name)
end

--- What :NvimpamFoldInfo shows, as a list of lines.
---@return string[]
function M.info_lines()
  return host.info_lines()
end

--- Runs every strategy on a buffer; returns the rows and the table :NvimpamFoldBench shows.
---@param buf? integer the buffer (0 or nil: the current one)
---@return table { rows = table[], lines = string[] }
function M.bench(buf)
  return live.bench(buf)
end

--- The field under the cursor of window `win` (default: the current one), for a statusline or
--- winbar: { card, keyword, version, row, row_label, field, description, type, from, to, value,
--- kind, id } (see :help nvimpam-cells), or nil when the cursor is on no field of a known card
--- row. No RPC, no waiting: it reads the buffer's lines back to the card's header.
---@param win? integer
---@return table|nil
function M.cell(win)
  return require('nvimpam.view.cells.hint').cell(win)
end

--- Stops live folding of a buffer; its folds stay as they are.
---@param buf? integer the buffer (0 or nil: the current one)
function M.detach(buf)
  live.detach(buf)
end

--- Every command, defined once (lua/nvimpam/commands.lua).
M.commands = commands.list

--- Runs command `name` with its arguments (a list, as <f-args>); `ctx.buf` is the buffer it was
--- given in. The one entry point of nvimpam's own commands and the rplugin manifest's; errors
--- become notifications.
---@param name string a command of M.commands
---@param fargs? string[]
---@param ctx? table { buf, ticket, range, line1, line2, bang }
function M.command(name, fargs, ctx)
  commands.run(name, fargs, ctx)
end

--- The spec's `eval` of a manifest command written by an earlier nvimpam (the manifest now names
--- nvimpam.commands): the buffer it runs in, and a ticket that expects the command back from the
--- JVM within timeout_ms.
---@param name string
---@return table { buf, ticket }
function M.manifest_sent(name)
  return commands.manifest_sent(name)
end

--- The rplugin manifest's view of the commands, for the JVM's answer to `specs`.
---@return table[] one spec per command, as remote#define expects them
function M.manifest_specs()
  return commands.manifest_specs()
end

--- Sets nvimpam up with the options in force (setup()'s, else `vim.g.nvimpam`, else the
--- defaults): its commands, the autocmds that fold pamcrash buffers and give them their
--- mappings, cells and the virtual header. plugin/nvimpam.vim calls it when Neovim starts, so
--- the plugin works without setup(); calling it again only applies the options again.
---@return nil
function M.start()
  local c = config.get()
  require('nvimpam.host.filestate').track() -- what each deck's file was when read: the JVM's disk fast path
  commands.define()
  live.define_autocmds()
  require('nvimpam.view.cells').setup(c.cells)
  require('nvimpam.view.header').setup(c.virtual_header)
  live.send_options()
  if vim.v.vim_did_enter == 0 then
    -- Commands the rplugin manifest defines after us (it is sourced later) would take the
    -- asynchronous route: define ours again once every plugin is loaded.
    api.nvim_create_autocmd('VimEnter', { group = live.group(), once = true, callback = commands.define })
  end
  -- Buffers opened before (e.g. `nvim deck.pc` with a lazy plugin manager).
  for _, buf in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == 'pamcrash' then
      live.on_filetype({ buf = buf })
    end
  end
end

--- Configures nvimpam: `opts` (`:help nvimpam-options`) over the defaults. Safe to call again
--- with other options; without it the plugin runs with `vim.g.nvimpam` or the defaults.
---@param opts? table
function M.setup(opts)
  config.set(opts)
  M.start()
end

return M
