package org.nvimpam.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.DeckText;
import org.nvimpam.testutil.PluginTestBase;
import org.nvimpam.testutil.Screen;

/**
 * The README's picture of the parts table: :NvimpamParts on a small model (shells, solids, a beam,
 * a part whose material has no density, a point mass) in a 180x24 UI, the deck above and its table
 * below, drawn from the UI's grid as {@link ScreenshotIT} draws its own. Run with
 * {@code -Dnvimpam.screenshot=FILE} to write it as SVG (README, "Contributing", has the command);
 * without it the test only checks that what the picture shows is on the screen.
 */
class PartsScreenshotIT extends PluginTestBase {
  private static final int WIDTH = 180;
  private static final int HEIGHT = 24;

  /** A plate of nx x ny quads from corner o along u and v (the lengths of a and b), in part {@code part}. */
  private static void plate(DeckText d, int part, double[] o, double[] u, double[] v, int nx, int ny) {
    int[][] n = new int[nx + 1][ny + 1];
    for (int i = 0; i <= nx; i++) {
      for (int j = 0; j <= ny; j++) {
        double s = (double) i / nx, t = (double) j / ny;
        n[i][j] = d.node(o[0] + s * u[0] + t * v[0], o[1] + s * u[1] + t * v[1], o[2] + s * u[2] + t * v[2]);
      }
    }
    for (int i = 0; i < nx; i++) {
      for (int j = 0; j < ny; j++) d.shell(part, n[i][j], n[i + 1][j], n[i + 1][j + 1], n[i][j + 1], Double.NaN);
    }
  }

  /** A box of n^3 hexahedra from corner o, sides a b c, in part {@code part}. */
  private static void box(DeckText d, int part, double[] o, double a, double b, double c, int n) {
    int[][][] id = new int[n + 1][n + 1][n + 1];
    for (int i = 0; i <= n; i++) {
      for (int j = 0; j <= n; j++) {
        for (int k = 0; k <= n; k++) id[i][j][k] = d.node(o[0] + a * i / n, o[1] + b * j / n, o[2] + c * k / n);
      }
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        for (int k = 0; k < n; k++) {
          d.solid("SOLID", part, id[i][j][k], id[i + 1][j][k], id[i + 1][j + 1][k], id[i][j + 1][k], id[i][j][k + 1],
              id[i + 1][j][k + 1], id[i + 1][j + 1][k + 1], id[i][j + 1][k + 1]);
        }
      }
    }
  }

  /** The model of the picture, in mm, t and s. */
  static String model() {
    DeckText d = new DeckText(2011);
    d.mater(1, 103, 7.85e-9, "steel");
    d.mater(2, 103, 2.7e-9, "aluminium");
    d.mater(3, 1, 0, "foam");
    d.shellPart(1, 1, 0.8, "ROOF");
    plate(d, 1, new double[] {1200, -700, 1300}, new double[] {1600, 0, 0}, new double[] {0, 1400, 0}, 8, 7);
    d.shellPart(2, 2, 2, "DOOR_INNER_LH");
    plate(d, 2, new double[] {1500, -750, 400}, new double[] {1100, 0, 0}, new double[] {0, 0, 700}, 11, 7);
    d.part(3, "SOLID", 2, null, "ENGINE_BLOCK", "    0", "    0");
    box(d, 3, new double[] {200, -250, 300}, 600, 600, 500, 4);
    d.part(4, "BEAM", 1, null, "SILL_LH", "     400.", "", "", "", "    0    0");
    int a = d.node(900, -800, 200), b = d.node(2900, -800, 200), o = d.node(900, 0, 200);
    d.line("BEAM  / " + DeckText.i(8, d.nextEl++) + DeckText.i(8, 4) + DeckText.i(8, a) + DeckText.i(8, b) + DeckText.i(8, o));
    d.line("");
    d.line("");
    d.part(5, "SOLID", 3, null, "SEAT_FOAM", "    0", "    0");
    box(d, 5, new double[] {1900, -500, 350}, 500, 450, 120, 2);
    int m = d.node(2700, 0, 300);
    d.line("MASS  / " + DeckText.i(8, m) + DeckText.i(8, 0) + "        " + DeckText.f(16, 0) + DeckText.f(16, 0) + DeckText.f(16, 0));
    d.line("NAME battery");
    d.line("        " + DeckText.f(16, 0.025) + DeckText.f(16, 0.025) + DeckText.f(16, 0.025));
    d.line("");
    d.line("        END");
    return d.text();
  }

  @Test
  void theTableShowsEachPartsMassAndCentreAndWhyOneHasNone() throws IOException {
    nvim.command("filetype on").join();
    // no status line under the table: it would show the table buffer's name, the deck's absolute path
    lua("vim.o.ruler = false vim.o.showmode = false vim.o.laststatus = 0");
    Screen screen = Screen.attach(nvim, WIDTH, HEIGHT);
    setup("");
    Files.writeString(dir.resolve("car.pc"), model(), StandardCharsets.ISO_8859_1);
    nvim.command("cd " + dir).join(); // the status lines show the file's name, not where the test put it
    nvim.command("edit car.pc").join();
    nvim.command("NvimpamParts").join();
    Screen.Snapshot s = screen.expect(sn -> sn.dump().contains("TOTAL"), "the parts table with its total", 60_000);
    String d = s.dump();
    for (String want : List.of("lines: PartShell", "ID  NAME", "ROOF", "DOOR_INNER_LH", "ENGINE_BLOCK", "SILL_LH", "SEAT_FOAM",
        "material 3 has no density", "battery", "TOTAL", "units: the deck's own")) {
      assertTrue(d.contains(want), want + " on screen: " + d);
    }
    assertTrue(!d.contains(dir.toString()), "no path of the test's on screen: " + d);

    String out = System.getProperty("nvimpam.screenshot", "");
    if (!out.isBlank()) {
      @SuppressWarnings("unchecked")
      Map<String, Object> normal = (Map<String, Object>) lua("return vim.api.nvim_get_hl(0, { name = 'Normal' })");
      Files.writeString(Path.of(out), ScreenshotIT.svg(s, ScreenshotIT.color(normal.get("fg"), 0xe0e2ea),
          ScreenshotIT.color(normal.get("bg"), 0x14161b)),
          StandardCharsets.UTF_8);
    }
  }
}
