-- Cell highlighting: one decoration provider for every window, computing only what is drawn.
--
-- on_win classifies the window's lines once (rows.range(): one fetch of the lines shown, plus a
-- bounded walk back to the header of the card they start in); on_line sets ephemeral extmarks on
-- the fields of that line (nvimpam.view.cells.draw): alternating cell groups, the keyword and
-- fixed-text groups, and the error/warn groups where a field fails its check, on tabs and on text
-- past column 80. Nothing is stored per line of the buffer and nothing asks the JVM: the row of
-- every line shown comes from the lines above it, read again at each redraw after an edit (the
-- classification of a window is kept only while its buffer's changedtick and its range stay the
-- same), so it is right in every window at the first redraw after any edit. The field under the
-- cursor is nvimpam.view.cells.hint's.
local M = {}

local config = require('nvimpam.core.config')
local layout = require('nvimpam.model.layout')
local rows = require('nvimpam.model.rows')
local compat = require('nvimpam.core.compat')
local versions = require('nvimpam.model.version')
local opening = require('nvimpam.fold.opening')
local version_of = versions.of

local api = vim.api
local min = math.min

local draw = require('nvimpam.view.cells.draw')

--- The namespace of the cells' marks.
M.ns = draw.ns

--- Extmark priority of the cells: below vim.diagnostic's underline (150), above syntax.
M.PRIORITY = draw.PRIORITY

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
---@return nil
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
---@return nil
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
-- then. While a big deck opens, the load waits for its folds (nvimpam.fold.opening), WAIT_FOR_FOLDS_MS at
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
    opening.after(load, M.BIG_DECK_LINES)
    vim.defer_fn(load, M.WAIT_FOR_FOLDS_MS)
  end
  return false
end

-- Drawing --------------------------------------------------------------------------------------

local LIMIT = 400 -- at most this many lines are classified in on_win

local layout_loaded = false
local W = nil -- the window being drawn: its entry of `wins`
local W_win = nil

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
    local version = version_of(buf, tick)
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
      draw.plain(buf, row, line)
    end
    return
  end
  stats.lines = stats.lines + 1
  draw.line(buf, row, s)
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
  versions.forget(buf)
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
    api.nvim_set_decoration_provider(M.ns, { on_win = on_win, on_line = on_line })
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
      pam[args.buf] = nil
      versions.forget(args.buf)
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
---@return nil
function M.reload()
  broken, layout_loaded, loading, wins = nil, false, false, {}
  versions.forget()
end

return M
