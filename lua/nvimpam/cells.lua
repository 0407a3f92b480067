-- Cell highlighting: one decoration provider for every window, computing only what is drawn.
--
-- on_win classifies the window's lines once (rows.range(): one fetch of the lines shown, plus a
-- bounded walk back to the header of the card they start in); on_line sets ephemeral extmarks on
-- the fields of that line: alternating cell groups, the keyword and fixed-text groups, and the
-- error/warn groups where a field fails its check (fields.status()), on tabs and on text past
-- column 80. Nothing is stored per line of the buffer and nothing asks the JVM: the row of every
-- line shown comes from the lines above it, read again at each redraw after an edit (the
-- classification of a window is kept only while its buffer's changedtick and its range stay the
-- same), so it is right in every window at the first redraw after any edit.
local M = {}

local config = require('nvimpam.config')
local layout = require('nvimpam.layout')
local rows = require('nvimpam.rows')
local fields = require('nvimpam.fields')
local compat = require('nvimpam.compat')

local api = vim.api
local find, byte, min = string.find, string.byte, math.min

M.ns = api.nvim_create_namespace('nvimpam_cells')
local ns = M.ns

--- Extmark priority of the cells: below vim.diagnostic's underline (150), above syntax.
M.PRIORITY = 120

--- The groups and the standard groups they link to (`default` links: a colorscheme or the user
--- may set them). The two cell groups have different foregrounds in the default colorschemes of
--- 0.7 (cyan, magenta) and of 0.10+ (blue, green), dark and light, 256 colours and truecolor.
M.links = {
  { 'NvimpamComment', 'Comment' },
  { 'NvimpamKeyword', 'Statement' },
  { 'NvimpamFixed', 'Special' },
  { 'NvimpamCellOdd', 'Identifier' },
  { 'NvimpamCellEven', 'String' },
  { 'NvimpamCellError', 'DiagnosticError' },
  { 'NvimpamCellWarn', 'DiagnosticWarn' },
  { 'NvimpamHeader', 'Comment' },
}

local hl_group = nil

--- Defines the groups (as `default` links) and keeps them defined after every :colorscheme.
function M.define_highlights()
  for _, l in ipairs(M.links) do
    vim.cmd('highlight default link ' .. l[1] .. ' ' .. l[2])
  end
  if not hl_group then
    hl_group = api.nvim_create_augroup('nvimpam_highlights', { clear = true })
    api.nvim_create_autocmd('ColorScheme', { group = hl_group, callback = M.define_highlights })
  end
end

-- State --------------------------------------------------------------------------------------

local on = true -- :NvimpamCells on/off, and setup{ cells = ... }
local pam = {} -- buf -> true for pamcrash buffers (FileType keeps it)
local watched = {} -- buf -> true while its line changes redraw the lines below them
local versions = {} -- buf -> { tick, own version or false }
local wins = {} -- win -> the classification of its lines: { buf, tick, top, bot, version, r }
local broken = nil -- the table failed to load: its message (cells stay off)
local stats = { lines = 0, wins = 0 }

--- Counters for tests: lines = lines the provider looked at (on_line calls in windows it
--- highlights), walked = lines read by walks back, wins = on_win calls that highlight.
---@return { lines: integer, walked: integer, wins: integer }
function M.stats()
  return { lines = stats.lines, walked = rows.walked, wins = stats.wins }
end

--- Resets the counters of stats().
function M.reset_stats()
  stats.lines, stats.wins, rows.walked = 0, 0, 0
end

local function buf_var(buf, name)
  local ok, v = pcall(api.nvim_buf_get_var, buf, name)
  if ok then
    return v
  end
  return nil
end

local function is_false(v)
  return v == false or v == 0
end

--- The version of a buffer's deck: its own INPUTVERSION (first 200 lines, read again only after
--- a change), else b:nvimpam_inherited_version (an include file of an open deck), else nil (the
--- newest layouts).
---@param buf integer
---@param tick? integer its changedtick, when the caller has it
---@return integer|nil
function M.version(buf, tick)
  tick = tick or api.nvim_buf_get_changedtick(buf)
  local c = versions[buf]
  if not c or c.tick ~= tick then
    c = { tick = tick, own = rows.deck_version(api.nvim_buf_get_lines(buf, 0, 200, false)) or false }
    versions[buf] = c
  end
  if c.own then
    return c.own
  end
  local v = buf_var(buf, 'nvimpam_inherited_version')
  return tonumber(v)
end

