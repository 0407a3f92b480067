package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.SharedNvimTestBase;

/**
 * The edit log a refold maps the previous folds through (nvimpam.fold.state): the edits it merges
 * map every fold range exactly as the edits one by one do, and a large change put in by parts
 * leaves one edit.
 */
class EditLogTest extends SharedNvimTestBase {
  /**
   * Random edit sequences on a 40-line buffer, biased to what merges (replacements that meet,
   * deletions at one line, moves): every fold range's shift() and image(), and the newest tick,
   * are those of the unmerged log.
   */
  @Test
  void mergedEditsMapEveryFoldAsTheEditsOneByOne() {
    Object wrong = lua("""
        local state = require('nvimpam.fold.state')
        local wrong, merged = {}, 0
        math.randomseed(20261203)
        local function same(a, b)
          for i = 1, math.max(#a, #b) do
            if a[i] ~= b[i] then return false end
          end
          return a.n == b.n
        end
        local function pack(...) return { n = select('#', ...), ... } end
        for case = 1, 3000 do
          local len, raw, log, tick = 40, {}, {}, 0
          for _ = 1, math.random(1, 12) do
            local kind, prev = math.random(1, 6), raw[#raw]
            local first, old, new
            if kind <= 2 and prev and prev[3] - prev[1] == prev[2] - prev[1] then -- meet the replacement before
              first = math.random(math.max(0, prev[1] - 3), math.min(len, prev[2]))
              old = math.random(0, math.min(5, len - first)) new = old
            elseif kind == 3 and prev and prev[3] == prev[1] then -- delete at the same line again
              first = prev[1] old = math.random(0, math.min(4, len - first)) new = 0
            elseif kind == 4 and prev and prev[2] == prev[1] then -- a :move: take the lines inserted out again
              first = math.random(0, len - (prev[3] - prev[1])) old = prev[3] - prev[1] new = 0
            else
              first = math.random(0, len) old = math.random(0, math.min(4, len - first)) new = math.random(0, 4)
              if math.random() < 0.3 then new = old elseif math.random() < 0.3 then new = 0 end
            end
            tick = tick + (math.random() < 0.1 and 0 or 1)
            local e = { first, first + old, first + new, math.random() < 0.05 and math.huge or tick }
            raw[#raw + 1] = e
            state.record(log, e[1], e[2], e[3], e[4])
            len = len + new - old
          end
          merged = merged + #raw - #log
          local max_raw, max_log = -1, -1
          for _, e in ipairs(raw) do max_raw = math.max(max_raw, e[4]) end
          for _, e in ipairs(log) do max_log = math.max(max_log, e[4]) end
          if max_raw ~= max_log then wrong[#wrong + 1] = 'case ' .. case .. ': newest tick' end
          for s = 1, 40 do
            for e = s, 40 do
              if not same(pack(state.shift(s, e, raw)), pack(state.shift(s, e, log))) then
                wrong[#wrong + 1] = string.format('case %d: shift(%d, %d) through %s is %s, merged %s', case, s, e,
                  vim.inspect(raw), vim.inspect({ state.shift(s, e, raw) }), vim.inspect({ state.shift(s, e, log) }))
              end
              if not same(pack(state.image(s, e, raw)), pack(state.image(s, e, log))) then
                wrong[#wrong + 1] = string.format('case %d: image(%d, %d) through %s is %s, merged %s', case, s, e,
                  vim.inspect(raw), vim.inspect({ state.image(s, e, raw) }), vim.inspect({ state.image(s, e, log) }))
              end
              if #wrong > 3 then return wrong end
            end
          end
        end
        if merged < 1000 then wrong[#wrong + 1] = 'only ' .. merged .. ' edits merged: the cases miss what merges' end
        return wrong
        """);
    assertEquals(java.util.List.of(), wrong);
  }

  /** What nvimpam.tree.paced does to a large buffer leaves one edit; the deletion of a :move stays its own. */
  @Test
  void aChangeInPartsLeavesOneEditAndAMoveKeepsItsDeletion() {
    Object counts = lua("""
        local state = require('nvimpam.fold.state')
        local replaced, deleted, moved = {}, {}, {}
        for k = 0, 9999 do state.record(replaced, 100 * k, 100 * k + 100, 100 * k + 100, k) end
        for k = 0, 9999 do state.record(deleted, 500, 600, 500, k) end
        state.record(moved, 10, 10, 13, 1) state.record(moved, 2, 5, 2, 1) state.record(moved, 2, 4, 2, 2)
        return { #replaced, replaced[1][1], replaced[1][2], replaced[1][3], replaced[1][4],
          #deleted, deleted[1][2], #moved }
        """);
    assertEquals(java.util.List.of(1L, 0L, 1000000L, 1000000L, 9999L, 1L, 1000500L, 3L), counts);
  }
}
