package org.nvimpam.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;

/**
 * lua/nvimpam/view/cells/init.lua: one decoration provider that looks at the lines drawn only, its switches,
 * the version it reads per buffer, and its highlight groups. (What the screen shows, group by
 * group, is proven through an attached UI elsewhere.)
 */
class CellsIT extends PluginTestBase {
  private static String nodes(int n) {
    StringBuilder b = new StringBuilder("INPUTVERSION 2011\n");
    for (int i = 1; i <= n; i++) b.append(String.format("NODE  /%9d              0.            50.5              0.%n", i));
    return b.toString();
  }

  private void open(String options, String deck) throws IOException {
    setup("auto_attach = false" + options);
    CellsLua.useTestTable(nvim);
    nvim.command("set columns=120 lines=50").join();
    EmbeddedNvim.edit(nvim, deck.getBytes(), dir);
    nvim.command("setlocal filetype=pamcrash").join();
  }

  /** cells.stats() after a reset and a full redraw. */
  private Map<?, ?> redrawnStats() {
    return (Map<?, ?>) lua("local c = require('nvimpam.view.cells') c.reset_stats() vim.cmd('redraw!') return c.stats()");
  }

  @Test
  void aRedrawLooksAtTheLinesShownOnlyWhereverTheyAreInTheDeck() throws IOException {
    open("", nodes(20_000));
    long height = (Long) lua("return vim.api.nvim_win_get_height(0)");
    assertEquals(Map.of("wins", 1L, "lines", height, "walked", 0L), redrawnStats());
    nvim.command("normal! 15000Gzt").join();
    assertEquals(Map.of("wins", 1L, "lines", height, "walked", 0L), redrawnStats());
  }

  @Test
  void aWindowInsideALongCardWalksBackToItsHeaderOnly() throws IOException {
    StringBuilder deck = new StringBuilder(nodes(3000)).append("GROUP / big\n");
    for (int i = 0; i < 500; i++) deck.append("        NOD ").append(i).append('\n');
    open("", deck.toString());
    Map<?, ?> s = (Map<?, ?>) lua("local c = require('nvimpam.view.cells') c.reset_stats() vim.cmd('normal! 3300Gzt') "
        + "vim.cmd('redraw!') return c.stats()");
    assertEquals(298L, s.get("walked"), "lines 3002 (GROUP) to 3299, above the top line 3300");
  }

  /**
   * An edit marks the lines below it for the next redraw, and only marks them: drawing the screen
   * from inside the buffer's change (Neovim 0.12 flushes a range redraw at once unless told not
   * to) read a window's lines before Neovim had moved that window off the deleted ones (E315).
   */
  @Test
  void deletingTheLastLinesShownInAnotherWindowDrawsNothingBeforeNeovimMovedIt() throws IOException {
    for (String options : new String[] {"", ", cells = false"}) {
      open(options, nodes(500));
      Object result = lua("vim.cmd('split') vim.cmd('wincmd w') vim.cmd('normal! Gzt') vim.cmd('wincmd w')"
          + " vim.cmd('redraw')"
          + " local ok, err = pcall(vim.api.nvim_buf_set_lines, 0, 480, 501, false, {})"
          + " vim.cmd('redraw') return ok and vim.api.nvim_buf_line_count(0) or tostring(err)");
      assertEquals(480L, result, "cells" + options);
      nvim.command("silent! %bwipeout!").join();
    }
  }

  @Test
  void setupCellsFalseTurnsThemOff() throws IOException {
    open(", cells = false", nodes(10));
    assertEquals(0L, redrawnStats().get("wins"));
  }

  @Test
  void aBufferVariableTurnsThemOffForThatBuffer() throws IOException {
    open("", nodes(10));
    lua("vim.b.nvimpam_cells = false");
    assertEquals(0L, redrawnStats().get("wins"));
  }

  @Test
  void theCommandTurnsThemOffAndOnForAllBuffers() throws IOException {
    open("", nodes(10));
    nvim.command("NvimpamCells off").join();
    assertEquals(0L, redrawnStats().get("wins"));
    nvim.command("NvimpamCells toggle").join();
    assertEquals(1L, redrawnStats().get("wins"));
    nvim.command("NvimpamCells").join();
    assertEquals(true, lua("return _G.notes[1] == nil and vim.fn.execute('messages'):match('nvimpam cells: on') ~= nil"));
  }

  @Test
  void otherFiletypesGetNoCells() throws IOException {
    open("", nodes(10));
    nvim.command("setlocal filetype=text").join();
    assertEquals(0L, redrawnStats().get("wins"));
  }

  private long attr(int row, int col) {
    return (Long) lua("return vim.fn.screenattr(" + row + ", " + col + ")");
  }

  @Test
  void neighbourCellsDifferAndAFailingFieldShowsAsAnErrorUnlessChecksAreOff() throws IOException {
    open("", "NODE  /        1              0.            50.5              0.\n"
        + "NODE  /        2        -1263.9S            50.5              0.\n");
    nvim.command("redraw!").join();
    long goodX = attr(1, 30);
    long goodY = attr(1, 46);
    long badX = attr(2, 30);
    assertNotEquals(goodX, goodY, "alternating cells");
    assertNotEquals(goodX, badX, "the error group");
    assertEquals(goodY, attr(2, 46));
    lua("vim.b.nvimpam_checks = false");
    nvim.command("redraw!").join();
    assertEquals(goodX, attr(2, 30), "checks off: no error group");
  }

