-- What Neovim read from disk for each buffer: the file's size, mtime and inode when it was read (or
-- written), so that the JVM may read a big deck from the file instead of over RPC, but only when
-- the file is provably the text the buffer holds. check() is what the JVM asks, in one request.
--
-- The JVM may read the file while Neovim does (M.early, set by nvimpam.live): a deck about to open
-- is announced at BufReadPre, and the JVM reads and folds it from disk alongside Neovim's own read. check() then
-- decides, as for any other disk read, whether that read may stand in for the buffer.
local M = {}

local api = vim.api
local uv = require('nvimpam.core.compat').uv
local read = {} -- buf -> { path, size, sec, nsec, ino } or { why = ... }
local before = {} -- buf -> the stat and changedtick at BufReadPre, until BufReadPost

local function stat(name)
  local st = name ~= '' and uv.fs_stat(name) or nil
  if st and st.type == 'file' then
    return { path = name, size = st.size, sec = st.mtime.sec, nsec = st.mtime.nsec, ino = st.ino }
  end
  return nil
end

local function same(a, b)
  return a.size == b.size and a.sec == b.sec and a.nsec == b.nsec and a.ino == b.ino
end

-- Whether a BufReadCmd autocmd reads `name` instead of Neovim (such a plugin may fire BufReadPre
-- and BufReadPost itself, around a text of its own).
local function read_by_autocmd(name)
  local ok, cmds = pcall(api.nvim_get_autocmds, { event = 'BufReadCmd' })
  if not ok then
    return false
  end
  local tail = vim.fn.fnamemodify(name, ':t')
  for _, c in ipairs(cmds) do
    if not c.buflocal and c.pattern then
      local re = vim.regex(vim.fn.glob2regpat(c.pattern))
      if re:match_str(c.pattern:find('/') and name or tail) then
        return true
      end
    end
  end
  return false
end

-- Watches the buffer from its BufReadPost on: a change after it (a later BufReadPost autocmd; Neovim
-- resets 'modified' once they all ran, so that flag does not tell) means the file is not its text.
local function watch(buf, rec)
  api.nvim_buf_attach(buf, false, {
    on_lines = function()
      if read[buf] == rec then
        read[buf] = { why = 'changed after it was read' }
      end
      return true -- detach: one change is enough
    end,
  })
end

-- At BufReadPost (or BufWritePost): what was read, or why it cannot stand in for the buffer.
local function record(buf, event)
  local name = api.nvim_buf_get_name(buf)
  local st = stat(name)
  local pre = before[buf]
  before[buf] = nil
  if not st then
    read[buf] = nil
    return
  elseif event ~= 'BufReadPost' then
    read[buf] = st -- written: the file is the buffer's text until 'modified' says otherwise
    return
  end
  if read_by_autocmd(name) then
    read[buf] = { why = 'a BufReadCmd autocmd read it' }
  elseif not pre then
    read[buf] = { why = 'not read by Neovim itself (no BufReadPre)' }
  elseif not same(pre, st) then
    read[buf] = { why = 'the file changed while Neovim read it' }
  elseif pre.tick ~= api.nvim_buf_get_changedtick(buf) then
    read[buf] = { why = 'an autocmd changed it after the read' }
  else
    read[buf] = st
    watch(buf, st)
  end
end

--- Called with each file about to be read (BufReadPre), to have the JVM read it early; set by
--- nvimpam.live.
M.early = nil ---@type fun(buf: integer, path: string)|nil

--- Starts recording; called by setup(), before any deck is read.
---@return nil
function M.track()
  local group = api.nvim_create_augroup('nvimpam_filestate', { clear = true })
  api.nvim_create_autocmd('BufReadPre', {
    group = group,
    callback = function(args)
      local st = stat(api.nvim_buf_get_name(args.buf))
      if st and not read_by_autocmd(st.path) then
        st.tick = api.nvim_buf_get_changedtick(args.buf) -- Neovim's read itself leaves it alone
        before[args.buf] = st
        if M.early then
          M.early(args.buf, st.path)
        end
      end
    end,
  })
  api.nvim_create_autocmd({ 'BufReadPost', 'BufWritePost' }, {
    group = group,
    callback = function(args)
      record(args.buf, args.event)
    end,
  })
  api.nvim_create_autocmd({ 'BufWipeout', 'BufFilePost' }, {
    group = group,
    callback = function(args)
      read[args.buf] = nil
      before[args.buf] = nil
    end,
  })
end

--- Why the file is not the buffer's text (a string), or nil.
local function refusal(buf, rec)
  local bo = vim.bo[buf]
  if not rec then
    return 'not read from a file'
  elseif bo.modified then
    return 'modified'
  elseif rec.why then
    return rec.why
  elseif bo.fileformat == 'mac' then
    return 'fileformat=' .. bo.fileformat
  elseif bo.fileencoding ~= '' and bo.fileencoding ~= 'utf-8' then
    return 'fileencoding=' .. bo.fileencoding
  elseif bo.bomb then
    return 'bomb'
  elseif bo.binary then
    return 'binary'
  elseif rec.size == 0 then
    return 'empty file'
  end
  local st = stat(rec.path)
  if not st or not same(st, rec) then
    return 'file changed since it was read'
  end
  return nil
end

--- One buffer state, as a list: { line count, byte count (newlines included), refusal or nil,
--- path, file size, 'eol', 0-based sample line numbers, sample lines, mtime seconds, mtime
--- nanoseconds, inode, 'fileformat' is dos }.
---@param buf integer
---@param samples integer how many lines to sample (at least 2, at most the line count)
---@return any[]
function M.check(buf, samples)
  buf = buf == 0 and api.nvim_get_current_buf() or buf
  local n = api.nvim_buf_line_count(buf)
  local bytes = api.nvim_buf_get_offset(buf, n)
  local rec = read[buf]
  local why = refusal(buf, rec)
  if why then
    return { n, bytes, why }
  end
  local at, lines = {}, {}
  samples = math.max(2, math.min(samples, n))
  for k = 0, samples - 1 do
    local l = math.floor(k * (n - 1) / (samples - 1))
    at[#at + 1] = l
    lines[#lines + 1] = api.nvim_buf_get_lines(buf, l, l + 1, true)[1]
  end
  return { n, bytes, vim.NIL, rec.path, rec.size, vim.bo[buf].eol, at, lines, rec.sec, rec.nsec, rec.ino,
    vim.bo[buf].fileformat == 'dos' }
end

return M
