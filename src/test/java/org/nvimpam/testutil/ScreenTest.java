package org.nvimpam.testutil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.nvim.Nvim;

/**
 * The screen harness against plain Neovim highlighting, no nvimpam: what it reads must be what
 * Neovim drew, on every supported Neovim (ext_hlstate's info differs between them: 0.10 lists
 * CursorLine twice in a combined attribute, 0.12 once).
 */
class ScreenTest {
  private static final int W = 60;
  private static final int H = 12;

  private Nvim nvim;
  private Screen screen;

  @BeforeEach
  void start() throws Exception {
    nvim = EmbeddedNvim.start();
    screen = Screen.attach(nvim, W, H);
    lua("vim.o.ruler = false vim.o.showmode = true vim.cmd('syntax on')");
  }

  @AfterEach
  void stop() {
    nvim.close();
  }

  private Object lua(String code) {
    return EmbeddedNvim.lua(nvim, code);
  }

  private void setLines(String... lines) {
    StringBuilder b = new StringBuilder("vim.api.nvim_buf_set_lines(0, 0, -1, true, {");
    for (String l : lines) b.append('\'').append(l).append("',");
    lua(b.append("})").toString());
  }

  private Screen.Snapshot showing(String first) {
    return screen.expect(s -> s.text(0).startsWith(first), "'" + first + "' on row 0");
  }

  @Test
  void rowsHoldTheBufferTextPaddedToTheWidth() {
    setLines("alpha beta", "", "gamma");
    Screen.Snapshot s = showing("alpha");
    assertEquals(("alpha beta" + " ".repeat(W)).substring(0, W), s.text(0), s.dump());
    assertEquals("", s.trimmed(1), s.dump());
    assertEquals("gamma", s.trimmed(2), s.dump());
    assertEquals("~", s.trimmed(3), s.dump());
  }

  @Test
  void repeatedCellsAreExpanded() {
    // Neovim sends a run of equal cells as one cell with a repeat count
    setLines("x".repeat(50) + "  y");
    Screen.Snapshot s = showing("xxx");
    assertEquals("x".repeat(50) + "  y", s.trimmed(0), s.dump());
  }

  @Test
  void doubleWidthCharactersTakeTwoCellsAndReadOnce() {
    setLines("a日本b");
    Screen.Snapshot s = showing("a日");
    assertEquals("a日本b", s.trimmed(0), s.dump());
  }

  @Test
  void syntaxMatchNamesItsGroup() {
    setLines("alpha beta gamma");
    lua("vim.cmd('hi MyOwn guifg=#ff0000') vim.cmd('syntax match MyOwn /beta/')");
    Screen.Snapshot s = screen.expect(x -> x.has(0, 6, "MyOwn"), "MyOwn on beta");
    assertEquals("7-10 MyOwn", s.groupsOf(0), s.dump());
    assertEquals(List.of(), s.groupsAt(0, 5));
    assertEquals(0xff0000L, ((Number) s.rgbAt(0, 6).get("foreground")).longValue());
  }

  @Test
  void aLinkedGroupIsNamedByTheGroupItsLinksEndAt() {
    setLines("alpha beta gamma");
    lua("vim.cmd('hi MyOwn guifg=#ff0000') vim.cmd('hi link MyChain MyOwn')"
        + " vim.cmd('hi link MyLink MyChain') vim.cmd('syntax match MyLink /gamma/')");
    Screen.Snapshot s = screen.expect(x -> !x.groupsAt(0, 11).isEmpty(), "a group on gamma");
    assertEquals("12-16 MyOwn", s.groupsOf(0), s.dump());
  }

  @Test
  void namedGroupsKeepTheirLookAndShowTheirOwnName() {
    setLines("alpha beta gamma");
    lua("vim.cmd('hi MyOwn guifg=#ff0000 gui=bold') vim.cmd('hi link MyLink MyOwn')"
        + " vim.cmd('hi clear MyEmpty') vim.cmd('hi link MyBare MyEmpty')"
        + " vim.cmd('syntax match MyLink /gamma/') vim.cmd('syntax match MyOwn /alpha/')");
    screen.expect(x -> x.has(0, 11, "MyOwn"), "MyOwn on gamma");
    assertEquals(List.of("MyLink"), screen.nameGroups(List.of("MyLink", "MyBare", "NoSuchGroup")));
    Screen.Snapshot s = screen.expect(x -> x.has(0, 11, "MyLink"), "MyLink on gamma");
    assertEquals("1-5 MyOwn | 12-16 MyLink", s.groupsOf(0), s.dump());
    assertEquals(s.rgbAt(0, 0), s.rgbAt(0, 11), "same attributes as the group it linked to");
  }

  @Test
  void bufferHighlightsCoverExactlyTheirColumns() {
    setLines("0123456789", "abcdefghij");
    lua("vim.cmd('hi MyOwn guifg=#00ff00') vim.cmd('hi MyOther guibg=#0000ff')"
        + " local ns = vim.api.nvim_create_namespace('screen-test')"
        + " vim.api.nvim_buf_add_highlight(0, ns, 'MyOwn', 0, 2, 5)"
        + " vim.api.nvim_buf_add_highlight(0, ns, 'MyOther', 1, 0, 1)"
        + " vim.api.nvim_buf_add_highlight(0, ns, 'MyOwn', 1, 9, -1)");
    Screen.Snapshot s = screen.expect(x -> x.has(1, 9, "MyOwn"), "MyOwn on row 1");
    assertEquals("3-5 MyOwn", s.groupsOf(0), s.dump());
    assertEquals("1-1 MyOther | 10-10 MyOwn", s.groupsOf(1), s.dump());
  }

