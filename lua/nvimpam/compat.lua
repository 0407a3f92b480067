-- The one place that knows how Neovim 0.7 to 0.12 differ for nvimpam: call sites use these
-- instead of the version-specific API, so none of them shows in `:checkhealth vim.deprecated`.
local M = {}

local v = vim.version()
local at_least_0_11 = v.major > 0 or v.minor >= 11

-- libuv bindings: `vim.uv` since 0.10; `vim.loop` is its old name (gone in a future release).
M.uv = vim.uv or vim.loop

-- Before 0.10 (0.7.2 read; 0.10.4 has the fix), deleting lines from above a fold's start to inside
-- it gives the folds nested in it a negative first line (foldMarkAdjustRecurse() in fold.c): a
-- member can end up above its parent, where no read of the folds sees it. 0.8 and 0.9 unchecked.
M.misplaces_nested_folds = v.major == 0 and v.minor < 10

--- Marks lines [first, last) of `buf` for redraw in every window. Neovim redraws only the lines
--- an edit changed and scrolls the ones below, so a decoration provider whose marks depend on the
--- lines above (the cells) must ask for them. `nvim__redraw` since 0.10; before it,
--- `nvim__buf_redraw_range` (gone in 0.12).
---@param buf integer
---@param first integer 0-based
---@param last integer exclusive
function M.redraw_lines(buf, first, last)
  if vim.api.nvim__redraw then
    vim.api.nvim__redraw({ buf = buf, range = { first, last } })
  else
    vim.api.nvim__buf_redraw_range(buf, first, last)
  end
end

--- Checks values against types, given in the table form of 0.7:
--- `{ name = { value, type, optional } }`. 0.11 deprecates that form for
--- `vim.validate(name, value, type, optional)`, which 0.10 and older do not have. Names are
--- checked in sorted order, so the first error reported does not depend on table order.
---@param specs table<string, table> name -> { value, type, optional }
function M.validate(specs)
  if not at_least_0_11 then
    return vim.validate(specs)
  end
  local names = vim.tbl_keys(specs)
  table.sort(names)
  for _, name in ipairs(names) do
    local s = specs[name]
    vim.validate(name, s[1], s[2], s[3])
  end
end

return M
