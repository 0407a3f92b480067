package org.nvimpam.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.FunctDecks;
import org.nvimpam.testutil.FunctDecks.Funct;
import org.nvimpam.testutil.SharedNvimTestBase;

/**
 * The plot's Lua side in a headless Neovim (lua/nvimpam/model/curves.lua and
 * lua/nvimpam/view/plot/render.lua): numbers read as the solver reads them, scaled then shifted,
 * FUNCTs read through the card-layout table, and the dots of the Braille cells. The screen is PlotScreenIT's.
 */
class PlotLuaTest extends SharedNvimTestBase {

  private static double num(Object o) {
    return ((Number) o).doubleValue();
  }

  @Test
  void numbersAsTheSolverReadsThem() {
    Object r = lua("local P = require('nvimpam.model.curves') local out = {} "
        + "for _, s in ipairs({ '        ', '  1.5', '1.', '.5E3', '1.5D-3', '1.5-3', '-1.5+2', '7', '2.5E' }) do "
        + "out[#out + 1] = P.number(s) end "
        + "return { out, P.number('<PARAM>') == nil, P.number('1.2.3') == nil, P.number('.') == nil }");
    List<?> l = (List<?>) r;
    List<?> v = (List<?>) l.get(0);
    double[] want = {0, 1.5, 1, 500, 0.0015, 0.0015, -150, 7, 2.5};
    for (int i = 0; i < want.length; i++) assertEquals(want[i], num(v.get(i)), 1e-15, "value " + i);
    assertEquals(List.of(true, true, true), l.subList(1, 4));
  }

  /** x * SCALX + SHIFTX: 3 * 2 + 10 = 16 (shifted first it would be 26); a scale of 0 is 1. */
  @Test
  void scaledThenShifted() {
    Object r = lua("local P = require('nvimpam.model.curves') "
        + "local a = P.transform({ scalx = 2, scaly = -3, shiftx = 10, shifty = 100, points = { { 3, 4 } } })[1] "
        + "local b = P.transform({ scalx = 0, scaly = 0, shiftx = 0, shifty = 0, points = { { 3, 4 } } })[1] "
        + "return { a[1], a[2], b[1], b[2] }");
    List<?> l = (List<?>) r;
    assertEquals(List.of(16.0, 88.0, 3.0, 4.0), List.of(num(l.get(0)), num(l.get(1)), num(l.get(2)), num(l.get(3))));
  }

  /**
   * Random FUNCTs in a buffer, each read from its card (span.card_at, the card-layout table) and
   * transformed: the points, factors and title as written, point by point.
   */
  @Test
  void randomFunctsReadThroughTheTable() {
    for (long seed = 1; seed <= 25; seed++) {
      Random r = new Random(seed);
      List<String> lines = new ArrayList<>(List.of("INPUTVERSION 2011"));
      Map<Integer, Funct> all = new HashMap<>();
      for (int k = 0; k < 8; k++) {
        Funct f = FunctDecks.random(r, 10 + k, 30);
        all.put(f.id(), f);
        lines.addAll(f.lines());
        if (r.nextBoolean()) lines.add("NODE  /        1              0.              0.              0.");
      }
      StringBuilder lua = new StringBuilder("local lines = {");
      for (String l : lines) lua.append('"').append(l).append("\",");
      lua.append("} vim.cmd('enew!') vim.api.nvim_buf_set_lines(0, 0, -1, false, lines) "
          + "local P, span = require('nvimpam.model.curves'), require('nvimpam.model.span') local out = {} "
          + "for i, l in ipairs(lines) do if l:sub(1, 7) == 'FUNCT /' then "
          + "local card = span.card_at(span.reader(0), i - 1, 2011) "
          + "local c = P.read(card.lines, card.kind, card.ent, card.rowi) "
          + "local xs, ys = {}, {} for j, p in ipairs(P.transform(c)) do xs[j], ys[j] = p[1], p[2] end "
          + "out[#out + 1] = { c.id, c.title, xs, ys } end end return out");
      List<?> got = (List<?>) lua(lua.toString());
      assertEquals(all.size(), got.size());
      for (Object o : got) {
        List<?> c = (List<?>) o;
        Funct f = all.get(((Number) c.get(0)).intValue());
        assertEquals(f.title(), c.get(1));
        List<?> xs = (List<?>) c.get(2);
        List<?> ys = (List<?>) c.get(3);
        assertEquals(f.xs().length, xs.size(), "seed " + seed + " FUNCT " + f.id());
        for (int i = 0; i < xs.size(); i++) {
          assertEquals(f.x(i), num(xs.get(i)), 1e-12 * Math.max(1, Math.abs(f.x(i))), "seed " + seed + " FUNCT " + f.id() + " x" + i);
          assertEquals(f.y(i), num(ys.get(i)), 1e-12 * Math.max(1, Math.abs(f.y(i))), "seed " + seed + " FUNCT " + f.id() + " y" + i);
        }
      }
    }
  }

