package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.nvimpam.deck.FieldValues;
import org.nvimpam.lines.LineSource;
import org.nvimpam.lines.Lines;

/**
 * {@link Transform} against exact decimal arithmetic: random nodes written in many ways (right and
 * left in their fields, exponents, blanks, short lines), random translations, rotations by
 * multiples of 90 degrees, scales and mirrors; each coordinate read back equals the exact result,
 * the coordinates left equal keep their bytes, and no byte outside the changed fields moves. The
 * numbers' writing (most digits that fit, read back as written); the refusals (nothing planned);
 * and the mirror's element reversal, which keeps every solid's signed volume and mirrors every
 * shell's normal.
 */
class TransformTest {
  record Src(String label, Lines lines) implements Transform.Source {
    @Override
    public int version() {
      return 2011;
    }

    @Override
    public <T> T read(Function<LineSource, T> f) {
      return f.apply(lines);
    }
  }

  static Src src(String label, String... lines) {
    return new Src(label, Lines.ofLatin1(lines));
  }

  static String node(int id, String x, String y, String z) {
    return String.format("NODE  / %8d%16s%16s%16s", id, x, y, z);
  }

  /** The file's lines with the plan's edits made. */
  static List<String> apply(Src s, List<Transform.Edit> edits) throws IOException {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    Transform.write(s.lines(), edits, true, o);
    String text = o.toString(StandardCharsets.ISO_8859_1);
    return List.of(text.substring(0, text.length() - 1).split("\n", -1));
  }

  static List<Transform.Edit> edits(Transform.Result r, int file) {
    for (Transform.FileEdits f : r.files()) {
      if (f.file() == file) return f.edits();
    }
    return List.of();
  }

  // Exact arithmetic ----------------------------------------------------------------------------

  private static BigDecimal dec(Random rnd, int maxDigits) {
    long unscaled = (long) (rnd.nextDouble() * Math.pow(10, 1 + rnd.nextInt(maxDigits)));
    if (rnd.nextBoolean()) unscaled = -unscaled;
    return BigDecimal.valueOf(unscaled, rnd.nextInt(5));
  }

  /** One coordinate as a user may write it: plain, with an exponent, without the 0 before the point, or blank (0). */
  private static String write(Random rnd, BigDecimal v) {
    if (v.signum() == 0 && rnd.nextInt(4) == 0) return "";
    return switch (rnd.nextInt(4)) {
      case 0 -> v.toPlainString().contains(".") ? v.toPlainString() : v.toPlainString() + ".";
      case 1 -> v.stripTrailingZeros().toString().replace("E", "e") + (v.stripTrailingZeros().toString().contains("E") ? "" : "");
      case 2 -> {
        String p = v.toPlainString();
        yield p.startsWith("0.") ? p.substring(1) : p.startsWith("-0.") ? "-" + p.substring(2) : p.contains(".") ? p : p + ".";
      }
      default -> v.unscaledValue() + "E" + (-v.scale());
    };
  }

  /** A field of 16 columns holding {@code text}: right in it, or left, or a column in. */
  private static String field(Random rnd, String text) {
    return switch (rnd.nextInt(3)) {
      case 0 -> String.format("%16s", text);
      case 1 -> String.format("%-16s", text);
      default -> String.format("%-16s", " " + text);
    };
  }

  /** What {@code op} gives, computed here independently: the exact image of {@code p}. */
  private static BigDecimal[] expected(String[] op, BigDecimal[] p) {
    BigDecimal[] q = p.clone();
    switch (op[0]) {
      case "translate" -> {
        for (int k = 0; k < 3; k++) q[k] = p[k].add(new BigDecimal(op[1 + k]));
      }
      case "rotate" -> {
        int axis = "xyz".indexOf(op[1]);
        int turns = Math.floorMod(Integer.parseInt(op[2]) / 90, 4);
        int i = (axis + 1) % 3;
        int j = (axis + 2) % 3;
        for (int t = 0; t < turns; t++) { // a quarter turn: (a, b) -> (-b, a)
          BigDecimal a = q[i];
          q[i] = q[j].negate();
          q[j] = a;
        }
      }
      case "scale" -> {
        BigDecimal s = new BigDecimal(op[1]);
        for (int k = 0; k < 3; k++) {
          BigDecimal c = op.length > 2 ? new BigDecimal(op[2 + k]) : BigDecimal.ZERO;
          q[k] = p[k].subtract(c).multiply(s).add(c);
        }
      }
      case "mirror" -> {
        int axis = "xyz".indexOf(op[1]);
        BigDecimal c = op.length > 2 ? new BigDecimal(op[2]) : BigDecimal.ZERO;
        q[axis] = c.add(c).subtract(p[axis]);
      }
      default -> throw new AssertionError(op[0]);
    }
    return q;
  }

