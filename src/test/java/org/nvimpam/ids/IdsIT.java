package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nvimpam.testutil.IncludeTree.deck;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.PluginTestBase;

/**
 * Following the ids of a deck in a real Neovim: goto, references, completion, rename, outline,
 * the cross-reference diagnostics, include files.
 */
class IdsIT extends PluginTestBase {
  static final String MATER = "MATER /        3     103         7.85E-6       0       0       0       0";
  static final String PART = "PART  /       12   SHELL       3       0       0       0";
  static final String NAME = "NAME Door inner";
  static final String END = "END_PART";

  static String node(int id) {
    return String.format("NODE  / %8d              0.              0.              0.", id);
  }

  static String shell(int id, int part, int... nodes) {
    StringBuilder sb = new StringBuilder(String.format("SHELL / %8d%8d", id, part));
    for (int n : nodes) sb.append(String.format("%8d", n));
    return sb.toString();
  }

  static String part(int id, String title) {
    return String.format("PART  / %8d   SHELL       3       0       0       0", id) + "\n" + "NAME " + title + "\n" + END;
  }

  @org.junit.jupiter.api.BeforeEach
  void detectFiletypes() {
    nvim.command("filetype on").join(); // *.pc and *.inc decks become pamcrash buffers, folded live
  }

  private Path open(String name, String... lines) throws IOException {
    Path f = dir.resolve(name);
    Files.write(f, deck(lines));
    nvim.command("edit " + f).join();
    return f;
  }

  private void cursor(int line, int col) {
    lua("vim.api.nvim_win_set_cursor(0, { " + line + ", " + (col - 1) + " })");
  }

  /** Types {@code keys} (with <> notation) as the user would, and waits until Neovim handled them. */
  private void keys(String keys) {
    lua("vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('" + keys + "', true, false, true), 'xt', false)");
  }

  private long line() {
    return (Long) lua("return vim.api.nvim_win_get_cursor(0)[1]");
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

  @SuppressWarnings("unchecked")
  private List<String> refsDiagnostics(String until) {
    String get = "local ns = vim.api.nvim_create_namespace('nvimpam.refs') local out = {} "
        + "for _, d in ipairs(vim.diagnostic.get(0, { namespace = ns })) do "
        + "out[#out + 1] = string.format('%d:%d-%d %d %s', d.lnum, d.col, d.end_col, d.severity, d.message) end "
        + "table.sort(out) return out";
    long deadline = System.nanoTime() + 15_000_000_000L;
    List<String> d;
    do {
      d = (List<String>) lua(get);
      if (until.equals(String.valueOf(d.size())) || d.toString().contains(until)) return d;
      lua("vim.wait(50)");
    } while (System.nanoTime() < deadline);
    throw new AssertionError("no diagnostics like '" + until + "' within 15 s; have " + d + ", notes " + lua("return _G.notes"));
  }

  private static final String[] BASE = {
    "INPUTVERSION 2011", MATER, "NAME Steel", PART, NAME, END, node(1), node(2), node(3), node(4),
    shell(100, 12, 1, 2, 3, 4), shell(101, 12, 1, 2, 3, 4),
  };

  @Test
  void aNewCardGetsTheNextFreeIdOfItsKind() throws IOException {
    setup("");
    open("main.pc", BASE);
    lua("vim.wait(15000, function() return require('nvimpam.ids').last[vim.api.nvim_get_current_buf()] ~= nil end, 20)");
    cursor(11, 1);
    nvim.command("NvimpamCard SHELL").join(); // below the run of SHELL cards
    nvim.command("NvimpamCard PART:SHELL").join();
    Object lines = lua("return vim.api.nvim_buf_get_lines(0, 0, -1, true)");
    String all = String.valueOf(lines);
    assertTrue(all.contains("SHELL /      102"), all);
    assertTrue(all.contains("PART  /       13   SHELL"), all);
  }

  @Test
  void gotoJumpsFromAShellsPartFieldToThePartCard() throws IOException {
    setup("");
    open("main.pc", BASE);
    cursor(11, 20); // SHELL 100, IDPRT
    nvim.command("NvimpamGoto").join();
    assertEquals(4L, line(), lastNote());
  }

  @Test
  void gdOnANodeFieldJumpsToTheNode() throws IOException {
    setup("");
    open("main.pc", BASE);
    cursor(12, 40); // SHELL 101, IDNOD2 = 2
    keys("gd");
    assertEquals(8L, line(), lastNote());
  }

  @Test
  void gotoSaysWhenNoCardDefinesTheId() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", node(1), shell(100, 77, 1, 1, 1, 1));
    cursor(3, 20);
    nvim.command("NvimpamGoto").join();
    assertEquals(3L, line());
    assertEquals("nvimpam: no definition of part 77", lastNote());
  }