  @Test
  void aCombinedAttributeListsEveryGroup() {
    setLines("alpha beta", "other");
    lua("vim.cmd('hi MyOwn guifg=#ff0000') vim.cmd('syntax match MyOwn /beta/')"
        + " vim.wo.cursorline = true vim.api.nvim_win_set_cursor(0, {1, 0})");
    Screen.Snapshot s = screen.expect(x -> x.has(0, 6, "MyOwn") && x.has(0, 6, "CursorLine"),
        "MyOwn and CursorLine on beta");
    assertTrue(s.groupsAt(0, 0).contains("CursorLine") && !s.groupsAt(0, 0).contains("MyOwn"),
        s.groupsOf(0));
    assertEquals(List.of(), s.groupsAt(1, 0), s.groupsOf(1));
    assertNotEquals(s.hlId(0, 0), s.hlId(0, 6));
  }

  @Test
  void scrollingKeepsEveryRowEqualToTheBuffer() {
    List<String> lines = new ArrayList<>();
    for (int i = 1; i <= 200; i++) lines.add("line " + i + " " + "abc".repeat(i % 7));
    setLines(lines.toArray(String[]::new));
    showing("line 1 ");
    int textRows = H - 2; // a status line and the command line
    // <C-e>, three <C-e>, <C-f>, two <C-y>, <C-b>, 50%, G, <C-u>: Neovim moves rows with grid_scroll
    for (String keys : List.of("\\5", "\\5\\5\\5", "\\6", "\\25\\25", "\\2", "50%", "G", "\\21")) {
      Screen.Snapshot s = screen.firstFlushAfter("vim.cmd('normal! " + keys + "')");
      int w0 = ((Number) lua("return vim.fn.line('w0')")).intValue();
      for (int r = 0; r < textRows && w0 - 1 + r < lines.size(); r++) {
        assertEquals(lines.get(w0 - 1 + r).stripTrailing(), s.trimmed(r), "row " + r + " after " + keys + "\n" + s.dump());
      }
    }
  }

  @Test
  void aClearedScreenLosesWhatNeovimDoesNotDrawAgain() {
    setLines("alpha", "beta");
    showing("alpha");
    lua("vim.cmd('echo \"hello\"')");
    screen.expect(x -> x.trimmed(H - 1).equals("hello"), "hello in the message row");
    // :mode clears the screen (grid_clear) and redraws the window, not the blank message row
    lua("vim.cmd('mode')");
    Screen.Snapshot s = screen.expect(x -> x.trimmed(H - 1).isEmpty(), "a blank message row after :mode");
    assertEquals("beta", s.trimmed(1), s.dump());
  }

  @Test
  void theCursorIsWhereTheWindowHasIt() {
    setLines("alpha", "beta gamma");
    showing("alpha");
    lua("vim.api.nvim_win_set_cursor(0, {2, 5})");
    Screen.Snapshot s = screen.expect(x -> x.cursorRow() == 1, "the cursor on row 1");
    assertEquals(5, s.cursorCol(), s.dump());
  }

  @Test
  void theFirstFlushAfterAnEditShowsIt() {
    setLines("alpha", "beta");
    showing("alpha");
    long before = screen.flushes();
    Screen.Snapshot s = screen.firstFlushAfter(
        "vim.api.nvim_buf_set_lines(0, 1, 2, true, {'BETA', 'delta'})");
    assertTrue(s.seq() > before);
    assertEquals("BETA", s.trimmed(1), s.dump());
    assertEquals("delta", s.trimmed(2), s.dump());
  }

  @Test
  void visualSelectionIsNamed() {
    setLines("alpha beta", "gamma");
    showing("alpha");
    Screen.Snapshot s = screen.input("wv$", x -> x.has(0, 6, "Visual"), "Visual on beta");
    assertEquals(List.of(), s.groupsAt(0, 0), s.groupsOf(0));
    assertTrue(s.text(H - 1).contains("VISUAL"), s.dump());
  }

  @Test
  void resizingChangesTheGrid() {
    setLines("alpha");
    showing("alpha");
    Screen.Snapshot s = screen.resize(40, 8);
    assertEquals(40, s.text(0).length());
    assertEquals("alpha", screen.expect(x -> x.trimmed(0).equals("alpha"), "alpha at 40x8").trimmed(0));
  }

  @Test
  void waitingInVainFailsWithTheScreen() {
    setLines("alpha");
    showing("alpha");
    AssertionError e = assertThrows(AssertionError.class,
        () -> screen.expect(x -> x.trimmed(0).equals("omega"), "omega", 300));
    assertTrue(e.getMessage().contains("omega") && e.getMessage().contains(" 0|alpha"), e.getMessage());
  }

  @Test
  void theStatusLineIsNamed() {
    setLines("alpha");
    Screen.Snapshot s = showing("alpha");
    int status = H - 2;
    assertTrue(s.has(status, 0, "StatusLine"), s.dump());
    assertEquals(Map.of(), s.rgbAt(0, 0));
  }
}
