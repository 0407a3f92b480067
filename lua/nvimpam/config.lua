-- nvimpam's options: defaults, validation, and the part the JVM needs. This module owns the
-- configuration: the JVM only ever receives it (at its start and after every change), so a
-- restarted JVM gets the user's current choices.
local M = {}

--- lua/nvimpam/contract.properties, which the JVM reads too: strategy names, the defaults of the
--- options the JVM acts on, and the shape of errors. Returns key -> string value.
function M.contract()
  if M._contract then
    return M._contract
  end
  local dir = debug.getinfo(1, 'S').source:sub(2):match('^(.*)[/\\]') or '.'
  local c = {}
  for _, line in ipairs(vim.fn.readfile(dir .. '/contract.properties')) do
    local key, value = line:match('^%s*([%w_.]+)%s*=%s*(.-)%s*$')
    if key and not line:match('^%s*#') then
      c[key] = value
    end
  end
  M._contract = c
  return c
end

local function list(s)
  return vim.split(s, '%s*,%s*')
end

local function typed(s)
  if s == 'true' or s == 'false' then
    return s == 'true'
  end
  return tonumber(s) or s
end

M.strategies = list(M.contract().strategies)

--- The options the JVM acts on (their names and defaults come from the contract).
M.jvm_options = {}
M.defaults = {
  java = nil, -- path to java; default $JAVA_HOME/bin/java, then java on $PATH
  jar = nil, -- default <plugin root>/target/nvimpam.jar
  jvm_args = {}, -- extra JVM options, e.g. { '-Xmx4g' } for decks of tens of millions of lines
  auto_attach = true, -- fold pamcrash buffers when opened and keep them folded while editing
  live = true, -- refold while editing (with auto_attach, or after :NvimpamFoldAttach)
  timeout_ms = 60000, -- how long a command waits for the JVM (a 10M-line deck folds in 2-3 s)
  native_folds = true, -- create folds through Neovim's own C function where known safe (lua/nvimpam/native.lua)
  cells = true, -- highlight the fields of known card rows (lua/nvimpam/cells.lua)
  virtual_header = false, -- a virtual line above the cursor's row naming its fields (lua/nvimpam/header.lua)
  templates_dir = nil, -- a folder of the user's own card templates (KEY.inc), before the table's (templates.lua)
  mappings = require('nvimpam.mappings').defaults(), -- name -> key, or false for none (mappings.lua)
  formatexpr = true, -- gq aligns card rows in pamcrash buffers (align.lua)
  omnifunc = true, -- 'omnifunc' completes ids and choice values in pamcrash buffers (ids.lua)
  complete_max = 50, -- at most this many completion items (a node field has millions of candidates)
  refs_max = 100000, -- :NvimpamRefs lists at most this many lines (it counts them all)
}
for key, value in pairs(M.contract()) do
  local name = key:match('^option%.(.+)$')
  if name then
    M.jvm_options[#M.jvm_options + 1] = name
    M.defaults[name] = typed(value)
  end
end
table.sort(M.jvm_options)

-- Option name -> { type, optional }: the type of its default, except for these.
local types = { java = { 'string', true }, jar = { 'string', true }, templates_dir = { 'string', true },
  mappings = { 'table', false, 'boolean' } }
for key, default in pairs(M.defaults) do
  types[key] = types[key] or { type(default) }
end

local function check(opts, given)
  for key in pairs(given) do
    if not types[key] then
      local keys = vim.tbl_keys(types)
      table.sort(keys)
      error(string.format("nvimpam: unknown option '%s'; valid options: %s", tostring(key),
        table.concat(keys, ', ')), 0)
    end
  end
  for key, t in pairs(types) do
    local v = opts[key]
    if not (v == nil and t[2]) and type(v) ~= t[1] and not (t[3] and type(v) == t[3]) then
      error(string.format('nvimpam: option %s: expected %s, got %s', key, t[1], vim.inspect(v)), 0)
    end
  end
  M.check_strategy(opts.strategy)
  require('nvimpam.mappings').validate(opts.mappings)
end

--- Raises an error listing the valid names when `name` is not a strategy.
---@param name any
function M.check_strategy(name)
  if not vim.tbl_contains(M.strategies, name) then
    error(string.format("nvimpam: unknown fold strategy '%s'; valid names: %s", tostring(name),
      table.concat(M.strategies, ', ')), 0)
  end
end

local current = nil

-- g:nvimpam_strategy is read here only, when the options are set (by setup(), or on first use
-- without setup(), e.g. by the rplugin manifest's commands): it picks the strategy when setup()
-- names none.
local function merged(opts)
  opts = opts or {}
  local m = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts)
  if opts.strategy == nil and vim.g.nvimpam_strategy ~= nil then
    m.strategy = vim.g.nvimpam_strategy
  end
  check(m, opts)
  return m
end

--- Merges user options over the defaults; raises an error naming the valid keys for a bad one.
---@param opts? table the options of setup() (`:help nvimpam-options`)
---@return table the options in force
function M.set(opts)
  current = merged(opts)
  return current
end

--- Switches the fold strategy (:NvimpamFoldStrategy); raises an error for an unknown name.
---@param name string
function M.set_strategy(name)
  M.check_strategy(name)
  M.get().strategy = name
end

--- The options in force: setup()'s, else `vim.g.nvimpam` (a table, for users who never call
--- setup()), else the defaults.
---@return table
function M.get()
  if not current then
    local g = vim.g.nvimpam
    current = merged(type(g) == 'table' and g or {})
  end
  return current
end

--- The options the JVM acts on, sent when it starts and again when they change.
function M.for_jvm()
  local c = M.get()
  local out = {}
  for _, name in ipairs(M.jvm_options) do
    out[name] = c[name]
  end
  return out
end

return M