  private static String[] randomOp(Random rnd) {
    String axis = String.valueOf("xyz".charAt(rnd.nextInt(3)));
    return switch (rnd.nextInt(4)) {
      case 0 -> new String[] {"translate", dec(rnd, 4).toPlainString(), dec(rnd, 4).toPlainString(), dec(rnd, 4).toPlainString()};
      case 1 -> new String[] {"rotate", axis, String.valueOf(90 * (rnd.nextInt(9) - 4))};
      case 2 -> {
        BigDecimal s = dec(rnd, 3);
        if (s.signum() == 0) s = BigDecimal.valueOf(-2.5);
        yield rnd.nextBoolean() ? new String[] {"scale", s.toPlainString()}
            : new String[] {"scale", s.toPlainString(), dec(rnd, 3).toPlainString(), dec(rnd, 3).toPlainString(), dec(rnd, 3).toPlainString()};
      }
      default -> rnd.nextBoolean() ? new String[] {"mirror", axis} : new String[] {"mirror", axis, dec(rnd, 3).toPlainString()};
    };
  }

  @Test
  void everyCoordinateIsTheExactResultAndEveryOtherByteStays() throws IOException {
    Random rnd = new Random(35);
    for (int run = 0; run < 400; run++) {
      int n = 1 + rnd.nextInt(12);
      BigDecimal[][] p = new BigDecimal[n][3];
      String[] lines = new String[n + 2];
      lines[0] = "INPUTVERSION 2011";
      lines[1] = "$ nodes";
      for (int i = 0; i < n; i++) {
        StringBuilder sb = new StringBuilder(String.format("NODE  / %8d", i + 1));
        for (int k = 0; k < 3; k++) {
          p[i][k] = rnd.nextInt(6) == 0 ? BigDecimal.ZERO : dec(rnd, 6);
          sb.append(field(rnd, write(rnd, p[i][k])));
        }
        String line = sb.toString();
        lines[i + 2] = rnd.nextBoolean() ? line.stripTrailing() : line + "  $ kept";
      }
      String[] op = randomOp(rnd);
      Src s = src("deck.pc", lines);
      Transform.Result r = Transform.plan(List.of(s), new Transform.All(), Transform.parse(List.of(op)));
      String what = String.join(" ", op) + " on " + Arrays.toString(lines);
      assertEquals(List.of(), r.refusals(), what);
      List<String> out = apply(s, edits(r, 0));
      assertEquals(lines.length, out.size(), what);
      assertEquals(lines[0], out.get(0));
      assertEquals(lines[1], out.get(1));
      for (int i = 0; i < n; i++) {
        byte[] a = lines[i + 2].getBytes(StandardCharsets.ISO_8859_1);
        byte[] b = out.get(i + 2).getBytes(StandardCharsets.ISO_8859_1);
        BigDecimal[] want = expected(op, p[i]);
        assertArrayEquals(Arrays.copyOf(a, 16), Arrays.copyOf(b, 16), what);
        for (int k = 0; k < 3; k++) {
          int fs = 16 + 16 * k;
          BigDecimal got = Transform.read(b, Math.min(fs, b.length), Math.min(fs + 16, b.length));
          assertNotNull(got, what);
          assertEquals(0, want[k].compareTo(got), what + ": node " + (i + 1) + " " + "XYZ".charAt(k) + ": want " + want[k] + ", got " + got);
          if (want[k].compareTo(p[i][k]) == 0) { // unchanged: its bytes stay (blanks after them where the line was shorter)
            String was = new String(Arrays.copyOfRange(a, Math.min(fs, a.length), Math.min(fs + 16, a.length)), StandardCharsets.ISO_8859_1);
            String is = new String(Arrays.copyOfRange(b, Math.min(fs, b.length), Math.min(fs + 16, b.length)), StandardCharsets.ISO_8859_1);
            assertTrue(is.startsWith(was) && is.substring(was.length()).isBlank(), what + ": \"" + was + "\" became \"" + is + "\"");
          }
        }
        // what follows the Z field (a comment) stays
        assertEquals(a.length > 64 ? new String(a, 64, a.length - 64, StandardCharsets.ISO_8859_1) : "",
            b.length > 64 ? new String(b, 64, b.length - 64, StandardCharsets.ISO_8859_1) : "", what);
      }
    }
  }

