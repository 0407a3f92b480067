-- The one place that knows how Neovim 0.7 to 0.12 differ for nvimpam: call sites use these
-- instead of the version-specific API, so none of them shows in `:checkhealth vim.deprecated`.
local M = {}

local v = vim.version()
local at_least_0_11 = v.major > 0 or v.minor >= 11

-- libuv bindings: `vim.uv` since 0.10; `vim.loop` is its old name (gone in a future release).
M.uv = vim.uv or vim.loop

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
