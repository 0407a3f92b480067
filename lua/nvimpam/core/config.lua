-- nvimpam's options: defaults, validation, and the part the JVM needs. This module owns the
-- configuration: the JVM only ever receives it (at its start and after every change), so a
-- restarted JVM gets the user's current choices.
local M = {}

--- lua/nvimpam/contract.properties, which the JVM reads too: strategy names, the defaults of the
--- options the JVM acts on, and the shape of errors. Returns key -> string value.
---@return table<string, string>
function M.contract()
  if M._contract then
    return M._contract
  end
  -- lua/nvimpam/core/config.lua -> lua/nvimpam
  local dir = debug.getinfo(1, 'S').source:sub(2):match('^(.*)[/\\][^/\\]+[/\\][^/\\]+$') or '.'
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

local schema = require('nvimpam.core.options')
local keys = require('nvimpam.core.keys')

--- The options the JVM acts on, sorted; their defaults come from the contract.
M.jvm_options = {}
--- Every option's default (nil for the ones computed when used: java, jar, templates_dir).
M.defaults = {}
for _, o in ipairs(schema.list) do
  if o.jvm then
    M.jvm_options[#M.jvm_options + 1] = o.name
    M.defaults[o.name] = typed(M.contract()['option.' .. o.name])
  elseif o.name == 'mappings' then
    M.defaults.mappings = keys.defaults()
  else
    M.defaults[o.name] = vim.deepcopy(o.default)
  end
end
table.sort(M.jvm_options)

local function check(opts, given)
  for key in pairs(given) do
    if not schema.get(key) then
      error(string.format("nvimpam: unknown option '%s'; valid options: %s", tostring(key),
        table.concat(schema.names(), ', ')), 0)
    end
  end
  for _, o in ipairs(schema.list) do
    local v = opts[o.name]
    if not (v == nil and o.optional) and type(v) ~= o.type and not (o.also and type(v) == o.also) then
      error(string.format('nvimpam: option %s: expected %s, got %s', o.name, o.type, vim.inspect(v)), 0)
    end
  end
  M.check_strategy(opts.strategy)
  keys.validate(opts.mappings)
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
---@return table<string, any> option name -> value
function M.for_jvm()
  local c = M.get()
  local out = {}
  for _, name in ipairs(M.jvm_options) do
    out[name] = c[name]
  end
  return out
end

return M
