-- Field header lines: a `$#` comment line above a row that names its fields, each name
-- right-aligned to its field's last column (`$#         IDNOD               X ...`), and
-- :NvimpamHeader, which inserts them (or replaces stale ones).
local M = {}

local layout = require('nvimpam.model.layout')
local rows = require('nvimpam.model.rows')
local span = require('nvimpam.model.span')
local undo = require('nvimpam.core.undo')

local api = vim.api
local sub, byte, rep = string.sub, string.byte, string.rep

-- Fields a header names: all but the keyword, fixed text and the continuation column.
local function named(f)
  return f.code ~= layout.KW and f.code ~= layout.FIXED and f.code ~= layout.CONT
end

--- The `$#` header line of a layout row, or nil when the row has no field to name (an `end` row, a
--- GES, a row of blank-type fields only). Each name ends in its field's last column; a name longer than the room left after the
--- previous one (or after `$#`) is cut at its end, so that it still ends in its column, except a
--- blank-type field's, which is left out then (a cut BLANK would read as the end of the name
--- before it: `REL1NK`).
---@param row table a row of a layout entry
---@return string|nil
function M.line(row)
  local buf, last, any = { '$', '#' }, 2, false
  local real = false
  for _, f in ipairs(row.fields or {}) do
    real = real or (named(f) and f.code ~= layout.BLANK)
  end
  if not real then
    return nil -- only columns left blank: nothing to name
  end
  for _, f in ipairs(row.fields or {}) do
    if named(f) then
      local name = f.name
      local start = f.to - #name + 1
      if start <= last and f.code == layout.BLANK then
        name = ''
      elseif start <= last then
        name = sub(name, 1 + (last + 1 - start))
        start = last + 1
      end
      if #name > 0 then
        for c = last + 1, start - 1 do
          buf[c] = ' '
        end
        for k = 1, #name do
          buf[start + k - 1] = sub(name, k, k)
        end
        last = f.to
        any = true
      end
    end
  end
  if not any then
    return nil
  end
  return table.concat(buf)
end

--- Whether `line` is a field header line (starts with `$#`).
---@param line string|nil
---@return boolean
function M.is_header(line)
  return line ~= nil and sub(line, 1, 2) == '$#'
end

