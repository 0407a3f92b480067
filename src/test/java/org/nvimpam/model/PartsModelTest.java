package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nvimpam.lines.Lines;
import org.nvimpam.testutil.DeckText;

/**
 * Mass, centre of gravity and bounding box of {@link PartsModel} against closed forms, to 1e-9
 * relative: plates flat and tilted, triangles, warped quads, boxes of hexahedra, pentahedra,
 * tetrahedra, beams and bars, point masses, and a mixed model; and the parts whose mass cannot be
 * computed, with why.
 */
class PartsModelTest {
  static final double REL = 1e-9;
  @TempDir Path dir;

  static PartsTable table(String text, int version) {
    PartsModel m = new PartsModel();
    Lines lines = Lines.split(text.getBytes(StandardCharsets.ISO_8859_1));
    m.add(Path.of("deck.pc"), lines, version);
    return m.table();
  }

  static PartsTable table(DeckText d) {
    return table(d.text(), 2011);
  }

  static PartsTable.Part part(PartsTable t, int id) {
    for (PartsTable.Part p : t.parts()) {
      if (p.id() == id) return p;
    }
    throw new AssertionError("no part " + id + " in " + t.parts());
  }

  static void close(double want, double got, String what) {
    double scale = Math.max(Math.abs(want), 1e-300);
    assertTrue(Math.abs(want - got) <= REL * scale, what + ": want " + want + ", got " + got);
  }

  static void close(double[] want, double[] got, double scale, String what) {
    assertNotNull(got, what);
    for (int k = 0; k < want.length; k++) {
      assertTrue(Math.abs(want[k] - got[k]) <= REL * scale, what + "[" + k + "]: want " + want[k] + ", got " + got[k]);
    }
  }

  /** A plate of nx × ny quads over {@code [0, a] × [0, b]} in the plane through the origin spanned by u and v. */
  static int[][] plate(DeckText d, double a, double b, int nx, int ny, double[] u, double[] v, Random jitter) {
    int[][] id = new int[nx + 1][ny + 1];
    for (int i = 0; i <= nx; i++) {
      for (int j = 0; j <= ny; j++) {
        double s = a * i / nx, t = b * j / ny;
        if (jitter != null && i > 0 && i < nx && j > 0 && j < ny) {
          // interior nodes moved in the plane, on a grid of 1/64: sums of areas stay the plate's
          s += (jitter.nextInt(9) - 4) * a / nx / 64;
          t += (jitter.nextInt(9) - 4) * b / ny / 64;
        }
        id[i][j] = d.node(s * u[0] + t * v[0], s * u[1] + t * v[1], s * u[2] + t * v[2]);
      }
    }
    return id;
  }

  @ParameterizedTest
  @ValueSource(ints = {2011, 2025})
  void flatPlate(int version) {
    DeckText d = new DeckText(version);
    d.mater(7, 103, 7.85e-9, "steel");
    d.shellPart(1, 7, 1.5, "plate");
    int[][] n = plate(d, 600, 400, 12, 8, new double[] {1, 0, 0}, new double[] {0, 1, 0}, new Random(1));
    for (int i = 0; i < 12; i++) {
      for (int j = 0; j < 8; j++) d.shell(1, n[i][j], n[i + 1][j], n[i + 1][j + 1], n[i][j + 1], Double.NaN);
    }
    PartsTable t = table(d.text(), version);
    PartsTable.Part p = part(t, 1);
    assertNull(p.reason());
    assertEquals(96, p.elements());
    assertEquals(13 * 9, p.nodes());
    assertEquals("plate", p.name());
    assertEquals("SHELL", p.type());
    assertEquals("7", p.material());
    assertEquals(1.5, p.thickness());
    close(600 * 400 * 1.5 * 7.85e-9, p.mass(), "mass");
    close(new double[] {300, 200, 0}, p.cog(), 600, "cog");
    close(new double[] {0, 0, 0, 600, 400, 0}, p.bbox(), 600, "bbox");
    close(p.mass(), t.totalMass(), "total");
  }