  /** Every cell's character is U+2800 plus its dots' bits. */
  @Test
  void brailleCharacters() {
    Object r = lua("local P = require('nvimpam.view.plot.render') local out = {} "
        + "for b = 0, 255 do out[#out + 1] = vim.fn.char2nr(P.braille(b), true) - 0x2800 end return out");
    List<?> l = (List<?>) r;
    for (int b = 0; b < 256; b++) assertEquals(b, ((Number) l.get(b)).intValue());
  }

  /** Bits of a cell: left column 0x01 0x02 0x04 0x40 top to bottom, right column 0x08 0x10 0x20 0x80. */
  private static final int[][] BIT = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};

  private List<List<Integer>> raster(List<double[]> pts, int w, int h, double[] box) {
    StringBuilder lua = new StringBuilder("local P = require('nvimpam.view.plot.render') local pts = {");
    for (double[] p : pts) lua.append(String.format(Locale.ROOT, "{%.17g,%.17g},", p[0], p[1]));
    lua.append(String.format(Locale.ROOT, "} local bits = P.raster({ { pts = pts } }, %d, %d, { %.17g, %.17g, %.17g, %.17g }) ",
        w, h, box[0], box[1], box[2], box[3]));
    lua.append("local out = {} for r = 0, " + (h - 1) + " do local row = {} for c = 0, " + (w - 1)
        + " do row[#row + 1] = bits[r][c] end out[#out + 1] = row end return out");
    List<List<Integer>> out = new ArrayList<>();
    for (Object row : (List<?>) lua(lua.toString())) {
      List<Integer> l = new ArrayList<>();
      for (Object b : (List<?>) row) l.add(((Number) b).intValue());
      out.add(l);
    }
    return out;
  }

  /** A diagonal over 2x1 cells (4x4 dots): dots (0,3) (1,2) (2,1) (3,0). */
  @Test
  void aDiagonal() {
    List<List<Integer>> b = raster(List.of(new double[] {0, 0}, new double[] {1, 1}), 2, 1, new double[] {0, 1, 0, 1});
    assertEquals(List.of(List.of(0x40 | 0x20, 0x02 | 0x08)), b);
  }

  private static double segmentDistance(double px, double py, double ax, double ay, double bx, double by) {
    double dx = bx - ax, dy = by - ay;
    double len = dx * dx + dy * dy;
    double t = len == 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len));
    return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
  }

  /**
   * Random curves on random grids: every point's nearest dot is set, every dot set lies near the
   * curve (within 1.25 dots of a segment: half a dot for each rounded end, half for the line's
   * steps), and every place along the curve has a dot set that near.
   */
  @Test
  void dotsFollowTheCurve() {
    Random r = new Random(7);
    for (int k = 0; k < 60; k++) {
      int w = 1 + r.nextInt(30);
      int h = 1 + r.nextInt(12);
      int n = 1 + r.nextInt(12);
      List<double[]> pts = new ArrayList<>();
      for (int i = 0; i < n; i++) pts.add(new double[] {r.nextDouble() * 10 - 5, r.nextDouble() * 100});
      double[] box = {-5, 5, 0, 100};
      List<List<Integer>> bits = raster(pts, w, h, box);
      int xd = 2 * w - 1, yd = 4 * h - 1;
      double[][] d = new double[n][];
      for (int i = 0; i < n; i++) {
        d[i] = new double[] {(pts.get(i)[0] - box[0]) / (box[1] - box[0]) * xd, (box[3] - pts.get(i)[1]) / (box[3] - box[2]) * yd};
        long dx = Math.round(Math.floor(d[i][0] + 0.5));
        long dy = Math.round(Math.floor(d[i][1] + 0.5));
        int cell = bits.get((int) dy / 4).get((int) dx / 2);
        assertTrue((cell & BIT[(int) dx % 2][(int) dy % 4]) != 0, "case " + k + ": point " + i + "'s dot");
      }
      List<double[]> set = new ArrayList<>();
      for (int cr = 0; cr < h; cr++) {
        for (int cc = 0; cc < w; cc++) {
          int cell = bits.get(cr).get(cc);
          for (int bx = 0; bx < 2; bx++) {
            for (int by = 0; by < 4; by++) {
              if ((cell & BIT[bx][by]) == 0) continue;
              double px = cc * 2 + bx, py = cr * 4 + by;
              set.add(new double[] {px, py});
              double best = Double.MAX_VALUE;
              for (int i = 0; i < n; i++) {
                int j = Math.min(i + 1, n - 1);
                best = Math.min(best, segmentDistance(px, py, d[i][0], d[i][1], d[j][0], d[j][1]));
              }
              assertTrue(best <= 1.25, "case " + k + ": dot " + px + "," + py + " is " + best + " from the curve");
            }
          }
        }
      }
      for (int i = 0; i + 1 < n; i++) {
        for (int s = 0; s <= 100; s++) {
          double qx = d[i][0] + (d[i + 1][0] - d[i][0]) * s / 100;
          double qy = d[i][1] + (d[i + 1][1] - d[i][1]) * s / 100;
          double best = Double.MAX_VALUE;
          for (double[] p : set) best = Math.min(best, Math.hypot(p[0] - qx, p[1] - qy));
          assertTrue(best <= 1.25, "case " + k + ": segment " + i + " has no dot near " + qx + "," + qy);
        }
      }
    }
  }
}
