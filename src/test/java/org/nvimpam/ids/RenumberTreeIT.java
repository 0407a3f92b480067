package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nvimpam.ids.IdsIT.node;
import static org.nvimpam.ids.IdsIT.shell;

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
 * :NvimpamOffset and :NvimpamRenumber across an include tree in a real Neovim: main.pc includes
 * a.inc, which includes b.inc; definitions and references (fields, GES items and ranges) of nodes,
 * elements and parts in all three. The buffers after a change of the whole tree are the bytes the
 * headless `renumber` writes; a range and part= change their ids only; every refusal changes
 * nothing; each buffer's change is one undo step of its own, also when applied in many parts.
 */
class RenumberTreeIT extends PluginTestBase {
  static final String[] MAIN = {
    "INPUTVERSION 2011", "INCLU / a.inc", IdsIT.MATER, "NAME Steel", IdsIT.PART, IdsIT.NAME, IdsIT.END,
    shell(100, 12, 77, 78, 79, 80), shell(101, 12, 78, 79, 80, 81), shell(102, 13, 81, 82, 83, 84),
    "GROUP / doors", "        NOD 70:80 PART 12", "        ELE 100:102", "        END",
  };
  static final String[] A = {
    "$ the nodes", "INCLU / b.inc", node(77), node(78), node(79), node(80), node(81), shell(200, 12, 81, 80, 79, 77),
  };
  static final String[] B = {
    node(82), node(83), node(84), shell(300, 12, 77, 77, 78, 79), "GROUP / rear", "        NOD 77 DELNOD 76:77",
    "        NOD 82:84", "        GRP 'doors'", "        END",
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

  /** Runs an Ex command of the renumber module and waits for its end; the last message. */
  private String run(String cmd) {
    lua("require('nvimpam.deck.renumber').last = nil");
    nvim.command(cmd).join();
    lua("vim.wait(20000, function() local l = require('nvimpam.deck.renumber').last return l and l.done end, 10)");
    return String.valueOf(lua("local n = _G.notes[#_G.notes] return n and n[1] or ''"));
  }

  /** What the last message told in full: where it points to the quickfix list, the list's title. */
  private String told(String note) {
    return note.contains(":copen") ? String.valueOf(lua("return vim.fn.getqflist({ title = 0 }).title")) : note;
  }

  @SuppressWarnings("unchecked")
  private List<String> lines(Path f) {
    return (List<String>) lua("local b = vim.fn.bufnr('" + f + "') if b < 1 or not vim.api.nvim_buf_is_loaded(b) then return nil end "
        + "return vim.api.nvim_buf_get_lines(b, 0, -1, true)");
  }

  private long seqLast(Path f) {
    return ((Number) lua("local b = vim.fn.bufnr('" + f + "') return vim.api.nvim_buf_call(b, function() return vim.fn.undotree().seq_last end)"))
        .longValue();
  }

  private void undo(Path f) {
    lua("local b = vim.fn.bufnr('" + f + "') vim.api.nvim_buf_call(b, function() vim.cmd('undo') end)");
  }

  /** The lines of each file of the tree as the headless renumber writes them with {@code option}. */
  private List<List<String>> headless(String option) throws IOException {
    Path out = dir.resolve("out");
    assertEquals(0, Main.run("renumber", main.toString(), "-o", out.toString(), option));
    List<List<String>> l = new ArrayList<>();
    for (String f : List.of("main.pc", "a.inc", "b.inc")) {
      l.add(List.of(Files.readString(out.resolve(f), StandardCharsets.ISO_8859_1).split("\n", -1)).subList(0,
          Files.readString(out.resolve(f), StandardCharsets.ISO_8859_1).split("\n", -1).length - 1));
    }
    return l;
  }

  private List<List<String>> buffers() {
    return List.of(lines(main), lines(a), lines(b));
  }

  @Test
  void anOffsetOfTheWholeTreeGivesTheHeadlessBytesAndUndoesInOneStepPerBuffer() throws IOException {
    setup("");
    edit(main);
    // a change of the user's own just before, through the API: the offset must not join it
    lua("vim.api.nvim_buf_set_lines(0, -1, -1, true, { '$ mine' })");
    // many parts, one a turn of the main loop: still one undo step each
    lua("require('nvimpam.tree.paced').lines_per_call = 2 require('nvimpam.tree.paced').budget_ms = 0");
    long before = seqLast(main);
    // what a typed command does between the turns: each buffer's undo block closed
    lua("_G.closer = vim.loop.new_timer() _G.closer:start(0, 1, vim.schedule_wrap(function()"
        + " for _, b in ipairs(vim.api.nvim_list_bufs()) do if vim.api.nvim_buf_is_loaded(b) then"
        + " require('nvimpam.core.undo').close(b) end end end))");
    String note = run("NvimpamOffset node 1000");
    lua("_G.closer:stop() _G.closer:close()");
    List<List<String>> want = headless("--offset=node=1000");
    List<String> mine = new ArrayList<>(want.get(0));
    mine.add("$ mine");
    assertEquals(mine, lines(main), note);
    assertEquals(want.get(1), lines(a), note);
    assertEquals(want.get(2), lines(b), note);
    assertEquals(node(1077), lines(a).get(2));
    assertEquals("        NOD 1077 DELNOD 1076:1077", lines(b).get(5));
    tree.assertOnDisk();
    assertEquals("nvimpam: node ids +1000: 32 values; :wall, :copen", note);
    assertEquals("nvimpam: node ids +1000: 32 values in 3 files, 16 lines", lua("return vim.fn.getqflist({ title = 0 }).title"));
    assertTrue(((Number) lua("return require('nvimpam.deck.renumber').last.turns")).intValue() >= 8, note);
    assertEquals(before + 1, seqLast(main));
    assertEquals(1L, seqLast(a));
    assertEquals(1L, seqLast(b));
    assertEquals(true, lua("return vim.bo[vim.fn.bufnr('" + b + "')].modifiable"));
    undo(main);
    undo(a);
    undo(b);
    List<String> orig = new ArrayList<>(List.of(MAIN));
    orig.add("$ mine");
    assertEquals(orig, lines(main));
    assertEquals(List.of(A), lines(a));
    assertEquals(List.of(B), lines(b));
  }

  @Test
  void aDenseRenumberOfTheWholeTreeGivesTheHeadlessBytes() throws IOException {
    setup("");
    edit(main);
    String note = run("NvimpamRenumber node 1");
    assertEquals(headless("--start=node=1"), buffers(), note);
    assertEquals(node(1), lines(a).get(2));
    assertEquals("        NOD 1:4 PART 12", lines(main).get(11)); // 70:80 held 77..80, now 1..4
    note = run("NvimpamRenumber element 5");
    assertEquals("        ELE 5:7", lines(main).get(12), note);
    tree.assertOnDisk();
  }

  @Test
  void aRangeTakesTheIdsItsCardsDefineWithEveryReference() throws IOException {
    setup("");
    edit(main);
    nvim.command("set hidden").join();
    edit(a);
    nvim.command("setlocal nofoldenable").join(); // a range in a closed fold takes the whole fold
    String note = run("4,5NvimpamOffset node 1000"); // nodes 78 and 79
    List<String> wantA = new ArrayList<>(List.of(A));
    wantA.set(3, node(1078));
    wantA.set(4, node(1079));
    wantA.set(7, shell(200, 12, 81, 80, 1079, 77));
    assertEquals(wantA, lines(a), note);
    List<String> wantMain = new ArrayList<>(List.of(MAIN));
    wantMain.set(7, shell(100, 12, 77, 1078, 1079, 80));
    wantMain.set(8, shell(101, 12, 1078, 1079, 80, 81));
    wantMain.set(11, "        NOD 70:77 80 1078:1079 PART 12"); // the split range keeps the ids defined nowhere
    assertEquals(wantMain, lines(main), note);
    List<String> wantB = new ArrayList<>(List.of(B));
    wantB.set(3, shell(300, 12, 77, 77, 1078, 1079));
    assertEquals(wantB, lines(b), note);
    tree.assertOnDisk();
  }

  @Test
  void partTakesThePartsElementsAndTheirNodes() throws IOException {
    setup("");
    edit(main);
    String note = run("NvimpamOffset element 1000 part=13");
    List<String> wantMain = new ArrayList<>(List.of(MAIN));
    wantMain.set(9, shell(1102, 13, 81, 82, 83, 84));
    wantMain.set(12, "        ELE 100:101 1102");
    assertEquals(wantMain, lines(main), note);
    assertNull(lines(a), "a.inc holds no element of part 13: not loaded");
    note = run("NvimpamOffset node 1000 part=13"); // 81..84
    assertEquals(shell(1102, 13, 1081, 1082, 1083, 1084), lines(main).get(9), note);
    assertEquals(shell(101, 12, 78, 79, 80, 1081), lines(main).get(8), note);
    assertEquals("        NOD 1082:1084", lines(b).get(6), note);
    assertEquals(node(1081), lines(a).get(6), note);
    tree.assertOnDisk();
  }

  private void assertNothingChanged() throws IOException {
    assertEquals(List.of(MAIN), lines(main));
    List<String> la = lines(a);
    if (la != null) assertEquals(List.of(A), la);
    List<String> lb = lines(b);
    if (lb != null) assertEquals(List.of(B), lb);
    tree.assertOnDisk();
  }

  @Test
  void anIdOfTheScopeThatWouldBecomeAnIdDefinedOutsideItIsRefused() throws IOException {
    setup("");
    edit(main);
    nvim.command("set hidden").join();
    edit(a);
    nvim.command("setlocal nofoldenable").join();
    String note = run("3NvimpamOffset node 1"); // 77 -> 78, which stays
    assertEquals("nvimpam: node ids +1 (lines 3-3): a.inc line 4: node 77 would become 78, which is defined already, outside "
        + "what is renumbered; nothing changed", told(note));
    assertNothingChanged();
  }

  @Test
  void aValueThatNoLongerFitsAndANomodifiableBufferAreRefusedTogether() throws IOException {
    setup("");
    edit(main);
    nvim.command("set hidden").join();
    edit(b);
    nvim.command("setlocal nomodifiable").join();
    edit(main);
    String note = run("NvimpamOffset node 999999000");
    String all = told(note);
    assertTrue(all.startsWith("nvimpam: node ids +999999000: "), all);
    List<?> qf = (List<?>) lua("local out = {} for _, it in ipairs(vim.fn.getqflist()) do out[#out + 1] = it.text end return out");
    assertTrue(qf.contains("b.inc has 'nomodifiable'"), qf.toString());
    assertTrue(qf.contains("a.inc line 3: node 77 would become 999999077, which does not fit the 8 columns of NODE / IDNOD"), qf.toString());
    assertNothingChanged();
    assertEquals(false, lua("return vim.bo[vim.fn.bufnr('" + b + "')].modifiable"));
  }

  @Test
  void groupsAreNoKindToRenumber() throws IOException {
    setup("");
    edit(main);
    nvim.command("NvimpamOffset group 5").join();
    String note = String.valueOf(lua("local n = _G.notes[#_G.notes] return n and n[1] or ''"));
    assertEquals("nvimpam: :NvimpamOffset cannot take groups: they are named by their titles, not numbered", note);
    assertNothingChanged();
  }

  /**
   * An offset of a generated deck of 1,000,000 lines puts its changes in many turns of the main
   * loop, the JVM's answer asked for a page at a time (how long a turn holds the loop:
   * {@code bench-model}).
   */
  @Test
  void aLargeOffsetComesInPagesOverManyTurns() throws IOException {
    Path big = dir.resolve("big.pc");
    assertEquals(0, Main.run("gen", "--lines=1000000", "--out=" + big));
    setup("");
    nvim.command("edit " + big).join();
    lua("vim.wait(60000, function() return require('nvimpam.ids').last[vim.api.nvim_get_current_buf()] ~= nil end, 20)");
    lua("require('nvimpam.deck.renumber').last = nil");
    nvim.command("NvimpamOffset node 1000000").join();
    lua("vim.wait(300000, function() local l = require('nvimpam.deck.renumber').last return l and l.done end, 10)");
    // how long the main loop is held is bench-model's to measure; here: the parts and the result
    @SuppressWarnings("unchecked")
    java.util.Map<String, Object> last = (java.util.Map<String, Object>) lua("local l = require('nvimpam.deck.renumber').last "
        + "return { turns = l.turns, error = l.error and tostring(l.error) }");
    assertNull(last.get("error"), last::toString);
    assertTrue(((Number) last.get("turns")).longValue() > 10, last::toString);
    assertEquals(1L, lua("return vim.fn.search('^NODE  / *1000001 ', 'nw') > 0 and 1 or 0"), last::toString); // node 1 moved
  }
}