  @Test
  @SuppressWarnings("unchecked")
  void gotoListsEveryDefinitionOfAnIdDefinedTwice() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", node(1), node(2), node(1), shell(100, 12, 1, 2, 2, 2));
    cursor(5, 30); // IDNOD1 = 1
    nvim.command("NvimpamGoto").join();
    assertEquals("nvimpam: node 1 is defined 2 times; :copen lists them", lastNote());
    List<Map<String, Object>> qf = (List<Map<String, Object>>) lua("return vim.fn.getqflist()");
    assertEquals(List.of(2L, 4L), qf.stream().map(i -> ((Number) i.get("lnum")).longValue()).toList());
  }

  @Test
  void gotoFindsADefinitionAfterAnEditRenumbersIt() throws IOException {
    setup("");
    open("main.pc", BASE);
    lua("vim.wait(300)");
    // node 4 becomes node 9 and the shell references 9
    lua("vim.api.nvim_buf_set_lines(0, 9, 10, true, { '" + node(9) + "' })");
    lua("vim.api.nvim_buf_set_lines(0, 10, 11, true, { '" + shell(100, 12, 1, 2, 3, 9) + "' })");
    cursor(11, 50); // IDNOD4 = 9
    nvim.command("NvimpamGoto").join();
    assertEquals(10L, line(), lastNote());
  }

  @Test
  void gotoFindsADefinitionAddedByAnEditAndMissesARemovedOne() throws IOException {
    setup("");
    open("main.pc", BASE);
    lua("vim.wait(300)");
    lua("vim.api.nvim_buf_set_lines(0, 6, 7, true, {})"); // node 1 gone
    lua("vim.api.nvim_buf_set_lines(0, -1, -1, true, { '" + node(1) + "' })"); // and back at the end
    cursor(10, 30); // SHELL 100, IDNOD1 = 1
    nvim.command("NvimpamGoto").join();
    assertEquals(12L, line(), lastNote());
  }

  @Test
  void gotoOpensTheIncludeFileWhereTheDefinitionIs() throws IOException {
    Files.write(dir.resolve("nodes.inc"), deck("$ the nodes", node(1), node(2), node(3), node(4)));
    setup("");
    open("main.pc", "INPUTVERSION 2011", "INCLU / nodes.inc", PART, NAME, END, shell(100, 12, 1, 2, 3, 4));
    cursor(6, 45); // IDNOD3 = 3
    nvim.command("NvimpamGoto").join();
    assertTrue(String.valueOf(lua("return vim.api.nvim_buf_get_name(0)")).endsWith("nodes.inc"), lastNote());
    assertEquals(4L, line());
  }

  @Test
  void gotoFromAnIdInAGesSelectionJumpsToItsCard() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", MATER, "NAME Steel", PART, NAME, END, "GROUP /        1 doors",
        "        PART 7 12:14", "        END");
    cursor(8, 16); // the 12 of 12:14
    nvim.command("NvimpamGoto").join();
    assertEquals(4L, line(), lastNote());
  }

  @Test
  void gotoFollowsNestedIncludes() throws IOException {
    Files.createDirectories(dir.resolve("mesh"));
    Files.write(dir.resolve("mesh/all.inc"), deck("INCLU / nodes.inc"));
    Files.write(dir.resolve("mesh/nodes.inc"), deck("$ nodes", "$ more", node(1), node(2)));
    setup("");
    open("main.pc", "INPUTVERSION 2011", "INCLU / mesh/all.inc", PART, NAME, END, shell(100, 12, 1, 2, 2, 2));
    cursor(6, 40); // IDNOD2 = 2
    nvim.command("NvimpamGoto").join();
    assertTrue(String.valueOf(lua("return vim.api.nvim_buf_get_name(0)")).endsWith("mesh/nodes.inc"), lastNote());
    assertEquals(4L, line());
  }

  @Test
  void anIncludeFileChangedOnDiskIsReadAgain() throws IOException {
    Path inc = dir.resolve("nodes.inc");
    Files.write(inc, deck(node(1), node(2)));
    setup("");
    open("main.pc", "INPUTVERSION 2011", "INCLU / nodes.inc", PART, NAME, END, shell(100, 12, 1, 2, 2, 2));
    lua("vim.wait(500)");
    Files.write(inc, deck("$ node 2 moved down", "$", node(1), "$", node(2)));
    inc.toFile().setLastModified(System.currentTimeMillis() + 5000); // a later time, whatever the clock's grain
    cursor(6, 40);
    nvim.command("NvimpamGoto").join();
    assertEquals(5L, line(), lastNote());
  }

  @Test
  @SuppressWarnings("unchecked")
  void refsListsEveryLineReferencingTheIdInTheQuickfixList() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", MATER, "NAME Steel", PART, NAME, END, node(1), node(2), node(3), node(4),
        shell(100, 12, 1, 2, 3, 4), shell(101, 13, 1, 2, 3, 4), shell(102, 12, 4, 3, 2, 1),
        "GROUP /        1 doors", "        PART 7 12", "        END");
    cursor(4, 12); // PART 12's own id
    nvim.command("NvimpamRefs").join();
    Map<String, Object> qf = (Map<String, Object>) lua("return vim.fn.getqflist({ items = 1, title = 1 })");
    List<Map<String, Object>> items = (List<Map<String, Object>>) qf.get("items");
    assertEquals(List.of(11L, 13L, 15L), items.stream().map(i -> ((Number) i.get("lnum")).longValue()).toList());
    assertEquals("nvimpam: 3 references to part 12", qf.get("title"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void completionOffersThePartIdsWithTheirNames() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", MATER, "NAME Steel", part(12, "Door inner"), part(13, "Door outer"),
        part(20, "Roof"), node(1), shell(100, 1, 1, 1, 1, 1));
    lua("vim.wait(300)");
    lua("require('nvimpam.host').wait('ids_complete', { 0, 'part', '', 1 }, 'warm-up', 0)"); // the 50 ms are for answering
    cursor(14, 24);
    Object start = lua("return require('nvimpam.ids').omnifunc(1, '')");
    assertEquals(16L, start);
    List<Map<String, Object>> items = (List<Map<String, Object>>) lua("return require('nvimpam.ids').omnifunc(0, '1')");
    assertEquals(List.of("12", "13"), items.stream().map(i -> i.get("word")).toList());
    assertEquals("PART Door inner", items.get(0).get("menu"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void completionOffersTheValuesOfAChoiceField() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", "PART  /      12   S");
    cursor(2, 19);
    assertEquals(16L, lua("return require('nvimpam.ids').omnifunc(1, '')"));
    List<Map<String, Object>> items = (List<Map<String, Object>>) lua("return require('nvimpam.ids').omnifunc(0, '   S')");
    List<Object> words = items.stream().map(i -> i.get("word")).toList();
    assertTrue(words.containsAll(List.of("SOLID", "SHELL", "SPHEL")) && !words.contains("BEAM"), words.toString());
  }

  /** Starts Insert or Replace mode with {@code startKeys}, completes, accepts the first item. */
  private String complete(String startKeys) {
    lua("require('nvimpam.host').wait('ids_complete', { 0, 'part', '', 1 }, 'warm-up', 0)"); // the 50 ms are for answering
    lua("vim.o.completeopt = 'menuone'");
    keys(startKeys + "<C-x><C-o><C-y><Esc>");
    lua("vim.wait(100)");
    return String.valueOf(lua("return vim.api.nvim_get_current_line()"));
  }

  @Test
  void acceptingAnIdInInsertModeKeepsTheOtherFieldsInTheirColumns() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", MATER, "NAME Steel", part(12, "Door inner"), node(1),
        "SHELL /      100               1       1       1       1");
    lua("vim.wait(500)");
    cursor(8, 24); // the blank IDPRT field's last column
    String line = complete("a");
    assertEquals(shell(100, 12, 1, 1, 1, 1), line);
  }

  @Test
  void acceptingAnIdInReplaceModeKeepsTheOtherFieldsInTheirColumns() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", MATER, "NAME Steel", part(12, "Door inner"), node(1),
        "SHELL /      100       9       1       1       1       1");
    lua("vim.wait(500)");
    cursor(8, 17);
    String line = complete("R1");
    assertEquals(shell(100, 12, 1, 1, 1, 1), line);
  }

  @Test
  void renameRenumbersTheDefinitionAndEveryReferenceAsOneUndoStep() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", MATER, "NAME Steel", PART, NAME, END, node(1), node(2), node(3), node(4),
        shell(100, 12, 1, 2, 3, 4), "GROUP /        1 doors", "        PART 7 12 14", "        END");
    cursor(4, 14);
    nvim.command("NvimpamRename 4567").join();
    @SuppressWarnings("unchecked")
    List<String> lines = (List<String>) lua("return vim.api.nvim_buf_get_lines(0, 0, -1, true)");
    assertEquals("PART  /     4567   SHELL       3       0       0       0", lines.get(3));
    assertEquals(shell(100, 4567, 1, 2, 3, 4), lines.get(10));
    assertEquals("        PART 7 4567 14", lines.get(12));
    assertEquals("nvimpam: part 12 -> 4567: 3 lines changed", lastNote());
    nvim.command("undo").join();
    assertEquals(PART, lua("return vim.api.nvim_buf_get_lines(0, 3, 4, true)[1]"));
    assertEquals("        PART 7 12 14", lua("return vim.api.nvim_buf_get_lines(0, 12, 13, true)[1]"));
  }

  @Test
  void renameChangesTheIncludeFilesThatReferenceTheIdInBuffersAndWritesNothing() throws IOException {
    Path inc = dir.resolve("shells.inc");
    Files.write(inc, deck(shell(200, 12, 1, 1, 1, 1), shell(201, 12, 1, 1, 1, 1)));
    setup("");
    open("main.pc", "INPUTVERSION 2011", node(1), PART, NAME, END, "INCLU / shells.inc");
    cursor(3, 14);
    nvim.command("NvimpamRename 13").join();
    assertEquals("nvimpam: part 12 -> 13 in 2 files, 3 lines; :wall writes them", told());
    assertEquals(List.of("main.pc:3", "shells.inc:1"), lua("local out = {} for _, it in"
        + " ipairs(vim.fn.getqflist()) do out[#out + 1] = vim.fn.fnamemodify(vim.fn.bufname(it.bufnr), ':t') .. ':' .. it.lnum end"
        + " return out"));
    assertEquals(shell(200, 12, 1, 1, 1, 1), Files.readAllLines(inc).get(0));
    assertEquals(shell(200, 13, 1, 1, 1, 1), lua("return vim.api.nvim_buf_get_lines(vim.fn.bufnr('" + inc + "'), 0, 1, true)[1]"));
  }

  @Test
  void renameRefusesAnIdThatIsAlreadyDefined() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", node(1), node(2), shell(100, 12, 1, 2, 2, 2));
    cursor(2, 15);
    nvim.command("NvimpamRename 2").join();
    assertTrue(told().contains("node 2 is already defined (main.pc line 3); nothing changed"), lastNote());
    assertEquals(node(1), lua("return vim.api.nvim_buf_get_lines(0, 1, 2, true)[1]"));
  }

  @Test
  void renameRefusesAnIdThatDoesNotFitTheField() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", node(1), shell(100, 12, 1, 1, 1, 1));
    cursor(2, 15);
    nvim.command("NvimpamRename 123456789").join();
    assertTrue(told().contains("123456789 does not fit the 8 columns of NODE / IDNOD (line 2); nothing changed"), lastNote());
    assertEquals(node(1), lua("return vim.api.nvim_buf_get_lines(0, 1, 2, true)[1]"));
  }

  @Test
  void anUndefinedPartIsADiagnosticThatGoesWhenThePartIsAdded() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", MATER, "NAME Steel", node(1), shell(100, 12, 1, 1, 1, 1));
    assertEquals(List.of("4:22-24 1 SHELL / IDPRT: part 12 is not defined"), refsDiagnostics("part 12"));
    lua("vim.api.nvim_buf_set_lines(0, 3, 3, true, { '" + PART + "', '" + NAME + "', 'END_PART' })");
    assertEquals(List.of(), refsDiagnostics("0"));
  }

  @Test
  void removingANodeMakesEveryElementNamingItADiagnostic() throws IOException {
    setup("");
    open("main.pc", BASE);
    lua("vim.wait(500)");
    assertEquals(List.of(), refsDiagnostics("0"));
    lua("vim.api.nvim_buf_set_lines(0, 8, 9, true, {})"); // node 3
    assertEquals(List.of("10:47-48 1 SHELL / IDNOD3: node 3 is not defined", "9:47-48 1 SHELL / IDNOD3: node 3 is not defined"),
        refsDiagnostics("2"));
  }

  @Test
  void removingANodeRightAfterABigDeckOpensMakesItsElementsDiagnostics() throws IOException {
    setup("");
    List<String> lines = new java.util.ArrayList<>(List.of(BASE));
    for (int id = 5; id < 1_000_005; id++) lines.add(node(id));
    lines.add(shell(200, 12, 3, 5, 6, 7));
    open("main.pc", lines.toArray(String[]::new));
    lua("vim.wait(60000, function() return require('nvimpam.fold').applied_tick(0) ~= nil end, 1)");
    lua("vim.api.nvim_buf_set_lines(0, 8, 9, true, {})"); // node 3, while the checks and the index are at work
    int last = lines.size() - 2; // the last shell, one line up
    List<String> want = List.of(last + ":31-32 1 SHELL / IDNOD1: node 3 is not defined", // sorted as text
        "10:47-48 1 SHELL / IDNOD3: node 3 is not defined", "9:47-48 1 SHELL / IDNOD3: node 3 is not defined");
    assertEquals(want, refsDiagnostics("3"));
  }

  @Test
  void aNodeDefinedTwiceIsADiagnosticOnBothLines() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", node(1), node(2), node(1));
    assertEquals(List.of("1:15-16 1 NODE: node 1 is defined 2 times", "3:15-16 1 NODE: node 1 is defined 2 times"),
        refsDiagnostics("2"));
    lua("vim.api.nvim_buf_set_lines(0, 3, 4, true, {})");
    assertEquals(List.of(), refsDiagnostics("0"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void theOutlineListsPartsWithTitleAndElementCountMaterialsAndIncludes() throws IOException {
    Files.write(dir.resolve("nodes.inc"), deck(node(1)));
    setup("");
    open("main.pc", "INPUTVERSION 2011", "INCLU / nodes.inc", MATER, "NAME Steel", PART, NAME, END, part(13, "Roof"),
        shell(100, 12, 1, 1, 1, 1), shell(101, 12, 1, 1, 1, 1));
    List<Map<String, Object>> items = (List<Map<String, Object>>) lua("return require('nvimpam.ids').outline_items()");
    assertEquals(List.of("2 INCLU nodes.inc", "3 MATER 3 Steel", "5 PART 12 Door inner (2 elements)", "8 PART 13 Roof (0 elements)"),
        items.stream().map(i -> i.get("lnum") + " " + i.get("text")).toList());
    nvim.command("NvimpamOutline!").join();
    assertEquals(4L, lua("return #vim.fn.getloclist(0)"));
  }

  @Test
  void theOutlinePickerJumpsToTheChosenCard() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", MATER, "NAME Steel", PART, NAME, END, part(13, "Roof"), shell(100, 13, 1, 1, 1, 1));
    // a picker that takes the last entry, as a user choosing it would
    lua("vim.ui.select = function(items, opts, cb) _G.shown = vim.tbl_map(opts.format_item, items) cb(items[#items]) end");
    nvim.command("NvimpamOutline").join();
    assertEquals(7L, line());
    assertTrue(String.valueOf(lua("return _G.shown[#_G.shown]")).endsWith("PART 13 Roof (1 element)"), String.valueOf(lua("return _G.shown")));
  }

  @Test
  void manyCrossReferenceProblemsAreCappedWithASummaryNamingTheTotal() throws IOException {
    setup("max_diagnostics = 2");
    open("main.pc", "INPUTVERSION 2011", node(1), shell(100, 7, 1, 1, 1, 1), shell(101, 8, 1, 1, 1, 1),
        shell(102, 9, 1, 1, 1, 1));
    List<String> d = refsDiagnostics("3 cross-reference problems");
    assertEquals(3, d.size(), d.toString());
    assertTrue(d.contains("0:0-0 3 nvimpam: 3 cross-reference problems, the first 2 shown"), d.toString());
  }

  @Test
  void aMissingIncludeFileIsADiagnosticOnItsLine() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", "INCLU / gone.inc");
    List<String> d = refsDiagnostics("gone.inc");
    assertEquals(1, d.size(), d.toString());
    assertTrue(d.get(0).startsWith("1:8-16 1 include file gone.inc not found"), d.toString());
  }

  @Test
  void aBinaryIncludeFileIsADiagnostic() throws IOException {
    Files.write(dir.resolve("core.inc"), new byte[] {'N', 'O', 0, 1, 2, 3});
    setup("");
    open("main.pc", "INPUTVERSION 2011", "INCLU / core.inc");
    assertEquals(List.of("1:8-16 1 include file core.inc is a binary file, not a deck"), refsDiagnostics("binary"));
  }

  @Test
  void anUnreadableIncludeFileIsADiagnostic() throws IOException {
    Path f = dir.resolve("secret.inc");
    Files.write(f, deck(node(1)));
    f.toFile().setReadable(false, false);
    org.junit.jupiter.api.Assumptions.assumeFalse(Files.isReadable(f), "running as a user who reads every file");
    setup("");
    open("main.pc", "INPUTVERSION 2011", "INCLU / secret.inc");
    assertEquals(List.of("1:8-18 1 include file secret.inc cannot be read (permission denied)"), refsDiagnostics("secret"));
  }

  @Test
  void anIncludeFileThatIsAPipeIsADiagnosticAndNothingWaitsForIt() throws Exception {
    Path fifo = dir.resolve("pipe.inc");
    org.junit.jupiter.api.Assumptions.assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "no mkfifo");
    setup("");
    open("main.pc", "INPUTVERSION 2011", "INCLU / pipe.inc");
    assertEquals(List.of("1:8-16 1 include file pipe.inc is not a regular file"), refsDiagnostics("pipe"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void grrListsTheReferencesWhereNeovimHasTheLspDefaultKeys() throws IOException {
    org.junit.jupiter.api.Assumptions.assumeTrue((Long) lua("return vim.fn.has('nvim-0.11')") == 1L, "Neovim before 0.11");
    setup("");
    open("main.pc", BASE);
    cursor(4, 14); // PART 12
    keys("grr");
    List<Map<String, Object>> qf = (List<Map<String, Object>>) lua("return vim.fn.getqflist()");
    assertEquals(List.of(11L, 12L), qf.stream().map(i -> ((Number) i.get("lnum")).longValue()).toList());
  }

  @Test
  void anIncludeCycleIsADiagnostic() throws IOException {
    Files.write(dir.resolve("a.inc"), deck("INCLU / main.pc"));
    setup("");
    open("main.pc", "INPUTVERSION 2011", "INCLU / a.inc");
    assertEquals(List.of("1:8-13 1 a.inc line 1: include cycle: main.pc -> a.inc -> main.pc"), refsDiagnostics("cycle"));
  }

  @Test
  void anIncludeFileOpenedAloneUsesTheIdsOfTheDeckThatIncludesIt() throws IOException {
    Path inc = dir.resolve("shells.inc");
    Files.write(inc, deck(shell(100, 12, 1, 1, 1, 1)));
    setup("");
    open("main.pc", "INPUTVERSION 2011", node(1), PART, NAME, END, "INCLU / shells.inc");
    lua("vim.wait(500)");
    nvim.command("set hidden").join(); // the deck stays open (0.10+ default)
    nvim.command("edit " + inc).join();
    cursor(1, 20);
    nvim.command("NvimpamGoto").join();
    assertTrue(String.valueOf(lua("return vim.api.nvim_buf_get_name(0)")).endsWith("main.pc"), lastNote());
    assertEquals(3L, line());
  }

  // Groups: ids that are titles ---------------------------------------------------------------

  /** A deck whose groups select each other by title: lines 7 (front doors), 10 (all), 14 (rear). */
  private static final String[] GROUPS = {
    "INPUTVERSION 2011", MATER, "NAME Steel", PART, NAME, END,
    "GROUP / front doors", "        PART 12", "        END",
    "GROUP / all", "        PART 12 GRP 'front doors'", "        OGRP 'rear'  DELGRP 'front doors'", "        END",
    "GROUP / rear", "        GRP 'front doors'", "        END",
  };

  @Test
  void gotoJumpsFromAGrpItemToTheGroupCard() throws IOException {
    setup("");
    open("main.pc", GROUPS);
    cursor(11, 27); // inside 'front doors', after PART 12
    nvim.command("NvimpamGoto").join();
    assertEquals(7L, line(), lastNote());
    cursor(12, 16); // 'rear'
    keys("gd");
    assertEquals(14L, line(), lastNote());
  }

  @Test
  void gotoOpensTheIncludeFileThatDefinesTheGroup() throws IOException {
    Files.write(dir.resolve("groups.inc"), deck("$ the groups", "GROUP / roof panels", "        PART 12", "        END"));
    setup("");
    open("main.pc", "INPUTVERSION 2011", "INCLU / groups.inc", MATER, "NAME Steel", PART, NAME, END,
        "GROUP / top", "        GRP 'roof panels'", "        END");
    cursor(9, 20);
    nvim.command("NvimpamGoto").join();
    assertTrue(String.valueOf(lua("return vim.api.nvim_buf_get_name(0)")).endsWith("groups.inc"), lastNote());
    assertEquals(2L, line());
  }

  @Test
  @SuppressWarnings("unchecked")
  void refsOnAGroupTitleListsTheSelectionsThatNameIt() throws IOException {
    setup("");
    open("main.pc", GROUPS);
    cursor(7, 12); // the GROUP's own title
    nvim.command("NvimpamRefs").join();
    Map<String, Object> qf = (Map<String, Object>) lua("return vim.fn.getqflist({ items = 1, title = 1 })");
    List<Map<String, Object>> items = (List<Map<String, Object>>) qf.get("items");
    assertEquals(List.of("11:22", "12:30", "15:14"),
        items.stream().map(i -> i.get("lnum") + ":" + i.get("col")).toList());
    assertEquals("nvimpam: 3 references to group 'front doors'", qf.get("title"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void renameRetitlesTheGroupAndEverySelectionOfItAsOneUndoStep() throws IOException {
    setup("");
    open("main.pc", GROUPS);
    cursor(15, 18); // GRP 'front doors'
    nvim.command("NvimpamRename side doors").join();
    List<String> lines = (List<String>) lua("return vim.api.nvim_buf_get_lines(0, 0, -1, true)");
    assertEquals("GROUP / side doors", lines.get(6));
    assertEquals("        PART 12 GRP 'side doors'", lines.get(10));
    assertEquals("        OGRP 'rear'  DELGRP 'side doors'", lines.get(11));
    assertEquals("        GRP 'side doors'", lines.get(14));
    assertEquals("nvimpam: group 'front doors' -> 'side doors': 4 lines changed", lastNote());
    nvim.command("undo").join();
    assertEquals(List.of(GROUPS), lua("return vim.api.nvim_buf_get_lines(0, 0, -1, true)"));
  }

  @Test
  void theRenamePromptOffersTheOldTitleToEdit() throws IOException {
    setup("");
    open("main.pc", GROUPS);
    lua("vim.ui.input = function(opts, cb) _G.asked = opts.prompt .. '|' .. opts.default cb('rear doors') end");
    cursor(14, 10); // GROUP / rear
    lua("require('nvimpam.ids').rename_prompt()");
    assertEquals("Rename group 'rear' to: |rear", lua("return _G.asked"));
    assertEquals("        OGRP 'rear doors'  DELGRP 'front doors'", lua("return vim.api.nvim_buf_get_lines(0, 11, 12, true)[1]"), String.valueOf(lua("return _G.notes")));
  }

  @Test
  void renameRefusesATitleThatIsAlreadyDefined() throws IOException {
    setup("");
    open("main.pc", GROUPS);
    cursor(7, 10);
    nvim.command("NvimpamRename 'all'").join();
    assertTrue(told().contains("group 'all' is already defined (main.pc line 10); nothing changed"), lastNote());
    assertEquals(List.of(GROUPS), lua("return vim.api.nvim_buf_get_lines(0, 0, -1, true)"));
  }

  @Test
  void renameRefusesATitleThatDoesNotFitTheTitleFieldOrASelectionLine() throws IOException {
    setup("");
    open("main.pc", GROUPS);
    cursor(7, 10);
    String wide = "w".repeat(73);
    nvim.command("NvimpamRename " + wide).join();
    assertTrue(told().contains("'" + wide + "' does not fit the 72 columns of GROUP / TITLE (line 7); nothing changed"),
        lastNote());
    String long70 = "l".repeat(70); // fits the title field, not GRP '...' even on a line of its own
    nvim.command("NvimpamRename " + long70).join();
    assertTrue(told().contains("main.pc: line 11 would pass column 80 with '" + long70
        + "', even continued on a new line; nothing changed"), lastNote());
    assertEquals(List.of(GROUPS), lua("return vim.api.nvim_buf_get_lines(0, 0, -1, true)"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void completionInsideTheQuotesOfAGrpItemOffersTheGroupTitles() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", "GROUP / front doors", "        END", "GROUP / Fenders", "        END",
        "GROUP / roof", "        END", "GROUP / top", "        GRP 'f");
    lua("vim.wait(300)");
    lua("require('nvimpam.host').wait('ids_complete', { 0, 'group', '', 1 }, 'warm-up', 0)"); // the 50 ms are for answering
    cursor(9, 14); // after the f
    assertEquals(13L, lua("return require('nvimpam.ids').omnifunc(1, '')"));
    List<Map<String, Object>> items = (List<Map<String, Object>>) lua("return require('nvimpam.ids').omnifunc(0, 'f')");
    assertEquals(List.of("front doors'", "Fenders'"), items.stream().map(i -> i.get("word")).toList());
    assertEquals("GROUP", items.get(0).get("menu"));
    lua("vim.o.completeopt = 'menuone'");
    keys("A<C-x><C-o><C-y><Esc>");
    lua("vim.wait(100)");
    assertEquals("        GRP 'front doors'", lua("return vim.api.nvim_get_current_line()"));
  }

  @Test
  void anUndefinedGroupIsADiagnosticThatGoesWhenAGroupTakesTheTitle() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", "GROUP / top", "        GRP 'roof'", "        END");
    assertEquals(List.of("2:13-17 1 GROUP: group 'roof' (in the selection) is not defined"), refsDiagnostics("roof"));
    lua("vim.api.nvim_buf_set_lines(0, 4, 4, true, { 'GROUP / roof', '        END' })");
    assertEquals(List.of(), refsDiagnostics("[]"));
    lua("vim.api.nvim_buf_set_lines(0, 4, 5, true, { 'GROUP / Roof' })"); // titles are case-sensitive
    assertEquals(List.of("2:13-17 1 GROUP: group 'roof' (in the selection) is not defined"), refsDiagnostics("roof"));
  }

  @Test
  void aTitleTwoGroupsHaveIsADiagnosticOnBothCards() throws IOException {
    setup("");
    open("main.pc", "INPUTVERSION 2011", "GROUP / doors", "        END", "GROUP /   doors  ", "        END");
    assertEquals(List.of("1:8-13 1 GROUP: group 'doors' is defined 2 times", "3:10-15 1 GROUP: group 'doors' is defined 2 times"),
        refsDiagnostics("2"));
    lua("vim.api.nvim_buf_set_lines(0, 3, 4, true, { 'GROUP / rear doors' })");
    assertEquals(List.of(), refsDiagnostics("[]"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void theOutlineShowsEachGroupWithItsTitleAndANewGroupCardGetsNoNumberForATitle() throws IOException {
    setup("");
    open("main.pc", GROUPS);
    List<Map<String, Object>> items = (List<Map<String, Object>>) lua("return require('nvimpam.ids').outline_items()");
    assertEquals(List.of("2 MATER 3 Steel", "4 PART 12 Door inner (0 elements)", "7 GROUP 'front doors'", "10 GROUP 'all'",
        "14 GROUP 'rear'"), items.stream().map(i -> i.get("lnum") + " " + i.get("text")).toList());
    cursor(16, 1);
    nvim.command("NvimpamCard GROUP").join();
    List<String> added = (List<String>) lua("return vim.api.nvim_buf_get_lines(0, 16, -1, true)");
    assertTrue(added.contains("GROUP /"), added.toString()); // the title is the user's to write
  }

  @Test
  void gfOpensTheFileOfAnIncluLine() throws IOException {
    Files.write(dir.resolve("nodes.inc"), deck(node(1)));
    setup("");
    open("main.pc", "INPUTVERSION 2011", "INCLU / 'nodes.inc'");
    cursor(2, 12);
    keys("gf");
    assertTrue(String.valueOf(lua("return vim.api.nvim_buf_get_name(0)")).endsWith("nodes.inc"));
  }
}
