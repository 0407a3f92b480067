-- The cell hint: the field under the cursor (nvimpam.cell(), for a statusline or winbar) and its
-- doc in a floating window (:NvimpamCellInfo, K). No RPC: a bounded walk back in the buffer's
-- lines.
local M = {}

local layout = require('nvimpam.model.layout')
local rows = require('nvimpam.model.rows')
local fields = require('nvimpam.model.fields')
local version_of = require('nvimpam.model.version').of
local named = require('nvimpam.ids.at').named

local api = vim.api

--- The field under the cursor of window `win` (default: the current one): { card = KEY (the
--- entry's key, `PART:SHELL`), keyword = the header word, version = the entry's version, row =
--- N, row_label, field = NAME, description, type, default (nil: none given), from, to (1-based
--- columns), value (the field's
--- text, trimmed), kind = the def/ref kind or nil, id = 'def'/'ref'/nil }, or nil when the
--- cursor is on no field of a known row (or the buffer is no pamcrash buffer). No RPC: a
--- bounded walk back in the buffer's lines.
---@param win? integer
---@return table|nil
function M.cell(win)
  win = (win == nil or win == 0) and api.nvim_get_current_win() or win
  local buf = api.nvim_win_get_buf(win)
  if vim.bo[buf].filetype ~= 'pamcrash' or not pcall(layout.get) then
    return nil
  end
  local cur = api.nvim_win_get_cursor(win)
  local row, col = cur[1] - 1, cur[2] + 1
  local version = version_of(buf)
  local r = rows.range(buf, row, row + 1, version)
  local i = r.off + 1
  if r.kind[i] ~= rows.ROW then
    return nil
  end
  local e, ri = r.ent[i], r.rowi[i]
  local rw = e.rows[ri]
  local j = fields.field_at(rw, col)
  if not j then
    return nil
  end
  local f = rw.fields[j]
  local line = r.lines[i]
  local label = rw.label
  if not label then
    for _, g in ipairs(rw.fields) do
      if g.code ~= layout.KW then
        label = g.name
        break
      end
    end
  end
  return {
    card = e.key,
    keyword = e.word,
    version = e.version,
    row = ri,
    row_label = label,
    field = f.name,
    description = f.description,
    type = f.type,
    default = f.default,
    from = f.from,
    to = f.to,
    value = (line:sub(f.from, f.to):gsub('^[ \t]+', ''):gsub('[ \t\r]+$', '')),
    kind = f.def or f.ref,
    id = f.def and 'def' or f.ref and 'ref' or nil,
  }
end

--- The lines :NvimpamCellInfo shows for a cell() result.
---@param c table
---@return string[]
function M.info_lines(c)
  local lines = {
    string.format('%s / %s  (columns %d-%d, %s%s)', c.keyword, c.field, c.from, c.to, c.type,
      c.default and (', default ' .. c.default) or ''),
    c.description,
    string.format('value: "%s"', c.value),
    string.format('card %s %d, row %d%s', c.card, c.version, c.row, c.row_label and (' (' .. c.row_label .. ')') or ''),
  }
  if c.id then
    local what = named[c.kind] and ' (by its title)' or ' id'
    lines[#lines + 1] = (c.id == 'def' and 'defines a ' or 'references a ') .. c.kind .. what
  end
  return lines
end

local float_win = nil

--- :NvimpamCellInfo and K: the field under the cursor (name, columns, type, default, description,
--- value, row, the id kind it defines or references) in a floating window next to the cursor,
--- closed when the cursor moves; a message when the cursor is on no field.
---@return integer|nil float the floating window (nil: no field under the cursor)
---@return integer|nil win the window it belongs to
function M.show_info()
  local c = M.cell()
  if not c then
    vim.notify('nvimpam: the cursor is on no field of a known card row', vim.log.levels.INFO, { title = 'nvimpam' })
    return
  end
  if float_win and api.nvim_win_is_valid(float_win) then
    api.nvim_win_close(float_win, true)
  end
  local lines = M.info_lines(c)
  local width = 1
  for _, l in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(l))
  end
  local fbuf = api.nvim_create_buf(false, true)
  api.nvim_buf_set_lines(fbuf, 0, -1, false, lines)
  float_win = api.nvim_open_win(fbuf, false, { relative = 'cursor', row = 1, col = 0, width = width,
    height = #lines, style = 'minimal', border = 'single', focusable = false })
  local win, fwin = api.nvim_get_current_win(), float_win
  local au = api.nvim_create_augroup('nvimpam_cell_info', { clear = true })
  api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI', 'BufLeave', 'WinLeave', 'InsertEnter' }, {
    group = au,
    callback = function()
      if api.nvim_win_is_valid(fwin) then
        api.nvim_win_close(fwin, true)
      end
      pcall(api.nvim_del_augroup_by_id, au)
      return true
    end,
  })
  return fwin, win
end

return M

