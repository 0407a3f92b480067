-- Creates manual folds by calling Neovim's own foldCreate() (fold.c) through LuaJIT's FFI: what
-- `:{s},{e}fold` ends in, without an Ex command parsed per fold. Headless, with 10k and 100k
-- two-line folds, that takes 0.6-0.7x the time of execute() on the prebuilt commands.
--
-- A C call through a wrong declaration would crash Neovim, so this is used only where the one
-- below was checked against Neovim's source: foldCreate(win_T *, pos_T, pos_T) since 0.7, with a
-- pos_T line number of type `long` in 0.7 and int32_t in 0.10 to 0.12 (0.7.2, 0.10.4 and 0.12.4
-- read; 0.11 lies between two that agree). 0.8 and 0.9, later releases, Neovim without LuaJIT
-- or without the symbols, and `native_folds = false` in setup() get no creator: the callers then
-- run :fold commands.
local M = {}

local compat = require('nvimpam.core.compat')

-- Our own names (asm() binds them to Neovim's symbols), so that no other plugin's declarations
-- of the same C names can clash with these.
local function declare(ffi, lnum)
  -- Once per process: a reloaded module finds them declared (ffi.cdef cannot redefine).
  if not pcall(ffi.typeof, 'nvimpam_pos_T') then
    ffi.cdef(string.format([[
typedef struct { %s lnum; int col; int coladd; } nvimpam_pos_T;
typedef struct nvimpam_win_S nvimpam_win_T;
extern nvimpam_win_T *nvimpam_curwin asm("curwin");
void nvimpam_fold_create(nvimpam_win_T *wp, nvimpam_pos_T start, nvimpam_pos_T end) asm("foldCreate");
]], lnum))
  end
  local C = ffi.C
  local _ = C.nvimpam_fold_create -- resolves the symbols now: a build without them fails here
  _ = C.nvimpam_curwin
  local first, last = ffi.new('nvimpam_pos_T'), ffi.new('nvimpam_pos_T')
  first.col, last.col = 1, 1 -- as ex_fold() passes them
  return function(s, e)
    first.lnum, last.lnum = s, e
    C.nvimpam_fold_create(C.nvimpam_curwin, first, last)
  end
end

-- The create function once made; `why` says why there is none.
local create, why

local function probe()
  local lnum = compat.fold_lnum_ctype
  if not lnum then
    return nil, 'not checked for Neovim ' .. compat.version
  end
  local has_ffi, ffi = pcall(require, 'ffi')
  if not has_ffi then
    return nil, 'this Neovim has no LuaJIT FFI'
  end
  local ok, made = pcall(declare, ffi, lnum)
  if not ok then
    return nil, 'Neovim does not export foldCreate: ' .. tostring(made)
  end
  return made
end

--- A function(s, e) that creates the fold of lines s to e (1-based, inclusive, 1 <= s <= e <=
--- line count, which it does not check) in the current window, whose 'foldmethod' must be
--- manual; or nil and the reason there is none.
---@return (fun(s: integer, e: integer))|nil create
---@return string|nil why
function M.creator()
  -- Options that do not validate (a bad g:nvimpam_strategy) are reported where they are used;
  -- they do not stop folds from being made.
  local ok, options = pcall(require('nvimpam.core.config').get)
  if ok and options.native_folds == false then
    return nil, 'native_folds = false in setup()'
  end
  if create == nil and why == nil then
    create, why = probe()
  end
  return create, why
end

--- Stops creating folds natively for the rest of the session, for `reason` (a fold that came out
--- other than asked).
---@param reason string
function M.disable(reason)
  create, why = nil, reason
end

return M
