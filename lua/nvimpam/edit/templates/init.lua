-- Card templates and :NvimpamCard, which inserts one: a template generated from the card-layout
-- table (nvimpam.edit.templates.build), or the user's own from the folder of the option
-- `templates_dir`, which takes precedence.
local M = {}

local layout = require('nvimpam.model.layout')
local fieldheader = require('nvimpam.edit.fieldheader')
local span = require('nvimpam.model.span')
local build = require('nvimpam.edit.templates.build')
local config = require('nvimpam.core.config')
local undo = require('nvimpam.core.undo')
local picker = require('nvimpam.ui.picker')
local next_free = require('nvimpam.ids.complete').next_free
local bufnr = require('nvimpam.core.buf').nr

local api = vim.api
local match = string.match

local function notify(msg, level)
  vim.notify('nvimpam: ' .. msg, level or vim.log.levels.INFO, { title = 'nvimpam' })
end

--- The file name of a user template for `key`: the key with `:` as `_`, then `.inc`
--- (`PART:SHELL` -> `PART_SHELL.inc`).
---@param key string
---@return string
function M.file_name(key)
  return (key:gsub(':', '_')) .. '.inc'
end

local function user_dir()
  local d = config.get().templates_dir
  if d == nil or d == '' then
    return nil
  end
  return vim.fn.expand(d)
end

--- The user's template for `key` (its lines), or nil.
---@param key string
---@return string[]|nil
function M.user_template(key)
  local d = user_dir()
  if not d then
    return nil
  end
  local path = d .. '/' .. M.file_name(key)
  if vim.fn.filereadable(path) ~= 1 then
    return nil
  end
  local lines = vim.fn.readfile(path)
  for i, l in ipairs(lines) do
    lines[i] = l:gsub('\r$', '')
  end
  return lines
end

-- The user templates' keys that the table does not have (file MY_CARD.inc -> key MY_CARD).
local function user_only_keys()
  local d = user_dir()
  local out = {}
  if not d then
    return out
  end
  local known = {}
  for _, k in ipairs(layout.keys()) do
    known[M.file_name(k)] = true
  end
  for _, path in ipairs(vim.fn.glob(d .. '/*.inc', false, true)) do
    local name = vim.fn.fnamemodify(path, ':t')
    if not known[name] then
      out[#out + 1] = name:gsub('%.inc$', '')
    end
  end
  table.sort(out)
  return out
end

--- Every template key: the table's keys (variants included), then the user's own.
---@return string[]
function M.keys()
  local out = {}
  for _, k in ipairs(layout.keys()) do
    out[#out + 1] = k
  end
  for _, k in ipairs(user_only_keys()) do
    out[#out + 1] = k
  end
  return out
end

--- The lines :NvimpamCard inserts for `key` in a deck of `version`: the user's template if there
--- is one, else the table's, with `values` (field name -> text) written in. Nil for an unknown key.
---@param key string
---@param version? integer
---@param values? table
---@return string[]|nil
function M.for_key(key, version, values)
  local user = M.user_template(key)
  if user then
    return user
  end
  local list = layout.get().by_key[key]
  if not list then
    return nil
  end
  return build.lines((layout.pick(list, version)), { values = values })
end

-- The card's own id: the field of its header row that defines an id, with the next free id of
-- its kind from the JVM's index (asked with a short deadline; nothing when it does not answer).
local function own_id(buf, key, version)
  local list = layout.get().by_key[key]
  local e = list and layout.pick(list, version)
  for _, f in ipairs(e and e.rows[1].fields or {}) do
    if f.def then
      local next_id = next_free(buf, f.def, 200)
      return next_id and { [f.name] = tostring(next_id) } or nil
    end
  end
  return nil
end

--- Command-line completion of template keys (case-insensitive prefix).
---@param arglead string
---@return string[]
function M.complete(arglead)
  local out, lead = {}, (arglead or ''):upper()
  for _, k in ipairs(M.keys()) do
    if k:upper():sub(1, #lead) == lead then
      out[#out + 1] = k
    end
  end
  return out
end

--- Where a card goes when the cursor is on line `lnum` (0-based): the line index to insert at
--- (0-based, the new lines go before it) and whether the cursor line is empty and is replaced.
--- Never inside a multi-line card: below the card under the cursor; in a run of one-line cards,
--- below the run; between cards, below the cursor line (an empty cursor line is replaced).
---@param buf integer
---@param lnum integer
---@return integer at
---@return boolean replace
function M.placement(buf, lnum)
  local rd = span.reader(buf)
  local run = span.run_at(rd, lnum, span.version(buf))
  if run then
    return run.last + 1, false
  end
  local line = rd.get(lnum) or ''
  if line == '' then
    return lnum, true
  end
  return lnum + 1, false
end

--- Inserts the template of `key` where M.placement() says and puts the cursor on its keyword line.
--- Returns false (with a message) for an unknown key.
---@param buf integer
---@param key string
---@return boolean
function M.insert(buf, key)
  buf = bufnr(buf)
  key = vim.trim(key or '')
  if not layout.get().by_key[key] and not M.user_template(key) then
    -- Case-insensitive, for the hand-typed key.
    for _, k in ipairs(M.keys()) do
      if k:upper() == key:upper() then
        key = k
        break
      end
    end
  end
  local version = span.version(buf)
  local lines = M.for_key(key, version, M.user_template(key) == nil and own_id(buf, key, version) or nil)
  if not lines then
    notify(string.format('no card template "%s" (<Tab> after :NvimpamCard completes the names)', key),
      vim.log.levels.ERROR)
    return false
  end
  local win = api.nvim_get_current_win()
  local lnum = api.nvim_win_get_cursor(win)[1] - 1
  if api.nvim_win_get_buf(win) ~= buf then
    lnum = api.nvim_buf_line_count(buf) - 1
  end
  local at, replace = M.placement(buf, lnum)
  undo.step(buf, function()
    api.nvim_buf_set_lines(buf, at, replace and at + 1 or at, false, lines)
  end)
  if api.nvim_win_get_buf(win) == buf then
    local kw = 1
    for i, l in ipairs(lines) do
      if layout.header_word(l) then
        kw = i
        break
      end
    end
    api.nvim_win_set_cursor(win, { at + kw, 0 })
  end
  return true
end

--- The picker's entries: `Category  KEY /  description` for every key, in table order (user-only
--- templates as `User  KEY /  user template`).
---@return table[] { key, text }
function M.choices()
  local out = {}
  local by_key = layout.get().by_key
  for _, k in ipairs(M.keys()) do
    local list = by_key[k]
    if list then
      local e = list[#list]
      local desc = match(e.description, '^[^:]*:%s*(.*)$') or e.description
      out[#out + 1] = { key = k, text = string.format('%-10s %s /  %s', e.category, k, desc) }
    else
      out[#out + 1] = { key = k, text = string.format('%-10s %s /  user template', 'User', k) }
    end
  end
  return out
end

--- Opens vim.ui.select over every template (picker plugins replace it) and inserts the chosen one.
---@param buf integer
function M.pick(buf)
  buf = bufnr(buf)
  picker.select(M.choices(), {
    prompt = 'PAM-CRASH card',
    format_item = function(item)
      return item.text
    end,
  }, function(item)
    if item then
      M.insert(buf, item.key)
    end
  end)
end

--- :NvimpamCard [KEY]
---@param o table { buf, args }
function M.command(o)
  if o.args == nil or vim.trim(o.args) == '' then
    M.pick(o.buf)
  else
    M.insert(o.buf, o.args)
  end
end

return M