  @Test
  void tiltedQuads() {
    DeckText d = new DeckText(2011);
    d.mater(1, 103, 2.7e-9, "alu");
    d.shellPart(3, 1, 2, "tilted");
    // the plane z = 0.75 x: along (4, 0, 3), a 3-4-5 slope, 5 steps of length 5; 3 across
    int[][] n = plate(d, 5, 3, 5, 3, new double[] {4, 0, 3}, new double[] {0, 1, 0}, new Random(2));
    for (int i = 0; i < 5; i++) {
      for (int j = 0; j < 3; j++) d.shell(3, n[i][j], n[i + 1][j], n[i + 1][j + 1], n[i][j + 1], Double.NaN);
    }
    PartsTable.Part p = part(table(d), 3);
    close(25 * 3 * 2 * 2.7e-9, p.mass(), "mass");
    close(new double[] {10, 1.5, 7.5}, p.cog(), 20, "cog");
    close(new double[] {0, 0, 0, 20, 3, 15}, p.bbox(), 20, "bbox");
  }

  @Test
  void trianglesAndTheShellCardsThickness() {
    DeckText d = new DeckText(2011);
    d.mater(1, 103, 1e-6, "m");
    d.shellPart(1, 1, 2, "tri");
    int a = d.node(0, 0, 0), b = d.node(4, 0, 0), c = d.node(0, 3, 0), e = d.node(4, 3, 0);
    d.shell(1, a, b, c, 0, Double.NaN); // IDNOD4 = 0
    d.shell(1, b, e, c, c, 0.5); // IDNOD4 = IDNOD3, the card's thickness wins
    PartsTable.Part p = part(table(d), 1);
    double m1 = 6 * 2 * 1e-6, m2 = 6 * 0.5 * 1e-6;
    close(m1 + m2, p.mass(), "mass");
    double[] c1 = {4.0 / 3, 1, 0}, c2 = {8.0 / 3, 2, 0};
    double[] cog = new double[3];
    for (int k = 0; k < 3; k++) cog[k] = (m1 * c1[k] + m2 * c2[k]) / (m1 + m2);
    close(cog, p.cog(), 4, "cog");
    assertEquals(4, p.nodes());
  }

  /** The area of z = k x y over [0, a]^2: the inner integral in closed form, the outer by Simpson. */
  static double saddleArea(double a, double k) {
    int n = 20000;
    double h = a / n;
    double s = 0;
    for (int i = 0; i <= n; i++) {
      double x = i * h;
      double c2 = 1 + k * k * x * x;
      double c = Math.sqrt(c2);
      double y = a;
      double inner = y / 2 * Math.sqrt(c2 + k * k * y * y) + c2 / (2 * k) * asinh(k * y / c);
      s += (i == 0 || i == n ? 1 : i % 2 == 1 ? 4 : 2) * inner;
    }
    return s * h / 3;
  }

  static double asinh(double x) {
    return Math.log(x + Math.sqrt(x * x + 1));
  }

  @Test
  void warpedQuadIsTheBilinearSurfacesArea() {
    double a = 10, k = 0.05;
    DeckText d = new DeckText(2011);
    d.mater(1, 103, 1, "m");
    d.shellPart(1, 1, 1, "saddle");
    d.shell(1, d.node(0, 0, 0), d.node(a, 0, 0), d.node(a, a, k * a * a), d.node(0, a, 0), Double.NaN);
    PartsTable.Part p = part(table(d), 1);
    close(saddleArea(a, k), p.mass(), "area of the bilinear surface");
    // neither diagonal split gives it
    double[] out = new double[4];
    double[] x = {0, 0, 0, a, 0, 0, a, a, k * a * a, 0, a, 0};
    MassShapes.triangle(x, 0, 1, 2, out);
    double split = out[0];
    MassShapes.triangle(x, 0, 2, 3, out);
    split += out[0];
    assertTrue(Math.abs(split - p.mass()) > 1e-6 * p.mass(), "the split differs: " + split + " vs " + p.mass());
  }