  @Test
  void blankFieldsGetNoCellGroup() throws IOException {
    open("", "NODE  /        1                            50.5\n");
    nvim.command("redraw!").join();
    assertEquals(0L, attr(1, 20), "the blank X field");
    assertNotEquals(0L, attr(1, 45), "Y");
  }

  @Test
  void theVersionIsTheBuffersOwnThenTheInheritedOneThenTheNewest() throws IOException {
    open("", "INPUTVERSION 2023\nNODE  /        1\n");
    assertEquals(2023L, lua("return require('nvimpam.model.version').of(0 + vim.api.nvim_get_current_buf())"));
    lua("vim.api.nvim_buf_set_lines(0, 0, 1, false, { 'INPUTVERSION 2011' })");
    assertEquals(2011L, lua("return require('nvimpam.model.version').of(vim.api.nvim_get_current_buf())"));
    lua("vim.api.nvim_buf_set_lines(0, 0, 1, false, { '$ an include file' }) vim.b.nvimpam_inherited_version = 2020");
    assertEquals(2020L, lua("return require('nvimpam.model.version').of(vim.api.nvim_get_current_buf())"));
    lua("vim.b.nvimpam_inherited_version = nil");
    assertEquals(null, lua("return require('nvimpam.model.version').of(vim.api.nvim_get_current_buf())"));
  }

  private static final List<String> GROUPS = List.of("NvimpamComment", "NvimpamKeyword", "NvimpamFixed", "NvimpamCellOdd",
      "NvimpamCellEven", "NvimpamCellError", "NvimpamCellWarn", "NvimpamHeader");

  /** The group {@code group} links to, or its own name when it has colours of its own. */
  private String linkOf(String group) {
    return (String) lua("return vim.fn.execute('highlight " + group + "'):match('links to (%w+)') or '" + group + "'");
  }

  @Test
  void theGroupsAreDefaultLinksThatSurviveAColorscheme() throws IOException {
    open("", nodes(1));
    List<String> want = List.of("Comment", "Statement", "Special", "Identifier", "String", "DiagnosticError",
        "DiagnosticWarn", "Comment");
    assertEquals(want, GROUPS.stream().map(this::linkOf).toList());
    nvim.command("colorscheme default").join();
    assertEquals(want, GROUPS.stream().map(this::linkOf).toList());
    nvim.command("highlight NvimpamCellOdd guifg=#123456").join();
    lua("require('nvimpam.view.cells').define_highlights()");
    assertEquals("NvimpamCellOdd", linkOf("NvimpamCellOdd"), "a user's own colours stay");
  }

  @Test
  void theTwoCellGroupsHaveDifferentColoursAndNoBackgroundOnDarkAndLight() throws IOException {
    open("", nodes(1));
    for (String bg : List.of("dark", "light")) {
      nvim.command("set background=" + bg).join();
      for (String mode : List.of("gui", "cterm")) {
        String odd = (String) lua("return vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('NvimpamCellOdd')), 'fg', '" + mode + "')");
        String even = (String) lua("return vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('NvimpamCellEven')), 'fg', '" + mode + "')");
        assertTrue(!odd.isEmpty() && !even.isEmpty() && !odd.equals(even), bg + " " + mode + ": " + odd + " / " + even);
      }
      for (String g : GROUPS) {
        assertEquals("", lua("return vim.fn.synIDattr(vim.fn.synIDtrans(vim.fn.hlID('" + g + "')), 'bg')"), g + " on " + bg);
      }
    }
  }

  @Test
  void withoutSetupTheSyntaxFileMarksCommentsAndHeaderWords() throws IOException {
    nvim.command("syntax on").join();
    EmbeddedNvim.edit(nvim, "$ comment\nNODE  /        1\n".getBytes(), dir);
    nvim.command("setlocal filetype=pamcrash").join();
    assertEquals(List.of("NvimpamComment", "NvimpamKeyword", ""), lua("return { vim.fn.synIDattr(vim.fn.synID(1, 3, 1), 'name'), "
        + "vim.fn.synIDattr(vim.fn.synID(2, 3, 1), 'name'), vim.fn.synIDattr(vim.fn.synID(2, 12, 1), 'name') }"));
  }

  @Test
  void afterSetupTheProviderDrawsThemAndTheSyntaxFileDefinesNoItems() throws IOException {
    nvim.command("syntax on").join();
    open("", "$ comment\nNODE  /        1\n");
    assertEquals(List.of(0L, 0L), lua("return { vim.fn.synID(1, 3, 1), vim.fn.synID(2, 3, 1) }"));
    nvim.command("redraw!").join();
    assertNotEquals(0L, attr(1, 3), "the comment");
    assertNotEquals(0L, attr(2, 3), "the header word");
  }
}
