package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nvimpam.cli.Main;
import org.nvimpam.testutil.PluginTestBase;

/**
 * A model change applied in parts (nvimpam.tree.paced) holds its buffer while its parts go in
 * (from the JVM's answer on), as Neovim shows it: 'nomodifiable' at every turn between the parts,
 * every namespace's diagnostics hidden; at the end the buffer is as it was, its diagnostics shown
 * again, and it is refolded. (That the JVM neither refolds nor checks a held buffer:
 * LiveBufferTest.)
 */
class PacedChangeIT extends PluginTestBase {
  @Test
  void anOffsetHoldsItsBufferUntilItEnds() throws IOException {
    Path deck = dir.resolve("deck.pc");
    assertEquals(0, Main.run("gen", "--lines=20000", "--out=" + deck));
    nvim.command("filetype on").join();
    setup("");
    nvim.command("edit " + deck).join();
    lua("vim.wait(30000, function() return require('nvimpam.ids').last[vim.api.nvim_get_current_buf()] ~= nil "
        + "and require('nvimpam.fold').applied_at() ~= nil and require('nvimpam.ui.diagnostics').last[vim.api.nvim_get_current_buf()] ~= nil end, 20)");
    lua("vim.wait(500, function() return false end, 50)"); // the first push and check settled
    // another plugin's diagnostic (an LSP's, say), shown as an underline
    lua("_G.other = vim.api.nvim_create_namespace('other') vim.diagnostic.set(_G.other, 0, "
        + "{ { lnum = 5, col = 0, end_col = 4, message = 'theirs', severity = vim.diagnostic.severity.WARN } })");
    lua("_G.marks = function() local u = vim.diagnostic.get_namespace(_G.other).user_data.underline_ns "
        + "return u and #vim.api.nvim_buf_get_extmarks(0, u, 0, -1, {}) or 0 end");
    long shown = ((Number) lua("return _G.marks()")).longValue();
    assertTrue(shown > 0, "the other plugin's diagnostic is drawn: " + shown);
    // many parts, one a turn; a 1 ms timer samples the buffer between them
    lua("require('nvimpam.tree.paced').lines_per_call = 50 require('nvimpam.tree.paced').budget_ms = 0");
    lua("_G.seen = { samples = 0, modifiable = 0, marks = 0 } "
        + "local buf = vim.api.nvim_get_current_buf() "
        + "_G.sampler = vim.loop.new_timer() _G.sampler:start(1, 1, vim.schedule_wrap(function() "
        + "if not require('nvimpam.host').held[buf] then return end " // the parts run (the plan before them was not held)
        + "local s = _G.seen s.samples = s.samples + 1 "
        + "if vim.bo[buf].modifiable then s.modifiable = s.modifiable + 1 end "
        + "s.marks = s.marks + _G.marks() "
        + "end))");
    lua("_G.foldsBefore = require('nvimpam.fold').applied_at()");
    lua("require('nvimpam.deck.renumber').last = nil");
    nvim.command("NvimpamOffset node 1000").join();
    lua("vim.wait(60000, function() local l = require('nvimpam.deck.renumber').last return l and l.done end, 10)");
    lua("_G.sampler:stop() _G.sampler:close()");
    @SuppressWarnings("unchecked")
    Map<String, Object> seen = (Map<String, Object>) lua("local s = _G.seen return { samples = s.samples, modifiable = s.modifiable, "
        + "marks = s.marks, "
        + "turns = require('nvimpam.deck.renumber').last.turns, error = tostring(require('nvimpam.deck.renumber').last.error) }");
    assertEquals("nil", seen.get("error"), seen::toString);
    assertTrue(((Number) seen.get("turns")).longValue() > 20, "many turns: " + seen);
    assertTrue(((Number) seen.get("samples")).longValue() > 5, "sampled between the parts: " + seen);
    assertEquals(0L, seen.get("modifiable"), "'nomodifiable' at every sample: " + seen);
    assertEquals(0L, seen.get("marks"), "no diagnostic drawn meanwhile: " + seen);
    // the end: modifiable again, the other plugin's diagnostic drawn again, one refold and one check
    assertEquals(true, lua("return vim.bo.modifiable"));
    assertTrue(((Number) lua("return _G.marks()")).longValue() > 0, "the diagnostics are drawn again");
    assertEquals(true, lua("return vim.wait(20000, function() return require('nvimpam.fold').applied_at() ~= _G.foldsBefore end, 20)"),
        "refolded after the change");
    assertEquals(1L, lua("return vim.fn.search('^NODE  / *1001 ', 'nw') > 0 and 1 or 0"), "node 1 moved");
  }
}
