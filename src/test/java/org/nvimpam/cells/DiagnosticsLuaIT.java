package org.nvimpam.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;

/** lua/nvimpam/diagnostics.lua: what the JVM pushes becomes vim.diagnostic entries of `nvimpam`. */
class DiagnosticsLuaIT extends PluginTestBase {
  private static final String DECK = "NODE  /        1        -1263.9S\nNODE  /       2x\nNODE  /        3\n";

  private void open(String options) throws IOException {
    setup("auto_attach = false" + options);
    EmbeddedNvim.edit(nvim, DECK.getBytes(), dir);
  }

  private static final String SET = "require('nvimpam.diagnostics').set(vim.api.nvim_get_current_buf(), vim.b.changedtick, ...)";

  /** The buffer's `nvimpam` diagnostics as "lnum:col-end_col severity source message". */
  private Object shown() {
    return lua("local out = {} for _, d in ipairs(vim.diagnostic.get(0, { namespace = vim.api.nvim_create_namespace('nvimpam') })) do "
        + "out[#out + 1] = string.format('%d:%d-%d %d %s %s', d.lnum, d.col, d.end_col, d.severity, d.source, d.message) end "
        + "table.sort(out) return out");
  }

  private void set(List<Object> items, int total) {
    CellsLua.lua(nvim, SET, items, total);
  }

  @Test
  void theFlatListBecomesDiagnosticsWithSourceNvimpam() throws IOException {
    open("");
    set(List.of(0, 16, 32, 1, "NODE / X: \"-1263.9S\" is not a number", 1, 8, 16, 2, "dubious"), 2);
    assertEquals(List.of("0:16-32 1 nvimpam NODE / X: \"-1263.9S\" is not a number", "1:8-16 2 nvimpam dubious"), shown());
  }

  @Test
  void moreProblemsThanShownAddAnInfoOnTheFirstLine() throws IOException {
    open("");
    set(List.of(1, 8, 16, 1, "NODE / IDNOD: \"2x\" is not an integer"), 1234);
    assertEquals(List.of("0:0-0 3 nvimpam nvimpam: 1234 field problems, the first 1 shown; :NvimpamCheck lists them",
        "1:8-16 1 nvimpam NODE / IDNOD: \"2x\" is not an integer"), shown());
  }

  @Test
  void linesPastTheEndOfTheBufferGoOnItsLastLine() throws IOException {
    open("");
    set(List.of(99, 0, 4, 1, "gone"), 1);
    assertEquals(List.of("2:0-4 1 nvimpam gone"), shown());
  }

  @Test
  void aNewSetReplacesTheOldOne() throws IOException {
    open("");
    set(List.of(0, 16, 32, 1, "first"), 1);
    set(List.of(2, 0, 4, 1, "second"), 1);
    assertEquals(List.of("2:0-4 1 nvimpam second"), shown());
  }

  @Test
  void checksOffInSetupIgnoreThemAndClearTheNamespace() throws IOException {
    open(", checks = false");
    lua("vim.diagnostic.set(vim.api.nvim_create_namespace('nvimpam'), 0, { { lnum = 0, col = 0, message = 'old' } })");
    set(List.of(0, 16, 32, 1, "new"), 1);
    assertEquals(List.of(), shown());
  }

  @Test
  void checksOffForTheBufferIgnoreThemAndClearTheNamespace() throws IOException {
    open("");
    set(List.of(0, 16, 32, 1, "first"), 1);
    lua("vim.b.nvimpam_checks = false");
    set(List.of(0, 16, 32, 1, "second"), 1);
    assertEquals(List.of(), shown());
  }

  @Test
  void nvimpamCheckFillsTheQuickfixListAndNamesTheTotal() throws IOException {
    open("");
    // The JVM's answer to 'check', as it sends it: the deck's first problems and their total.
    lua("require('nvimpam.host').wait = function(method, args) _G.asked = { method, args[1] } "
        + "return { items = { 0, 16, 32, 1, 'NODE / X: \"-1263.9S\" is not a number', 1, 8, 16, 2, 'dubious' }, total = 7 } end");
    Object deck = lua("return vim.api.nvim_get_current_buf()");
    nvim.command("NvimpamCheck").join();
    assertEquals(List.of("check", deck), lua("return _G.asked"));
    assertEquals("nvimpam: 7 field problems, the first 2 listed", lua("return vim.fn.getqflist({ title = 1 }).title"));
    assertEquals(List.of("1:17 E NODE / X: \"-1263.9S\" is not a number", "2:9 W dubious"), lua("local out = {} "
        + "for _, q in ipairs(vim.fn.getqflist()) do out[#out + 1] = q.lnum .. ':' .. q.col .. ' ' .. q.type .. ' ' .. q.text end "
        + "return out"));
    assertEquals("quickfix", lua("return vim.bo.buftype"));
  }

  @Test
  void nvimpamCheckOnACleanDeckSaysSo() throws IOException {
    open("");
    lua("require('nvimpam.host').wait = function() return { items = {}, total = 0 } end");
    nvim.command("NvimpamCheck").join();
    assertEquals(1L, lua("return #vim.api.nvim_list_wins()"));
    assertEquals("nvimpam: 0 field problems", lua("return vim.fn.getqflist({ title = 1 }).title"));
    assertEquals(true, lua("return _G.notes[1][1]:match('^nvimpam: no field problems in ') ~= nil"));
  }
}
