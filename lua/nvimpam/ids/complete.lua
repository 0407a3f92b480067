-- Completion of ids ('omnifunc' of pamcrash buffers): the ids of a field's kind, group titles in
-- GES items, a choice field's values; and the next free id of a kind (:NvimpamCard). Asks the
-- JVM's id index with a short deadline.
local M = {}

local config = require('nvimpam.core.config')
local at = require('nvimpam.ids.at')
local ask = require('nvimpam.ids.ask').within

local api = vim.api

-- What is being completed: { buf, row, start (1-based column), kind, line, f } for a field; for a
-- GES title f is nil and close says whether the item still lacks its closing quote.
local omni = nil

-- The field of the cursor for completion: the one holding the character before the cursor (the
-- one being typed), else the one under it.
local function omni_field(buf, row, col0)
  local a = col0 > 0 and at.field_at(buf, row, col0) or nil
  if not (a and a.field) then
    a = at.field_at(buf, row, col0 + 1)
  end
  if a and a.kind == 'row' and a.field then
    return a
  end
  return nil
end

-- The quoted title of a GES item the cursor (0-based column `col0`) is typing: its opening quote
-- is before the cursor and its closing quote, if any, after it, after a word that selects a named
-- kind (GRP 'do|). Returns { kind, start = the title's first column (1-based), closed }.
local function omni_title(buf, row, col0)
  local a = at.field_at(buf, row, col0 + 1)
  if not (a and a.kind == 'ges') then
    return nil
  end
  for _, t in ipairs(at.ges_tokens(a.line)) do
    if t.quoted and at.named[t.kind] and t.from <= col0 and (not t.closed or col0 < t.to) then
      return { kind = t.kind, start = t.from + 1, closed = t.closed }
    end
  end
  return nil
end

--- The next free id of `kind` in the deck of `buf` and the decks it includes (one more than the
--- greatest defined), from the JVM's index; nil when the JVM is not running or does not answer
--- within `ms`. :NvimpamCard gives a new card this id.
---@param buf integer
---@param kind string an id kind of the card-layout table ('node', 'element', 'part', ...)
---@param ms integer
---@return integer|nil
function M.next_free(buf, kind, ms)
  local res = ask('ids_next', { buf, kind }, ms, buf)
  return type(res) == 'number' and res or nil
end

-- The completion items of the JVM's answer for `kind`; a title gets its closing quote when the
-- item has none yet (`close`).
local function id_items(res, kind, close)
  local items = {}
  for _, it in ipairs(res) do
    items[#items + 1] = { word = it.word .. (close and "'" or ''), abbr = it.word, menu = it.menu,
      info = at.label(kind, it.word) .. ': ' .. it.menu, user_data = 'nvimpam', dup = 1 }
  end
  return items
end

--- 'omnifunc' of pamcrash buffers: in a field that references ids, the ids of that kind the deck
--- (and its include files) defines, with their titles (a PART's NAME), filtered by what is typed
--- and capped at `complete_max`; inside the quotes of a GES item GRP 'title', the group titles;
--- in a choice field (ATYPE and the like) the values the layout table lists. Asks the JVM with a
--- deadline of 50 ms. An accepted id is written into the field's own columns, so that the other
--- fields stay where they are, in Insert and in Replace mode.
---@param findstart integer
---@param base string
---@return integer|table
function M.omnifunc(findstart, base)
  local buf = api.nvim_get_current_buf()
  if findstart == 1 then
    local cur = api.nvim_win_get_cursor(0)
    local row, col0 = cur[1] - 1, cur[2]
    local t = omni_title(buf, row, col0)
    if t then
      omni = { buf = buf, row = row, start = t.start, kind = t.kind, close = not t.closed }
      return t.start - 1
    end
    local a = omni_field(buf, row, col0)
    if not a then
      omni = nil
      return -3 -- no completion, and leave completion mode quietly
    end
    local f = a.field
    omni = { buf = buf, row = row, start = f.from, line = api.nvim_buf_get_lines(buf, row, row + 1, false)[1] or '',
      f = f, kind = f.ref }
    return f.from - 1
  end
  if not omni or omni.buf ~= buf then
    return {}
  end
  local f = omni.f
  local prefix = vim.trim(base or '')
  local items = {}
  local cap = config.get().complete_max
  if f and f.values and #f.values > 0 then
    for _, v in ipairs(f.values) do
      if v:sub(1, #prefix):upper() == prefix:upper() then
        items[#items + 1] = { word = v, menu = f.name, user_data = 'nvimpam', dup = 1 }
      end
    end
  elseif omni.kind then -- a field that defines an id is the card's own: nothing to offer
    local o = omni
    if not at.named[o.kind] and prefix ~= '' and not prefix:match('^%d+$') then
      return {}
    end
    local res = ask('ids_complete', { buf, o.kind, prefix, cap }, 50, buf, function(late)
      -- the JVM missed the deadline: show its answer if the user is still completing this
      local mode = api.nvim_get_mode().mode
      if omni == o and api.nvim_get_current_buf() == o.buf and (mode:sub(1, 1) == 'i' or mode:sub(1, 1) == 'R')
          and api.nvim_win_get_cursor(0)[1] == o.row + 1 then
        vim.fn.complete(o.start, id_items(late, o.kind, o.close))
      end
    end)
    items = id_items(res or {}, o.kind, o.close)
  end
  while #items > cap do
    table.remove(items)
  end
  return items
end

-- The value written into columns [from, to] of `line`, aligned as the field is.
local function put(line, f, value)
  local width = f.to - f.from + 1
  if #value > width then
    return nil
  end
  local cell
  if f.align == 'left' then
    cell = value .. string.rep(' ', width - #value)
  else
    cell = string.rep(' ', width - #value) .. value
  end
  if #line < f.from - 1 then
    line = line .. string.rep(' ', f.from - 1 - #line)
  end
  local rest = line:sub(f.to + 1)
  local out = line:sub(1, f.from - 1) .. cell .. rest
  if rest == '' then
    out = out:gsub('%s+$', '')
  end
  return out
end

-- After an item was accepted: the line as it was with the field holding the item, in its columns.
--- After an item was accepted (CompleteDone): the line as it was with the field holding the
--- item, in its columns.
---@return nil
function M.complete_done()
  local item = vim.v.completed_item
  local o = omni
  omni = nil
  if not o or not o.f or type(item) ~= 'table' or item.user_data ~= 'nvimpam' or not item.word then
    return -- a title went in where it was typed: nothing to put in columns
  end
  vim.schedule(function()
    if not api.nvim_buf_is_valid(o.buf) or api.nvim_get_current_buf() ~= o.buf then
      return
    end
    local new = put(o.line, o.f, item.word)
    if not new then
      return
    end
    api.nvim_buf_set_lines(o.buf, o.row, o.row + 1, false, { new })
    api.nvim_win_set_cursor(0, { o.row + 1, math.min(o.f.to, #new) })
  end)
end


return M
