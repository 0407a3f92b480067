-- A plot drawn with Braille cells (2x4 dots a cell, U+2800..U+28FF): the curves' extent, their
-- raster, and the lines and highlights of the whole window (legend, axes, labels).
local M = {}

local floor, max, min, huge = math.floor, math.max, math.min, math.huge
local format, char = string.format, string.char

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

return M
