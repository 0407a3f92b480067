-- nvimpam's options: defaults, validation, and the part the JVM needs.
local M = {}

M.strategies = { 'per-command', 'call-atomic', 'pipe', 'lua', 'viml' }

M.defaults = {
  strategy = 'lua', -- fastest on the benchmark (README); see :NvimpamFoldBench for your deck
  java = nil, -- path to java; default $JAVA_HOME/bin/java, then java on $PATH
  jar = nil, -- default <plugin root>/target/nvimpam.jar
  jvm_args = {}, -- extra JVM options, e.g. { '-Xmx4g' } for decks of tens of millions of lines
  generic_cards = true, -- fold cards nvimpam does not know (MATER, CNTAC, …); false = compatible mode
  one_line_folds = false, -- also send folds of a single line
  auto_attach = true, -- fold pamcrash buffers when opened and keep them folded while editing
  live = true, -- refold while editing (with auto_attach, or after :NvimpamFoldAttach)
  debounce_ms = 100, -- wait this long after the last change before refolding
  notify_lines = 200000, -- report lines, folds and time for decks at least this long
}

local current = vim.deepcopy(M.defaults)

local function check(opts)
  require('nvimpam.compat').validate({
    strategy = { opts.strategy, 'string' },
    java = { opts.java, 'string', true },
    jar = { opts.jar, 'string', true },
    jvm_args = { opts.jvm_args, 'table' },
    generic_cards = { opts.generic_cards, 'boolean' },
    one_line_folds = { opts.one_line_folds, 'boolean' },
    auto_attach = { opts.auto_attach, 'boolean' },
    live = { opts.live, 'boolean' },
    debounce_ms = { opts.debounce_ms, 'number' },
    notify_lines = { opts.notify_lines, 'number' },
  })
  M.check_strategy(opts.strategy)
end

--- Raises an error listing the valid names when `name` is not a strategy.
function M.check_strategy(name)
  if not vim.tbl_contains(M.strategies, name) then
    error(string.format("nvimpam: unknown fold strategy '%s'; valid names: %s", tostring(name),
      table.concat(M.strategies, ', ')), 0)
  end
end

-- Whether the strategy was chosen in setup() or by :NvimpamFoldStrategy; otherwise
-- g:nvimpam_strategy, read on every use, picks it.
local strategy_chosen = false

--- Merges user options over the defaults.
function M.set(opts)
  opts = opts or {}
  local merged = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts)
  strategy_chosen = opts.strategy ~= nil
  check(merged)
  current = merged
  return current
end

function M.set_strategy(name)
  M.check_strategy(name)
  current.strategy = name
  strategy_chosen = true
end

function M.get()
  local g = vim.g.nvimpam_strategy
  if not strategy_chosen and g ~= nil and g ~= current.strategy then
    M.check_strategy(g)
    current.strategy = g
  end
  return current
end

--- The options the JVM acts on, sent once when it starts and again when they change.
function M.for_jvm()
  local c = M.get()
  return {
    strategy = c.strategy,
    generic_cards = c.generic_cards,
    one_line_folds = c.one_line_folds,
    debounce_ms = c.debounce_ms,
    notify_lines = c.notify_lines,
  }
end

return M
