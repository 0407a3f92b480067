package org.nvimpam.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;
import org.nvimpam.testutil.Screen;

/**
 * The README's picture: example.pc opened through the plugin in a 100x32 UI (folds, cells, a
 * flagged field and its diagnostic), drawn from the UI's grid. Run with
 * {@code -Dnvimpam.screenshot=FILE} to write it as SVG (README, "Contributing", has the command);
 * without it the test only checks that what the picture shows is on the screen.
 */
class ScreenshotIT extends PluginTestBase {
  private static final int WIDTH = 100;
  private static final int HEIGHT = 32;

  @Test
  void theExampleDeckShowsFoldsCellsAndAFlaggedField() throws IOException {
    nvim.command("filetype on").join();
    Screen screen = Screen.attach(nvim, WIDTH, HEIGHT);
    setup("");
    Path deck = dir.resolve("example.pc");
    Files.write(deck, example());
    nvim.command("cd " + dir).join(); // the status line shows the file's name, not where the test put it
    nvim.command("edit example.pc").join();
    lua("vim.wait(15000, function() return vim.fn.foldlevel(29) > 0 end, 20)");
    // A typo in the density of the first material; the folds of the next two materials closed.
    lua("local l = vim.api.nvim_buf_get_lines(0, 758, 759, true)[1] "
        + "vim.api.nvim_buf_set_lines(0, 758, 759, true, { (l:gsub('7%.85E%-6', '7.8SE-6', 1)) })");
    lua("vim.wo.number = true vim.cmd('normal! zR') "
        + "for _, l in ipairs({ 778, 792 }) do vim.api.nvim_win_set_cursor(0, { l, 0 }) vim.cmd('normal! zc') end "
        + "vim.fn.winrestview({ topline = 751 }) vim.api.nvim_win_set_cursor(0, { 759, 36 })");
    lua("vim.wait(10000, function() return #vim.diagnostic.get(0) > 0 end, 20)");
    screen.nameGroups(java.util.List.of("NvimpamCellOdd", "NvimpamCellEven", "NvimpamKeyword", "NvimpamCellError",
        "NvimpamComment", "NvimpamFixed"));
    lua("vim.cmd('redraw!')");
    Screen.Snapshot s = screen.expect(sn -> sn.dump().contains("NvimpamCellError") && sn.dump().contains("NvimpamCellOdd"),
        "the cells, the flagged density and its diagnostic");
    String d = s.dump();
    for (String g : java.util.List.of("NvimpamKeyword", "NvimpamCellOdd", "NvimpamCellEven", "NvimpamCellError", "NvimpamComment", "Folded")) {
      assertTrue(d.contains(g), g + " on screen: " + d);
    }

    String out = System.getProperty("nvimpam.screenshot", "");
    if (!out.isBlank()) {
      @SuppressWarnings("unchecked")
      Map<String, Object> normal = (Map<String, Object>) lua("return vim.api.nvim_get_hl(0, { name = 'Normal' })");
      Files.writeString(Path.of(out), svg(s, color(normal.get("fg"), 0xe0e2ea), color(normal.get("bg"), 0x14161b)),
          StandardCharsets.UTF_8);
    }
  }

  static int color(Object v, int fallback) {
    return v instanceof Number n ? n.intValue() : fallback;
  }

  /** The grid as SVG: one rect per run of a background, one text per run of a look. */
  static String svg(Screen.Snapshot s, int fg, int bg) {
    double cw = 8.4;
    int lh = 17;
    StringBuilder b = new StringBuilder();
    b.append(String.format(java.util.Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%d\" font-family=\"DejaVu Sans Mono,Menlo,Consolas,monospace\" font-size=\"14\">%n",
        cw * s.width() + 16, lh * s.height() + 16));
    b.append(String.format("<rect width=\"100%%\" height=\"100%%\" rx=\"6\" fill=\"#%06x\"/>%n", bg));
    for (int r = 0; r < s.height(); r++) {
      String text = s.text(r);
      int c = 0;
      while (c < s.width()) {
        Map<String, Object> rgb = s.rgbAt(r, c);
        int e = c + 1;
        while (e < s.width() && Objects.equals(s.rgbAt(r, e), rgb)) e++;
        boolean reverse = Boolean.TRUE.equals(rgb.get("reverse"));
        int f = color(rgb.get("foreground"), fg);
        int k = color(rgb.get("background"), bg);
        if (reverse) {
          int t = f;
          f = k;
          k = t;
        }
        double x = 8 + cw * c;
        double y = 8 + lh * r;
        if (k != bg) {
          b.append(String.format(java.util.Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"#%06x\"/>%n",
              x, y, cw * (e - c), lh, k));
        }
        String run = text.substring(Math.min(c, text.length()), Math.min(e, text.length()));
        if (!run.isBlank()) {
          b.append(String.format(java.util.Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#%06x\" xml:space=\"preserve\"%s%s%s>",
              x, y + 13, f, Boolean.TRUE.equals(rgb.get("bold")) ? " font-weight=\"bold\"" : "",
              Boolean.TRUE.equals(rgb.get("italic")) ? " font-style=\"italic\"" : "",
              Boolean.TRUE.equals(rgb.get("underline")) || Boolean.TRUE.equals(rgb.get("undercurl"))
                  ? " text-decoration=\"underline\"" : ""));
          b.append(run.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")).append("</text>\n");
        }
        c = e;
      }
    }
    return b.append("</svg>\n").toString();
  }
}
