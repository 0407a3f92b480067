-- What Neovim read from disk for each buffer: the file's size and mtime when it was read (or
-- written), so that the JVM may read a big deck from the file instead of over RPC, but only when
-- the file is provably the text the buffer holds. check() is what the JVM asks, in one request.
local M = {}

local api = vim.api
local uv = require('nvimpam.compat').uv
local read = {} -- buf -> { path, size, sec, nsec }

local function record(buf)
  local name = api.nvim_buf_get_name(buf)
  local st = name ~= '' and uv.fs_stat(name) or nil
  read[buf] = st and st.type == 'file' and { path = name, size = st.size, sec = st.mtime.sec, nsec = st.mtime.nsec }
    or nil
end

--- Starts recording; called by setup(), before any deck is read.
function M.track()
  local group = api.nvim_create_augroup('nvimpam_filestate', { clear = true })
  api.nvim_create_autocmd({ 'BufReadPost', 'BufWritePost' }, {
    group = group,
    callback = function(args)
      record(args.buf)
    end,
  })
  api.nvim_create_autocmd({ 'BufWipeout', 'BufFilePost' }, {
    group = group,
    callback = function(args)
      read[args.buf] = nil
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
  elseif bo.fileformat ~= 'unix' then
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
  local st = uv.fs_stat(rec.path)
  if not st or st.size ~= rec.size or st.mtime.sec ~= rec.sec or st.mtime.nsec ~= rec.nsec then
    return 'file changed since it was read'
  end
  return nil
end

--- One buffer state, as a list: { line count, byte count (newlines included), refusal or nil,
--- path, file size, 'eol', 0-based sample line numbers, sample lines }.
---@param buf integer
---@param samples integer how many lines to sample (at least 2, at most the line count)
---@return any[]
function M.check(buf, samples)
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
  return { n, bytes, vim.NIL, rec.path, rec.size, vim.bo[buf].eol, at, lines }
end

return M
