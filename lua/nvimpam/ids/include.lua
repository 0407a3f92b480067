-- Include files (gf on INCLU lines): the file name an INCLU line names, and where it points from
-- a buffer, as the JVM resolves it.
local M = {}

local api = vim.api
local bufnr = require('nvimpam.core.buf').nr

--- The file name an INCLU line of `lines` (the line and those after it) names, quotes removed,
--- continued where column 81 holds & or -; nil for other lines.
---@param lines string[]
---@return string|nil
function M.include_name(lines)
  local l = lines[1]
  if not l or l:sub(1, 7) ~= 'INCLU /' then
    return nil
  end
  local name = vim.trim(l:sub(9, 80))
  local i = 1
  while #lines[i] > 80 and (lines[i]:sub(81, 81) == '&' or lines[i]:sub(81, 81) == '-') and lines[i + 1] do
    i = i + 1
    name = name .. vim.trim(lines[i]:sub(1, 80))
  end
  name = vim.trim(name)
  local q = name:sub(1, 1)
  if #name >= 2 and (q == '"' or q == "'") and name:sub(-1) == q then
    name = name:sub(2, -2)
  end
  return name ~= '' and name or nil
end

--- Where an include name points from `buf`, as the JVM resolves it: absolute as written;
--- relative, in the folder of the buffer's file, else in the folder of the open deck that includes
--- it (b:nvimpam_root_dir). Returns the path, or the name as written when no file exists.
---@param name string
---@param buf? integer
---@return string
function M.resolve(name, buf)
  buf = bufnr(buf)
  if name:sub(1, 1) == '/' then
    return name
  end
  local dirs = { vim.fn.fnamemodify(api.nvim_buf_get_name(buf), ':p:h') }
  local ok, root = pcall(api.nvim_buf_get_var, buf, 'nvimpam_root_dir')
  if ok and type(root) == 'string' and root ~= '' then
    dirs[#dirs + 1] = root
  end
  for _, d in ipairs(dirs) do
    local p = d .. '/' .. name
    if vim.fn.filereadable(p) == 1 or vim.fn.isdirectory(p) == 1 then
      return p
    end
  end
  return name
end

--- 'includeexpr' of pamcrash buffers: on an INCLU line the file it names (gf, <C-w>f), resolved
--- as the JVM resolves it; elsewhere `fname` as it is.
---@param fname string
---@return string
function M.includeexpr(fname)
  local row = api.nvim_win_get_cursor(0)[1]
  local name = M.include_name(api.nvim_buf_get_lines(0, row - 1, row + 4, false))
  if name and (fname == nil or fname == '' or name:find(fname, 1, true)) then
    return M.resolve(name)
  end
  return fname
end

--- Runs one of the mappings' actions ('goto', 'refs', 'outline'); errors become notifications.

return M
