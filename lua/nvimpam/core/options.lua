-- The schema of setup()'s options: the one list of every option with its type, default and
-- description. nvimpam.core.config validates and merges from it, `:checkhealth nvimpam` reports from it,
-- and the option list of `:help nvimpam-options` is tested against it (ContractIT). The defaults
-- of the options the JVM acts on (`jvm = true`) live in contract.properties, which the JVM reads
-- too; this list gives them their place, type and description only.
local M = {}

---@class nvimpam.Option
---@field name string the key of setup()'s table
---@field type string the Lua type of its value
---@field also? string another type it may take (`false` for `mappings`)
---@field optional? boolean nil is a valid value (the default is then computed)
---@field default any its default (filled in from contract.properties for `jvm` options)
---@field jvm? boolean the JVM acts on it: it is sent at the JVM's start and on every change
---@field doc string[] its description, as `:help nvimpam-options` shows it

---@type nvimpam.Option[]
M.list = {
  { name = 'strategy', type = 'string', jvm = true, doc = { 'how folds reach Neovim, |nvimpam-strategies|' } },
  { name = 'java', type = 'string', optional = true, default = nil,
    doc = { 'java executable; default $JAVA_HOME/bin/java,', 'then java on $PATH' } },
  { name = 'jar', type = 'string', optional = true, default = nil, doc = { 'default <plugin>/target/nvimpam.jar' } },
  { name = 'jvm_args', type = 'table', default = {}, doc = { "extra JVM options, e.g. { '-Xmx4g' }" } },
  { name = 'generic_cards', type = 'boolean', jvm = true,
    doc = { 'fold cards nvimpam does not know (MATER,', 'CNTAC, …); false gives the folds of the',
      'earlier Rust plugin nvimpam' } },
  { name = 'one_line_folds', type = 'boolean', jvm = true, doc = { 'also create folds of a single line' } },
  { name = 'auto_attach', type = 'boolean', default = true, doc = { 'fold pamcrash buffers when they open' } },
  { name = 'live', type = 'boolean', default = true, doc = { 'keep them folded while editing' } },
  { name = 'debounce_ms', type = 'number', jvm = true, doc = { 'wait this long after a change to refold' } },
  { name = 'notify_lines', type = 'number', jvm = true,
    doc = { 'report lines, folds and time for decks', 'at least this long' } },
  { name = 'timeout_ms', type = 'number', default = 60000,
    doc = { 'how long a command waits for the JVM; a', '10M-line deck folds in about 2-3 s' } },
  { name = 'native_folds', type = 'boolean', default = true,
    doc = { "create folds through Neovim's own C code", 'where that is known to be safe (below)' } },
  { name = 'checks', type = 'boolean', jvm = true,
    doc = { 'check every field, id and include of the', 'cards, |nvimpam-option-checks|' } },
  { name = 'max_diagnostics', type = 'number', jvm = true,
    doc = { 'at most this many problems shown as', 'diagnostics or listed by |:NvimpamCheck|' } },
  { name = 'cells', type = 'boolean', default = true, doc = { 'highlight the fields of card rows,', '|nvimpam-cells|' } },
  { name = 'virtual_header', type = 'boolean', default = false,
    doc = { "a virtual line above the cursor's row", 'naming its fields, |nvimpam-virtual-header|' } },
  { name = 'templates_dir', type = 'string', optional = true, default = nil,
    doc = { "a folder of your own card templates", '(KEY.inc), before the table\'s,', '|nvimpam-templates_dir|' } },
  { name = 'mappings', type = 'table', also = 'boolean', default = nil,
    doc = { 'name -> key, or false for none; false', 'for no mappings at all, |nvimpam-mappings|' } },
  { name = 'formatexpr', type = 'boolean', default = true, doc = { 'gq aligns card rows, |nvimpam-gq|' } },
  { name = 'omnifunc', type = 'boolean', default = true,
    doc = { "'omnifunc' completes ids and choice", 'values, |nvimpam-omnifunc|' } },
  { name = 'complete_max', type = 'number', default = 50, doc = { 'at most this many completion items' } },
  { name = 'refs_max', type = 'number', default = 100000,
    doc = { '|:NvimpamRefs| lists at most this many', 'lines (it counts them all)' } },
}

--- The option of that name, or nil.
---@param name string
---@return nvimpam.Option|nil
function M.get(name)
  for _, o in ipairs(M.list) do
    if o.name == name then
      return o
    end
  end
  return nil
end

--- Every option's name, sorted.
---@return string[]
function M.names()
  local out = {}
  for _, o in ipairs(M.list) do
    out[#out + 1] = o.name
  end
  table.sort(out)
  return out
end

local function show(value)
  if type(value) == 'string' then
    return "'" .. value .. "'"
  elseif type(value) == 'table' then
    return next(value) == nil and '{}' or vim.inspect(value)
  end
  return tostring(value)
end

--- The lines of `:help nvimpam-options`' setup() block: each option at its default, with its
--- description as a comment (`mappings` is described, not spelled out: |nvimpam-mappings| lists
--- its keys).
---@param defaults table<string, any> the defaults in force (config.defaults)
---@return string[]
function M.help_lines(defaults)
  local out = { "  require('nvimpam').setup({" }
  for _, o in ipairs(M.list) do
    local value = o.name == 'mappings' and '{ … }' or show(defaults[o.name])
    local code = string.format('    %s = %s,', o.name, value)
    for i, text in ipairs(o.doc) do
      local left = i == 1 and code or ''
      local pad = math.max(1, 29 - vim.fn.strdisplaywidth(left))
      out[#out + 1] = left .. string.rep(' ', pad) .. '-- ' .. text
    end
  end
  out[#out + 1] = '  })'
  return out
end

return M
