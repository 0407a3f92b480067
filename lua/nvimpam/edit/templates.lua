-- Card templates, generated from the card-layout table (docs/CARDS.md), and :NvimpamCard, which
-- inserts one: the keyword line, every row the card needs (fields blank or at their defaults),
-- a `$#` field header above each row. A folder of the user's own templates (option
-- `templates_dir`) takes precedence.
local M = {}

local layout = require('nvimpam.model.layout')
local fieldheader = require('nvimpam.edit.fieldheader')
local span = require('nvimpam.model.span')

local api = vim.api
local rep, sub, match = string.rep, string.sub, string.match

local NUMERIC = { [layout.INT] = true, [layout.INT_OR_BLANK] = true, [layout.FLOAT] = true, [layout.FLAGS] = true,
  [layout.CHOICE] = true }

--- How many lines a `repeat` row of a template takes at most (a count beyond is cut to this).
M.MAX_REPEAT = 100

local function notify(msg, level)
  vim.notify('nvimpam: ' .. msg, level or vim.log.levels.INFO, { title = 'nvimpam' })
end

--- `value` placed in the columns of field `f`: right- or left-aligned as the field says, padded
--- with blanks to its width. Raises when the value is wider than the field.
---@param f table a field of a layout row
---@param value string
---@return string
function M.cell(f, value)
  local w = f.to - f.from + 1
  if #value > w then
    error(string.format('"%s" does not fit field %s (%d columns)', value, f.name, w), 0)
  end
  if f.align == 'right' then
    return rep(' ', w - #value) .. value
  end
  return value .. rep(' ', w - #value)
end

-- The value a template writes in field f of entry e: an override, the variant for the select
-- columns, the default, or nothing.
local function value_of(e, f, values, is_head)
  if values and values[f.name] ~= nil then
    return tostring(values[f.name])
  end
  local base = is_head and e.variant and layout.all(e.word)[1]
  if base and base.select and f.from == base.select[1] and f.to == base.select[2] then
    return e.variant
  end
  if is_head and e.select and f.from == e.select[1] and f.to == e.select[2] and f.default
    and layout.get().by_key[e.word .. ':' .. f.default] then
    return '' -- the default would make the card a variant: the base entry's template leaves it blank
  end
  return f.default or ''
end

-- The text of one template line of `row`, with values; lines end after the last numeric field
-- (so that <Tab> and Replace mode reach every field), otherwise after their last non-blank.
local function row_line(e, row, values, is_head)
  local parts, col, pad = {}, 1, 0
  for _, f in ipairs(row.fields) do
    if f.from > col then
      parts[#parts + 1] = rep(' ', f.from - col)
    end
    local text
    if f.code == layout.KW then
      text = (e.word .. rep(' ', 6)):sub(1, 6) .. '/ '
    elseif f.code == layout.FIXED then
      text = M.cell(f, f.name)
    elseif f.code == layout.BLANK or f.code == layout.CONT then
      text = M.cell(f, values and values[f.name] or '')
    else
      text = M.cell(f, value_of(e, f, values, is_head))
      if NUMERIC[f.code] then
        pad = f.to
      end
    end
    parts[#parts + 1] = text
    col = f.to + 1
  end
  local line = table.concat(parts):gsub(' +$', '')
  if is_head and #line < 8 then
    line = line .. rep(' ', 8 - #line)
    line = line:gsub(' +$', '')
  end
  if #line < pad then
    line = line .. rep(' ', pad - #line)
  end
  return line
end

-- Whether an `if` row holds for the lines built so far, as nvimpam.model.rows reads it.
local function holds(row, built)
  local at = built[row.cond_row]
  if not at then
    return false
  end
  local f = at.row.fields[row.cond_index]
  return require('nvimpam.model.rows').condition_holds(row, at.line, f.from, f.to)
end

local function count_of(row, built)
  local at = built[row.count_row]
  if not at then
    return 0
  end
  local f = at.row.fields[row.count_index]
  return math.min(require('nvimpam.model.rows').repeat_count(at.line, f.from, f.to), M.MAX_REPEAT)
end

local function title_of(e)
  local head = match(e.description or '', '^([^:]+):') or e.key
  return sub(head, 1, 76)
end

--- The lines of the template of entry `e`: for each row it takes, its `$#` header (when it has
--- fields to name) and its line. `opts.values` gives field values by name (the fields' text,
--- which also decides `if` rows and `repeat` counts, and writes the optional `when` rows it gives
--- a field of); `opts.headers = false` leaves the headers out.
---@param e table an entry of the layout table
---@param opts? table { values = { FIELD = text }, headers = boolean }
---@return string[]
function M.lines(e, opts)
  opts = opts or {}
  local values = opts.values
  local with_headers = opts.headers ~= false
  local out, built = {}, {}
  local function add(row, line)
    if with_headers then
      local h = fieldheader.line(row)
      if h then
        out[#out + 1] = h
      end
    end
    out[#out + 1] = line
  end
  for r, row in ipairs(e.rows) do
    local k = row.kind
    if k == layout.ROW or k == layout.IF then
      if k == layout.ROW or holds(row, built) then
        local line = row_line(e, row, values, r == 1)
        built[r] = { row = row, line = line }
        add(row, line)
      end
    elseif k == layout.NAME then
      local f = row.fields[2]
      local title = values and values[f and f.name or 'TITLE'] or title_of(e)
      local line = ('NAME ' .. title):gsub(' +$', '')
      built[r] = { row = row, line = line }
      add(row, line)
    elseif k == layout.REPEAT then
      local n = count_of(row, built)
      for _ = 1, n do
        local line = row_line(e, row, values, false)
        built[r] = { row = row, line = line }
        add(row, line)
      end
    elseif k == layout.GES then
      out[#out + 1] = '        END'
    elseif k == layout.END then
      out[#out + 1] = row.word
    elseif k == layout.WHEN then
      -- optional: written only when `values` gives one of its fields
      local given = false
      for _, f in ipairs(row.fields) do
        given = given or (values ~= nil and values[f.name] ~= nil)
      end
      if given then
        local line = row_line(e, row, values, false)
        built[r] = { row = row, line = line }
        add(row, line)
      end
    elseif k == layout.UNTIL then
      -- one line of the row (a FUNCT's first point), then the word's line under its first field
      local line = row_line(e, row, values, false)
      built[r] = { row = row, line = line }
      add(row, line)
      out[#out + 1] = rep(' ', row.fields[1] and row.fields[1].from - 1 or 0) .. row.word
    end
    -- block and key rows are optional: a template leaves them out.
  end
  return out
end

--- The file name of a user template for `key`: the key with `:` as `_`, then `.inc`
--- (`PART:SHELL` -> `PART_SHELL.inc`).
---@param key string
---@return string
function M.file_name(key)
  return (key:gsub(':', '_')) .. '.inc'
end

local function user_dir()
  local d = require('nvimpam.core.config').get().templates_dir
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
  return M.lines((layout.pick(list, version)), { values = values })
end

-- The card's own id: the field of its header row that defines an id, with the next free id of
-- its kind from the JVM's index (asked with a short deadline; nothing when it does not answer).
local function own_id(buf, key, version)
  local list = layout.get().by_key[key]
  local e = list and layout.pick(list, version)
  for _, f in ipairs(e and e.rows[1].fields or {}) do
    if f.def then
      local next_id = require('nvimpam.ids.complete').next_free(buf, f.def, 200)
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
  buf = require('nvimpam.core.buf').nr(buf)
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
  require('nvimpam.edit.undo').step(buf, function()
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
  buf = require('nvimpam.core.buf').nr(buf)
  require('nvimpam.view.picker').select(M.choices(), {
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
