package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nvimpam.ids.IdsIT.node;
import static org.nvimpam.ids.IdsIT.shell;
import static org.nvimpam.testutil.IncludeTree.deck;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.IncludeTree;
import org.nvimpam.testutil.PluginTestBase;

/**
 * :NvimpamRename across an include tree in a real Neovim: main.pc includes a.inc, which includes
 * b.inc; the NODE card of node 77 is in a.inc, references to it are in all three, GES items and
 * ranges among them. Every file's buffer is compared whole after the rename (only the values
 * change), the files on disk stay as they were, and each buffer's change is one undo step of its own.
 */
class RenameTreeIT extends PluginTestBase {
  static final String PART = IdsIT.PART;
  static final String[] MAIN = {
    "INPUTVERSION 2011", "INCLU / a.inc", "INCLU / cluster.inc", IdsIT.MATER, "NAME Steel", PART, IdsIT.NAME, IdsIT.END,
    shell(100, 12, 77, 78, 79, 80), shell(101, 12, 78, 79, 80, 81),
    "GROUP / doors", "        NOD 70:80 PART 12", "        END",
  };
  static final String[] A = {
    "$ the nodes", "INCLU / b.inc", node(77), node(78), node(79), node(80), node(81), shell(200, 12, 81, 80, 79, 77),
  };
  // a GES line that no longer fits by column 80 once 77:78 is split: it continues on a new line
  static final String LONG = "        NOD 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 77:78";
  static final String[] B = {
    shell(300, 12, 77, 77, 78, 79), "GROUP / rear", "        NOD 1 77 DELNOD 76:77", LONG, "        GRP 'doors'",
    "        END",
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

  private void cursor(int line, int col) {
    lua("vim.api.nvim_win_set_cursor(0, { " + line + ", " + (col - 1) + " })");
  }

  private String lastNote() {
    return String.valueOf(lua("local n = _G.notes[#_G.notes] return n and n[1] or ''"));
  }

  /**
   * What the last message told in full: the message, or where it points to the quickfix list (it
   * would not fit the command line), the list's title.
   */
  private String told() {
    String note = lastNote();
    return note.contains(":copen") ? String.valueOf(lua("return vim.fn.getqflist({ title = 0 }).title")) : note;
  }

  /** The quickfix list: "file:line:col: text" per entry, the text alone where it names no buffer. */
  private List<?> quickfix() {
    return (List<?>) lua("local out = {} for _, it in ipairs(vim.fn.getqflist()) do out[#out + 1] = it.bufnr > 0"
        + " and string.format('%s:%d:%d: %s', vim.fn.fnamemodify(vim.fn.bufname(it.bufnr), ':t'), it.lnum, it.col, it.text)"
        + " or it.text end return out");
  }

  /** The lines of the buffer of {@code f}, null when no buffer holds it loaded. */
  @SuppressWarnings("unchecked")
  private List<String> lines(Path f) {
    return (List<String>) lua("local b = vim.fn.bufnr('" + f + "') if b < 1 or not vim.api.nvim_buf_is_loaded(b) then return nil end "
        + "return vim.api.nvim_buf_get_lines(b, 0, -1, true)");
  }

  private void undo(Path f) {
    lua("local b = vim.fn.bufnr('" + f + "') vim.api.nvim_buf_call(b, function() vim.cmd('undo') end)");
  }

  private static List<String> with(String[] lines, Object... changes) {
    List<String> l = new ArrayList<>(List.of(lines));
    for (int i = 0; i < changes.length; i += 2) l.set((Integer) changes[i], (String) changes[i + 1]);
    return l;
  }

  private static final List<String> MAIN_AFTER = with(MAIN, 8, shell(100, 12, 9077, 78, 79, 80),
      11, "        NOD 70:76 78:80 9077 PART 12");
  private static final List<String> A_AFTER = with(A, 2, node(9077), 7, shell(200, 12, 81, 80, 79, 9077));
  private static final List<String> B_AFTER;

  static {
    List<String> l = with(B, 0, shell(300, 12, 9077, 9077, 78, 79), 2, "        NOD 1 9077 DELNOD 76 9077",
        3, "        NOD 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 78");
    l.add(4, "        NOD 9077");
    B_AFTER = l;
  }

  @Test
  void renameChangesTheDefinitionAndEveryReferenceInEveryFileOfTheTreeEachAsOneUndoStep() throws IOException {
    setup("");
    edit(main);
    // a change of the user's own just before, through the API: the rename must not join it
    lua("vim.api.nvim_buf_set_lines(0, -1, -1, true, { '$ mine' })");
    cursor(9, 30); // SHELL 100, IDNOD1 = 77
    nvim.command("NvimpamRename 9077").join();
    String note = lastNote();
    List<String> mine = new ArrayList<>(MAIN_AFTER);
    mine.add("$ mine");
    assertEquals(mine, lines(main), note);
    assertEquals(A_AFTER, lines(a), note);
    assertEquals(B_AFTER, lines(b), note);
    tree.assertOnDisk();
    assertEquals("nvimpam: node 77 -> 9077 in 3 files, 7 lines, 1 include file not searched; :wall writes them", told());
    assertEquals(List.of("main.pc:9:25: node 77 -> 9077: 2 lines changed", "a.inc:3:9: node 77 -> 9077: 2 lines changed",
        "b.inc:1:25: node 77 -> 9077: 3 lines changed", "not searched (not found): cluster.inc (main.pc line 3)"),
        quickfix());
    assertEquals(1L, lua("return vim.fn.buflisted(vim.fn.bufnr('" + a + "'))"));
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
  void renameFromAnIncludeFileOpenedAloneCoversTheDeckThatIncludesIt() throws IOException {
    setup("");
    edit(main);
    nvim.command("set hidden").join();
    edit(a);
    lua("vim.wait(500)");
    cursor(3, 15); // NODE 77's own id
    nvim.command("NvimpamRename 9077").join();
    String note = lastNote();
    assertEquals(MAIN_AFTER, lines(main), note);
    assertEquals(A_AFTER, lines(a), note);
    assertEquals(B_AFTER, lines(b), note);
    tree.assertOnDisk();
  }

  @Test
  void aGroupTitleIsRenamedAcrossTheTree() throws IOException {
    setup("");
    edit(main);
    cursor(11, 12); // GROUP / doors
    nvim.command("NvimpamRename front doors").join();
    String note = lastNote();
    assertEquals(with(MAIN, 10, "GROUP / front doors"), lines(main), note);
    assertEquals(with(B, 4, "        GRP 'front doors'"), lines(b), note);
    assertNull(lines(a), note); // no reference there: not loaded
    tree.assertOnDisk();
  }

  private void assertNothingChanged(String... loaded) throws IOException {
    assertEquals(List.of(MAIN), lines(main));
    for (String f : loaded) {
      Path p = dir.resolve(f);
      assertEquals(List.of(f.equals("a.inc") ? A : B), lines(p));
    }
    for (Path p : List.of(a, b)) {
      if (!List.of(loaded).contains(p.getFileName().toString())) assertNull(lines(p), p + " was loaded");
    }
    tree.assertOnDisk();
  }

  @Test
  void aReadOnlyFileRefusesTheWholeRename() throws IOException {
    assertTrue(b.toFile().setWritable(false, false));
    try {
      setup("");
      edit(main);
      cursor(9, 30);
      nvim.command("NvimpamRename 9077").join();
      assertEquals("nvimpam: cannot rename node 77 to 9077: b.inc is read-only on disk; nothing changed", told());
      assertNothingChanged();
    } finally {
      b.toFile().setWritable(true, false);
    }
  }

  @Test
  void aBinaryIncludeRefusesTheWholeRename() throws IOException {
    byte[] bin = deck(B);
    bin[3] = 0;
    Files.write(b, bin);
    setup("");
    edit(main);
    cursor(9, 30);
    nvim.command("NvimpamRename 9077").join();
    assertEquals("nvimpam: cannot rename node 77 to 9077: include file b.inc is a binary file, not a deck (a.inc line 2); "
        + "nothing changed", told());
    assertEquals(List.of(MAIN), lines(main));
    assertNull(lines(a));
    assertArrayEquals(bin, Files.readAllBytes(b));
  }

  @Test
  void aNomodifiableBufferAndATakenIdAreRefusedTogether() throws IOException {
    setup("");
    edit(main);
    nvim.command("set hidden").join();
    edit(a);
    nvim.command("setlocal nomodifiable").join();
    edit(b);
    nvim.command("setlocal readonly").join();
    nvim.command("buffer " + lua("return vim.fn.bufnr('" + main + "')")).join();
    cursor(9, 30);
    nvim.command("NvimpamRename 81").join(); // node 81 is in a.inc
    assertEquals("nvimpam: cannot rename node 77 to 81: node 81 is already defined (a.inc line 7); a.inc has 'nomodifiable'; "
        + "b.inc has 'readonly'; nothing changed", told());
    assertNothingChanged("a.inc", "b.inc");
  }

  @Test
  void aBufferWhoseTextIsNotTheFilesTheRenameReadRefusesIt() throws IOException {
    setup("");
    edit(main);
    nvim.command("set hidden").join();
    nvim.command("noautocmd edit " + b).join(); // no pamcrash buffer: the JVM reads the file
    lua("vim.api.nvim_buf_set_lines(0, 0, 0, true, { '$ mine' })");
    nvim.command("buffer " + lua("return vim.fn.bufnr('" + main + "')")).join();
    cursor(9, 30);
    nvim.command("NvimpamRename 9077").join();
    assertEquals("nvimpam: cannot rename node 77 to 9077: b.inc line 1 is not the text the rename read "
        + "(write or reload the buffer); nothing changed", told());
    assertEquals(List.of(MAIN), lines(main));
    List<String> mine = new ArrayList<>(List.of(B));
    mine.add(0, "$ mine");
    assertEquals(mine, lines(b));
    assertNull(lines(a), "a.inc was loaded");
    tree.assertOnDisk();
  }

  @Test
  @SuppressWarnings("unchecked")
  void anIncludeSharedByTwoOpenDecksIsChangedOnce() throws IOException {
    Path shared = dir.resolve("shared.inc");
    Files.write(shared, deck(node(77), shell(400, 12, 77, 77, 77, 77)));
    Path one = dir.resolve("one.pc");
    Path two = dir.resolve("two.pc");
    Files.write(one, deck("INPUTVERSION 2011", "INCLU / shared.inc", PART, IdsIT.NAME, IdsIT.END, shell(100, 12, 77, 77, 77, 77)));
    Files.write(two, deck("INPUTVERSION 2011", "INCLU / shared.inc", PART, IdsIT.NAME, IdsIT.END, shell(500, 12, 77, 1, 1, 1)));
    setup("");
    nvim.command("set hidden").join();
    edit(two);
    edit(one);
    lua("vim.wait(500)");
    cursor(6, 30);
    nvim.command("NvimpamRename 9").join();
    String note = lastNote();
    assertEquals(List.of(node(9), shell(400, 12, 9, 9, 9, 9)), lines(shared), note);
    assertEquals(shell(100, 12, 9, 9, 9, 9), lines(one).get(5), note);
    assertEquals(shell(500, 12, 9, 1, 1, 1), lines(two).get(5), note);
    assertEquals("nvimpam: node 77 -> 9 in 3 files, 4 lines; :wall writes them", told());
    assertEquals(List.of("one.pc:6:25: node 77 -> 9: 1 line changed", "shared.inc:1:9: node 77 -> 9: 2 lines changed",
        "two.pc:6:25: node 77 -> 9: 1 line changed"), quickfix());
    Map<String, Object> tree = (Map<String, Object>) lua("return vim.api.nvim_buf_call(vim.fn.bufnr('" + shared + "'), vim.fn.undotree)");
    assertEquals(1L, tree.get("seq_cur"), note); // one change: the edits of one plan
  }
}