  @Test
  void rotateNinetyAboutZScaleMirrorAndTranslateOnASmallDeck() throws IOException {
    String[] deck = {node(1, "1.5", "2.25", "3."), node(2, "-1.", "0.", "1E+03")};
    Src s = src("deck.pc", deck);
    assertEquals(List.of(node(1, "-2.25", "1.5", "3."), node(2, "0.", "-1.", "1E+03")),
        apply(s, edits(Transform.plan(List.of(s), new Transform.All(), Transform.parse(List.of("rotate", "z", "90"))), 0)));
    assertEquals(List.of(node(1, "4.25", "-1.5", "3."), node(2, "2.", "1.", "1E+03")),
        apply(s, edits(Transform.plan(List.of(s), new Transform.All(), Transform.parse(List.of("rotate", "z", "-90", "1", "-1", "0"))), 0)));
    assertEquals(List.of(node(1, "3.", "4.5", "6."), node(2, "-2.", "0.", "2000.")),
        apply(s, edits(Transform.plan(List.of(s), new Transform.All(), Transform.parse(List.of("scale", "2"))), 0)));
    assertEquals(List.of(node(1, "1.5", "2.25", "-3."), node(2, "-1.", "0.", "-1000.")),
        apply(s, edits(Transform.plan(List.of(s), new Transform.All(), Transform.parse(List.of("mirror", "z"))), 0)));
    assertEquals(List.of(node(1, "1.6", "2.25", "3.3"), node(2, "-0.9", "0.", "1000.3")),
        apply(s, edits(Transform.plan(List.of(s), new Transform.All(), Transform.parse(List.of("translate", ".1", "0", "0.3"))), 0)));
  }

  // Writing numbers -----------------------------------------------------------------------------

  @Test
  void numbersGetTheMostDigitsTheirFieldHoldsAndReadBackAsWritten() {
    Random rnd = new Random(3);
    for (int run = 0; run < 20000; run++) {
      BigDecimal v = switch (run % 3) {
        case 0 -> new BigDecimal(rnd.nextGaussian() * Math.pow(10, rnd.nextInt(40) - 20));
        case 1 -> BigDecimal.valueOf(rnd.nextLong() % 100000000000L, rnd.nextInt(20) - 4);
        default -> BigDecimal.valueOf(rnd.nextInt(2000) - 1000, rnd.nextInt(4));
      };
      int width = 8 + rnd.nextInt(16);
      String t = Transform.format(v, width);
      if (v.signum() == 0) {
        assertEquals("0.", t);
        continue;
      }
      assertNotNull(t, v + " in " + width);
      assertTrue(t.length() <= width, t);
      assertTrue(t.contains("."), t);
      byte[] b = t.getBytes(StandardCharsets.US_ASCII);
      BigDecimal back = Transform.read(b, 0, b.length);
      int digits = back.stripTrailingZeros().precision();
      assertEquals(0, v.round(new MathContext(digits, RoundingMode.HALF_EVEN)).compareTo(back), v + " -> " + t);
      assertEquals(back.doubleValue(), FieldValues.real(b, 0, b.length), t);
      // one digit more fits in none of the forms
      if (digits < 17 && v.stripTrailingZeros().precision() > digits) {
        BigDecimal more = v.round(new MathContext(digits + 1, RoundingMode.HALF_EVEN));
        if (more.stripTrailingZeros().precision() > digits) {
          String plain = more.stripTrailingZeros().toPlainString();
          String noZero = plain.replaceFirst("^(-?)0\\.", "$1.");
          int expLen = (more.signum() < 0 ? 1 : 0) + 1 + 1 + digits + 1
              + String.valueOf((long) more.stripTrailingZeros().precision() - 1 - more.stripTrailingZeros().scale()).length();
          assertTrue(Math.min(Math.min(plain.length() + (plain.contains(".") ? 0 : 1), noZero.length() + (noZero.contains(".") ? 0 : 1)),
              expLen) > width, v + " -> " + t + " in " + width + ": " + more + " would fit");
        }
      }
    }
    assertNull(Transform.format(new BigDecimal("1E400"), 16));
    assertNull(Transform.format(new BigDecimal("1E-400"), 16));
    assertEquals("-.12345678901235", Transform.format(new BigDecimal("-0.123456789012345678"), 16));
    assertEquals("1.2345678901E-20", Transform.format(new BigDecimal("1.23456789012345E-20"), 16));
    assertEquals("100.", Transform.format(new BigDecimal("1E+2"), 16));
  }

