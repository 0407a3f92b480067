-- Every command, defined once: nvimpam makes user commands of them (define()), and the rplugin
-- manifest (:UpdateRemotePlugins) gets them from manifest_specs(). Both routes end in run().
local M = {}

local config = require('nvimpam.core.config')
local host = require('nvimpam.host')
local live = require('nvimpam.live')
local messages = require('nvimpam.ui.messages')

local api = vim.api
local bufnr = require('nvimpam.core.buf').nr
local report = messages.report

-- A line of its own per item, and no newline after the last: a one-line message (the state of
-- :NvimpamCells, :NvimpamFoldStrategy) fits the command line, with no hit-enter prompt.
local function echo_lines(lines)
  api.nvim_echo({ { table.concat(lines, '\n') } }, true, {})
end

--- The commands: name, run(o) and the options of nvim_create_user_command.
M.list = {
  {
    name = 'NvimpamFold',
    desc = 'nvimpam: fold the current buffer now',
    run = function(o)
      live.fold(o.buf)
    end,
  },
  {
    name = 'NvimpamFoldStrategy',
    nargs = '?',
    complete = 'custom,nvimpam#strategies',
    desc = 'nvimpam: show or switch the fold strategy',
    run = function(o)
      local name = live.strategy(o.args)
      if o.args == '' then
        echo_lines({ 'nvimpam strategy: ' .. name })
      end
    end,
  },
  {
    name = 'NvimpamFoldAttach',
    desc = 'nvimpam: fold the current buffer live while editing',
    run = function(o)
      live.attach(o.buf)
    end,
  },
  {
    name = 'NvimpamFoldDetach',
    desc = 'nvimpam: stop live folding of the current buffer',
    run = function(o)
      live.detach(o.buf)
    end,
  },
  {
    name = 'NvimpamFoldInfo',
    desc = 'nvimpam: version, JVM, strategy, buffers, last timings',
    run = function()
      require('nvimpam.ui.float').show(host.info_lines(), 'nvimpam')
    end,
  },
  {
    name = 'NvimpamFoldBench',
    desc = 'nvimpam: time every fold strategy on the current buffer',
    run = function(o)
      require('nvimpam.ui.float').show(live.bench(o.buf).lines, 'nvimpam fold strategies')
    end,
  },
  {
    name = 'NvimpamCells',
    nargs = '?',
    complete = "customlist,v:lua.require'nvimpam.view.cells'.complete",
    desc = 'nvimpam: cell highlighting on, off or toggled for all buffers',
    run = function(o)
      local now = require('nvimpam.view.cells').switch(o.args)
      if o.args == '' then
        echo_lines({ 'nvimpam cells: ' .. (now and 'on' or 'off') })
      end
    end,
  },
  {
    name = 'NvimpamCellInfo',
    desc = "nvimpam: the cursor's field, with its description, in a floating window",
    run = function()
      require('nvimpam.view.cells.hint').show_info()
    end,
  },
  {
    name = 'NvimpamCheck',
    desc = "nvimpam: the whole deck's field problems in the quickfix list",
    run = function(o)
      require('nvimpam.ui.diagnostics').check(bufnr(o.buf))
    end,
  },
  {
    name = 'NvimpamCard',
    nargs = '?',
    complete = "customlist,v:lua.require'nvimpam.edit.templates'.complete",
    desc = 'nvimpam: insert a card template (without a keyword: pick one)',
    run = function(o)
      require('nvimpam.edit.templates').command(o)
    end,
  },
  {
    name = 'NvimpamHeader',
    range = true,
    bang = true,
    desc = 'nvimpam: $# field header above the row, the range or (!) the card',
    run = function(o)
      require('nvimpam.edit.fieldheader').command(o)
    end,
  },
  {
    name = 'NvimpamGoto',
    desc = 'nvimpam: go to the definition of the id under the cursor',
    run = function(o)
      require('nvimpam.ids').goto_definition(bufnr(o.buf))
    end,
  },
  {
    name = 'NvimpamRefs',
    desc = 'nvimpam: every line referencing the id under the cursor, in the quickfix list',
    run = function(o)
      require('nvimpam.ids').references(bufnr(o.buf))
    end,
  },
  {
    name = 'NvimpamRename',
    nargs = 1,
    desc = 'nvimpam: renumber the id under the cursor (retitle a group), its definition and every reference',
    run = function(o)
      require('nvimpam.ids').rename(o.args, bufnr(o.buf))
    end,
  },
  {
    name = 'NvimpamOutline',
    bang = true,
    desc = "nvimpam: the deck's parts, materials, contacts, ... and include files (! : location list)",
    run = function(o)
      require('nvimpam.ids').outline(o.bang, bufnr(o.buf))
    end,
  },
  {
    name = 'NvimpamAlign',
    range = true,
    bang = true,
    desc = 'nvimpam: align the fields of the line, the range or (!) the card',
    run = function(o)
      require('nvimpam.edit.align').command(o)
    end,
  },
  {
    name = 'NvimpamPlot',
    nargs = '*',
    desc = 'nvimpam: plot FUNCT curves (ids, or the FUNCT under the cursor) in a floating window',
    run = function(o)
      require('nvimpam.view.plot').plot(o.args, bufnr(o.buf))
    end,
  },
  {
    name = 'NvimpamDiff',
    nargs = '+',
    complete = 'file',
    desc = "nvimpam: the differences between this deck and another, as models, in the quickfix list",
    run = function(o)
      require('nvimpam.deck.diff').run(bufnr(o.buf), o.fargs)
    end,
  },
  {
    name = 'NvimpamParts',
    desc = "nvimpam: the deck's parts with mass, centre of gravity and bounding box, in a table buffer",
    run = function(o)
      require('nvimpam.deck.parts').open(bufnr(o.buf))
    end,
  },
  {
    name = 'NvimpamTransform',
    nargs = '+',
    range = true,
    bang = true,
    complete = "customlist,v:lua.require'nvimpam.deck.transform'.complete",
    desc = 'nvimpam: translate, rotate, scale or mirror the nodes of the range, of part={ids} or of the tree',
    run = function(o)
      require('nvimpam.deck.transform').command(o)
    end,
  },
  {
    name = 'NvimpamExtract',
    nargs = '+',
    range = true,
    complete = 'file',
    desc = 'nvimpam: move part={ids} (their elements and own nodes) or the range\'s cards into a new include file',
    run = function(o)
      require('nvimpam.deck.extract').command(o)
    end,
  },
  {
    name = 'NvimpamUnused',
    bang = true,
    desc = "nvimpam: the deck's unused nodes, parts, materials, functions, groups, frames in the quickfix list (! : delete them)",
    run = function(o)
      require('nvimpam.deck.unused').run(bufnr(o.buf), o.bang)
    end,
  },
  {
    name = 'NvimpamOffset',
    nargs = '+',
    range = true,
    complete = "customlist,v:lua.require'nvimpam.deck.renumber'.complete",
    desc = 'nvimpam: add a number to every id of a kind in the include tree (a range: its cards; part={ids})',
    run = function(o)
      require('nvimpam.deck.renumber').command(o, false)
    end,
  },
  {
    name = 'NvimpamRenumber',
    nargs = '+',
    range = true,
    complete = "customlist,v:lua.require'nvimpam.deck.renumber'.complete",
    desc = 'nvimpam: renumber the ids of a kind densely from a start, in deck order (a range: its cards; part={ids})',
    run = function(o)
      require('nvimpam.deck.renumber').command(o, true)
    end,
  },
  {
    name = 'NvimpamMerge',
    nargs = '+',
    complete = 'file',
    desc = 'nvimpam: merge this deck with others into new buffers under {outdir}, as `merge -o OUTDIR` writes them',
    run = function(o)
      require('nvimpam.deck.merge').command(o)
    end,
  },
}