--- Whether a `$#` line is stale for `row`: a name (a run of non-blanks after `$#`) that ends
--- inside one of the row's fields (not blank-type) before its last column, or no name at all where
--- the row has fields to name.
---@param hline string
---@param row table
---@return boolean
function M.is_stale(hline, row)
  -- Columns where a name may not end: inside a field that is not blank-type, before its last
  -- column. Names ending elsewhere (a field's last column, columns the layout leaves blank or
  -- holds in no field: another version's fields) are not stale.
  local inner = {}
  for _, f in ipairs(row.fields or {}) do
    if f.code ~= layout.BLANK then
      for c = f.from, f.to - 1 do
        inner[c] = true
      end
    end
  end
  local any = false
  local c, n = 3, #hline
  while c <= n do
    local b = byte(hline, c)
    if b ~= 32 and b ~= 9 and b ~= 13 then
      local e = c
      while e < n do
        local nb = byte(hline, e + 1)
        if nb == 32 or nb == 9 or nb == 13 then
          break
        end
        e = e + 1
      end
      if inner[e] then
        return true
      end
      any = true
      c = e + 1
    else
      c = c + 1
    end
  end
  return not any and M.line(row) ~= nil
end

local function notify(msg, level)
  vim.notify('nvimpam: ' .. msg, level or vim.log.levels.INFO, { title = 'nvimpam' })
end

-- The groups of row lines in [first, last] (0-based): runs of lines of one row layout (same entry
-- and row, comment lines between them allowed unless they are `$#` lines, which start a group of
-- their own), each { at = first line, row }.
local function groups(buf, first, last, version)
  local r = rows.range(buf, first, last + 1, version)
  local out, cur = {}, nil
  for i = r.off + 1, #r.lines do
    local line = r.lines[i]
    local k = r.kind[i]
    local lnum = r.top + (i - r.off - 1)
    if k == rows.ROW then
      local e = r.ent[i]
      local row = e.rows[r.rowi[i]]
      local id = e.key .. '@' .. e.version .. '#' .. r.rowi[i]
      if not (cur and cur.id == id) then
        cur = { id = id, at = lnum, row = row }
        out[#out + 1] = cur
      end
    elseif k == rows.COMMENT then
      if M.is_header(line) then
        cur = nil
      end
    else
      cur = nil
    end
  end
  return out
end

--- Puts a header above each group of lines of one row layout in [first, last] (0-based) that lacks
--- one, and replaces the stale ones (M.is_stale). One undo step. Returns how many headers were
--- added and replaced.
---@param buf integer
---@param first integer
---@param last integer
---@return integer added
---@return integer replaced
function M.apply(buf, first, last)
  local version = span.version(buf)
  local todo = {}
  for _, g in ipairs(groups(buf, first, last, version)) do
    local h = M.line(g.row)
    if h then
      local above = g.at > 0 and api.nvim_buf_get_lines(buf, g.at - 1, g.at, false)[1] or nil
      if M.is_header(above) then
        if M.is_stale(above, g.row) and above ~= h then
          todo[#todo + 1] = { at = g.at - 1, replace = true, text = h }
        end
      else
        todo[#todo + 1] = { at = g.at, replace = false, text = h }
      end
    end
  end
  local added, replaced = 0, 0
  if #todo == 0 then
    return 0, 0
  end
  -- One change over the lines from the first to the last edit: one undo step whatever the count.
  local lo, hi = todo[1].at, todo[#todo].at + (todo[#todo].replace and 1 or 0)
  local old = api.nvim_buf_get_lines(buf, lo, hi, false)
  local new, t = {}, 1
  for i = lo, hi do
    while todo[t] and todo[t].at == i and not todo[t].replace do
      new[#new + 1] = todo[t].text
      added = added + 1
      t = t + 1
    end
    if i < hi then
      if todo[t] and todo[t].at == i and todo[t].replace then
        new[#new + 1] = todo[t].text
        replaced = replaced + 1
        t = t + 1
      else
        new[#new + 1] = old[i - lo + 1]
      end
    end
  end
  undo.step(buf, function()
    api.nvim_buf_set_lines(buf, lo, hi, false, new)
  end)
  return added, replaced
end

--- :NvimpamHeader. Without a range, the row under the cursor; with a range, every row layout in
--- it; with a bang, the card under the cursor (a run of one-line cards: once above the run).
---@param o table { buf, line1, line2, range (0, 1 or 2), bang }
function M.command(o)
  local buf = (o.buf == nil or o.buf == 0) and api.nvim_get_current_buf() or o.buf
  local first, last
  if o.bang then
    local run = span.run_at(span.reader(buf), api.nvim_win_get_cursor(0)[1] - 1, span.version(buf))
    if not run then
      notify('the cursor is in no card', vim.log.levels.WARN)
      return
    end
    first, last = run.first, run.last
  elseif o.range and o.range > 0 then
    first, last = o.line1 - 1, o.line2 - 1
  else
    first = api.nvim_win_get_cursor(0)[1] - 1
    last = first
    local line = api.nvim_buf_get_lines(buf, first, first + 1, false)[1] or ''
    if M.is_header(line) then
      -- On a header line: the row below it.
      first, last = first + 1, first + 1
    end
    if not span.row_at(buf, first, span.version(buf)) then
      notify(string.format('line %d is no card row with fields', first + 1), vim.log.levels.WARN)
      return
    end
  end
  local added, replaced = M.apply(buf, first, last)
  if added + replaced == 0 then
    notify('the field headers are in place')
  end
end

return M