--- Whether field checks are on for `buf` (setup{ checks } and b:nvimpam_checks).
---@param buf integer
---@return boolean
function M.checks_on(buf)
  return config.get().checks ~= false and not is_false(buf_var(buf, 'nvimpam_checks'))
end

--- Whether cells are drawn in `buf`: a pamcrash buffer, cells on, b:nvimpam_cells not false.
---@param buf integer
---@return boolean
function M.active(buf)
  return on and pam[buf] == true and not broken and not is_false(buf_var(buf, 'nvimpam_cells'))
end

local loading = false
M.WAIT_FOR_FOLDS_MS = 1000 -- the longest the table's load waits for the folds of big decks opening
M.BIG_DECK_LINES = 100000 -- from here on the JVM reads a deck for longer than the table's parse takes

-- Whether the card-layout table is loaded. If not, loads it in slices (its 30 ms parse would hold
-- up a redraw) and redraws the pamcrash buffers once it is there; they show without cells until
-- then. While a big deck opens, the load waits for its folds (nvimpam.live), WAIT_FOR_FOLDS_MS at
-- most: on two cores it would compete with the JVM's read of the deck.
local function table_ready()
  if layout.loaded() then
    return true
  end
  if not loading and not broken then
    loading = true
    local started = false
    local function load()
      if started then
        return
      end
      started = true
      layout.load_soon(function(ok, e)
        loading = false
        if not ok then
          broken = tostring(e)
          vim.notify('nvimpam: cells are off, the card-layout table does not load: ' .. broken, vim.log.levels.ERROR,
            { title = 'nvimpam' })
          return
        end
        for _, win in ipairs(api.nvim_list_wins()) do
          local buf = api.nvim_win_get_buf(win)
          if pam[buf] then
            compat.redraw_lines(buf, 0, api.nvim_buf_line_count(buf))
          end
        end
      end)
    end
    require('nvimpam.live').after_folds(load, M.BIG_DECK_LINES)
    vim.defer_fn(load, M.WAIT_FOR_FOLDS_MS)
  end
  return false
end

-- Drawing --------------------------------------------------------------------------------------

local SEGMENT = 120 -- lines classified at once past a closed fold or past what on_win prepared
local LIMIT = 400 -- at most this many lines are classified in on_win

local layout_loaded = false
local W = nil -- the window being drawn: its entry of `wins`
local W_win = nil
local opts = { end_col = 0, hl_group = '', ephemeral = true, priority = M.PRIORITY }
local set_extmark = api.nvim_buf_set_extmark

local function mark(buf, row, col, end_col, group, priority)
  opts.end_col, opts.hl_group, opts.priority = end_col, group, priority
  set_extmark(buf, ns, row, col, opts)
end

local function on_win(_, win, buf, top, bot)
  if not pam[buf] then
    return false
  end
  local tick = api.nvim_buf_get_changedtick(buf)
  local count = api.nvim_buf_line_count(buf)
  bot = min(bot + 1, count, top + LIMIT)
  local cells_on = M.active(buf)
  if cells_on and not layout_loaded then
    layout_loaded = table_ready()
    cells_on = layout_loaded
  end
  local s = wins[win]
  if cells_on then
    stats.wins = stats.wins + 1
    local version = M.version(buf, tick)
    if not (s and s.buf == buf and s.tick == tick and s.top == top and s.bot == bot and s.version == version
      and s.r0) then
      s = { buf = buf, tick = tick, top = top, bot = bot, version = version, count = count,
        r0 = rows.range(buf, top, bot, version), older = {} }
      wins[win] = s
    end
    s.r = s.r0
    s.checks = M.checks_on(buf)
  else
    -- Comments and card header words only: the lines shown, no classification.
    if not (s and s.buf == buf and s.tick == tick and s.top == top and s.bot == bot and not s.r0) then
      s = { buf = buf, tick = tick, top = top, bot = bot, count = count,
        lines = api.nvim_buf_get_lines(buf, top, bot, false) }
      wins[win] = s
    end
  end
  s.cells = cells_on
  W, W_win = s, win
  return true
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
-- every layout agrees on (fields.card()), by index into r.lines. Made once per range.
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
        i = fields.card(L, i, n, version, 0, out)
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

local function on_line(_, win, buf, row)
  local s = W
  if W_win ~= win then
    s = wins[win]
    if not s then
      return
    end
  end
  if not s.cells then
    local line = s.lines[row - s.top + 1]
    if not line and row < s.count then -- past a closed fold, beyond what on_win read
      line = api.nvim_buf_get_lines(buf, row, row + 1, false)[1]
    end
    if line then
      draw_plain(buf, row, line)
    end
    return
  end
  stats.lines = stats.lines + 1
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
      or fields.line_diagnostics(r.lines[i], r.ent[i], k == 7 and r.rowi[i] or nil, row, {}, k == 7)
    for _, d in ipairs(list) do
      mark(buf, row, d.col, d.end_col, 'NvimpamCellError', M.PRIORITY + 1)
    end
  elseif k == 0 or k == 1 then
    draw_plain(buf, row, r.lines[i])
  end
