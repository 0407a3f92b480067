-- Alignment of card rows in a buffer: :NvimpamAlign and 'formatexpr' (gq) align the rows of
-- known cards in the lines given, each line by the rule of nvimpam.edit.align.line (:help
-- nvimpam-align-rule); a line that cannot be aligned stays as it is, and the message names the
-- line and the field.
local M = {}

local rows = require('nvimpam.model.rows')
local span = require('nvimpam.model.span')
local align_line = require('nvimpam.edit.align.line').align_line
local undo = require('nvimpam.core.undo')

local api = vim.api
local format = string.format

--- Aligns buffer lines [first, last] (0-based): the rows of known cards; comments, GES lines and
--- lines outside cards stay. One change (one undo step) for all the lines that move. Returns the
--- number of lines changed and the problems: { lnum (1-based), field, message }.
---@param buf integer
---@param first integer
---@param last integer
---@return integer changed
---@return table[] problems
function M.apply(buf, first, last)
  local version = span.version(buf)
  local r = rows.range(buf, first, last + 1, version)
  local new, changed, problems = {}, 0, {}
  local lo, hi = nil, nil
  for i = r.off + 1, #r.lines do
    local line = r.lines[i]
    local lnum = r.top + (i - r.off - 1)
    local out = line
    if r.kind[i] == rows.ROW then
      local row = r.ent[i].rows[r.rowi[i]]
      if row and row.n > 0 then
        local a, field, msg = align_line(line, row)
        if a then
          out = a
        else
          problems[#problems + 1] = { lnum = lnum + 1, field = field, message = msg, key = r.ent[i].word }
        end
      end
    end
    new[#new + 1] = out
    if out ~= line then
      changed = changed + 1
      lo = lo or #new
      hi = #new
    end
  end
  if lo then
    local slice = {}
    for k = lo, hi do
      slice[#slice + 1] = new[k]
    end
    undo.step(buf, function()
      api.nvim_buf_set_lines(buf, first + lo - 1, first + hi, false, slice)
    end)
  end
  return changed, problems
end

local function report(problems)
  if #problems == 0 then
    return
  end
  local lines = {}
  for k, p in ipairs(problems) do
    if k > 10 then
      lines[#lines + 1] = format('... and %d more lines', #problems - 10)
      break
    end
    lines[#lines + 1] = format('line %d: %s / %s: %s; the line is left as it is', p.lnum, p.key, p.field, p.message)
  end
  vim.notify('nvimpam: ' .. table.concat(lines, '\n'), vim.log.levels.WARN, { title = 'nvimpam' })
end

--- :NvimpamAlign. Without a range, the line under the cursor; with a range, its lines; with a bang,
--- the card under the cursor (a run of one-line cards: the run).
---@param o table { buf, line1, line2, range, bang }
function M.command(o)
  local buf = (o.buf == nil or o.buf == 0) and api.nvim_get_current_buf() or o.buf
  local first, last
  if o.bang then
    local run = span.run_at(span.reader(buf), api.nvim_win_get_cursor(0)[1] - 1, span.version(buf))
    if not run then
      vim.notify('nvimpam: the cursor is in no card', vim.log.levels.WARN, { title = 'nvimpam' })
      return
    end
    first, last = run.first, run.last
  elseif o.range and o.range > 0 then
    first, last = o.line1 - 1, o.line2 - 1
  else
    first = api.nvim_win_get_cursor(0)[1] - 1
    last = first
  end
  local _, problems = M.apply(buf, first, last)
  report(problems)
end

--- 'formatexpr' of pamcrash buffers: `gq` aligns the lines it is given (v:lnum, v:count). In Insert
--- mode (automatic wrapping) it leaves the work to Vim.
---@return integer
function M.formatexpr()
  if vim.v.char ~= '' or api.nvim_get_mode().mode:sub(1, 1) == 'i' then
    return 1
  end
  local first = vim.v.lnum - 1
  local last = first + math.max(vim.v.count, 1) - 1
  local _, problems = M.apply(api.nvim_get_current_buf(), first, last)
  report(problems)
  return 0
end

return M

