-- The one place that knows how Neovim 0.7 to 0.12 differ for nvimpam: call sites use these
-- instead of the version-specific API, so none of them shows in `:checkhealth vim.deprecated`.
local M = {}

local v = vim.version()

--- Whether this Neovim is 0.`minor` or newer (any 1.x counts as newer).
---@param minor integer
---@return boolean
function M.at_least(minor)
  return v.major > 0 or v.minor >= minor
end

--- This Neovim's version as `major.minor.patch`.
M.version = string.format('%d.%d.%d', v.major, v.minor, v.patch)

--- A key naming this exact Neovim (binary, version, API level), for what is cached per Neovim.
M.cache_key = string.format('%s:%d.%d.%d-%d%s', vim.v.progpath, v.major, v.minor, v.patch, v.api_level,
  v.prerelease and '-dev' or '')

--- The oldest Neovim nvimpam supports (`:checkhealth` says so on an older one).
M.oldest_minor = 7

-- 0.11 made grr, grn and gO default keys (LSP); nvimpam's references, rename and outline take
-- them in pamcrash buffers there, and have no default key before.
M.lsp_default_keys = M.at_least(11)

-- Floating windows take a title since 0.9.
M.float_title = M.at_least(9)

-- Virtual lines scroll sideways with the text since 0.11 (virt_lines_overflow = 'scroll').
M.virt_lines_scroll = M.at_least(11)

-- The C type of a pos_T's line number, for the FFI declaration of foldCreate() (nvimpam.fold.native):
-- `long` in 0.7, int32_t in 0.10 to 0.12 (0.7.2, 0.10.4 and 0.12.4 read; 0.11 lies between two
-- that agree); nil where not checked (0.8, 0.9, later releases).
if v.major == 0 and v.minor == 7 then
  M.fold_lnum_ctype = 'long'
elseif v.major == 0 and v.minor >= 10 and v.minor <= 12 then
  M.fold_lnum_ctype = 'int32_t'
end

-- libuv bindings: `vim.uv` since 0.10; `vim.loop` is its old name (gone in a future release).
M.uv = vim.uv or vim.loop

-- Before 0.10 (0.7.2 read; 0.10.4 has the fix), deleting lines from above a fold's start to inside
-- it gives the folds nested in it a negative first line (foldMarkAdjustRecurse() in fold.c): a
-- member can end up above its parent, where no read of the folds sees it. 0.8 and 0.9 unchecked.
M.misplaces_nested_folds = v.major == 0 and v.minor < 10

--- Marks lines [first, last) of `buf` for redraw in every window. Neovim redraws only the lines
--- an edit changed and scrolls the ones below, so a decoration provider whose marks depend on the
--- lines above (the cells) must ask for them. `nvim__redraw` since 0.10; before it,
--- `nvim__buf_redraw_range` (gone in 0.12). Only marks them (`flush = false`): `nvim__redraw`
--- with a range otherwise redraws the screen at once, and called from `on_lines` that draws a
--- buffer whose windows Neovim has not yet fixed after the change (0.12: E315 when lines at the
--- end were deleted).
---@param buf integer
---@param first integer 0-based
---@param last integer exclusive
function M.redraw_lines(buf, first, last)
  if vim.api.nvim__redraw then
    vim.api.nvim__redraw({ buf = buf, range = { first, last }, flush = false })
  else
    vim.api.nvim__buf_redraw_range(buf, first, last)
  end
end

return M
