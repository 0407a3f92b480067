-- :NvimpamPlot (:help nvimpam-plot): FUNCT curves drawn with Braille cells (2x4 dots a cell,
-- U+2800..U+28FF) in a floating window, redrawn when a FUNCT shown is edited. The points are
-- read through the card-layout table (the FUNCT's point rows, X and Y fields in pairs), never by
-- columns of their own; a redraw reads the lines of the FUNCTs shown, nothing else of the deck.
local M = {}

local api = vim.api
local curves = require('nvimpam.model.curves')
local render = require('nvimpam.view.plot.render')
local layout = require('nvimpam.model.layout')
local rows = require('nvimpam.model.rows')
local span = require('nvimpam.model.span')
local versions = require('nvimpam.model.version')
local host = require('nvimpam.host')
local id_at = require('nvimpam.ids.at').at
local float = require('nvimpam.ui.float')
local compat = require('nvimpam.core.compat')

local max, min = math.max, math.min

--- The highlight groups of the curves and the axes (nvimpam.view.plot.render draws with them).
M.links = render.links

--- Milliseconds between the last change of a FUNCT shown and its redraw.
M.debounce_ms = 80

--- Defines the highlight groups of M.links (as `default` links: a colorscheme's win).
---@return nil
function M.define_highlights()
  for _, l in ipairs(M.links) do
    vim.cmd('highlight default link ' .. l[1] .. ' ' .. l[2])
  end
end

-- Where the curves come from -----------------------------------------------------------------

local ns = api.nvim_create_namespace('nvimpam.plot')
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
    local version = versions.of(src.buf)
    local card = span.card_at(span.reader(src.buf), pos[1], version)
    if not card then
      return nil, 'its card is gone'
    end
    if card.first ~= pos[1] then -- the header line was deleted: the mark is inside another card
      api.nvim_buf_set_extmark(src.buf, mark_ns, card.first, 0, { id = src.mark })
    end
    local c, why = curves.read(card.lines, card.kind, card.ent, card.rowi)
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
  local kind, ent, rowi = rows.classify(lines, versions.of_lines(head) or version)
  return curves.read(lines, kind, ent, rowi)
end

-- The source of FUNCT `id`, found by the id index (the goto path: the deck and its include files).
local function source_of(id, buf)
  local defs = host.wait('ids_goto', { buf, 'function', id }, ':NvimpamPlot', buf) or {}
  if #defs == 0 then
    error(host.error('bad_argument', 'nvimpam: no definition of FUNCT ' .. id), 0)
  end
  local d = defs[1]
  local b = d.buf or vim.fn.bufnr(d.file)
  if b > 0 and api.nvim_buf_is_loaded(b) then
    local src = from_buffer(b, d.lnum - 1)
    src.id = id
    return src
  end
  local c, why = read_file(d.file, d.lnum, versions.of(buf))
  if not c then
    error(host.error('bad_argument', 'nvimpam: FUNCT ' .. id .. ': ' .. why), 0)
  end
  return { id = id, curve = c }
end

-- The source of the FUNCT the cursor is in, or of the function id under the cursor.
local function source_at_cursor(buf)
  local lnum0 = api.nvim_win_get_cursor(0)[1] - 1
  local card = span.card_at(span.reader(buf), lnum0, versions.of(buf))
  if card and card.word == 'FUNCT' then
    local src = from_buffer(buf, card.first)
    local c = curves.read(card.lines, card.kind, card.ent, card.rowi)
    src.id = c and c.id
    return src
  end
  local at = id_at()
  if at and at.kind == 'function' then
    return source_of(at.id, buf)
  end
  error(host.error('bad_argument', 'nvimpam: the cursor is in no FUNCT and on no function id'), 0)
end

--- The ids of the command's arguments: numbers separated by blanks or commas.
---@param args string
---@return integer[]
function M.parse_ids(args)
  local ids = {}
  for tok in args:gmatch('[^%s,]+') do
    local n = tonumber(tok:match('^%+?(%d+)$') or '')
    if not n or n <= 0 then
      error(host.error('bad_argument', 'nvimpam: "' .. tok .. '" is no FUNCT id'), 0)
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
  local shown = {}
  for k, src in ipairs(p.sources) do
    local c, why = read_source(src)
    if c then
      shown[k] = { id = c.id, title = c.title, pts = curves.transform(c),
        note = c.problem or (c.skipped > 0 and (c.skipped .. ' points are no numbers')) or (#c.points == 0 and 'no points') or nil }
    else
      shown[k] = { id = src.id, title = '', pts = {}, note = why }
    end
  end
  local w, h = api.nvim_win_get_width(p.win), api.nvim_win_get_height(p.win)
  local lines, hls = render.render(shown, w, h)
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
  local timer = compat.uv.new_timer()
  p.win, p.buf, p.close = float.open(blank, {
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

