-- :NvimpamPlot (:help nvimpam-plot): FUNCT curves drawn with Braille cells (2x4 dots a cell,
-- U+2800..U+28FF) in a floating window, redrawn when a FUNCT shown is edited. The points are
-- read through the card-layout table (the FUNCT's point rows, X and Y fields in pairs), never by
-- columns of their own; a redraw reads the lines of the FUNCTs shown, nothing else of the deck.
local M = {}

local api = vim.api
local fields = require('nvimpam.model.fields')
local layout = require('nvimpam.model.layout')
local rows = require('nvimpam.model.rows')
local span = require('nvimpam.model.span')

local floor, max, min, huge = math.floor, math.max, math.min, math.huge
local format, sub, char, byte = string.format, string.sub, string.char, string.byte

-- The bytes of the numbers Lua's tonumber() reads as the solver does: digits . + - e E.
local NUMERIC = {}
for _, c in ipairs({ 43, 45, 46, 69, 101 }) do
  NUMERIC[c] = true
end
for c = 48, 57 do
  NUMERIC[c] = true
end

--- One highlight group per curve (used in turn), and one for the axes and their labels:
--- `default` links.
M.links = {
  { 'NvimpamPlot1', 'Identifier' },
  { 'NvimpamPlot2', 'String' },
  { 'NvimpamPlot3', 'Constant' },
  { 'NvimpamPlot4', 'Type' },
  { 'NvimpamPlot5', 'Special' },
  { 'NvimpamPlot6', 'Statement' },
  { 'NvimpamPlotAxis', 'Comment' },
}
local CURVE_GROUPS = 6

--- Milliseconds between the last change of a FUNCT shown and its redraw.
M.debounce_ms = 80

--- Defines the highlight groups of M.links (as `default` links: a colorscheme's win).
---@return nil
function M.define_highlights()
  for _, l in ipairs(M.links) do
    vim.cmd('highlight default link ' .. l[1] .. ' ' .. l[2])
  end
end

-- Values -------------------------------------------------------------------------------------

--- The number the solver reads in a float field's text (CARDS.md's float forms: `1.5`, `1.`,
--- `.5E3`, `1.5D-3`, `1.5-3` for 1.5E-3): a blank field reads 0 (a fixed-format read), a
--- parameter (`<NAME>`) or a text that is no float form gives nil.
---@param text string
---@return number|nil
function M.number(text)
  local a, b = 1, #text
  while byte(text, a) == 32 do
    a = a + 1
  end
  if a > b then
    return 0
  end
  while byte(text, b) == 32 do
    b = b - 1
  end
  local s = sub(text, a, b)
  -- The common forms (digits, a point, a sign, e or E), which Lua reads as they are; a redraw
  -- reads every value of the FUNCT, so no pattern here.
  local plain = true
  for k = a, b do
    local c = byte(text, k)
    if not NUMERIC[c] then
      plain = false
      break
    end
  end
  if plain then
    local v = tonumber(s)
    if v then
      return v
    end
  end
  if not fields.is_float(s) or fields.is_param(s) then
    return nil
  end
  local mant, rest = s:match('^([+-]?%d*%.?%d*)(.*)$')
  if not mant:find('%d') then
    return nil
  end
  local exp = rest:match('^[eEdD]([+-]?%d*)$') or rest:match('^([+-]%d+)$') or ''
  exp = tonumber(exp) or 0 -- an exponent letter with no digits: 10^0
  if mant:sub(-1) == '.' then
    mant = mant .. '0'
  end
  return tonumber(mant .. 'e' .. exp)
end

--- A curve's points as the solver uses them: x * SCALX + SHIFTX, y * SCALY + SHIFTY (scaled
--- first, then shifted; a scale factor of 0 or blank is 1). :help nvimpam-plot says why this order.
---@param c table { scalx, scaly, shiftx, shifty, points = { {x, y}, ... } }
---@return table[] the points, transformed
function M.transform(c)
  local sx = (c.scalx == nil or c.scalx == 0) and 1 or c.scalx
  local sy = (c.scaly == nil or c.scaly == 0) and 1 or c.scaly
  local dx, dy = c.shiftx or 0, c.shifty or 0
  local out = {}
  for i, p in ipairs(c.points) do
    out[i] = { p[1] * sx + dx, p[2] * sy + dy }
  end
  return out
