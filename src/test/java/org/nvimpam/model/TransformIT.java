package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * :NvimpamTransform in a real Neovim, and the headless {@code transform} on the same tree: main.pc
 * includes a.inc, which includes b.inc; nodes in all three, shells of two parts sharing two nodes,
 * a FRAME. Each buffer is compared whole with what exact arithmetic gives (only the changed
 * coordinates and, for a mirror, the elements' node order differ), the files on disk stay, each
 * buffer's change is one undo step that undo takes back, and a refusal changes no buffer. The
 * headless run writes the very lines the buffers got.
 */
class TransformIT extends PluginTestBase {
  static String node(int id, String x, String y, String z) {
    return String.format("NODE  / %8d%16s%16s%16s", id, x, y, z);
  }

  static String shell(int id, int part, int... nodes) {
    StringBuilder sb = new StringBuilder(String.format("SHELL / %8d%8d", id, part));
    for (int n : nodes) sb.append(String.format("%8d", n));
    return sb.toString();
  }

  static final String[] MAIN = {
    "INPUTVERSION 2011", "$ the deck", "INCLU / a.inc", node(1, "0.", "0.", "0."), node(2, "1.5", "0.", "0."),
    shell(1, 10, 1, 2, 5, 6), "FRAME /        5       0       0", "name",
    "              1.              0.              0.", "              0.              1.              0.",
  };
  static final String[] A = {"$ more nodes", "INCLU / b.inc", node(5, "1.5", "2.25", "0."), node(6, "0.", "2.25", "0.")};
  static final String[] B = {node(7, "3.", "0.", "0."), node(8, "3.", "2.25", "-1E-3"), shell(2, 11, 2, 7, 8, 5)};

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

  private String lastNote() {
    return String.valueOf(lua("local n = _G.notes[#_G.notes] return n and n[1] or ''"));
  }

  /** What the last message told in full: the message, or where it points to the quickfix list, the list's title. */
  private String told() {
    String note = lastNote();
    return note.contains(":copen") ? String.valueOf(lua("return vim.fn.getqflist({ title = 0 }).title")) : note;
  }

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

  /** Runs {@code :NvimpamTransform ...}; what it told in full (its error is a notification too). */
  private String run(String command) {
    lua("_G.notes = {} require('nvimpam.deck.transform').last = nil");
    nvim.command(command).join();
    lua("vim.wait(20000, function() local l = require('nvimpam.deck.transform').last return l == nil or l.done end, 10)");
    return told();
  }

  /** The headless transform of the same tree: the files it writes, as lines. */
  private List<List<String>> headless(String... args) throws IOException {
    Path out = dir.resolve("out" + System.nanoTime());
    List<String> all = new ArrayList<>(List.of("transform", main.toString(), "-o", out.toString()));
    all.addAll(List.of(args));
    assertEquals(0, Main.run(all.toArray(String[]::new)));
    List<List<String>> files = new ArrayList<>();
    for (String f : List.of("main.pc", "a.inc", "b.inc")) files.add(Files.readAllLines(out.resolve(f), StandardCharsets.ISO_8859_1));
    return files;
  }

  @Test
  void rotateTheWholeTreeEachBufferOneUndoStepNothingWritten() throws IOException {
    setup("");
    edit(main);
    lua("vim.api.nvim_buf_set_lines(0, -1, -1, true, { '$ mine' })"); // the user's change just before: not joined
    String told = run("NvimpamTransform rotate z 90");
    List<String> mainAfter = with(MAIN, 4, node(2, "0.", "1.5", "0."));
    mainAfter.add("$ mine");
    List<String> aAfter = with(A, 2, node(5, "-2.25", "1.5", "0."), 3, node(6, "-2.25", "0.", "0."));
    List<String> bAfter = with(B, 0, node(7, "0.", "3.", "0."), 1, node(8, "-2.25", "3.", "-1E-3"));
    assertEquals(mainAfter, lines(main));
    assertEquals(aAfter, lines(a));
    assertEquals(bAfter, lines(b));
    tree.assertOnDisk();
    assertEquals("nvimpam: rotate z 90: 6 nodes moved in main.pc, a.inc, b.inc; :wall writes them; 1 card with geometry of their own"
        + " not transformed", told);
    assertEquals("not transformed: FRAME 5: its vectors are not transformed", lua("return vim.fn.getqflist()[4].text"));
    List<List<String>> written = headless("rotate", "z", "90");
    assertEquals(mainAfter.subList(0, MAIN.length), written.get(0));
    assertEquals(aAfter, written.get(1));
    assertEquals(bAfter, written.get(2));
    undo(main);
    undo(a);
    undo(b);
    List<String> mine = new ArrayList<>(List.of(MAIN));
    mine.add("$ mine");
    assertEquals(mine, lines(main));
    assertEquals(List.of(A), lines(a));
    assertEquals(List.of(B), lines(b));
  }

  @Test
  void aRangeMovesItsNodeCardsOnlyAndKeepsTheBytesOfUnchangedCoordinates() throws IOException {
    setup("");
    edit(main);
    String told = run("4,5NvimpamTransform translate 0 0 5");
    assertEquals(with(MAIN, 3, node(1, "0.", "0.", "5."), 4, node(2, "1.5", "0.", "5.")), lines(main));
    assertEquals("nvimpam: translate 0 0 5: 2 nodes moved in main.pc", told);
    assertEquals(List.of(with(MAIN, 3, node(1, "0.", "0.", "5."), 4, node(2, "1.5", "0.", "5.")), List.of(A), List.of(B)),
        headless("--lines", "main.pc:4-5", "translate", "0", "0", "5"));
    tree.assertOnDisk();
  }

  @Test
  void partsWithSharedNodesAreRefusedUnlessBangAndAMirrorReversesTheirElements() throws IOException {
    setup("");
    edit(main);
    String err = run("NvimpamTransform mirror y part=10");
    assertEquals("nvimpam: cannot mirror y part=10: node 2 is shared with part 11 (! moves shared nodes too); "
        + "node 5 is shared with part 11 (! moves shared nodes too); b.inc line 3: SHELL 2 has 2 of its 4 nodes moved: turned over, "
        + "it would be neither mirrored nor as it was; nothing changed", err);
    assertEquals(List.of(MAIN), lines(main));
    assertEquals(-1L, lua("return vim.fn.bufnr('" + a + "')"), "a refusal loads no file");
    // with !, the shared nodes move too: part 11's element then has only some of its nodes mirrored
    err = run("NvimpamTransform! mirror y part=10");
    assertTrue(err.contains("SHELL 2 has 2 of its 4 nodes moved"), err);
    assertEquals(List.of(MAIN), lines(main));
    // both parts: every node mirrored, both shells reversed
    String told = run("NvimpamTransform mirror y 1 part=10,11");
    List<String> mainAfter = with(MAIN, 3, node(1, "0.", "2.", "0."), 4, node(2, "1.5", "2.", "0."), 5, shell(1, 10, 1, 6, 5, 2));
    List<String> aAfter = with(A, 2, node(5, "1.5", "-0.25", "0."), 3, node(6, "0.", "-0.25", "0."));
    List<String> bAfter = with(B, 0, node(7, "3.", "2.", "0."), 1, node(8, "3.", "-0.25", "-1E-3"), 2, shell(2, 11, 2, 5, 8, 7));
    assertEquals(mainAfter, lines(main));
    assertEquals(aAfter, lines(a));
    assertEquals(bAfter, lines(b));
    assertEquals("nvimpam: mirror y 1 part=10,11: 6 nodes moved, 2 elements reversed in main.pc, a.inc, b.inc; :wall writes them; "
        + "1 card with geometry of their own not transformed", told);
    assertEquals(List.of(mainAfter, aAfter, bAfter), headless("--part", "10,11", "mirror", "y", "1"));
    tree.assertOnDisk();
    undo(main);
    undo(a);
    undo(b);
    assertEquals(List.of(MAIN), lines(main));
    assertEquals(List.of(A), lines(a));
    assertEquals(List.of(B), lines(b));
  }

  @Test
  void aValueThatIsNoNumberRefusesTheWholeTransform() throws IOException {
    setup("");
    edit(main);
    lua("vim.api.nvim_buf_set_lines(0, 3, 4, true, { '" + node(1, "<X>", "0.", "0.") + "' })");
    String err = run("NvimpamTransform scale 2");
    assertTrue(err.contains("cannot scale 2: main.pc line 4: node 1's X is no number (<X>); nothing changed"), err);
    assertEquals(with(MAIN, 3, node(1, "<X>", "0.", "0.")), lines(main));
    assertEquals(-1L, lua("return vim.fn.bufnr('" + a + "')"));
    tree.assertOnDisk();
  }
}
