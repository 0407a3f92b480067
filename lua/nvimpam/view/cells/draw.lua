-- The marks of one line drawn (nvimpam.view.cells' decoration provider calls it for each line on
-- screen): alternating cell groups, the keyword and fixed-text groups, and the error/warn groups
-- where a field fails its check (fields.status()), on tabs and on text past column 80; for a deck
-- older than every layout of a card, the problems all its layouts agree on. Ephemeral extmarks:
-- nothing is stored per line of the buffer.
local M = {}

local layout = require('nvimpam.model.layout')
local rows = require('nvimpam.model.rows')
local fields = require('nvimpam.model.fields')
local problems = require('nvimpam.model.problems')

local api = vim.api
local find, byte, min = string.find, string.byte, math.min

M.ns = api.nvim_create_namespace('nvimpam_cells')
local ns = M.ns

--- Extmark priority of the cells: below vim.diagnostic's underline (150), above syntax.
M.PRIORITY = 120

local SEGMENT = 120 -- lines classified at once past a closed fold or past what on_win prepared

local opts = { end_col = 0, hl_group = '', ephemeral = true, priority = M.PRIORITY }
local set_extmark = api.nvim_buf_set_extmark

local function mark(buf, row, col, end_col, group, priority)
  opts.end_col, opts.hl_group, opts.priority = end_col, group, priority
  set_extmark(buf, ns, row, col, opts)
end

-- Whether the deck is older than every layout of entry e's key (cached per classification).
local NONE = {}

local function older_of(s, e)
  local o = s.older[e]
  if o == nil then
    local _, old = layout.pick(layout.all(e.key), s.version)
    o = old and true or false
    s.older[e] = o
  end
  return o
end

-- The problems of the cards of a deck older than their layouts, in the lines of range r: those
-- every layout agrees on (problems.card()), by index into r.lines. Made once per range.
local function older_problems(r, version)
  local by = r.older_problems
  if by then
    return by
  end
  by = {}
  local L, out = r.lines, {}
  local i, n = 1, #r.lines
  while i <= n do
    local line = L[i]
    local b = byte(line, 1)
    if b ~= 36 and b ~= 35 and layout.header_word(line) then
      local e, older = layout.lookup(line, version)
      if e and older then
        i = problems.card(L, i, n, version, 0, out)
      else
        i = i + 1
      end
    else
      i = i + 1
    end
  end
  for _, d in ipairs(out) do
    local k = d.lnum + 1
    by[k] = by[k] or {}
    table.insert(by[k], d)
  end
  r.older_problems = by
  return by
end

-- Tabs and text past column 80 of a line (a row's line, or a GES line with rw nil).
local function draw_tab_past80(buf, row, line, rw)
  local t = fields.tab(line)
  if t then
    mark(buf, row, t - 1, t, 'NvimpamCellError', M.PRIORITY + 1)
  end
  if #line > 80 then
    local q1, q2 = fields.past80(fields.strip_cr(line), rw)
    if q1 then
      mark(buf, row, q1 - 1, q2, 'NvimpamCellError', M.PRIORITY + 1)
    end
  end
end

-- The marks of `line`, row ri of entry e. `problems`: for a deck older than every layout of the
-- card, the problems all its layouts agree on (nil otherwise).
local function draw_row(buf, row, line, e, ri, checks, problems)
  local rw = e.rows[ri]
  local len = #line
  if byte(line, len) == 13 then
    len = len - 1
  end
  local each_field = checks and not problems
  local from_, to_, type_ = rw.from, rw.to, rw.type
  for j = 1, rw.n do
    local from = from_[j]
    if from > len then
      break
    end
    local p = find(line, '[^ ]', from)
    local to = to_[j]
    if p and p <= to then
      local code = type_[j]
      local group
      if code == 1 then
        group = 'NvimpamKeyword'
      elseif code == 2 then
        group = 'NvimpamFixed'
      elseif j % 2 == 1 then
        group = 'NvimpamCellOdd'
      else
        group = 'NvimpamCellEven'
      end
      if each_field then
        local sev = fields.status(line, rw, j)
        if sev == 1 then
          group = 'NvimpamCellError'
        elseif sev == 2 then
          group = 'NvimpamCellWarn'
        end
      end
      mark(buf, row, from - 1, to < len and to or len, group, M.PRIORITY)
    end
  end
  if not checks then
    return
  end
  if problems then
    for _, d in ipairs(problems) do
      mark(buf, row, d.col, d.end_col, 'NvimpamCellError', M.PRIORITY + 1)
    end
  else
    draw_tab_past80(buf, row, line, rw)
  end
end

-- A line outside every card's rows: a comment, or a header line of a card without an entry.
local function draw_plain(buf, row, line)
  local b = byte(line, 1)
  if b == 36 or b == 35 then
    mark(buf, row, 0, #line, 'NvimpamComment', M.PRIORITY)
  elseif byte(line, 7) == 47 and layout.header_word(line) then
    mark(buf, row, 0, min(#line, 8), 'NvimpamKeyword', M.PRIORITY)
  end
end

--- A line outside every card's rows: a comment, or a header line of a card without an entry.
---@param buf integer
---@param row integer 0-based
---@param line string
function M.plain(buf, row, line)
  draw_plain(buf, row, line)
end

--- The marks of line `row` of a window whose lines `s` classified (nvimpam.view.cells' on_win:
--- { r = the rows.range() at hand, count, version, checks, older }); `s.r` moves on past a
--- closed fold or past what on_win read.
---@param buf integer
---@param row integer 0-based
---@param s table
function M.line(buf, row, s)
  local r = s.r
  if row < r.top or row >= r.bot then
    if row >= s.count then
      return
    end
    r = rows.range(buf, row, min(row + SEGMENT, s.count), s.version)
    s.r = r
  end
  local i = row - r.top + r.off + 1
  local k = r.kind[i]
  if k == 5 then -- a row
    local e = r.ent[i]
    local problems = nil
    if s.checks and older_of(s, e) then
      problems = older_problems(r, s.version)[i] or NONE
    end
    draw_row(buf, row, r.lines[i], e, r.rowi[i], s.checks, problems)
  elseif k == 3 or k == 4 then -- GES selection or END line: its word
    local line = r.lines[i]
    local n = rows.ges_word_len(line)
    if n > 0 then
      mark(buf, row, 8, 8 + n, 'NvimpamFixed', M.PRIORITY)
    end
    if s.checks then
      if older_of(s, r.ent[i]) then
        for _, d in ipairs(older_problems(r, s.version)[i] or NONE) do
          mark(buf, row, d.col, d.end_col, 'NvimpamCellError', M.PRIORITY + 1)
        end
      else
        draw_tab_past80(buf, row, line, nil)
      end
    end
  elseif (k == 6 or k == 7) and s.checks then
    -- a key row's keyword or value line: free format, so no cells, only its errors
    local list = older_of(s, r.ent[i]) and (older_problems(r, s.version)[i] or NONE)
      or problems.line_diagnostics(r.lines[i], r.ent[i], k == 7 and r.rowi[i] or nil, row, {}, k == 7)
    for _, d in ipairs(list) do
      mark(buf, row, d.col, d.end_col, 'NvimpamCellError', M.PRIORITY + 1)
    end
  elseif k == 0 or k == 1 then
    draw_plain(buf, row, r.lines[i])
  end
end

return M
