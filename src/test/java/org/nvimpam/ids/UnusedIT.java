package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nvimpam.ids.IdsIT.node;
import static org.nvimpam.ids.IdsIT.shell;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.IncludeTree;
import org.nvimpam.testutil.PluginTestBase;

/**
 * :NvimpamUnused across an include tree in a real Neovim: main.pc includes a.inc, which includes
 * b.inc. Node 76 is used only through the GES range of group 'doors', which a MASS names; group
 * 'spare' is named by nothing, so node 90, which only it names, is unused too. The quickfix list
 * names each; with ! each file's buffer loses exactly those lines as one undo step of its own, and
 * the files on disk stay as they were, also when the deletion runs in slices.
 */
class UnusedIT extends PluginTestBase {
  static final String MATER13 = "MATER /       13     103         7.85E-6       0       0       0       0";
  static final String[] MAIN = {
    "INPUTVERSION 2011", "INCLU / a.inc", IdsIT.MATER, "NAME Steel", IdsIT.PART, IdsIT.NAME, IdsIT.END,
    shell(100, 12, 77, 78, 79, 80), "GROUP / doors", "        NOD 70:76", "        END", MATER13, "NAME Spare",
  };
  static final String[] A = {"$ the nodes", "INCLU / b.inc", node(91), node(76), node(77), node(78), node(79), node(80), node(90)};
  static final String[] B = {
    "MASS  /        0       0", "NAME m", "              1.              1.              1.",
    "              0.              0.              0.", "        GRP 'doors'", "        END",
    "GROUP / spare", "        NOD 90", "        END",
  };

  private IncludeTree tree;
  private Path main;
  private Path a;
  private Path b;

  @BeforeEach
  void files() throws IOException {
    nvim.command("filetype on").join();
    tree = IncludeTree.write(dir, MAIN, A, B);
    main = tree.main;
    a = tree.a;
    b = tree.b;
  }

  private void edit(Path f) {
    nvim.command("edit " + f).join();
    lua("vim.wait(15000, function() return require('nvimpam.ids').last[vim.api.nvim_get_current_buf()] ~= nil end, 20)");
  }

  /** Runs :NvimpamUnused[!] and waits for its answer to be handled. */
  private void unused(boolean bang) {
    lua("_G.unused_done = false");
    nvim.command("NvimpamUnused" + (bang ? "!" : "")).join();
    lua("vim.wait(15000, function() return _G.unused_done end, 20)");
  }

  private String lastNote() {
    return String.valueOf(lua("local n = _G.notes[#_G.notes] return n and n[1] or ''"));
  }

  /** The quickfix list: "file:line:col: type text" per entry. */
  private List<?> quickfix() {
    return (List<?>) lua("local out = {} for _, it in ipairs(vim.fn.getqflist()) do out[#out + 1] = string.format('%s:%d:%d: %s %s',"
        + " vim.fn.fnamemodify(vim.fn.bufname(it.bufnr), ':t'), it.lnum, it.col, it.type, it.text) end return out");
  }

  @SuppressWarnings("unchecked")
  private List<String> lines(Path f) {
    return (List<String>) lua("local b = vim.fn.bufnr('" + f + "') if b < 1 or not vim.api.nvim_buf_is_loaded(b) then return nil end "
        + "return vim.api.nvim_buf_get_lines(b, 0, -1, true)");
  }

  private void undo(Path f) {
    lua("local b = vim.fn.bufnr('" + f + "') vim.api.nvim_buf_call(b, function() vim.cmd('undo') end)");
  }

  private static List<String> without(String[] lines, int... drop) {
    List<String> l = new ArrayList<>(List.of(lines));
    for (int i = drop.length - 1; i >= 0; i--) l.remove(drop[i]);
    return l;
  }

  private void setupDone() {
    setup("");
    // every answer handled: the test waits for it (the command itself returns at once)
    lua("local u = require('nvimpam.deck.unused') local run = u.run "
        + "u.run = function(buf, bang) run(buf, bang, function() _G.unused_done = true end) end");
  }

  @Test
  void theQuickfixListNamesEveryUnusedDefinitionOfTheTree() throws IOException {
    setupDone();
    edit(main);
    unused(false);
    assertEquals(List.of("main.pc:12:15: I unused material 13", "a.inc:3:15: I unused node 91",
        "a.inc:9:15: I unused node 90 (only unused definitions name it)", "b.inc:7:9: I unused group 'spare'"), quickfix(), lastNote());
    assertEquals("nvimpam: 4 unused definitions in main.pc and 2 include files",
        lua("return vim.fn.getqflist({ title = 0 }).title"));
    assertNull(lines(a)); // listed, not loaded
    tree.assertOnDisk();
  }

