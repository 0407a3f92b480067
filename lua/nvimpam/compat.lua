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

--- Checks values against types, given in the table form of 0.7:
--- `{ name = { value, type, optional } }`. 0.11 deprecates that form for
--- `vim.validate(name, value, type, optional)`, which 0.10 and older do not have. Names are
--- checked in sorted order, so the first error reported does not depend on table order.
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
