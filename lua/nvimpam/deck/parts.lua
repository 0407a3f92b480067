-- :NvimpamParts: the parts table of a deck (mass, centre of gravity, bounding box per PART) in a
-- scratch buffer of filetype nvimpamparts. The JVM reads the deck and its include files as saved,
-- off Neovim's main loop, and tells how far it got; this module shows its lines, sorts the part
-- lines by a column, and jumps to the card of a line. The table is made again on :e of the deck
-- or with the refresh key, never while typing.
local M = {}

local api = vim.api
local host = require('nvimpam.host')
local config = require('nvimpam.core.config')
local keys = require('nvimpam.core.keys')
local messages = require('nvimpam.ui.messages')
local bufnr = require('nvimpam.core.buf').nr

-- By table buffer: { deck = buf, file = path, win, header, columns, starts, parts, tail, shown, sort = { col, desc }, call }
local state = {}

local function is_nil(v)
  return v == nil or v == vim.NIL
end

local function set_lines(tb, lines)
  vim.bo[tb].modifiable = true
  api.nvim_buf_set_lines(tb, 0, -1, false, lines)
  vim.bo[tb].modifiable = false
  vim.bo[tb].modified = false
end

-- The part lines in the order of the sort (the JVM's order without one), then the tail.
local function render(tb)
  local s = state[tb]
  local order = {}
  for i, p in ipairs(s.parts) do
    order[i] = { p = p, i = i }
  end
  if s.sort then
    local col, desc = s.sort.col, s.sort.desc
    table.sort(order, function(a, b)
      local x, y = a.p.keys[col], b.p.keys[col]
      if is_nil(x) or is_nil(y) then
        if is_nil(x) ~= is_nil(y) then
          return is_nil(y) -- lines without a value last, either way
        end
        return a.i < b.i
      end
      if type(x) ~= type(y) then
        x, y = tostring(x), tostring(y)
      end
      if x == y then
        return a.i < b.i
      end
      if desc then
        return x > y
      end
      return x < y
    end)
  end
  local lines = { s.header }
  s.shown = {}
  for _, o in ipairs(order) do
    lines[#lines + 1] = o.p.text
    s.shown[#s.shown + 1] = o.p
  end
  for _, t in ipairs(s.tail) do
    lines[#lines + 1] = t.text
    s.shown[#s.shown + 1] = t
  end
  set_lines(tb, lines)
  vim.b[tb].nvimpam_parts_sort = s.sort and (s.columns[s.sort.col] .. (s.sort.desc and ' descending' or ' ascending')) or ''
end

--- Called by the JVM while it reads: a line of text for the table buffer.
---@param tbuf integer
---@param text string
function M._progress(tbuf, text)
  local s = state[tbuf]
  if s and s.call and api.nvim_buf_is_valid(tbuf) then
    set_lines(tbuf, { text })
  end
end

--- Makes the table of `tb` again, from the deck's file as saved.
---@param tb? integer the table buffer (default: the current one)
function M.refresh(tb)
  tb = (tb == nil or tb == 0) and api.nvim_get_current_buf() or tb
  local s = state[tb]
  if not s then
    error(host.error('bad_argument', 'nvimpam: buffer ' .. tb .. ' is no parts table'), 0)
  end
  set_lines(tb, { 'nvimpam: computing the parts table of ' .. vim.fn.fnamemodify(s.file, ':~:.') .. ' ...' })
  local call
  call = host.call('parts', { s.file, tb }, function(err, r)
    if state[tb] ~= s or s.call ~= call or not api.nvim_buf_is_valid(tb) then
      return -- a newer refresh, or the table is gone
    end
    s.call = nil
    if err then
      set_lines(tb, { 'nvimpam: no parts table: ' .. tostring(err) })
      messages.report(err)
      return
    end
    s.header, s.columns, s.starts, s.parts, s.tail = r.header, r.columns, r.starts, r.parts, r.tail
    render(tb)
    for _, p in ipairs(r.problems or {}) do
      vim.notify('nvimpam parts: ' .. p .. ' (left out)', vim.log.levels.WARN, { title = 'nvimpam' })
    end
  end, s.deck)
  s.call = call
end

-- The column (1-based, of the JVM's columns) under byte column `c` (0-based), or the nearest to its left.
local function column_at(s, c)
  local best = 1
  for k, start in ipairs(s.starts) do
    if start <= c then
      best = k
    end
  end
  return best
end

--- Sorts the part lines by the column under the cursor; again on the same column: the other way.
---@return nil
function M.sort()
  local tb = api.nvim_get_current_buf()
  local s = state[tb]
  if not s or not s.parts then
    return
  end
  local col = column_at(s, api.nvim_win_get_cursor(0)[2])
  if s.sort and s.sort.col == col then
    s.sort.desc = not s.sort.desc
  else
    -- numbers largest first (the heaviest part on top), text A to Z
    local sample
    for _, p in ipairs(s.parts) do
      if not is_nil(p.keys[col]) then
        sample = p.keys[col]
        break
      end
    end
    s.sort = { col = col, desc = type(sample) == 'number' }
  end
  local cursor = api.nvim_win_get_cursor(0)
  render(tb)
  api.nvim_win_set_cursor(0, { math.min(cursor[1], api.nvim_buf_line_count(tb)), cursor[2] })
  api.nvim_echo({ { 'nvimpam parts: sorted by ' .. vim.b[tb].nvimpam_parts_sort } }, false, {})
end

--- Jumps to the card of the line under the cursor (a PART, a MASS, a mass not included), in the
--- window the table was opened from.
---@return nil
function M.jump()
  local tb = api.nvim_get_current_buf()
  local s = state[tb]
  if not s or not s.shown then
    return
  end
  local row = api.nvim_win_get_cursor(0)[1] - 1 -- line 1 is the header
  local l = s.shown[row]
  if not l or l.file == '' then
    return
  end
  local win = s.win
  if not (win and api.nvim_win_is_valid(win)) then
    vim.cmd('split')
    win = api.nvim_get_current_win()
    s.win = win
  end
  api.nvim_set_current_win(win)
  local target = vim.fn.bufnr(l.file)
  if target > 0 and api.nvim_buf_is_loaded(target) then
    api.nvim_win_set_buf(win, target)
  else
    vim.cmd('edit ' .. vim.fn.fnameescape(l.file))
  end
  api.nvim_win_set_cursor(win, { math.min(l.lnum, api.nvim_buf_line_count(0)), 0 })
end

-- What the keys of the table buffer do, by their names in nvimpam.core.keys.
local actions = {
  parts_sort = function() M.sort() end,
  parts_jump = function() M.jump() end,
  parts_refresh = function() M.refresh() end,
}

-- The keys of the table buffer, from the `mappings` option (nvimpam.core.keys's parts_* names).
local function map_keys(tb)
  local c = config.get()
  if c.mappings == false then
    return
  end
  for _, spec in ipairs(keys.specs) do
    if spec.parts then
      local key = c.mappings[spec.name]
      if key == nil then
        key = spec.key
      end
      if key then
        vim.keymap.set('n', key, actions[spec.name], { buffer = tb, silent = true, desc = 'nvimpam: ' .. spec.desc })
      end
    end
  end
end

--- :NvimpamParts: opens (or shows again) the parts table of deck buffer `buf` in a split below.
---@param buf? integer the deck's buffer (default: the current one)
function M.open(buf)
  buf = bufnr(buf)
  local file = api.nvim_buf_get_name(buf)
  if file == '' then
    error(host.error('bad_argument', 'nvimpam: :NvimpamParts needs a deck with a file (the table is of the file as saved)'), 0)
  end
  local win = api.nvim_get_current_win()
  local tb
  for b, s in pairs(state) do
    if s.deck == buf and api.nvim_buf_is_valid(b) then
      tb = b
    end
  end
  if not tb then
    tb = api.nvim_create_buf(false, true)
    vim.bo[tb].buftype = 'nofile'
    vim.bo[tb].bufhidden = 'hide'
    vim.bo[tb].swapfile = false
    pcall(api.nvim_buf_set_name, tb, 'nvimpam-parts://' .. file)
    state[tb] = { deck = buf, file = file, columns = {} }
    vim.bo[tb].filetype = 'nvimpamparts'
    map_keys(tb)
    local group = api.nvim_create_augroup('nvimpam_parts_' .. tb, { clear = true })
    -- :e of the deck reads the file again: so does the table (never per keystroke)
    api.nvim_create_autocmd('BufReadPost', { group = group, buffer = buf, callback = function()
      if state[tb] and api.nvim_buf_is_valid(tb) then
        M.refresh(tb)
      end
    end })
    api.nvim_create_autocmd('BufWipeout', { group = group, buffer = tb, callback = function()
      state[tb] = nil
      pcall(api.nvim_del_augroup_by_id, group)
    end })
  end
  local s = state[tb]
  s.win = win
  local shown = vim.fn.bufwinid(tb)
  if shown ~= -1 then
    api.nvim_set_current_win(shown)
  else
    vim.cmd('botright split')
    api.nvim_win_set_buf(0, tb)
    vim.wo.wrap = false
    vim.wo.cursorline = true
  end
  M.refresh(tb)
  return tb
end

return M