local by_name = {}
for _, c in ipairs(M.list) do
  by_name[c.name] = c
end

-- Manifest commands on their way through the JVM, by ticket: a JVM that never passes one on
-- (stopped, hung) gets a message instead of silence.
local in_flight = {}
local next_ticket = 0

--- Runs command `name` with its arguments (a list, as <f-args>); `ctx.buf` is the buffer it was
--- given in. The one entry point of setup()'s commands and the rplugin manifest's. Errors become
--- notifications.
---@param name string a command of M.commands
---@param fargs? string[]
---@param ctx? table { buf, ticket, range, line1, line2, bang }
function M.run(name, fargs, ctx)
  ctx = type(ctx) == 'table' and ctx or {}
  if ctx.ticket then
    in_flight[ctx.ticket] = nil
  end
  local c = by_name[name]
  local run = function()
    if not c then
      error(host.error('bad_argument', 'no command ' .. tostring(name)), 0)
    end
    local args = type(fargs) == 'table' and table.concat(fargs, ' ') or ''
    local buf = tonumber(ctx.buf)
    c.run({ args = args, fargs = type(fargs) == 'table' and fargs or {}, buf = buf and buf > 0 and buf or 0,
      range = ctx.range, line1 = ctx.line1, line2 = ctx.line2, bang = ctx.bang })
  end
  local function guarded()
    local ok, e = pcall(run)
    if not ok then
      report(e)
    end
  end
  if ctx.ticket then
    vim.schedule(guarded) -- from the JVM's message: run at the top level, not inside its handler
  else
    guarded()
  end
end

--- The spec's `eval` of a manifest command: the buffer it runs in, and a ticket that expects the
--- command back from the JVM within timeout_ms.
---@param name string
---@return table { buf, ticket }
function M.manifest_sent(name)
  next_ticket = next_ticket + 1
  local ticket = next_ticket
  in_flight[ticket] = true
  local ms = config.get().timeout_ms
  vim.defer_fn(function()
    if in_flight[ticket] then
      in_flight[ticket] = nil
      local pid = host.pid()
      messages.err(string.format('nvimpam: :%s got no answer from the JVM%s within %.1f s', name,
        pid and (' (pid ' .. pid .. ')') or '', ms / 1000))
    end
  end, ms)
  return { buf = api.nvim_get_current_buf(), ticket = ticket }
end

--- The rplugin manifest's view of M.list, for the JVM's answer to `specs`: asynchronous, so
--- that a busy JVM never blocks Neovim.
---@return table[] one spec per command, as remote#define expects them
function M.manifest_specs()
  local specs = {}
  for _, c in ipairs(M.list) do
    local opts = { eval = string.format("v:lua.require'nvimpam.commands'.manifest_sent('%s')", c.name) }
    opts.nargs = c.nargs
    opts.complete = c.complete
    specs[#specs + 1] = { type = 'command', name = c.name, sync = 0, opts = opts }
  end
  return specs
end

--- Defines the user commands (again when called again).
---@return nil
function M.define()
  for _, c in ipairs(M.list) do
    api.nvim_create_user_command(c.name, function(o)
      M.run(c.name, o.fargs, { buf = api.nvim_get_current_buf(), range = o.range, line1 = o.line1,
        line2 = o.line2, bang = o.bang })
    end, { nargs = c.nargs or 0, complete = c.complete, desc = c.desc, range = c.range, bang = c.bang })
  end
end

return M