  // Refusals ------------------------------------------------------------------------------------

  static final String[] TREE = {
    "INPUTVERSION 2011",
    node(1, "0.", "0.", "0."), node(2, "1.", "0.", "0."), node(3, "1.", "1.", "0."), node(4, "0.", "1.", "0."),
    node(5, "2.", "0.", "0."), node(6, "2.", "1.", "0."), node(7, "<XPOS>", "0.", "0."),
    String.format("SHELL / %8d%8d%8d%8d%8d%8d", 1, 10, 1, 2, 3, 4),
    String.format("SHELL / %8d%8d%8d%8d%8d%8d", 2, 11, 2, 5, 6, 3),
    "FRAME /        5       0       0",
    "name",
    "              1.              0.              0.",
    "              0.              1.              0.",
  };

  @Test
  void refusalsAreAllListedAndNothingIsPlanned() {
    Src s = src("deck.pc", TREE);
    // a parameter where a coordinate is
    Transform.Result r = Transform.plan(List.of(s), new Transform.All(), Transform.parse(List.of("translate", "1", "0", "0")));
    assertTrue(r.refused());
    assertEquals(List.of(), r.files());
    assertEquals(1, r.refusals().size(), r.refusals().toString());
    assertTrue(r.refusals().get(0).message().contains("node 7's X is no number (<XPOS>)"), r.refusals().toString());
    // part 10 shares nodes 2 and 3 with part 11; part 12 has no element
    r = Transform.plan(List.of(s), new Transform.Parts(new int[] {10, 12}, false), Transform.parse(List.of("translate", "1", "0", "0")));
    assertEquals(List.of("part 12 has no element in the tree: it has no nodes to move",
        "node 2 is shared with part 11 (! moves shared nodes too)", "node 3 is shared with part 11 (! moves shared nodes too)"),
        r.refusals().stream().map(Transform.Note::message).toList());
    assertEquals(List.of(), r.files());
    // with shared nodes allowed: nodes 1 to 4 move; a mirror then turns SHELL 2 half over
    r = Transform.plan(List.of(s), new Transform.Parts(new int[] {10}, true), Transform.parse(List.of("translate", "1", "0", "0")));
    assertEquals(List.of(), r.refusals());
    assertEquals(4, r.nodes());
    r = Transform.plan(List.of(s), new Transform.Parts(new int[] {10}, true), Transform.parse(List.of("mirror", "x")));
    assertEquals(List.of("SHELL 2 has 2 of its 4 nodes moved: turned over, it would be neither mirrored nor as it was"),
        r.refusals().stream().map(Transform.Note::message).toList());
    assertEquals(List.of(), r.files());
    // a result beyond a double's range
    r = Transform.plan(List.of(s), new Transform.Lines(0, 1, 6), Transform.parse(List.of("scale", "1E308")));
    assertTrue(r.refusals().stream().anyMatch(n -> n.message().startsWith("node 5's X would become 2.000000000000000E+308")), r.refusals().toString());
    assertEquals(List.of(), r.files());
    // the FRAME's vectors are listed as not transformed
    r = Transform.plan(List.of(s), new Transform.Lines(0, 1, 2), Transform.parse(List.of("translate", "1", "0", "0")));
    assertEquals(List.of(), r.untouched());
    r = Transform.plan(List.of(s), new Transform.Parts(new int[] {11}, true), Transform.parse(List.of("translate", "1", "0", "0")));
    assertEquals(List.of(new Transform.Note(0, 10, 0, "FRAME 5: its vectors are not transformed")), r.untouched());
    assertThrows(IllegalArgumentException.class, () -> Transform.parse(List.of("scale", "0")));
    assertThrows(IllegalArgumentException.class, () -> Transform.parse(List.of("rotate", "w", "90")));
    assertThrows(IllegalArgumentException.class, () -> Transform.parse(List.of("translate", "1", "2")));
  }

