package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.cli.Main;
import org.nvimpam.testutil.IncludeTree;
import org.nvimpam.testutil.PluginTestBase;

/**
 * :NvimpamExtract in a real Neovim, and the headless {@code extract} on the same tree: main.pc
 * includes a.inc; part 10's PART card and shells are in main.pc, its nodes in both files, node 2
 * shared with part 11. The buffers after the extract, the new file's buffer (unsaved), the files
 * on disk (unchanged until :wall), undo, the refusal of a file that exists; and {@link TreeCheck}
 * finds exactly the problems it found before, once written.
 */
class ExtractIT extends PluginTestBase {
  static String node(int id) {
    return String.format("NODE  / %8d%16s%16s%16s", id, id + ".", "0.", "0.");
  }

  static String shell(int id, int part, int... nodes) {
    StringBuilder sb = new StringBuilder(String.format("SHELL / %8d%8d", id, part));
    for (int n : nodes) sb.append(String.format("%8d", n));
    return sb.toString();
  }

  static final String[] MAIN = {
    "INPUTVERSION 2011", "$ the deck", "INCLU / a.inc", "MATER /        1     103", "NAME Steel", "$ parts",
    "PART  /       10SHELL        1", "NAME door", "                   1.0", "END_PART",
    "PART  /       11SHELL        1", "NAME roof", "                   1.0", "END_PART",
    shell(1, 10, 1, 2, 3, 4), "$ between", shell(2, 11, 2, 5, 6, 6), node(1), node(2), "ENDDATA",
  };
  static final String[] A = {node(3), node(4), node(5), node(6), shell(3, 10, 3, 4, 1, 1)};

  private IncludeTree tree;
  private Path main;
  private Path a;

  @BeforeEach
  void files() throws IOException {
    nvim.command("filetype on").join();
    tree = IncludeTree.write(dir, MAIN, A);
    main = tree.main;
    a = tree.a;
  }

  private void edit(Path f) {
    nvim.command("edit " + f).join();
    lua("vim.wait(15000, function() return require('nvimpam.ids').last[vim.api.nvim_get_current_buf()] ~= nil end, 20)");
  }

  @SuppressWarnings("unchecked")
  private List<String> lines(Path f) {
    return (List<String>) lua("local b = vim.fn.bufnr('" + f + "') if b < 1 or not vim.api.nvim_buf_is_loaded(b) then return nil end "
        + "return vim.api.nvim_buf_get_lines(b, 0, -1, true)");
  }

  private String told() {
    String note = String.valueOf(lua("local n = _G.notes[#_G.notes] return n and n[1] or ''"));
    return note.contains(":copen") ? String.valueOf(lua("return vim.fn.getqflist({ title = 0 }).title")) : note;
  }

  private static List<String> problems(Path deck) throws IOException, org.nvimpam.ids.IncludeFiles.Unreadable {
    TreeCheck.Result r = new TreeCheck(new TreeCheck.Options(-1, false, Integer.MAX_VALUE, 1), null).check(deck);
    List<String> out = new ArrayList<>();
    for (TreeCheck.Problem p : r.problems()) out.add(p.code() + " " + p.message());
    return out;
  }

  static final List<String> MAIN_AFTER = List.of("INPUTVERSION 2011", "$ the deck", "INCLU / a.inc", "MATER /        1     103",
      "NAME Steel", "$ parts", "INCLU / door.inc", "PART  /       11SHELL        1", "NAME roof", "                   1.0", "END_PART",
      "$ between", shell(2, 11, 2, 5, 6, 6), node(2), "ENDDATA");
  static final List<String> A_AFTER = List.of(node(5), node(6));
  static final List<String> NEW = List.of("PART  /       10SHELL        1", "NAME door", "                   1.0", "END_PART",
      shell(1, 10, 1, 2, 3, 4), node(1), node(3), node(4), shell(3, 10, 3, 4, 1, 1));

  /** Runs an extract and waits for its end: the buffers change in parts after the JVM's answer. */
  private void extract(String command) {
    lua("require('nvimpam.deck.extract').last = nil");
    nvim.command(command).join();
    lua("vim.wait(20000, function() local l = require('nvimpam.deck.extract').last return l == nil or l.done end, 10)");
  }

  @Test
  void partsMoveToANewUnsavedBufferTheDeckIncludesItAndChecksAsBefore() throws Exception {
    setup("");
    edit(main);
    List<String> before = problems(main);
    lua("vim.api.nvim_buf_set_lines(0, -1, -1, true, { '$ mine' })"); // the user's change just before: not joined
    lua("_G.notes = {}");
    extract("NvimpamExtract door.inc part=10");
    String told = told();
    List<String> mine = new ArrayList<>(MAIN_AFTER);
    mine.add("$ mine");
    assertEquals(mine, lines(main), told);
    assertEquals(A_AFTER, lines(a), told);
    Path door = dir.resolve("door.inc");
    assertEquals(NEW, lines(door), told);
    assertEquals(1L, lua("return vim.bo[vim.fn.bufnr('" + door + "')].modified and 1 or 0"));
    assertFalse(Files.exists(door), "nothing written");
    tree.assertOnDisk();
    assertEquals("nvimpam: 6 cards moved to door.inc; :wall writes it", told); // the longer message does not fit 80 columns
    // the headless extract writes the same files
    Path out = dir.resolve("out");
    assertEquals(0, Main.run("extract", main.toString(), "--part", "10", "--to", "door.inc", "-o", out.toString()));
    assertEquals(MAIN_AFTER, Files.readAllLines(out.resolve("main.pc"), StandardCharsets.ISO_8859_1));
    assertEquals(A_AFTER, Files.readAllLines(out.resolve("a.inc"), StandardCharsets.ISO_8859_1));
    assertEquals(NEW, Files.readAllLines(out.resolve("door.inc"), StandardCharsets.ISO_8859_1));
    assertEquals(before, problems(out.resolve("main.pc")));
    // :wall writes the tree; it checks as before
    nvim.command("wall").join();
    assertEquals(before, problems(main));
    // undo takes the extract back in every buffer
    lua("for _, f in ipairs({ '" + main + "', '" + a + "' }) do vim.api.nvim_buf_call(vim.fn.bufnr(f), function() vim.cmd('undo') end) end");
    List<String> orig = new ArrayList<>(List.of(MAIN));
    orig.add("$ mine");
    assertEquals(orig, lines(main));
    assertEquals(List.of(A), lines(a));
  }

  @Test
  void aFileThatExistsIsRefusedAndNothingChanges() throws IOException {
    setup("");
    edit(main);
    Files.writeString(dir.resolve("door.inc"), "$ mine\n");
    lua("_G.notes = {}");
    extract("NvimpamExtract door.inc part=10,12");
    assertEquals("nvimpam: cannot extract to door.inc: " + dir.resolve("door.inc") + " exists already; part 12 is defined nowhere in the tree;"
        + " nothing changed", told());
    assertEquals(List.of(MAIN), lines(main));
    assertEquals(-1L, lua("return vim.fn.bufnr('" + a + "')"));
    assertEquals("$ mine\n", Files.readString(dir.resolve("door.inc")));
  }
}
