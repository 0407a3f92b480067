package org.nvimpam.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;
import org.nvimpam.testutil.Screen;

/**
 * :NvimpamPlot as a user sees it, through an attached 80x24 UI: the Braille cells of a known
 * curve, cell by cell, with its highlight group, the axes and labels; the redraw after a point is
 * edited; q closes the float. The curve (0,0) (0,1) (1,1) (1,0) is a box open at the bottom, whose
 * cells are known without drawing it: the left column's cells hold the left dot column (⡇), the
 * right column's the right one (⢸), the top row's the top dot row (⠉), with the corners (⡏, ⢹).
 */
class PlotScreenIT extends PluginTestBase {
  private static final int W = 80;
  private static final int H = 24;
  // the float: 76 columns (80 - 4) and 18 lines (24 - 6); one legend line, the axis and the
  // x labels below the plot: 15 plot rows; a margin of 1 for the labels "0" and "1" and the axis
  // column: 74 cells
  private static final int CELLS = 74;
  private static final int ROWS = 15;

  private static final List<String> DECK = List.of(
      "INPUTVERSION 2011",
      "NODE  /        1              0.              0.              0.",
      "FUNCT /        7       0      2.      1.     10.      0.", // line 3
      "NAME Box",
      "$#                     X               Y",
      "                              0.              0.",
      "                              0.              1.",
      "                              1.              1.",
      "                              1.              0.", // line 9
      "        END",
      "NODE  /        2              0.              0.              0.");

  private Screen screen;

  @BeforeEach
  void open() throws Exception {
    setup("auto_attach = false");
    screen = Screen.attach(nvim, W, H);
    EmbeddedNvim.edit(nvim, (String.join("\n", DECK) + "\n").getBytes(StandardCharsets.UTF_8), dir);
    lua("require('nvimpam.view.plot').define_highlights()");
    screen.nameGroups(List.of("NvimpamPlot1", "NvimpamPlotAxis"));
    lua("vim.api.nvim_win_set_cursor(0, { 7, 0 })");
  }

  private static boolean shows(Screen.Snapshot s, String text) {
    for (int r = 0; r < s.height(); r++) {
      if (s.text(r).contains(text)) return true;
    }
    return false;
  }

  private static int rowWith(Screen.Snapshot s, String text) {
    for (int r = 0; r < s.height(); r++) {
      if (s.text(r).contains(text)) return r;
    }
    return -1;
  }

  private static String rep(String s, int n) {
    return s.repeat(n);
  }

  @Test
  void cellsRedrawAndClose() {
    String top = "1┤⡏" + rep("⠉", CELLS - 2) + "⢹";
    Screen.Snapshot s = screen.input(":NvimpamPlot<CR>", sn -> shows(sn, top), "the plot's top row");
    int r0 = rowWith(s, top);
    int c0 = s.text(r0).indexOf(top); // screen cells hold one character each here
    for (int r = 1; r < ROWS - 1; r++) {
      assertEquals(" │⡇" + rep(" ", CELLS - 2) + "⢸", s.text(r0 + r).substring(c0, c0 + CELLS + 2), "plot row " + r + "\n" + s.dump());
    }
    assertEquals("0┤⡇" + rep(" ", CELLS - 2) + "⢸", s.text(r0 + ROWS - 1).substring(c0, c0 + CELLS + 2), s.dump());
    assertEquals(" └" + rep("─", CELLS), s.text(r0 + ROWS).substring(c0, c0 + CELLS + 2), s.dump());
    // x is scaled by 2, then shifted by 10: 10 to 12
    assertEquals("  10" + rep(" ", CELLS - 4) + "12", s.text(r0 + ROWS + 1).substring(c0, c0 + CELLS + 2), s.dump());
    String legend = s.text(r0 - 1);
    assertTrue(legend.contains("⠤⠤ FUNCT 7  Box"), legend);
    // one group for the curve, one for the axes
    for (int c = c0 + 2; c < c0 + 2 + CELLS; c++) {
      assertTrue(s.has(r0, c, "NvimpamPlot1"), s.describe(r0, c + 1, c + 1));
      assertTrue(s.has(r0 + ROWS - 1, c, "NvimpamPlot1") == (c == c0 + 2 || c == c0 + 1 + CELLS), s.describe(r0 + ROWS - 1, c + 1, c + 1));
    }
    assertTrue(s.has(r0, c0 + 1, "NvimpamPlotAxis"), s.describe(r0, c0 + 2, c0 + 2));
    assertTrue(s.has(r0 - 1, rowStart(legend), "NvimpamPlot1"), s.groupsOf(r0 - 1));

    // back in the deck, the last point goes from (1, 0) to (1, 1): the right side is gone
    String flat = "1┤⡏" + rep("⠉", CELLS - 1);
    s = screen.input("<C-w>p9G$hr1", sn -> shows(sn, flat), "the plot redrawn after the edit");
    int r1 = rowWith(s, flat);
    for (int r = 1; r < ROWS; r++) {
      String want = (r == ROWS - 1 ? "0┤⡇" : " │⡇") + rep(" ", CELLS - 1);
      assertEquals(want, s.text(r1 + r).substring(c0, c0 + CELLS + 2), "plot row " + r + "\n" + s.dump());
    }
    assertEquals("                              1.              1.", lua("return vim.fn.getline(9)"));

    // an edit of the header: SHIFTX 10 to 20 moves the x labels
    s = screen.input("3G$F1r2", sn -> shows(sn, "  20" + rep(" ", CELLS - 4) + "22"), "the x labels after SHIFTX is edited");

    // into the float, and q closes it
    s = screen.input("<C-w>w", sn -> true, "the float entered");
    assertEquals(Boolean.TRUE, lua("return vim.api.nvim_win_get_config(0).relative ~= ''"));
    s = screen.input("q", sn -> !shows(sn, "⡏"), "the plot closed by q");
    assertEquals(Boolean.TRUE, lua("return require('nvimpam.view.plot').current() == nil"));
    // its autocmds are gone with it (the group too)
    assertEquals(Boolean.TRUE, lua("local ok, a = pcall(vim.api.nvim_get_autocmds, { group = 'nvimpam_plot' }) return not ok or #a == 0"));
    assertEquals("[]", String.valueOf(lua("return _G.notes")));
  }

  private static int rowStart(String legend) {
    return legend.indexOf("⠤");
  }
}