end

-- Reading a FUNCT ----------------------------------------------------------------------------

local function field_index(row, name)
  for j, f in ipairs(row.fields) do
    if f.name == name then
      return j
    end
  end
  return nil
end

-- The fields of a row that are a point's X and Y (X and Y, X2 and Y2, ...): the index of each X,
-- found once per row of the table.
local pair_cache = setmetatable({}, { __mode = 'k' })
local function xy_pairs(row)
  local p = pair_cache[row]
  if not p then
    p = {}
    local fs = row.fields
    for j = 1, #fs - 1 do
      local x, y = fs[j].name, fs[j + 1].name
      if x:sub(1, 1) == 'X' and y:sub(1, 1) == 'Y' and x:sub(2) == y:sub(2) then
        p[#p + 1] = j
      end
    end
    pair_cache[row] = p
  end
  return p
end

local function text_of(line, f)
  return sub(line, f.from, f.to)
end

--- The curve of a FUNCT card from its lines classified (rows.classify, or span.card_at's card):
--- `lines[1]` is its header line. The header row's SCALX, SCALY, SHIFTX and SHIFTY, the NAME
--- row's title, and the points: every row after the header whose fields hold X..., Y... pairs
--- (the table's point rows), a pair per point. Values that are no number (a parameter) leave
--- their point out, counted in `skipped`.
---@param lines string[]
---@param kind integer[]
---@param ent table[]
---@param rowi integer[]
---@return table|nil curve { id, title, scalx, scaly, shiftx, shifty, points, skipped }
---@return string|nil why not
function M.read(lines, kind, ent, rowi)
  local e = ent[1]
  if not e or e.word ~= 'FUNCT' or kind[1] ~= rows.ROW then
    return nil, 'not a FUNCT card'
  end
  local head = e.rows[1]
  local c = { points = {}, skipped = 0, title = '' }
  local function head_value(name, default)
    local j = field_index(head, name)
    if not j then
      return default
    end
    local v = M.number(text_of(lines[1], head.fields[j]))
    if v == nil then
      c.problem = format('%s is no number', name)
      return default
    end
    return v
  end
  local idf = head.fields[field_index(head, 'IDFUN') or 0]
  c.id = idf and tonumber(text_of(lines[1], idf):match('^%s*%+?(%d+)%s*$')) or nil
  c.scalx, c.scaly = head_value('SCALX', 1), head_value('SCALY', 1)
  c.shiftx, c.shifty = head_value('SHIFTX', 0), head_value('SHIFTY', 0)
  for i = 2, #lines do
    if kind[i] == rows.ROW and ent[i] == e then
      local row = e.rows[rowi[i]]
      if row.kind == layout.NAME then
        local t = field_index(row, 'TITLE')
        c.title = t and text_of(lines[i], row.fields[t]):match('^%s*(.-)%s*$') or ''
      else
        local fs = row.fields
        for _, j in ipairs(xy_pairs(row)) do
          local x, y = M.number(text_of(lines[i], fs[j])), M.number(text_of(lines[i], fs[j + 1]))
          if x and y then
            c.points[#c.points + 1] = { x, y }
          else
            c.skipped = c.skipped + 1
          end
        end
      end
    end
  end
  return c
end

-- Drawing ------------------------------------------------------------------------------------

-- The bit of dot (dx, dy) in a Braille cell, dx 0..1 (left, right), dy 0..3 (top to bottom).
local BIT = { [0] = { [0] = 0x01, 0x02, 0x04, 0x40 }, [1] = { [0] = 0x08, 0x10, 0x20, 0x80 } }

--- The Braille character of a cell's dots (0..255): U+2800 + bits, as UTF-8.
---@param bits integer
---@return string
function M.braille(bits)
  return char(0xE2, 0xA0 + floor(bits / 64), 0x80 + bits % 64)
end

--- The extent of curves' points, widened where it is a single value (a flat or a one-point curve).
---@param curves table[] each { pts = { {x, y}, ... } }
---@return number xmin, number xmax, number ymin, number ymax
function M.extent(curves)
  local x0, x1, y0, y1 = huge, -huge, huge, -huge
  for _, c in ipairs(curves) do
    for _, p in ipairs(c.pts) do
      x0, x1, y0, y1 = min(x0, p[1]), max(x1, p[1]), min(y0, p[2]), max(y1, p[2])
    end
  end
  if x0 > x1 then
    return 0, 1, 0, 1
  end
  local function widen(a, b)
    if a == b then
      local d = a == 0 and 1 or math.abs(a) * 0.5
      return a - d, b + d
    end
    return a, b
  end
  x0, x1 = widen(x0, x1)
  y0, y1 = widen(y0, y1)
  return x0, x1, y0, y1
end

--- Rasterises curves on a grid of w x h cells (2w x 4h dots) over [xmin, xmax] x [ymin, ymax]:
--- a point's dot is the nearest (x to the right, y up), consecutive points are joined by the
--- dots of a straight line (Bresenham). Returns bits[row][col] (0-based cells, row 0 at the top;
--- 0 where no dot) and owner[row][col] (the index of the last curve with a dot in the cell).
---@param curves table[] each { pts = { {x, y}, ... } }
---@param w integer
---@param h integer
---@param box number[] { xmin, xmax, ymin, ymax }
---@return table bits, table owner
function M.raster(curves, w, h, box)
  local bits, owner = {}, {}
  for r = 0, h - 1 do
    bits[r], owner[r] = {}, {}
    for c = 0, w - 1 do
      bits[r][c] = 0
    end
  end
  local X, Y = 2 * w - 1, 4 * h - 1
  local x0, x1, y0, y1 = box[1], box[2], box[3], box[4]
  local function px(x)
    return floor((x - x0) / (x1 - x0) * X + 0.5)
  end
  local function py(y)
    return floor((y1 - y) / (y1 - y0) * Y + 0.5)
  end
  for k, c in ipairs(curves) do
    local function dot(dx, dy)
      if dx < 0 or dy < 0 or dx > X or dy > Y then
        return
      end
      local cr, cc = floor(dy / 4), floor(dx / 2)
      local b = BIT[dx % 2][dy % 4]
      local cur = bits[cr][cc]
      if cur % (2 * b) < b then
        bits[cr][cc] = cur + b
      end
      owner[cr][cc] = k
    end
    local ax, ay
    for i, p in ipairs(c.pts) do
      local bx, by = px(p[1]), py(p[2])
      if i == 1 then
        dot(bx, by)
      else
        local ddx, ddy = math.abs(bx - ax), -math.abs(by - ay)
        local stx, sty = ax < bx and 1 or -1, ay < by and 1 or -1
        local err = ddx + ddy
        local x, y = ax, ay
        while true do
          dot(x, y)
          if x == bx and y == by then
            break
          end
          local e2 = 2 * err
          if e2 >= ddy then
            err, x = err + ddy, x + stx
          end
          if e2 <= ddx then
            err, y = err + ddx, y + sty
          end
        end
      end
      ax, ay = bx, by
    end
  end
  return bits, owner
end

--- A label of a value: at most 6 significant digits, no trailing noise.
---@param v number
---@return string
function M.label(v)
  local s = format('%.6g', v)
  if s == '-0' then
    s = '0'
  end
  return s
end

local function group_of(k)
  return 'NvimpamPlot' .. ((k - 1) % CURVE_GROUPS + 1)
end

--- The lines of a plot `width` x `height` cells big (the whole window), and its highlights
--- { line (0-based), col_start, col_end (bytes), group }. `curves`: { id, title, pts, note }
--- (pts transformed). First a legend line per curve, then the plot rows (the maximum of Y
--- beside the top row, its minimum beside the bottom row, a vertical axis), the horizontal axis,
--- and the minimum and maximum of X under its ends.
---@param curves table[]
---@param width integer
---@param height integer
---@return string[] lines, table[] highlights, table geometry { top, left, w, h, box }
function M.render(curves, width, height)
  local lines, hls = {}, {}
  local marker = M.braille(0x24) .. M.braille(0x24) -- two cells of a horizontal stroke
  for k, c in ipairs(curves) do
    local legend = format('%s FUNCT %s  %s', marker, c.id and tostring(c.id) or '?', c.title or '')
    if c.note then
      legend = legend .. '  (' .. c.note .. ')'
    end
    lines[#lines + 1] = legend
    hls[#hls + 1] = { #lines - 1, 0, #marker, group_of(k) }
  end
  local x0, x1, y0, y1 = M.extent(curves)
  local top, bot = M.label(y1), M.label(y0)
  local margin = max(#top, #bot)
  local w = max(2, width - margin - 1)
  local h = max(2, height - #curves - 2)
  local bits, owner = M.raster(curves, w, h, { x0, x1, y0, y1 })
  local first = #lines
  for r = 0, h - 1 do
    local lab = r == 0 and top or r == h - 1 and bot or ''
    local parts = { string.rep(' ', margin - #lab), lab, (r == 0 or r == h - 1) and '┤' or '│' }
    local col = margin + 3 -- bytes: label, then the axis (3 bytes)
    local run_start, run_group = nil, nil
    local lnum = first + r
    for c = 0, w - 1 do
      local b = bits[r][c]
      local g = b > 0 and group_of(owner[r][c]) or nil
      if g ~= run_group then
        if run_group then
          hls[#hls + 1] = { lnum, run_start, col, run_group }
        end
        run_start, run_group = col, g
      end
      local s = b > 0 and M.braille(b) or ' '
      parts[#parts + 1] = s
      col = col + #s
    end
    if run_group then
      hls[#hls + 1] = { lnum, run_start, col, run_group }
    end
    lines[#lines + 1] = table.concat(parts)
    hls[#hls + 1] = { lnum, 0, margin + 3, 'NvimpamPlotAxis' }
  end
  lines[#lines + 1] = string.rep(' ', margin) .. '└' .. string.rep('─', w)
  hls[#hls + 1] = { #lines - 1, 0, #lines[#lines], 'NvimpamPlotAxis' }
  local left, right = M.label(x0), M.label(x1)
  local gap = max(1, w - #left - #right)
  lines[#lines + 1] = string.rep(' ', margin + 1) .. left .. string.rep(' ', gap) .. right
  hls[#hls + 1] = { #lines - 1, 0, #lines[#lines], 'NvimpamPlotAxis' }
  return lines, hls, { top = first, left = margin + 1, w = w, h = h, box = { x0, x1, y0, y1 } }
end

-- Where the curves come from -----------------------------------------------------------------

local ns = api.nvim_create_namespace('nvimpam.view.plot')
local mark_ns = api.nvim_create_namespace('nvimpam.plot.marks')

-- The plot open now (one at a time): { win, buf, close, sources = { ... }, group, timer }.
local current = nil

-- A FUNCT in a buffer: its header line is followed by an extmark, so that edits above move it.
local function from_buffer(buf, lnum0)
  local src = { buf = buf }
  src.mark = api.nvim_buf_set_extmark(buf, mark_ns, lnum0, 0, {})
  return src
end

-- The card of a source read now: the curve, or nil and why not.
local function read_source(src)
  if src.buf then
    if not api.nvim_buf_is_loaded(src.buf) then
      return nil, 'its buffer is gone'
    end
    local pos = api.nvim_buf_get_extmark_by_id(src.buf, mark_ns, src.mark, {})
    if not pos[1] then
      return nil, 'its card is gone'
    end
    local version = require('nvimpam.model.version').of(src.buf)
    local card = span.card_at(span.reader(src.buf), pos[1], version)
    if not card then
      return nil, 'its card is gone'
    end
    if card.first ~= pos[1] then -- the header line was deleted: the mark is inside another card
      api.nvim_buf_set_extmark(src.buf, mark_ns, card.first, 0, { id = src.mark })
    end
    local c, why = M.read(card.lines, card.kind, card.ent, card.rowi)
    if c and src.id and c.id ~= src.id then
      return nil, 'its card is gone'
    end
    return c, why
  end
  return src.curve
end

-- The curve of the FUNCT whose header is line `lnum` (1-based) of `file`, read once: the include
-- file is not open in a buffer, so it cannot change under the plot. Its version is its own, else
-- that of the deck it was reached from (as an include file's cells are).
local function read_file(file, lnum, version)
  local f, err = io.open(file, 'rb')
  if not f then
    error('nvimpam: ' .. file .. ' cannot be read (' .. tostring(err) .. ')', 0)
  end
  local lines, head, n, ended = {}, {}, 0, false
  for l in f:lines() do
    n = n + 1
    if n <= 200 then
      head[n] = l
    end
    if n > lnum and not ended and layout.header_word(l) then
      ended = true
    end
    if n >= lnum and not ended then
      lines[#lines + 1] = l
    end
    if ended and n >= 200 then
      break
    end
  end
  f:close()
  local kind, ent, rowi = rows.classify(lines, rows.deck_version(head) or version)
  return M.read(lines, kind, ent, rowi)
end

-- The source of FUNCT `id`, found by the id index (the goto path: the deck and its include files).
local function source_of(id, buf)
  local defs = require('nvimpam.host').wait('ids_goto', { buf, 'function', id }, ':NvimpamPlot', buf) or {}
  if #defs == 0 then
    error(require('nvimpam.host').error('bad_argument', 'nvimpam: no definition of FUNCT ' .. id), 0)
  end
  local d = defs[1]
  local b = d.buf or vim.fn.bufnr(d.file)
  if b > 0 and api.nvim_buf_is_loaded(b) then
    local src = from_buffer(b, d.lnum - 1)
    src.id = id
    return src
  end
  local c, why = read_file(d.file, d.lnum, require('nvimpam.model.version').of(buf))
  if not c then
    error(require('nvimpam.host').error('bad_argument', 'nvimpam: FUNCT ' .. id .. ': ' .. why), 0)
  end
  return { id = id, curve = c }
end

-- The source of the FUNCT the cursor is in, or of the function id under the cursor.
local function source_at_cursor(buf)
  local lnum0 = api.nvim_win_get_cursor(0)[1] - 1
  local card = span.card_at(span.reader(buf), lnum0, require('nvimpam.model.version').of(buf))
  if card and card.word == 'FUNCT' then
    local src = from_buffer(buf, card.first)
    local c = M.read(card.lines, card.kind, card.ent, card.rowi)
    src.id = c and c.id
    return src
  end
  local at = require('nvimpam.ids.at').at()
  if at and at.kind == 'function' then
    return source_of(at.id, buf)
  end
  error(require('nvimpam.host').error('bad_argument', 'nvimpam: the cursor is in no FUNCT and on no function id'), 0)
end

--- The ids of the command's arguments: numbers separated by blanks or commas.
---@param args string
---@return integer[]
function M.parse_ids(args)
  local ids = {}
  for tok in args:gmatch('[^%s,]+') do
    local n = tonumber(tok:match('^%+?(%d+)$') or '')
    if not n or n <= 0 then
      error(require('nvimpam.host').error('bad_argument', 'nvimpam: "' .. tok .. '" is no FUNCT id'), 0)
    end
    ids[#ids + 1] = n
  end
  return ids
end

-- The float's size: as wide as the editor allows up to 78 columns, 20 lines high.
local function size()
  return max(20, min(78, vim.o.columns - 4)), max(8, min(20, vim.o.lines - 6))
end

local function draw()
  local p = current
  if not p or not api.nvim_win_is_valid(p.win) then
    return
  end
  local curves = {}
  for k, src in ipairs(p.sources) do
    local c, why = read_source(src)
    if c then
      curves[k] = { id = c.id, title = c.title, pts = M.transform(c),
        note = c.problem or (c.skipped > 0 and (c.skipped .. ' points are no numbers')) or (#c.points == 0 and 'no points') or nil }
    else
      curves[k] = { id = src.id, title = '', pts = {}, note = why }
    end
  end
  local w, h = api.nvim_win_get_width(p.win), api.nvim_win_get_height(p.win)
  local lines, hls = M.render(curves, w, h)
  vim.bo[p.buf].modifiable = true
  api.nvim_buf_set_lines(p.buf, 0, -1, false, lines)
  vim.bo[p.buf].modifiable = false
  api.nvim_buf_clear_namespace(p.buf, ns, 0, -1)
  for _, hl in ipairs(hls) do
    api.nvim_buf_add_highlight(p.buf, ns, hl[4], hl[1], hl[2], hl[3])
  end
  p.draws = (p.draws or 0) + 1
end

--- Closes the plot, if one is open.
---@return nil
function M.close()
  if current then
    current.close()
  end
end

--- :NvimpamPlot [ids]: the curves of FUNCTs `args` (ids, blanks or commas between), by default
--- of the FUNCT the cursor is in (or whose id it is on), in a floating window. It redraws when
--- a FUNCT shown that is in a buffer changes, and closes with q.
---@param args string
---@param buf integer
function M.plot(args, buf)
  M.define_highlights()
  buf = (buf == nil or buf == 0) and api.nvim_get_current_buf() or buf
  local ids = M.parse_ids(args or '')
  local sources = {}
  local ok, e = pcall(function()
    if #ids == 0 then
      sources[1] = source_at_cursor(buf)
    else
      for i, id in ipairs(ids) do
        sources[i] = source_of(id, buf)
      end
    end
  end)
  if not ok then -- no mark of the sources found so far stays behind
    for _, s in ipairs(sources) do
      if s.buf then
        pcall(api.nvim_buf_del_extmark, s.buf, mark_ns, s.mark)
      end
    end
    error(e, 0)
  end
  M.close()
  local w, h = size()
  local blank = {}
  for i = 1, h do
    blank[i] = string.rep(' ', w)
  end
  local titles = {}
  for _, s in ipairs(sources) do
    titles[#titles + 1] = tostring(s.id or '?')
  end
  local p = { sources = sources }
  local group = api.nvim_create_augroup('nvimpam_plot', { clear = true })
  local timer = require('nvimpam.core.compat').uv.new_timer()
  p.win, p.buf, p.close = require('nvimpam.view.float').open(blank, {
    title = 'FUNCT ' .. table.concat(titles, ', '),
    stay = true,
    row = 1,
    col = max(0, vim.o.columns - w - 2),
    on_close = function()
      pcall(api.nvim_del_augroup_by_id, group)
      timer:stop()
      timer:close()
      for _, s in ipairs(sources) do
        if s.buf and api.nvim_buf_is_valid(s.buf) then
          pcall(api.nvim_buf_del_extmark, s.buf, mark_ns, s.mark)
        end
      end
      if current == p then
        current = nil
      end
    end,
  })
  -- a colorscheme clears the links: defined again while the plot is open
  api.nvim_create_autocmd('ColorScheme', { group = group, callback = M.define_highlights })
  vim.wo[p.win].wrap = false -- a long title must not push the plot down
  vim.bo[p.buf].undolevels = -1 -- every redraw replaces the lines: no history to keep
  current = p
  local watched = {}
  for _, s in ipairs(sources) do
    if s.buf and not watched[s.buf] then
      watched[s.buf] = true
      api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI' }, { group = group, buffer = s.buf, callback = function()
        timer:stop()
        timer:start(M.debounce_ms, 0, vim.schedule_wrap(draw))
      end })
    end
  end
  draw()
end

--- The plot open now, for tests: { win, buf, draws } or nil.
---@return table|nil
function M.current()
  return current and { win = current.win, buf = current.buf, draws = current.draws } or nil
end

return M
