-- :NvimpamExtract (:help nvimpam-extract): moves cards of a deck's include tree into a new include
-- file, and adds its INCLU line to the deck. The JVM plans it with the headless `extract`'s model
-- (model.Extract); here it is checked and applied: each buffer one undo step of its own, the new
-- file a new buffer, nothing written.
local M = {}

local tree = require('nvimpam.tree.apply')
local progress = require('nvimpam.ids.ask').progress
local host = require('nvimpam.host')
local undo = require('nvimpam.core.undo')
local messages = require('nvimpam.ui.messages')
local bufnr = require('nvimpam.core.buf').nr

local api = vim.api

--- :[range]NvimpamExtract {file} [part={ids}]: moves the parts' PART cards, their elements and the
--- nodes no other element uses (or the whole cards the range touches) into {file}, a new file
--- beside the deck, and adds `INCLU / {file}` to the deck. Refuses, changing nothing, when {file}
--- exists (on disk or as a buffer), a buffer cannot change or changed since the plan was read.
---@param o table the command's { fargs, buf, range, line1, line2 }
---@return integer the new file's buffer
function M.command(o)
  local buf = bufnr(o.buf)
  local file = o.fargs[1]
  local words = vim.list_slice(o.fargs, 2)
  local line1, line2 = 0, 0
  if o.range and o.range > 0 then
    line1, line2 = o.line1, o.line2
  end
  local tick = api.nvim_buf_get_changedtick(buf)
  local plan = progress('planning the extract', function()
    return host.wait('extract', { buf, file or '', words, line1, line2 }, ':NvimpamExtract', buf)
  end)
  local refused = {}
  for _, r in ipairs(plan.refusals or {}) do
    refused[#refused + 1] = r
  end
  local function refuse()
    tree.refuse('nvimpam: cannot extract to ' .. tostring(file), refused)
  end
  if api.nvim_buf_get_changedtick(buf) ~= tick then
    refused[#refused + 1] = 'the buffer changed while the extract was planned (run it again)'
  end
  if plan.target ~= '' and tree.buffer_of(plan.target) then
    refused[#refused + 1] = plan.target .. ' is open in a buffer already'
  end
  if #refused > 0 then
    refuse()
  end
  -- each file's buffer: it may change, and holds the lines the plan read
  local root = plan.root
  local files = plan.files
  local all = vim.list_extend({ root }, files)
  local loaded = {}
  for _, f in ipairs(all) do
    local b = f.buf or tree.buffer_of(f.file)
    if not (b and api.nvim_buf_is_loaded(b)) then
      b = vim.fn.bufadd(f.file)
      vim.fn.bufload(b)
      vim.bo[b].buflisted = true
      loaded[#loaded + 1] = b
    end
    f.target = b
    local why = tree.cannot_change(b)
    for k, l in ipairs(f.lines or {}) do
      if not why and (api.nvim_buf_get_lines(b, l, l + 1, false)[1] or '') ~= f.olds[k] then
        why = string.format('line %d is not the text the extract read (write or reload the buffer)', l + 1)
      end
    end
    if why then
      refused[#refused + 1] = f.label .. ' ' .. why
    end
  end
  if #refused > 0 then
    for _, b in ipairs(loaded) do -- loaded for nothing: as they were, not open
      pcall(api.nvim_buf_delete, b, {})
    end
    refuse()
  end
  for _, f in ipairs(files) do
    local b = f.target
    undo.step(b, function()
      -- runs of consecutive lines, bottom up
      local k = #f.lines
      while k >= 1 do
        local j = k
        while j > 1 and f.lines[j - 1] == f.lines[j] - 1 do
          j = j - 1
        end
        api.nvim_buf_set_lines(b, f.lines[j], f.lines[k] + 1, true, {})
        k = j - 1
      end
      if b == root.target then
        api.nvim_buf_set_lines(b, plan.inclu_at, plan.inclu_at, true, { plan.inclu })
      end
    end)
  end
  local moved_root = false
  for _, f in ipairs(files) do
    moved_root = moved_root or f.target == root.target
  end
  if not moved_root then
    undo.step(root.target, function()
      api.nvim_buf_set_lines(root.target, plan.inclu_at, plan.inclu_at, true, { plan.inclu })
    end)
  end
  local nb = vim.fn.bufadd(plan.target)
  vim.fn.bufload(nb)
  vim.bo[nb].buflisted = true
  api.nvim_buf_set_lines(nb, 0, -1, true, plan.new_lines)
  local c = plan.cards
  local msg = string.format('nvimpam: %d cards (%d parts, %d elements, %d nodes) moved to %s, a new buffer; :wall writes it and %d changed file%s',
    c[1], c[2], c[3], c[4], vim.fn.fnamemodify(plan.target, ':t'), #files + (moved_root and 0 or 1), (#files + (moved_root and 0 or 1)) == 1 and '' or 's')
  vim.notify(messages.fit({ msg, string.format('nvimpam: %d cards moved to %s; :wall writes it', c[1],
    vim.fn.fnamemodify(plan.target, ':t')) }), vim.log.levels.INFO, { title = 'nvimpam' })
  return nb
end

return M
