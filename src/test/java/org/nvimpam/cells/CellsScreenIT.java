package org.nvimpam.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;
import org.nvimpam.testutil.Screen;
import org.nvimpam.testutil.Signals;

/**
 * Cell highlighting as a user sees it: the plugin set up with its defaults, a deck opened in a
 * 120x50 UI with every fold open, and the highlight groups read back from what Neovim drew
 * ({@link Screen}). Columns in the expectations are the deck's 1-based byte columns; {@code cell}
 * stands for NvimpamCellOdd or NvimpamCellEven, and two cells that touch must differ (the runs
 * of equal groups would merge otherwise). The column layouts are the format's own, as the {@code
 * $#} header lines of the decks show them.
 */
class CellsScreenIT extends PluginTestBase {
  private static final int W = 120;
  private static final int H = 50;
  private static final long FOLD_WAIT_MS = 60_000;
  private static final List<String> GROUPS = List.of("NvimpamComment", "NvimpamKeyword", "NvimpamFixed",
      "NvimpamCellOdd", "NvimpamCellEven", "NvimpamCellError", "NvimpamCellWarn", "NvimpamHeader");

  private static final String NODE_1 = "NODE  /        1              0.            50.5              0.";
  private static final String NODE_CELLS = "1-8 NvimpamKeyword | 9-16 cell | 17-32 cell | 33-48 cell | 49-64 cell";
  private static final String PART_HEAD = "PART  /        1   SHELL       3       0       0       0";
  private static final String PART_HEAD_CELLS =
      "1-8 NvimpamKeyword | 9-16 cell | 17-24 cell | 25-32 cell | 33-40 cell | 41-48 cell | 49-56 cell";

  /** A deck with a NODE run, a SHELL and a PART SHELL card (the sample deck's first part). */
  private static final List<String> DECK = List.of(
      "INPUTVERSION 2011",
      "$#         IDNOD               X               Y               Z",
      NODE_1,
      "NODE  /        2              0.            50.5             10.",
      "$#          IDEL   IDPRT  IDNOD1  IDNOD2  IDNOD3  IDNOD4",
      "SHELL /     3129       1       1    2967    2971    2970",
      "$#         IDPRT   ATYPE   IDMAT IDVAMAT IDTHMAT  IDPMAT",
      PART_HEAD, // line 8
      "$#                                                                         TITLE",
      "NAME Box section", // 10
      "$#  DTELIM    TSCALF",
      "        0.          ", // 12
      "$#   TCONT    EPSINI  COULFRIC",
      "                              ", // 14
      "$#       H NINT    OFFSETNINTh",
      "        1.    3               ", // 16
      "$#ORTBLANK      XDIR      YDIR      ZDIR",
      "    0                                   ", // 18
      "$#      ",
      "END_PART", // 20
      "NODE  /        3              0.            50.5             20.");

  /** The window a deck is shown in, by getwininfo(). */
  private record Win(int id, int row, int col, int textoff, int topline, int botline) {}

  @BeforeEach
  void attach() {
    lua("vim.cmd('filetype on') vim.cmd('syntax on') vim.o.hidden = true vim.o.ruler = false");
  }

  // ---- opening a deck and reading its cells -----------------------------------------------------

  private Screen screen;

