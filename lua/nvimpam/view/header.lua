-- The virtual field header (setup{ virtual_header = true }): a virtual line above the cursor's
-- row naming each of its fields, right-aligned to the field's last column, as a `$#` comment line
-- does, without editing the file. It is one real extmark per buffer (ephemeral extmarks cannot
-- carry virtual lines), moved on CursorMoved/CursorMovedI and removed when the cursor leaves the
-- cards. 0.11+ scrolls it with the text (virt_lines_overflow = 'scroll'); older versions draw it
-- from the window's first column whatever the window's sideways scroll.
local M = {}

local rows = require('nvimpam.model.rows')
local layout = require('nvimpam.model.layout')
local version_of = require('nvimpam.model.version').of

local api = vim.api

M.ns = api.nvim_create_namespace('nvimpam_header')
local ID = 1 -- the one mark per buffer

local scrolls = require('nvimpam.core.compat').virt_lines_scroll

local marked = {} -- buf -> { row, text } of its mark
local group = nil

--- The header text of a row: `$#`, then each field's name ending in the field's last column (one
--- blank at least before a name that does not fit); the keyword field and `blank` fields are not
--- named.
---@param rw table a layout row
---@return string
function M.text(rw)
  local parts, len = { '$#' }, 2
  for _, f in ipairs(rw.fields) do
    if f.code ~= layout.KW and f.code ~= layout.BLANK then
      local name = f.name
      local start = f.to - #name + 1
      if start <= len + 1 then
        start = len + 2
      end
      parts[#parts + 1] = string.rep(' ', start - len - 1) .. name
      len = start + #name - 1
    end
  end
  return table.concat(parts)
end

--- Removes the header mark of `buf`.
---@param buf integer
function M.clear(buf)
  if marked[buf] then
    pcall(api.nvim_buf_del_extmark, buf, M.ns, ID)
    marked[buf] = nil
  end
end

--- Puts the header above the cursor's row of the current window, or removes it when that row is
--- no field row of a known card.
---@return nil
function M.update()
  local win = api.nvim_get_current_win()
  local buf = api.nvim_win_get_buf(win)
  if vim.bo[buf].filetype ~= 'pamcrash' or not pcall(layout.get) then
    return M.clear(buf)
  end
  local row = api.nvim_win_get_cursor(win)[1] - 1
  local r = rows.range(buf, row, row + 1, version_of(buf))
  local i = r.off + 1
  if r.kind[i] ~= rows.ROW then
    return M.clear(buf)
  end
  local rw = r.ent[i].rows[r.rowi[i]]
  if rw.n == 0 then
    return M.clear(buf)
  end
  local text = M.text(rw)
  local m = marked[buf]
  if m and m.row == row and m.text == text then
    return
  end
  local opts = { id = ID, virt_lines = { { { text, 'NvimpamHeader' } } }, virt_lines_above = true }
  if scrolls then
    opts.virt_lines_overflow = 'scroll'
  end
  api.nvim_buf_set_extmark(buf, M.ns, row, 0, opts)
  marked[buf] = { row = row, text = text }
end

--- Turns the header on or off (setup()'s `virtual_header`).
---@param enabled boolean
function M.setup(enabled)
  group = api.nvim_create_augroup('nvimpam_header', { clear = true })
  for buf in pairs(marked) do
    if api.nvim_buf_is_valid(buf) then
      M.clear(buf)
    end
  end
  marked = {}
  if not enabled then
    return
  end
  api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI', 'BufEnter' }, {
    group = group,
    callback = function()
      M.update()
    end,
  })
  api.nvim_create_autocmd('BufWipeout', {
    group = group,
    callback = function(args)
      marked[args.buf] = nil
    end,
  })
end

return M