  @Test
  void bangDeletesThemInEveryFileEachAsOneUndoStep() throws IOException {
    setupDone();
    edit(main);
    // a change of the user's own just before, through the API: the deletion must not join it
    lua("vim.api.nvim_buf_set_lines(0, -1, -1, true, { '$ mine' })");
    // one line a part, a part a turn, and the undo blocks closed between turns (as a command typed meanwhile would)
    lua("require('nvimpam.tree.paced').lines_per_call = 1 require('nvimpam.tree.paced').budget_ms = 0 "
        + "local s = vim.schedule vim.schedule = function(f) s(function() "
        + "for _, b in ipairs(vim.api.nvim_list_bufs()) do if vim.api.nvim_buf_is_loaded(b) then require('nvimpam.core.undo').close(b) end end "
        + "f() end) end");
    unused(true);
    String note = lastNote();
    List<String> mine = without(MAIN, 11, 12);
    mine.add("$ mine");
    assertEquals(mine, lines(main), note);
    assertEquals(without(A, 2, 8), lines(a), note);
    assertEquals(without(B, 6, 7, 8), lines(b), note);
    tree.assertOnDisk();
    assertTrue(note.startsWith("nvimpam: 4 unused removed from 3 files; :wall writes"), note); // the command line's width
    assertEquals("nvimpam: 4 unused definitions removed (7 lines) in main.pc, a.inc, b.inc; :wall writes them",
        lua("return vim.fn.getqflist({ title = 0 }).title"));
    assertEquals(List.of("main.pc:12:1:  2 lines removed", "a.inc:3:1:  2 lines removed", "b.inc:6:1:  3 lines removed"), quickfix());
    assertEquals(1L, lua("return vim.fn.buflisted(vim.fn.bufnr('" + b + "'))"));
    undo(main);
    undo(a);
    undo(b);
    List<String> before = new ArrayList<>(List.of(MAIN));
    before.add("$ mine");
    assertEquals(before, lines(main));
    assertEquals(List.of(A), lines(a));
    assertEquals(List.of(B), lines(b));
  }

  @Test
  void aReadOnlyFileRefusesTheWholeDeletion() throws IOException {
    assertTrue(b.toFile().setWritable(false, false));
    try {
      setupDone();
      edit(main);
      unused(true);
      assertTrue(lastNote().startsWith("nvimpam: cannot remove the unused definitions: 1 reason"), lastNote());
      assertEquals("nvimpam: cannot remove the unused definitions: b.inc is read-only on disk; nothing changed",
          lua("return vim.fn.getqflist({ title = 0 }).title"));
      assertEquals(List.of(MAIN), lines(main));
      assertNull(lines(a));
      assertNull(lines(b));
      tree.assertOnDisk();
      assertEquals(0L, lua("return vim.bo.modified and 1 or 0"));
    } finally {
      b.toFile().setWritable(true, false);
    }
  }

  @Test
  void aBufferChangedWhileTheJvmReadRefusesAndNothingChanges() throws IOException {
    setupDone();
    nvim.command("set hidden").join();
    edit(a);
    edit(main);
    // a.inc's line 3 (node 91, which goes) edited after the JVM read it, before the answer is handled
    lua("local h = require('nvimpam.host') local call = h.call h.call = function(m, args, cb, buf) return call(m, args, "
        + "function(e, r) vim.schedule(function() vim.api.nvim_buf_set_lines(vim.fn.bufnr('" + a + "'), 2, 3, true, { '$ mine' }) end) "
        + "cb(e, r) end, buf) end");
    unused(true);
    assertEquals("nvimpam: cannot remove the unused definitions: a.inc changed while the change was planned (run it again); "
        + "nothing changed", lua("return vim.fn.getqflist({ title = 0 }).title"), lastNote());
    assertEquals(List.of(MAIN), lines(main));
    List<String> mine = new ArrayList<>(List.of(A));
    mine.set(2, "$ mine");
    assertEquals(mine, lines(a));
    assertNull(lines(b)); // not loaded
    tree.assertOnDisk();
  }
}