  // The mirror's reversal -------------------------------------------------------------------------

  private static final int[][] CORNERS = {
    {0, 0, 0}, {2, 0, 0}, {2, 3, 0}, {0, 3, 0}, {0, 0, 5}, {2, 0, 5}, {2, 3, 5}, {0, 3, 5},
  };

  /** Six elements over the eight corners of a box (numbered 1 to 8) plus an apex (9): each a right-handed one. */
  static String[] solids() {
    List<String> l = new ArrayList<>();
    l.add("INPUTVERSION 2011");
    for (int i = 0; i < CORNERS.length; i++) {
      l.add(node(i + 1, CORNERS[i][0] + ".", CORNERS[i][1] + ".", CORNERS[i][2] + "."));
    }
    l.add(node(9, "1.", "1.5", "-4."));
    l.add(String.format("SOLID / %8d%8d", 1, 1));
    l.add(String.format("%16s%8d%8d%8d%8d%8d%8d%8d%8d", "", 1, 2, 3, 4, 5, 6, 7, 8));
    l.add(String.format("PENTA6/ %8d%8d%8d%8d%8d%8d%8d%8d", 2, 1, 1, 2, 3, 5, 6, 7));
    l.add(String.format("TETR4 / %8d%8d%8d%8d%8d%8d", 3, 1, 1, 2, 3, 5));
    l.add(String.format("PYRA5 / %8d%8d%8d%8d%8d%8d%8d", 4, 1, 4, 3, 2, 1, 9));
    l.add(String.format("SHELL / %8d%8d%8d%8d%8d%8d", 5, 2, 1, 2, 3, 4));
    l.add(String.format("SHELL / %8d%8d%8d%8d%8d%8d", 6, 2, 5, 6, 7, 7));
    l.add(String.format("SHELL / %8d%8d%8d%8d%8d", 7, 2, 1, 5, 8));
    l.add(String.format("BEAM  / %8d%8d%8d%8d%8d", 8, 3, 1, 7, 9));
    return l.toArray(String[]::new);
  }

  /** The coordinates of each node, and the node lists of each element, of {@code lines}. */
  static double[][] coordinates(List<String> lines) {
    double[][] x = new double[10][];
    for (String l : lines) {
      if (!l.startsWith("NODE")) continue;
      byte[] b = l.getBytes(StandardCharsets.ISO_8859_1);
      int id = Integer.parseInt(l.substring(8, 16).trim());
      x[id] = new double[] {FieldValues.number(b, 16, 32), FieldValues.number(b, 32, 48), FieldValues.number(b, 48, Math.min(64, b.length))};
    }
    return x;
  }

  static int[] ids(String line, int from, int count) {
    int[] n = new int[count];
    for (int k = 0; k < count; k++) {
      String f = from + 8 * k + 8 <= line.length() ? line.substring(from + 8 * k, from + 8 * k + 8) : from + 8 * k < line.length()
          ? line.substring(from + 8 * k) : "";
      n[k] = f.isBlank() ? 0 : Integer.parseInt(f.trim());
    }
    return n;
  }

