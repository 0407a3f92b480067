package org.nvimpam.testutil;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random FUNCT cards for the plot's tests, with the values they hold known exactly: each number is
 * an integer mantissa times a power of ten, written in one of the float forms the solver reads
 * ({@code 12.3}, {@code 123E-1}, {@code 123.D-1}, {@code 123.-1}), or blank.
 */
public final class FunctDecks {
  private FunctDecks() {}

  /** One FUNCT: its values as the solver reads them, and its lines. */
  public record Funct(int id, String title, double scalx, double scaly, double shiftx, double shifty, double[] xs,
      double[] ys, List<String> lines) {
    /** Point i's x as the solver uses it: scaled first, then shifted; a scale of 0 (or blank) is 1. */
    public double x(int i) {
      return xs[i] * (scalx == 0 ? 1 : scalx) + shiftx;
    }

    public double y(int i) {
      return ys[i] * (scaly == 0 ? 1 : scaly) + shifty;
    }
  }

  /** A value and its text. */
  private record Num(double value, String text) {}

  private static Num num(Random r, int digits, int maxExp, int width) {
    while (true) {
      long m = r.nextInt((int) Math.pow(10, digits)) * (r.nextBoolean() ? 1 : -1);
      int e = r.nextInt(2 * maxExp + 1) - maxExp;
      BigDecimal v = BigDecimal.valueOf(m).scaleByPowerOfTen(e);
      String t = switch (r.nextInt(4)) {
        case 0 -> v.toPlainString().contains(".") || r.nextBoolean() ? v.toPlainString() : v.toPlainString() + ".";
        case 1 -> m + "E" + e;
        case 2 -> m + ".D" + e;
        default -> m + "." + (e < 0 ? "-" : "+") + Math.abs(e);
      };
      if (t.length() <= width) return new Num(v.doubleValue(), t);
    }
  }

  private static String right(String t, int width) {
    return " ".repeat(width - t.length()) + t;
  }

  /** A FUNCT with id {@code id}, 1 to {@code maxPoints} points, random factors. */
  public static Funct random(Random r, int id, int maxPoints) {
    Num[] f = new Num[4];
    for (int k = 0; k < 4; k++) {
      int pick = r.nextInt(6);
      f[k] = pick == 0 ? new Num(0, "") : pick == 1 && k < 2 ? new Num(0, "0.") : num(r, 3, 2, 8);
    }
    List<String> lines = new ArrayList<>();
    lines.add(String.format("FUNCT / %8d%8d%8s%8s%8s%8s", id, 0, f[0].text, f[1].text, f[2].text, f[3].text));
    String title = "curve " + id;
    lines.add("NAME " + title);
    int n = 1 + r.nextInt(maxPoints);
    double[] xs = new double[n];
    double[] ys = new double[n];
    for (int i = 0; i < n; i++) {
      Num x = num(r, 6, 3, 16);
      Num y = num(r, 6, 3, 16);
      xs[i] = x.value;
      ys[i] = y.value;
      if (r.nextInt(8) == 0) lines.add("$ a comment among the points");
      lines.add("        " + "        " + right(x.text, 16) + right(y.text, 16));
    }
    lines.add("        END");
    return new Funct(id, title, f[0].value, f[1].value, f[2].value, f[3].value, xs, ys, lines);
  }
}