end

-- Switching ------------------------------------------------------------------------------------

local provider_set = false
local group = nil

--- Whether nvimpam's decoration provider draws comment lines and card header words (after
--- setup()); syntax/pamcrash.vim then defines no syntax items: any syntax item at all costs
--- Neovim more per redrawn page than the whole provider.
---@return boolean
function M.provides_syntax()
  return provider_set
end

local function redraw()
  vim.cmd('redraw!')
end

--- Marks `buf` as a pamcrash buffer or not (the FileType autocmd calls it).
---@param buf integer
---@param yes boolean
function M.track(buf, yes)
  pam[buf] = yes or nil
  versions[buf] = nil
  if yes and not watched[buf] then
    -- A line's row depends on the lines above it: after an edit, every line below it may show
    -- other cells, but Neovim redraws only the changed lines and scrolls the rest.
    watched[buf] = api.nvim_buf_attach(buf, false, {
      on_lines = function(_, b, _, first)
        if not pam[b] then
          watched[b] = nil
          return true -- detaches
        end
        if on then
          compat.redraw_lines(b, first, api.nvim_buf_line_count(b))
        end
      end,
      on_detach = function(_, b)
        watched[b] = nil
      end,
    })
  end
end

--- Registers the decoration provider (once) and the autocmds that follow filetypes; `enabled`
--- is setup()'s `cells` option.
---@param enabled boolean
function M.setup(enabled)
  on = enabled ~= false
  M.define_highlights()
  if not provider_set then
    api.nvim_set_decoration_provider(ns, { on_win = on_win, on_line = on_line })
    provider_set = true
  end
  group = api.nvim_create_augroup('nvimpam_cells', { clear = true })
  api.nvim_create_autocmd('FileType', {
    group = group,
    callback = function(args)
      M.track(args.buf, args.match == 'pamcrash')
    end,
  })
  api.nvim_create_autocmd({ 'BufWipeout', 'BufUnload' }, {
    group = group,
    callback = function(args)
      pam[args.buf], versions[args.buf] = nil, nil
    end,
  })
  api.nvim_create_autocmd('WinClosed', {
    group = group,
    callback = function(args)
      wins[tonumber(args.match) or -1] = nil
    end,
  })
  for _, buf in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(buf) and vim.bo[buf].filetype == 'pamcrash' then
      M.track(buf, true)
      -- The syntax items of a deck opened before setup(): the provider draws them now.
      pcall(api.nvim_buf_call, buf, function()
        vim.cmd('silent! syntax clear NvimpamComment NvimpamKeyword')
      end)
    end
  end
end

--- Cells on, off or toggled for all buffers (:NvimpamCells); nil or '' shows the state. Returns
--- whether they are on.
---@param what? 'on'|'off'|'toggle'|''
---@return boolean
function M.switch(what)
  if what == 'on' then
    on = true
  elseif what == 'off' then
    on = false
  elseif what == 'toggle' then
    on = not on
  elseif what ~= nil and what ~= '' then
    error('nvimpam: :NvimpamCells takes on, off or toggle, not "' .. tostring(what) .. '"', 0)
  end
  if what and what ~= '' then
    redraw()
  end
  return on
end

--- Completion of :NvimpamCells: on, off, toggle.
---@param lead string
---@return string[]
function M.complete(lead)
  return vim.tbl_filter(function(w)
    return w:sub(1, #lead) == lead
  end, { 'on', 'off', 'toggle' })
end

--- Forgets the table and every classification (after layout.use(), in tests).
function M.reload()
  broken, layout_loaded, loading, wins = nil, false, false, {}
  versions = {}
end

-- The cell hint ------------------------------------------------------------------------------

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
  local version = M.version(buf)
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
    local what = require('nvimpam.ids').named[c.kind] and ' (by its title)' or ' id'
    lines[#lines + 1] = (c.id == 'def' and 'defines a ' or 'references a ') .. c.kind .. what
  end
  return lines
end

local float_win = nil

--- :NvimpamCellInfo and K: the field under the cursor (name, columns, type, default, description,
--- value, row, the id kind it defines or references) in a floating window next to the cursor,
--- closed when the cursor moves; a message when the cursor is on no field.
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