  private static double[] sub(double[] a, double[] b) {
    return new double[] {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  }

  private static double[] cross(double[] a, double[] b) {
    return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  }

  private static double dot(double[] a, double[] b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  }

  /** The orientation of a solid: the triple product of the edges from its first node, base then apex. */
  static double volumeSign(double[][] x, int[] n, int b, int c, int apex) {
    double[] p = x[n[0]];
    return dot(cross(sub(x[n[b]], p), sub(x[n[c]], p)), sub(x[n[apex]], p));
  }

  /** The orientations of the solids and the normals of the shells of {@code lines}, in element order. */
  static List<double[]> orientations(List<String> lines) {
    double[][] x = coordinates(lines);
    List<double[]> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (l.startsWith("SOLID")) {
        int[] n = ids(lines.get(i + 1), 16, 8);
        out.add(new double[] {volumeSign(x, n, 1, 3, 4), volumeSign(x, new int[] {n[6], n[5], n[7], n[2]}, 1, 2, 3)});
      } else if (l.startsWith("PENTA6")) {
        out.add(new double[] {volumeSign(x, ids(l, 24, 6), 1, 2, 3)});
      } else if (l.startsWith("TETR4")) {
        out.add(new double[] {volumeSign(x, ids(l, 24, 4), 1, 2, 3)});
      } else if (l.startsWith("PYRA5")) {
        out.add(new double[] {volumeSign(x, ids(l, 24, 5), 1, 3, 4)});
      } else if (l.startsWith("SHELL")) {
        int[] n = ids(l, 24, 4);
        out.add(cross(sub(x[n[1]], x[n[0]]), sub(x[n[2]], x[n[0]])));
      }
    }
    return out;
  }

  @Test
  void aMirrorReversesEachElementSoThatVolumesKeepTheirSignAndNormalsAreMirrored() throws IOException {
    String[] deck = solids();
    List<double[]> before = orientations(List.of(deck));
    for (double[] o : before.subList(0, 4)) {
      for (double v : o) assertTrue(v > 0, "the test's solids are right-handed: " + v);
    }
    for (String[] op : List.of(new String[] {"mirror", "x"}, new String[] {"mirror", "y", "7"}, new String[] {"mirror", "z", "-1.5"},
        new String[] {"scale", "-2"}, new String[] {"scale", "-0.5", "1", "1", "1"})) {
      Src s = src("deck.pc", deck);
      Transform.Result r = Transform.plan(List.of(s), new Transform.All(), Transform.parse(List.of(op)));
      assertEquals(List.of(), r.refusals());
      assertEquals(7, r.reversed(), "the beam keeps its order");
      List<String> out = apply(s, edits(r, 0));
      List<double[]> after = orientations(out);
      for (int e = 0; e < 4; e++) {
        for (int k = 0; k < before.get(e).length; k++) {
          assertTrue(after.get(e)[k] > 0, String.join(" ", op) + ": solid " + (e + 1) + " turned over: " + out);
        }
      }
      int axis = op[0].equals("mirror") ? "xyz".indexOf(op[1]) : -1;
      for (int e = 4; e < 7; e++) {
        double[] n = before.get(e);
        double[] m = after.get(e);
        double scale = op[0].equals("scale") ? Double.parseDouble(op[1]) * Double.parseDouble(op[1]) : 1;
        for (int k = 0; k < 3; k++) {
          // the normal turns as the space does: a mirror's is the normal mirrored, a negative scale's (a point reflection) the normal reversed
          double want = (axis < 0 ? -1 : k == axis ? -1 : 1) * n[k] * scale;
          assertEquals(want, m[k], 1e-9, String.join(" ", op) + ": shell " + (e + 1) + " normal " + k + ": " + out);
        }
      }
      assertEquals(deck[deck.length - 1], out.get(out.size() - 1), "the beam keeps its order");
    }
  }

  @Test
  void quadraticElementsAreRefusedByAMirror() {
    Src s = src("deck.pc", "INPUTVERSION 2011", node(1, "0.", "0.", "0."),
        String.format("TETR10/ %8d%8d%8d%8d%8d%8d%8d%8d%8d%8d", 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
        String.format("%16s%8d%8d", "", 1, 1));
    Transform.Result r = Transform.plan(List.of(s), new Transform.All(), Transform.parse(List.of("mirror", "x")));
    assertEquals(1, r.refusals().size(), r.refusals().toString());
    assertTrue(r.refusals().get(0).message().contains("cannot reverse the order of a TETR10's nodes"), r.refusals().toString());
    assertEquals(0, Transform.plan(List.of(s), new Transform.All(), Transform.parse(List.of("translate", "1", "1", "1"))).refusals().size());
  }
}