  /** Sets the plugin up, attaches the UI, opens {@code lines} with every fold open. */
  private Screen.Snapshot open(String options, List<String> lines) throws IOException {
    return open(options, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private Screen.Snapshot open(String options, byte[] deck) throws IOException {
    setup(options);
    screen = Screen.attach(nvim, W, H);
    EmbeddedNvim.edit(nvim, deck, dir);
    awaitFolds();
    awaitTable(); // a big deck's table loads after its folds
    lua("vim.cmd('normal! zR') vim.wo.signcolumn = 'no'");
    screen.nameGroups(GROUPS);
    assertNoErrors();
    return redrawn();
  }

  private void awaitFolds() {
    String done = "return require('nvimpam.fold').applied_tick(0) == vim.b.changedtick";
    long end = System.currentTimeMillis() + FOLD_WAIT_MS;
    while (!Boolean.TRUE.equals(lua(done))) {
      assertNoErrors();
      if (System.currentTimeMillis() > end) fail("no folds within " + FOLD_WAIT_MS + " ms; notes: " + lua("return _G.notes"));
      sleep(20);
    }
  }

  private void awaitTable() {
    long end = System.currentTimeMillis() + FOLD_WAIT_MS;
    while (!Boolean.TRUE.equals(lua("return not require('nvimpam.view.cells').active(vim.api.nvim_get_current_buf()) or require('nvimpam.model.layout').loaded()"))) {
      assertNoErrors();
      if (System.currentTimeMillis() > end) fail("the card-layout table did not load within " + FOLD_WAIT_MS + " ms");
      sleep(10);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The plugin notified no error (e.g. that the card-layout table does not load). */
  private void assertNoErrors() {
    Object errors = lua("local e = {} for _, n in ipairs(_G.notes) do if n[2] >= vim.log.levels.ERROR then"
        + " table.insert(e, n[1]) end end return e");
    assertEquals(List.of(), errors, "error notifications");
  }

  /** The whole screen drawn again now ({@code :redraw!}). */
  private Screen.Snapshot redrawn() {
    return screen.flushAfter("vim.cmd('redraw!')");
  }

  private Win win(int id) {
    List<?> i = (List<?>) lua("local w = vim.fn.getwininfo(" + id + ")[1]"
        + " return { w.winid, w.winrow, w.wincol, w.textoff, w.topline, w.botline }");
    return new Win(n(i, 0), n(i, 1) - 1, n(i, 2) - 1, n(i, 3), n(i, 4), n(i, 5));
  }

  private Win currentWin() {
    return win(((Number) lua("return vim.api.nvim_get_current_win()")).intValue());
  }

  private static int n(List<?> l, int k) {
    return ((Number) l.get(k)).intValue();
  }

  @SuppressWarnings("unchecked")
  private List<String> bufferLines(int win) {
    return (List<String>) lua("return vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(" + win + "), 0, -1, true)");
  }

  /**
   * The nvimpam groups of buffer line {@code lnum} (1-based) as drawn in window {@code w}: runs of
   * cells with equal groups over the line's bytes, "1-8 NvimpamKeyword | 9-16 cell", "" for none.
   * Lines are expected one screen row each from the window's top line (folds open, no wrap); the
   * row's text is checked against the line first.
   */
  private static String cells(Screen.Snapshot s, Win w, List<String> lines, int lnum) {
    String line = lines.get(lnum - 1);
    int row = w.row() + lnum - w.topline();
    int col0 = w.col() + w.textoff();
    if (lnum < w.topline() || lnum > w.botline() || row >= s.height()) {
      fail("line " + lnum + " is not in window " + w + "\n" + s.dump());
    }
    String shown = s.text(row).substring(col0, Math.min(s.width(), col0 + line.length()));
    if (!shown.stripTrailing().equals(line.stripTrailing())) {
      fail("line " + lnum + " '" + line + "' is not on screen row " + row + "\n" + s.dump());
    }
    List<String> runs = new ArrayList<>();
    int c = 0;
    while (c < line.length()) {
      String g = nvimpamGroups(s, row, col0 + c);
      int end = c;
      while (end + 1 < line.length() && nvimpamGroups(s, row, col0 + end + 1).equals(g)) end++;
      if (!g.isEmpty()) {
        runs.add((c + 1) + "-" + (end + 1) + " " + (g.equals("NvimpamCellOdd") || g.equals("NvimpamCellEven") ? "cell" : g));
      }
      c = end + 1;
    }
    return String.join(" | ", runs);
  }

  /** Whether line {@code lnum} of {@link #DECK} is drawn with {@code expected} cells (false while it is not drawn). */
  private static boolean showsCells(Screen.Snapshot s, Win w, int lnum, String expected) {
    try {
      return cells(s, w, DECK, lnum).equals(expected);
    } catch (AssertionError notShownYet) {
      return false;
    }
  }

  private static String nvimpamGroups(Screen.Snapshot s, int row, int col) {
    List<String> names = new ArrayList<>();
    for (String g : s.groupsAt(row, col)) {
      if (g.startsWith("Nvimpam") && !names.contains(g)) names.add(g);
    }
    return String.join("+", names);
  }

  /** {@link #cells} of every line of the window, by line number. */
  private Map<Integer, String> cellsByLine(Screen.Snapshot s, Win w) {
    List<String> lines = bufferLines(w.id());
    Map<Integer, String> m = new LinkedHashMap<>();
    for (int l = w.topline(); l <= Math.min(w.botline(), lines.size()); l++) m.put(l, cells(s, w, lines, l));
    return m;
  }

  private void assertCells(Screen.Snapshot s, Win w, int lnum, String expected) {
    List<String> lines = bufferLines(w.id());
    assertEquals(expected, cells(s, w, lines, lnum), "line " + lnum + " '" + lines.get(lnum - 1) + "'\n" + s.dump());
  }

  /**
   * What a fresh buffer holding the current window's lines shows, in the same window from the
   * same top line: the cells computed from nothing but the text, to compare an edited buffer's
   * first redraw with. (Folds off, so that nothing waits for the JVM.)
   */
  private Map<Integer, String> freshCells(Win w) {
    List<String> lines = bufferLines(w.id());
    StringBuilder b = new StringBuilder("local lines = {");
    for (String l : lines) b.append('\'').append(l.replace("\\", "\\\\").replace("'", "\\'")).append("',");
    b.append("} vim.cmd('enew') vim.api.nvim_buf_set_lines(0, 0, -1, true, lines)"
        + " vim.wo.foldenable = false vim.wo.signcolumn = 'no' vim.cmd('setfiletype pamcrash')"
        + " vim.api.nvim_win_set_cursor(0, { " + w.topline() + ", 0 }) vim.cmd('normal! zt')");
    lua(b.toString());
    Screen.Snapshot s = redrawn();
    Win fresh = currentWin();
    assertEquals(w.topline(), fresh.topline(), "the fresh buffer's top line");
    return cellsByLine(s, fresh);
  }

  /** Every line of the window shows at {@code s} what a fresh buffer of the same text shows. */
  private void assertSameAsFresh(Screen.Snapshot s, Win w) {
    Map<Integer, String> shown = cellsByLine(s, w);
    Map<Integer, String> fresh = freshCells(w);
    for (Map.Entry<Integer, String> e : shown.entrySet()) {
      assertEquals(fresh.get(e.getKey()), e.getValue(), "line " + e.getKey() + " at the first redraw after the edit,"
          + " next to a fresh buffer of the same text\n" + s.dump());
    }
  }

  private static String luaLines(String... lines) {
    StringBuilder b = new StringBuilder("{");
    for (String l : lines) b.append('\'').append(l).append("',");
    return b.append('}').toString();
  }

  /** The first redraw after replacing lines [from, to) (0-based) of the current buffer. */
  private Screen.Snapshot afterSetLines(int from, int to, String... lines) {
    return screen.firstFlushAfter("vim.api.nvim_buf_set_lines(0, " + from + ", " + to + ", true, " + luaLines(lines) + ")");
  }

  private long rgb(String group, String key) {
    Object v = lua("local a = vim.api.nvim_get_hl and vim.api.nvim_get_hl(0, { name = '" + group + "', link = false })"
        + " or vim.api.nvim_get_hl_by_name('" + group + "', true) return a." + key + " or a."
        + (key.equals("bg") ? "background" : "foreground"));
    assertTrue(v instanceof Number, group + " has a " + key);
    return ((Number) v).longValue();
  }

  // ---- what a deck shows ------------------------------------------------------------------------

  @Test
  void nodeRowsShowTheKeywordAndFourAlternatingCells() throws IOException {
    Screen.Snapshot s = open("", DECK);
    Win w = currentWin();
    assertCells(s, w, 3, NODE_CELLS);
    assertCells(s, w, 4, NODE_CELLS);
    assertCells(s, w, 21, NODE_CELLS);
  }

  @Test
  void shellRowsShowTheKeywordAndEightColumnCells() throws IOException {
    Screen.Snapshot s = open("", DECK);
    assertCells(s, currentWin(), 6,
        "1-8 NvimpamKeyword | 9-16 cell | 17-24 cell | 25-32 cell | 33-40 cell | 41-48 cell | 49-56 cell");
  }

  @Test
  void commentLinesAreComments() throws IOException {
    Screen.Snapshot s = open("", DECK);
    Win w = currentWin();
    assertCells(s, w, 2, "1-64 NvimpamComment");
    assertCells(s, w, 19, "1-8 NvimpamComment");
  }

  @Test
  void cellsAppearOnceTheTableHasLoadedWithNoRedrawAsked() throws IOException {
    setup("auto_attach = false");
    lua("require('nvimpam.model.layout').use(nil) require('nvimpam.view.cells').reload()"); // the table not loaded yet
    screen = Screen.attach(nvim, W, H);
    screen.nameGroups(GROUPS);
    EmbeddedNvim.edit(nvim, (String.join("\n", DECK) + "\n").getBytes(StandardCharsets.UTF_8), dir);
    lua("vim.wo.signcolumn = 'no' vim.wo.foldenable = false");
    Win w = currentWin();
    // Until then, only comments and header words show (which need no table).
    screen.expect(x -> cells(x, w, DECK, 3).equals(NODE_CELLS), "the NODE line's cells");
    assertEquals(true, lua("return require('nvimpam.model.layout').loaded()"));
    assertNoErrors();
  }

  /** {@link #DECK} followed by enough NODE lines to make it a big deck for the table's load. */
  private static byte[] bigDeck() {
    StringBuilder b = new StringBuilder(String.join("\n", DECK)).append('\n');
    for (int i = 0; i < 120_000; i++) {
      b.append(String.format("NODE  / %8d              0.            50.5              0.%n", 100 + i));
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Records, at each start of the table's load, whether buffer 0 had its folds then. */
  private void recordTableLoads() {
    lua("require('nvimpam.model.layout').use(nil) require('nvimpam.view.cells').reload()" // the table not loaded yet
        + " _G.loads = {} local layout = require('nvimpam.model.layout') local load_soon = layout.load_soon"
        + " layout.load_soon = function(done) table.insert(_G.loads, require('nvimpam.fold').applied_tick(0) ~= nil)"
        + " return load_soon(done) end");
  }

  @Test
  void theTableLoadsAfterTheFoldsOfABigDeck() throws IOException {
    setup("");
    recordTableLoads();
    screen = Screen.attach(nvim, W, H);
    screen.nameGroups(GROUPS);
    EmbeddedNvim.edit(nvim, bigDeck(), dir);
    awaitFolds();
    lua("vim.cmd('normal! zR') vim.wo.signcolumn = 'no'");
    Win w = currentWin();
    screen.expect(x -> showsCells(x, w, 3, NODE_CELLS), "the NODE line's cells");
    assertEquals(List.of(true), lua("return _G.loads"), "the load began once the folds were in place");
    assertNoErrors();
  }

  @Test
  void theTableLoadsWhenABigDecksFoldsDoNotCome() throws Exception {
    setup("");
    lua("require('nvimpam.host').channel() require('nvimpam.view.cells').WAIT_FOR_FOLDS_MS = 300");
    recordTableLoads();
    long pid = ((Number) lua("return require('nvimpam.host').pid()")).longValue();
    ProcessHandle jvm = ProcessHandle.of(pid).orElseThrow();
    Signals.send("STOP", pid); // the folds do not come while it is stopped
    try {
      screen = Screen.attach(nvim, W, H);
      screen.nameGroups(GROUPS);
      EmbeddedNvim.edit(nvim, bigDeck(), dir);
      lua("vim.wo.signcolumn = 'no' vim.wo.foldenable = false");
      Win w = currentWin();
      screen.expect(x -> showsCells(x, w, 3, NODE_CELLS), "the NODE line's cells");
      assertEquals(List.of(false), lua("return _G.loads"), "the load began without the folds");
    } finally {
      Signals.send("CONT", pid);
    }
    assertTrue(jvm.isAlive());
    awaitFolds();
    assertNoErrors();
  }

  @Test
  void theControlSectionHasNoCells() throws IOException {
    Screen.Snapshot s = open("", DECK);
    assertCells(s, currentWin(), 1, "");
  }

  @Test
  void everyRowOfAPartShellCardShowsItsFields() throws IOException {
    Screen.Snapshot s = open("", DECK);
    Win w = currentWin();
    assertCells(s, w, 8, PART_HEAD_CELLS);
    assertCells(s, w, 10, "1-4 NvimpamFixed | 5-16 cell"); // NAME, TITLE
    assertCells(s, w, 12, "1-10 cell"); // DTELIM; TSCALF blank
    assertCells(s, w, 14, ""); // TCONT, EPSINI, COULFRIC all blank
    assertCells(s, w, 16, "1-10 cell | 11-15 cell"); // H, NINT; OFFSET, NTDOF blank
    assertCells(s, w, 18, "1-5 cell"); // ORT; the rest blank
    assertCells(s, w, 20, "1-8 NvimpamFixed"); // END_PART
  }

  @Test
  void anRmatRowFollowsAHeaderWithIdmatZero() throws IOException {
    List<String> deck = new ArrayList<>(DECK);
    deck.set(7, "PART  /        1   SHELL       0       0       0       0");
    deck.add(8, "RMAT steel");
    Screen.Snapshot s = open("", deck);
    Win w = currentWin();
    assertCells(s, w, 9, "1-4 NvimpamFixed | 5-10 cell");
    assertCells(s, w, 11, "1-4 NvimpamFixed | 5-16 cell"); // NAME
    assertCells(s, w, 13, "1-10 cell"); // DTELIM
  }

  @Test
  void anInvalidFloatInNodeXIsAnError() throws IOException {
    List<String> deck = new ArrayList<>(DECK);
    deck.set(2, "NODE  /        1        -1263.9S            50.5              0.");
    Screen.Snapshot s = open("", deck);
    Win w = currentWin();
    assertCells(s, w, 3, "1-8 NvimpamKeyword | 9-16 cell | 17-32 NvimpamCellError | 33-48 cell | 49-64 cell");
    assertCells(s, w, 4, NODE_CELLS);
  }

  @Test
  void aThmatValueLineHasNoCellsButItsBadValueIsAnError() throws IOException {
    List<String> deck = List.of("INPUTVERSION 2011", "THMAT /     1050", "NAME steel", "SPECIFIC_HEAT CONSTANT",
        "  4.6E8  0.x", "MASS_DENSITY", "   7.85E-9", "END_THMAT");
    Screen.Snapshot s = open("", deck);
    Win w = currentWin();
    assertCells(s, w, 4, "");
    assertCells(s, w, 5, "10-12 NvimpamCellError");
    assertCells(s, w, 6, "");
    assertCells(s, w, 7, "");
  }

  @Test
  void theSelectionWordsOfAGesBlockAndItsEndAreFixedText() throws IOException {
    open("", EmbeddedNvim.exampleDeck());
    // the sample deck's rigid body: header, NAME, the type 3 row, a GES block of one selection
    int rbody = ((Number) lua("return vim.fn.search('^RBODY /', 'w')")).intValue();
    lua("vim.cmd('normal! zt')");
    Screen.Snapshot s = redrawn();
    Win w = currentWin();
    List<String> lines = bufferLines(w.id());
    assertEquals("        PART>NOD        2", lines.get(rbody + 5 - 1));
    assertTrue(cells(s, w, lines, rbody).startsWith("1-8 NvimpamKeyword | "), cells(s, w, lines, rbody));
    assertCells(s, w, rbody + 2, "1-4 NvimpamFixed | 5-80 cell"); // NAME Impactor, padded to column 80
    assertCells(s, w, rbody + 5, "9-16 NvimpamFixed");
    assertCells(s, w, rbody + 6, "9-11 NvimpamFixed"); // END
  }

  // ---- after edits that change what a row is ----------------------------------------------------

  @Test
  void aLineInsertedInsideAPartShiftsTheRowsBelowAtTheFirstRedraw() throws IOException {
    open("", DECK);
    // a second DTELIM line after NAME: each line below it is now the next row of the card
    Screen.Snapshot s = afterSetLines(10, 10, "        0.          ");
    Win w = currentWin();
    assertCells(s, w, 11, "1-10 cell"); // the new DTELIM row
    assertCells(s, w, 13, "1-10 cell"); // was DTELIM, now TCONT
    assertCells(s, w, 15, ""); // was TCONT (blank), now the SHELL row
    assertCells(s, w, 17, "6-10 NvimpamCellWarn | 11-20 cell"); // was the SHELL row, now ORT: text in its blank field
    assertCells(s, w, 19, ""); // was ORT, now past the last row
    assertCells(s, w, 21, "1-8 NvimpamFixed");
    assertSameAsFresh(s, w);
  }

  @Test
  void idmatSetToZeroMakesTheNextLineTheRmatRowAtTheFirstRedraw() throws IOException {
    open("", DECK);
    Screen.Snapshot s = afterSetLines(7, 8, "PART  /        1   SHELL       0       0       0       0");
    Win w = currentWin();
    assertCells(s, w, 12, "5-20 cell"); // the DTELIM line is now the NAME row: its TITLE
    assertCells(s, w, 16, "1-10 cell | 11-20 cell"); // the SHELL row's line is now TCONT
    assertCells(s, w, 18, "1-10 cell"); // the ORT line is now the SHELL row: H
    assertCells(s, w, 20, "1-8 NvimpamFixed");
    assertSameAsFresh(s, w);
  }

  @Test
  void deletingTheKeywordLineOfAPartLeavesItsLinesWithoutCellsAtTheFirstRedraw() throws IOException {
    open("", DECK);
    Screen.Snapshot s = afterSetLines(7, 8);
    Win w = currentWin();
    // NAME ... END_PART now follow the SHELL card, which has one row: no rows, no cells
    for (int l : new int[] {9, 11, 13, 15, 17, 19}) assertCells(s, w, l, "");
    assertCells(s, w, 20, NODE_CELLS);
    assertSameAsFresh(s, w);
  }

  @Test
  void anEditInOneWindowIsRightInEveryWindowAtTheFirstRedraw() throws IOException {
    open("", DECK);
    lua("vim.cmd('split') vim.cmd('normal! gg') vim.cmd('wincmd j') vim.cmd('normal! gg')");
    redrawn();
    Win top = win(((Number) lua("return vim.fn.win_getid(1)")).intValue());
    Win bottom = currentWin();
    assertTrue(top.row() < bottom.row() && top.botline() >= 21 && bottom.botline() >= 21, top + " " + bottom);
    // in the bottom window, IDMAT 0 typed over the 3 of the PART header
    Screen.Snapshot s = screen.firstFlushAfter("vim.api.nvim_win_set_cursor(0, {8, 31}) vim.cmd('normal! r0')");
    assertEquals("PART  /        1   SHELL       0       0       0       0", bufferLines(bottom.id()).get(7));
    for (Win w : List.of(top, bottom)) {
      assertCells(s, w, 12, "5-20 cell");
      assertCells(s, w, 18, "1-10 cell");
    }
    Map<Integer, String> inTop = cellsByLine(s, top);
    Map<Integer, String> inBottom = cellsByLine(s, bottom);
    Map<Integer, String> fresh = freshCells(bottom);
    assertEquals(fresh, inBottom, "the window edited in");
    assertEquals(fresh, inTop, "the other window");
  }

  // ---- what cells never hide --------------------------------------------------------------------

  @Test
  void theVisualSelectionShowsOverCells() throws IOException {
    open("", DECK);
    lua("vim.api.nvim_win_set_cursor(0, {3, 0})");
    int row = currentRowOf(3);
    Screen.Snapshot s = screen.input("V", x -> x.has(row, 20, "Visual"), "Visual on the NODE line");
    long visual = rgb("Visual", "bg");
    for (int col : new int[] {12, 20, 40, 60}) { // not column 0: the cursor's cell is drawn as the cursor
      assertEquals(visual, background(s, row, col), s.describe(row, col + 1, col + 1) + "\n" + s.dump());
    }
    assertTrue(s.groupsAt(row, 20).stream().anyMatch(g -> g.startsWith("NvimpamCell")), s.groupsOf(row));
  }

  @Test
  void theCursorLineShowsUnderCells() throws IOException {
    open("", DECK);
    Screen.Snapshot s = screen.firstFlushAfter("vim.api.nvim_win_set_cursor(0, {3, 0}) vim.wo.cursorline = true");
    int row = currentRowOf(3);
    long cursorLine = rgb("CursorLine", "bg");
    for (int col : new int[] {0, 12, 20, 40, 60}) {
      assertEquals(cursorLine, background(s, row, col), s.describe(row, col + 1, col + 1) + "\n" + s.dump());
      assertTrue(s.groupsAt(row, col).stream().anyMatch(g -> g.startsWith("Nvimpam")), s.describe(row, col + 1, col + 1));
    }
  }

  private static long background(Screen.Snapshot s, int row, int col) {
    Object bg = s.rgbAt(row, col).get("background");
    return bg instanceof Number n ? n.longValue() : -1;
  }

  private int currentRowOf(int lnum) {
    Win w = currentWin();
    return w.row() + lnum - w.topline();
  }

  // ---- only what is on screen -------------------------------------------------------------------

  @Test
  void scrollingABigDeckComputesOnlyTheLinesShown() throws IOException {
    Path deck = dir.resolve("big.pc");
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(deck), 1 << 16)) {
      new DeckGenerator(1).write(out, 200_000);
    }
    open("", Files.readAllBytes(deck));
    Win w = currentWin();
    int shown = w.botline() - w.topline() + 1;
    lua("require('nvimpam.view.cells').reset_stats()");
    long flushes0 = screen.flushes();
    for (int page = 0; page < 10; page++) screen.firstFlushAfter("vim.cmd('normal! \\6')"); // <C-f>
    screen.firstFlushAfter("vim.cmd('normal! 150000Gzt')");
    for (int page = 0; page < 5; page++) screen.firstFlushAfter("vim.cmd('normal! \\6')");
    long flushes = screen.flushes() - flushes0;
    Map<?, ?> stats = (Map<?, ?>) lua("return require('nvimpam.view.cells').stats()");
    long wins = ((Number) stats.get("wins")).longValue();
    long lines = ((Number) stats.get("lines")).longValue();
    assertTrue(wins >= 16, "a redraw of the window per page: " + stats);
    assertTrue(wins <= flushes, "at most one on_win per redraw of the one window: " + stats + ", " + flushes + " flushes");
    assertTrue(lines <= wins * shown, "at most the " + shown + " lines shown per redraw: " + stats);
  }

  // ---- switching cells off ----------------------------------------------------------------------

  private static final String NO_CELLS_NODE = "1-8 NvimpamKeyword"; // the syntax file still marks the keyword

  @Test
  void setupCellsFalseDrawsNoCells() throws IOException {
    Screen.Snapshot s = open("cells = false", DECK);
    Win w = currentWin();
    assertCells(s, w, 3, NO_CELLS_NODE);
    assertCells(s, w, 10, "");
    assertCells(s, w, 2, "1-64 NvimpamComment");
  }

  @Test
  void bufferVariableFalseDrawsNoCellsInThatBuffer() throws IOException {
    open("", DECK);
    lua("vim.b.nvimpam_cells = false");
    Screen.Snapshot s = redrawn();
    Win w = currentWin();
    assertCells(s, w, 3, NO_CELLS_NODE);
    assertCells(s, w, 8, NO_CELLS_NODE);
  }

  @Test
  void theCommandSwitchesCellsOffOnAndOver() throws IOException {
    open("", DECK);
    Win w = currentWin();
    lua("vim.cmd('NvimpamCells off')");
    assertCells(redrawn(), w, 3, NO_CELLS_NODE);
    lua("vim.cmd('NvimpamCells on')");
    assertCells(redrawn(), w, 3, NODE_CELLS);
    lua("vim.cmd('NvimpamCells toggle')");
    assertCells(redrawn(), w, 3, NO_CELLS_NODE);
    lua("vim.cmd('NvimpamCells toggle')");
    assertCells(redrawn(), w, 3, NODE_CELLS);
  }
}
