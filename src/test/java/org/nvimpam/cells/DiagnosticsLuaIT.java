package org.nvimpam.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;

/** lua/nvimpam/ui/diagnostics.lua: what the JVM pushes becomes vim.diagnostic entries of `nvimpam`. */
class DiagnosticsLuaIT extends PluginTestBase {
  private static final String DECK = "NODE  /        1        -1263.9S\nNODE  /       2x\nNODE  /        3\n";

  private void open(String options) throws IOException {
    setup("auto_attach = false" + options);
    EmbeddedNvim.edit(nvim, DECK.getBytes(), dir);
  }

  private static final String SET = "require('nvimpam.ui.diagnostics').set(vim.api.nvim_get_current_buf(), vim.b.changedtick, ...)";

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
    set(List.of(0, 16, 32, 1, "NODE / X: \"-1263.9S\" is not a number", "field-float", 1, 8, 16, 2, "dubious", "field-blank"), 2);
    assertEquals(List.of("0:16-32 1 nvimpam NODE / X: \"-1263.9S\" is not a number", "1:8-16 2 nvimpam dubious"), shown());
    assertEquals(List.of("field-float", "field-blank"), lua("local out = {} for _, d in ipairs(vim.diagnostic.get(0, "
        + "{ namespace = vim.api.nvim_create_namespace('nvimpam') })) do out[#out + 1] = d.code end return out"));
  }

  @Test
  void moreProblemsThanShownAddAnInfoOnTheFirstLine() throws IOException {
    open("");
    set(List.of(1, 8, 16, 1, "NODE / IDNOD: \"2x\" is not an integer", "field-int"), 1234);
    assertEquals(List.of("0:0-0 3 nvimpam nvimpam: 1234 field problems, the first 1 shown; :NvimpamCheck lists them",
        "1:8-16 1 nvimpam NODE / IDNOD: \"2x\" is not an integer"), shown());
  }

  @Test
  void linesPastTheEndOfTheBufferGoOnItsLastLine() throws IOException {
    open("");
    set(List.of(99, 0, 4, 1, "gone", "field-int"), 1);
    assertEquals(List.of("2:0-4 1 nvimpam gone"), shown());
  }

  @Test
  void aNewSetReplacesTheOldOne() throws IOException {
    open("");
    set(List.of(0, 16, 32, 1, "first", "field-int"), 1);
    set(List.of(2, 0, 4, 1, "second", "field-int"), 1);
    assertEquals(List.of("2:0-4 1 nvimpam second"), shown());
  }

  @Test
  void checksOffInSetupIgnoreThemAndClearTheNamespace() throws IOException {
    open(", checks = false");
    lua("vim.diagnostic.set(vim.api.nvim_create_namespace('nvimpam'), 0, { { lnum = 0, col = 0, message = 'old' } })");
    set(List.of(0, 16, 32, 1, "new", "field-int"), 1);
    assertEquals(List.of(), shown());
  }

  @Test
  void checksOffForTheBufferIgnoreThemAndClearTheNamespace() throws IOException {
    open("");
    set(List.of(0, 16, 32, 1, "first", "field-int"), 1);
    lua("vim.b.nvimpam_checks = false");
    set(List.of(0, 16, 32, 1, "second", "field-int"), 1);
    assertEquals(List.of(), shown());
  }

  @Test
  void nvimpamCheckFillsTheQuickfixListAndNamesTheTotal() throws IOException {
    open("");
    // The JVM's answer to 'check', as it sends it: the tree's files, its first problems and their total.
    Path inc = dir.resolve("part.inc");
    lua("require('nvimpam.host').wait = function(method, args) _G.asked = { method, args[1] } "
        + "return { files = { { path = '', buf = args[1] }, { path = '" + inc + "', buf = 0 } }, "
        + "items = { 1, 0, 16, 32, 1, 'NODE / X: \"-1263.9S\" is not a number', 'field-float', 1, 1, 8, 16, 2, 'dubious', 'field-blank', "
        + "2, 3, 0, 1, 4, 'FOO: not a card header', 'header-unknown' }, total = 7 } end");
    Object deck = lua("return vim.api.nvim_get_current_buf()");
    nvim.command("NvimpamCheck").join();
    assertEquals(List.of("check", deck), lua("return _G.asked"));
    assertEquals(true, lua("return vim.fn.getqflist({ title = 1 }).title:match('^nvimpam: 7 problems in .* and 1 include files, "
        + "the first 3 listed$') ~= nil"), String.valueOf(lua("return vim.fn.getqflist({ title = 1 }).title")));
    assertEquals(List.of("pc 1:17 E NODE / X: \"-1263.9S\" is not a number", "pc 2:9 W dubious", "inc 4:1 N FOO: not a card header"),
        lua("local out = {} for _, q in ipairs(vim.fn.getqflist()) do "
        + "local f = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(q.bufnr), ':e') "
        + "out[#out + 1] = f .. ' ' .. q.lnum .. ':' .. q.col .. ' ' .. q.type .. ' ' .. q.text end return out"));
    assertEquals("quickfix", lua("return vim.bo.buftype"));
  }

  @Test
  void nvimpamCheckOnACleanDeckSaysSo() throws IOException {
    open("");
    lua("require('nvimpam.host').wait = function(_, args) return { files = { { path = '', buf = args[1] } }, items = {}, total = 0 } end");
    nvim.command("NvimpamCheck").join();
    assertEquals(1L, lua("return #vim.api.nvim_list_wins()"));
    assertEquals(true, lua("return vim.fn.getqflist({ title = 1 }).title:match('^nvimpam: 0 problems in ') ~= nil"));
    assertEquals(true, lua("return _G.notes[1][1]:match('^nvimpam: no problems in ') ~= nil"));
  }
  // put(): vim.diagnostic.set without the whole-buffer read of Neovim 0.12 (see nvimpam.ui.diagnostics).

  /** 300 NODE lines, and diagnostics at the edges: past the end, past a line's end, over two lines. */
  private void openLong() throws IOException {
    setup("auto_attach = false");
    StringBuilder deck = new StringBuilder();
    for (int i = 1; i <= 300; i++) deck.append(String.format("NODE  / %8d%16s%16s%16s%n", i, "1.0", "2.0", "3.0"));
    EmbeddedNvim.edit(nvim, deck.toString().getBytes(), dir);
  }

  private static final String LIST = "local l = {} for i = 0, 299, 7 do l[#l + 1] = { lnum = i, col = (i % 5) * 16, "
      + "end_col = (i % 5) * 16 + 8, severity = 1, message = 'm' .. i } end "
      + "l[#l + 1] = { lnum = 400, col = 0, end_col = 4, severity = 1, message = 'past the end' } "
      + "l[#l + 1] = { lnum = 5, col = 200, end_col = 300, severity = 2, message = 'past the line' } "
      + "l[#l + 1] = { lnum = 9, end_lnum = 10, col = 60, end_col = 0, severity = 2, message = 'to the next line' } ";

  private static final String DUMP = "local function dump(ns) local out = {} for _, d in ipairs(vim.diagnostic.get(0, { namespace = ns })) do "
      + "out[#out + 1] = string.format('%d:%d-%d:%d %s', d.lnum, d.col, d.end_lnum, d.end_col, d.message) end "
      + "table.sort(out) return out end ";

  @Test
  void putShowsWhatVimDiagnosticSetShowsAlsoAfterAnEdit() throws IOException {
    openLong();
    Object both = lua(LIST + DUMP + "local a, b = vim.api.nvim_create_namespace('plain'), vim.api.nvim_create_namespace('put') "
        + "vim.diagnostic.set(a, 0, vim.deepcopy(l)) require('nvimpam.ui.diagnostics').put(b, 0, vim.deepcopy(l)) "
        + "local before = { dump(a), dump(b) } "
        + "vim.api.nvim_buf_set_lines(0, 3, 3, true, { 'NODE  /        0', 'NODE  /        0' }) "
        + "return { before, { dump(a), dump(b) } }");
    List<?> r = (List<?>) both;
    List<?> before = (List<?>) r.get(0);
    List<?> after = (List<?>) r.get(1);
    assertEquals(46, ((List<?>) before.get(0)).size());
    assertEquals(before.get(0), before.get(1), "the same diagnostics, clamped the same way");
    assertEquals(after.get(0), after.get(1), "and the same after lines were inserted above some");
  }

  @Test
  void putNeverReadsTheWholeBuffer() throws IOException {
    openLong();
    Object wholeReads = lua(LIST + "local get, n = vim.api.nvim_buf_get_lines, 0 "
        + "vim.api.nvim_buf_get_lines = function(b, s, e, ...) if s == 0 and e == -1 then n = n + 1 end return get(b, s, e, ...) end "
        + "local ok, err = pcall(require('nvimpam.ui.diagnostics').put, vim.api.nvim_create_namespace('put'), 0, l) "
        + "vim.api.nvim_buf_get_lines = get assert(ok, err) return n");
    assertEquals(0L, wholeReads);
    assertEquals(46L, lua("return #vim.diagnostic.get(0)"));
  }

  @Test
  void aNeovimThatUsesTheLinesOtherwiseGetsThePlainSet() throws IOException {
    openLong();
    // A stand-in for a vim.diagnostic.set that walks the lines it read (which the view cannot serve).
    Object shown = lua(LIST + "local real = vim.diagnostic.set "
        + "local walk = load('return function(buf) local n = 0 for _ in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, true)) do n = n + 1 end return n end', '@/rt/lua/vim/diagnostic.lua')() "
        + "vim.diagnostic.set = function(ns, buf, list, opts) walk(buf) return real(ns, buf, list, opts) end "
        + "local d = require('nvimpam.ui.diagnostics') "
        + "local ok, err = pcall(d.put, vim.api.nvim_create_namespace('put'), 0, l) "
        + "local ok2, err2 = pcall(d.put, vim.api.nvim_create_namespace('put2'), 0, l) "
        + "vim.diagnostic.set = real assert(ok, err) assert(ok2, err2) return #vim.diagnostic.get(0)");
    assertEquals(92L, shown, "both sets went through");
  }
}