  /** A box {@code [0, a] × [0, b] × [0, c]} of n^3 hexahedra, interior nodes moved. */
  static void box(DeckText d, int part, double a, double b, double c, int n, Random r) {
    int[][][] id = new int[n + 1][n + 1][n + 1];
    for (int i = 0; i <= n; i++) {
      for (int j = 0; j <= n; j++) {
        for (int k = 0; k <= n; k++) {
          double x = a * i / n, y = b * j / n, z = c * k / n;
          if (i > 0 && i < n && j > 0 && j < n && k > 0 && k < n) {
            x += (r.nextInt(9) - 4) * a / n / 64;
            y += (r.nextInt(9) - 4) * b / n / 64;
            z += (r.nextInt(9) - 4) * c / n / 64;
          }
          id[i][j][k] = d.node(x, y, z);
        }
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

  @Test
  void boxOfHexahedra() {
    DeckText d = new DeckText(2011);
    d.mater(2, 1, 1.2e-9, "foam");
    d.part(5, "SOLID", 2, null, "box", "    0", "    0");
    box(d, 5, 30, 20, 10, 4, new Random(5));
    PartsTable.Part p = part(table(d), 5);
    assertNull(p.reason());
    assertEquals(64, p.elements());
    assertEquals(125, p.nodes());
    close(30 * 20 * 10 * 1.2e-9, p.mass(), "mass");
    close(new double[] {15, 10, 5}, p.cog(), 30, "cog");
    assertTrue(Double.isNaN(p.thickness()));
  }

  @Test
  void pentahedraAndDegenerateHexahedra() {
    DeckText d = new DeckText(2011);
    d.mater(1, 1, 2, "m");
    d.part(1, "SOLID", 1, null, "wedge", "    0", "    0");
    d.part(2, "SOLID", 1, null, "wedge as hexa", "    0", "    0");
    // a prism over the triangle (0,0) (6,0) (0,3), from z = 1 to z = 5, its top slanted: z + x/6
    int[] bottom = {d.node(0, 0, 1), d.node(6, 0, 1), d.node(0, 3, 1)};
    int[] top = {d.node(0, 0, 5), d.node(6, 0, 6), d.node(0, 3, 5)};
    d.solid("PENTA6", 1, bottom[0], bottom[1], bottom[2], top[0], top[1], top[2]);
    d.solid("SOLID", 2, bottom[0], bottom[1], bottom[2], bottom[2], top[0], top[1], top[2], top[2]);
    PartsTable t = table(d);
    // volume: the triangle's area 9 times the mean height over it: 4 + mean of x/6 = 4 + (6/3)/6
    double vol = 9 * (4 + 1.0 / 3);
    close(2 * vol, part(t, 1).mass(), "penta6");
    close(2 * vol, part(t, 2).mass(), "degenerate hexa");
    close(part(t, 1).cog(), part(t, 2).cog(), 6, "cog");
  }

  @Test
  void tetrahedraOfACube() {
    DeckText d = new DeckText(2011);
    d.mater(1, 1, 3, "m");
    d.part(1, "TETRA", 1, null, "cube", "    0", "    0");
    int[] c = new int[8];
    for (int k = 0; k < 8; k++) c[k] = d.node((k & 1) * 2, (k >> 1 & 1) * 2, (k >> 2 & 1) * 2);
    // the cube split into six tetrahedra around its diagonal 0-7
    int[][] tets = {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};
    for (int[] q : tets) d.solid("TETR4", 1, c[q[0]], c[q[1]], c[q[2]], c[q[3]]);
    PartsTable.Part p = part(table(d), 1);
    close(8 * 3, p.mass(), "mass");
    close(new double[] {1, 1, 1}, p.cog(), 2, "cog");
    assertEquals(8, p.nodes());
  }

  @Test
  void beamsAndBars() {
    DeckText d = new DeckText(2011);
    d.mater(1, 201, 8e-9, "m");
    d.part(1, "BAR", 1, null, "bar", "     12.5");
    d.part(2, "BEAM", 1, null, "beam", "      40.", "", "", "", "    0    0");
    int a = d.node(0, 0, 0), b = d.node(3, 4, 0), c = d.node(3, 4, 12), o = d.node(100, 100, 100);
    d.line("BAR   / " + DeckText.i(8, 90) + DeckText.i(8, 1) + DeckText.i(8, a) + DeckText.i(8, b));
    d.line("BEAM  / " + DeckText.i(8, 91) + DeckText.i(8, 2) + DeckText.i(8, b) + DeckText.i(8, c) + DeckText.i(8, o));
    d.line("");
    d.line("");
    PartsTable t = table(d);
    close(5 * 12.5 * 8e-9, part(t, 1).mass(), "bar");
    close(new double[] {1.5, 2, 0}, part(t, 1).cog(), 5, "bar cog");
    close(12 * 40 * 8e-9, part(t, 2).mass(), "beam");
    close(new double[] {3, 4, 6}, part(t, 2).cog(), 12, "beam cog");
    assertEquals(2, part(t, 2).nodes(), "the orientation node is no node of the part's mass");
  }

  @Test
  void mixedModelWithPointMassesAndIncludes() throws Exception {
    DeckText d = new DeckText(2011);
    d.mater(1, 103, 7.85e-9, "steel");
    d.mater(2, 1, 1e-9, "foam");
    d.shellPart(1, 1, 2, "plate");
    d.part(2, "SOLID", 2, null, "block", "    0", "    0");
    int[][] n = plate(d, 100, 50, 4, 2, new double[] {1, 0, 0}, new double[] {0, 1, 0}, null);
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < 2; j++) d.shell(1, n[i][j], n[i + 1][j], n[i + 1][j + 1], n[i][j + 1], Double.NaN);
    }
    int m = d.node(10, 20, 30);
    d.line("MASS  / " + DeckText.i(8, m) + DeckText.i(8, 0) + "        " + DeckText.f(16, 0) + DeckText.f(16, 0) + DeckText.f(16, 5));
    d.line("NAME battery");
    d.line("        " + DeckText.f(16, 0.002) + DeckText.f(16, 0.002) + DeckText.f(16, 0.002));
    d.line("");
    d.line("        END");
    d.line("NSMAS / " + DeckText.i(8, 4) + DeckText.f(16, 0.5));
    d.line("NAME trim");
    d.line("        PART 1");
    d.line("        END");
    d.line("RBODY / " + DeckText.i(8, 8) + "        " + DeckText.i(8, 4) + DeckText.i(8, m));
    d.line("NAME seat");
    d.line("        " + DeckText.f(8, 0.03));
    d.line("        NOD " + m);
    d.line("        END");
    d.line("INCLU / block.inc");
    Path main = dir.resolve("main.pc");
    Files.writeString(main, d.text(), StandardCharsets.ISO_8859_1);
    DeckText inc = new DeckText(0);
    inc.nextNode = 1000;
    box(inc, 2, 10, 10, 10, 2, new Random(9));
    Files.writeString(dir.resolve("block.inc"), inc.text(), StandardCharsets.ISO_8859_1);
    List<String> problems = new ArrayList<>();
    PartsTable t = PartsModel.read(main, null, problems);
    assertEquals(List.of(), problems);
    double m1 = 100 * 50 * 2 * 7.85e-9, m2 = 1000 * 1e-9, m3 = 0.002;
    close(m1, part(t, 1).mass(), "plate");
    close(m2, part(t, 2).mass(), "block");
    assertEquals(1, t.masses().size());
    PartsTable.PointMass pm = t.masses().get(0);
    assertEquals("battery", pm.name());
    close(m3, pm.mass(), "point mass");
    close(new double[] {10, 20, 35}, pm.cog(), 35, "point mass offset");
    close(m1 + m2 + m3, t.totalMass(), "total");
    double[] cog = new double[3];
    double[][] c = {{50, 25, 0}, {5, 5, 5}, {10, 20, 35}};
    double[] w = {m1, m2, m3};
    for (int k = 0; k < 3; k++) cog[k] = (w[0] * c[0][k] + w[1] * c[1][k] + w[2] * c[2][k]) / (m1 + m2 + m3);
    close(cog, t.totalCog(), 50, "total cog");
    assertEquals(2, t.notIncluded().size(), t.notIncluded().toString());
    assertTrue(t.notIncluded().get(0).what().startsWith("NSMAS"), t.notIncluded().toString());
    assertTrue(t.notIncluded().get(1).what().startsWith("RBODY type 4: mass 0.03"), t.notIncluded().toString());
    assertTrue(t.notIncluded().get(1).text().startsWith("RBODY / "));
    assertEquals(main, t.notIncluded().get(0).file());
  }

  @Test
  void partsWhoseMassCannotBeComputedSayWhy() {
    DeckText d = new DeckText(2017);
    d.mater(1, 103, 0, "no density");
    d.mater(2, 103, 7e-9, "steel");
    d.mater(3, 131, 1.5e-9, "laminate");
    d.shellPart(1, 1, 1, "density");
    d.shellPart(2, 9, 1, "missing material");
    d.shellPart(3, 3, 1, "composite");
    d.part(4, "MEMBR", 2, null, "membrane", "          ", "    0", "    0");
    d.part(5, "SPRING", 2, null, "spring", "");
    d.shellPart(6, 0, 1, "by name");
    int a = d.node(0, 0, 0), b = d.node(1, 0, 0), c = d.node(1, 1, 0), e = d.node(0, 1, 0);
    for (int p : new int[] {1, 2, 3, 6}) d.shell(p, a, b, c, e, Double.NaN);
    d.line("MEMBR / " + DeckText.i(8, 50) + DeckText.i(8, 4) + DeckText.i(8, a) + DeckText.i(8, b) + DeckText.i(8, c) + DeckText.i(8, e));
    d.line("SPRING/ " + DeckText.i(8, 51) + DeckText.i(8, 5) + DeckText.i(8, a) + DeckText.i(8, b));
    String text = d.text().replace("RMATnull", "RMATsteel");
    PartsTable t = table(text, 2017);
    assertEquals("material 1 has no density", part(t, 1).reason());
    assertEquals("material 9 not found", part(t, 2).reason());
    assertTrue(part(t, 3).reason().startsWith("composite"), part(t, 3).reason());
    assertEquals("MEMBR part with no thickness", part(t, 4).reason());
    assertEquals("SPRING elements: mass not computed", part(t, 5).reason());
    assertNull(part(t, 6).reason());
    assertEquals("2", part(t, 6).material());
    close(7e-9, part(t, 6).mass(), "by the RMAT line's name");
    for (int p = 1; p <= 5; p++) {
      assertTrue(Double.isNaN(part(t, p).mass()));
      assertNull(part(t, p).cog());
    }
    close(7e-9, t.totalMass(), "total: the parts with a mass only");
  }

  @Test
  void numbersAsTheSolverReadsThem() {
    String[] forms = {"7.85E-9", "7.85D-9", "7.85-9", "785.E-11", "  7.85e-9 ", "0.00000000785"};
    for (String s : forms) {
      byte[] a = s.getBytes(StandardCharsets.ISO_8859_1);
      assertEquals(7.85e-9, DeckNumber.read(a, 0, a.length, 0, a.length, -1), s);
    }
    byte[] blank = "    ".getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(-1, DeckNumber.read(blank, 0, 4, 0, 4, -1));
    byte[] bad = "1.2.3".getBytes(StandardCharsets.ISO_8859_1);
    assertTrue(Double.isNaN(DeckNumber.read(bad, 0, 5, 0, 5, 0)));
  }
}
