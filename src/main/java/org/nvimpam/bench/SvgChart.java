package org.nvimpam.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Draws benchmark results as an SVG line chart: the median time each strategy takes to apply the
 * folds against the deck's fold count, one coloured line with markers per strategy, and the floor
 * (Neovim running the same folds' prebuilt commands, the fastest way found) as a dashed line. Both
 * axes are logarithmic with a labelled gridline at every power of ten.
 */
public final class SvgChart {
  private static final int WIDTH = 900;
  private static final int HEIGHT = 520;
  private static final int LEFT = 80;
  private static final int RIGHT = 260;
  private static final int TOP = 70;
  private static final int BOTTOM = 60;
  private static final int PLOT_W = WIDTH - LEFT - RIGHT;
  private static final int PLOT_H = HEIGHT - TOP - BOTTOM;
  /** Okabe–Ito colours: distinguishable with the common colour-vision deficiencies. */
  private static final String[] COLOURS = {
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"
  };
  private static final String FLOOR_COLOUR = "#555555";
  private static final String FLOOR_LABEL = "floor: Lua loop in Neovim";
  private static final String FONT = "font-family=\"Helvetica, Arial, sans-serif\"";

  private SvgChart() {}

  /** One plotted point. */
  private record Point(double folds, double ms) {}

  /**
   * The chart as SVG text. Results whose fold count or time is not positive cannot be placed on a
   * log scale and are left out.
   *
   * @throws IllegalArgumentException when no result can be plotted
   */
  public static String render(List<BenchResult> results) {
    Map<String, List<Point>> series = new LinkedHashMap<>();
    Map<String, Point> floorByDeck = new LinkedHashMap<>();
    for (BenchResult r : results) {
      if (plottable(r.folds(), r.medianMs())) {
        series.computeIfAbsent(r.strategy(), k -> new ArrayList<>()).add(new Point(r.folds(), r.medianMs()));
      }
      if (plottable(r.folds(), r.floorMs())) {
        floorByDeck.putIfAbsent(r.deck(), new Point(r.folds(), r.floorMs()));
      }
    }
    List<Point> floor = new ArrayList<>(floorByDeck.values());
    List<Point> all = new ArrayList<>(floor);
    series.values().forEach(all::addAll);
    if (all.isEmpty()) {
      throw new IllegalArgumentException("no result with a positive fold count and time to plot");
    }
    Comparator<Point> byFolds = Comparator.comparingDouble(Point::folds);
    series.values().forEach(points -> points.sort(byFolds));
    floor.sort(byFolds);

    Axis x = Axis.covering(all.stream().mapToDouble(Point::folds).toArray(), LEFT, LEFT + PLOT_W);
    Axis y = Axis.covering(all.stream().mapToDouble(Point::ms).toArray(), TOP + PLOT_H, TOP);
    StringBuilder svg = new StringBuilder(8192);
    svg.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" %s>%n",
        WIDTH, HEIGHT, WIDTH, HEIGHT, FONT));
    svg.append(String.format(Locale.ROOT,
        "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
    titles(svg);
    grid(svg, x, y);
    int i = 0;
    for (Map.Entry<String, List<Point>> s : series.entrySet()) {
      String colour = COLOURS[i % COLOURS.length];
      svg.append("<g class=\"series\" data-strategy=\"").append(xml(s.getKey())).append("\">\n");
      line(svg, s.getValue(), x, y, colour, "2.5", null);
      for (Point p : s.getValue()) {
        String tooltip = String.format(Locale.ROOT, "%s: %s folds, %s ms", s.getKey(),
            Decimals.format(p.folds(), 0), Decimals.format(p.ms(), 3));
        marker(svg, i, x.position(p.folds()), y.position(p.ms()), colour, tooltip);
      }
      svg.append("</g>\n");
      legendEntry(svg, i, s.getKey(), colour, false);
      i++;
    }
    if (!floor.isEmpty()) {
      svg.append("<g class=\"floor\">\n");
      line(svg, floor, x, y, FLOOR_COLOUR, "2", "7 5");
      svg.append("</g>\n");
      legendEntry(svg, i, FLOOR_LABEL, FLOOR_COLOUR, true);
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static boolean plottable(double folds, double ms) {
    return folds > 0 && ms > 0 && Double.isFinite(ms);
  }

  private static void titles(StringBuilder svg) {
    svg.append(String.format(Locale.ROOT,
        "<text x=\"%d\" y=\"30\" font-size=\"19\" font-weight=\"bold\">"
            + "Time to apply folds in Neovim, by strategy</text>%n", LEFT));
    svg.append(String.format(Locale.ROOT,
        "<text x=\"%d\" y=\"50\" font-size=\"13\" fill=\"#444\">"
            + "median over the measured runs; both axes logarithmic; lower is better</text>%n",
        LEFT));
    svg.append(String.format(Locale.ROOT,
        "<text x=\"%d\" y=\"%d\" font-size=\"14\" text-anchor=\"middle\">folds</text>%n",
        LEFT + PLOT_W / 2, HEIGHT - 15));
    svg.append(String.format(Locale.ROOT,
        "<text x=\"22\" y=\"%d\" font-size=\"14\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 22 %d)\">ms to apply</text>%n",
        TOP + PLOT_H / 2, TOP + PLOT_H / 2));
  }

  /** The plot frame, decade gridlines with labels, and unlabelled ticks at 2…9 of each decade. */
  private static void grid(StringBuilder svg, Axis x, Axis y) {
    svg.append("<g class=\"grid\" stroke=\"#e4e4e4\" stroke-width=\"1\">\n");
    for (int d = x.minDecade; d < x.maxDecade; d++) {
      for (int m = 2; m <= 9; m++) {
        double px = x.position(m * Math.pow(10, d));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#f3f3f3\"/>%n",
            px, TOP, px, TOP + PLOT_H));
      }
    }
    for (int d = y.minDecade; d < y.maxDecade; d++) {
      for (int m = 2; m <= 9; m++) {
        double py = y.position(m * Math.pow(10, d));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#f3f3f3\"/>%n",
            LEFT, py, LEFT + PLOT_W, py));
      }
    }
    for (int d = x.minDecade; d <= x.maxDecade; d++) {
      double px = x.position(Math.pow(10, d));
      svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#cccccc\"/>%n",
          px, TOP, px, TOP + PLOT_H));
    }
    for (int d = y.minDecade; d <= y.maxDecade; d++) {
      double py = y.position(Math.pow(10, d));
      svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#cccccc\"/>%n",
          LEFT, py, LEFT + PLOT_W, py));
    }
    svg.append("</g>\n");
    svg.append(String.format(Locale.ROOT,
        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>%n",
        LEFT, TOP, PLOT_W, PLOT_H));
    svg.append("<g class=\"ticks\" font-size=\"12\" fill=\"#333\">\n");
    for (int d = x.minDecade; d <= x.maxDecade; d++) {
      svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
          x.position(Math.pow(10, d)), TOP + PLOT_H + 18, decadeLabel(d)));
    }
    for (int d = y.minDecade; d <= y.maxDecade; d++) {
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
          LEFT - 8, y.position(Math.pow(10, d)) + 4, decadeLabel(d)));
    }
    svg.append("</g>\n");
  }

  /** 10^d as people write it: 0.01, 1, 100, 10k, 1M. */
  static String decadeLabel(int d) {
    if (d < 0) return "0." + "0".repeat(-d - 1) + "1";
    if (d < 3) return "1" + "0".repeat(d);
    if (d < 6) return "1" + "0".repeat(d - 3) + "k";
    if (d < 9) return "1" + "0".repeat(d - 6) + "M";
    return "1e" + d;
  }

  private static void line(StringBuilder svg, List<Point> points, Axis x, Axis y, String colour,
      String width, String dashes) {
    svg.append("<polyline fill=\"none\" stroke=\"").append(colour)
        .append("\" stroke-width=\"").append(width).append('"');
    if (dashes != null) svg.append(" stroke-dasharray=\"").append(dashes).append('"');
    svg.append(" points=\"");
    for (Point p : points) {
      svg.append(String.format(Locale.ROOT, "%.1f,%.1f ", x.position(p.folds()), y.position(p.ms())));
    }
    svg.setLength(svg.length() - 1);
    svg.append("\"/>\n");
  }

  /** Markers differ in shape as well as colour, so that series stay apart in grey print. */
  private static void marker(StringBuilder svg, int series, double px, double py, String colour,
      String tooltip) {
    String shape = switch (series % 4) {
      case 0 -> String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\"", px, py);
      case 1 -> String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\"", px - 4, py - 4);
      case 2 -> String.format(Locale.ROOT, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"",
          px, py - 5.5, px + 5, py + 4, px - 5, py + 4);
      default -> String.format(Locale.ROOT, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"",
          px, py - 5.5, px + 5.5, py, px, py + 5.5, px - 5.5, py);
    };
    svg.append(shape).append(" fill=\"").append(colour).append('"');
    if (tooltip == null) {
      svg.append("/>\n");
    } else {
      svg.append("><title>").append(xml(tooltip)).append("</title></")
          .append(shape, 1, shape.indexOf(' ')).append(">\n");
    }
  }

  private static void legendEntry(StringBuilder svg, int index, String label, String colour,
      boolean dashed) {
    int lx = LEFT + PLOT_W + 20;
    int ly = TOP + 10 + index * 24;
    svg.append(String.format(Locale.ROOT,
        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2.5\"%s/>%n",
        lx, ly, lx + 28, ly, colour, dashed ? " stroke-dasharray=\"7 5\"" : ""));
    if (!dashed) marker(svg, index, lx + 14, ly, colour, null);
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"13\">%s</text>%n",
        lx + 36, ly + 4, xml(label)));
  }

  private static String xml(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&apos;");
        default -> b.append(c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? ' ' : c);
      }
    }
    return b.toString();
  }

  /** A logarithmic axis from one power of ten to another, mapped onto pixels. */
  private static final class Axis {
    final int minDecade;
    final int maxDecade;
    private final double from;
    private final double to;

    private Axis(int minDecade, int maxDecade, double from, double to) {
      this.minDecade = minDecade;
      this.maxDecade = maxDecade;
      this.from = from;
      this.to = to;
    }

    /** The decades around all {@code values} (at least one decade), from pixel {@code from} to {@code to}. */
    static Axis covering(double[] values, double from, double to) {
      double min = Double.POSITIVE_INFINITY;
      double max = 0;
      for (double v : values) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
      int lo = (int) Math.floor(Math.log10(min));
      int hi = (int) Math.ceil(Math.log10(max));
      if (hi <= lo) hi = lo + 1;
      return new Axis(lo, hi, from, to);
    }

    double position(double value) {
      double t = (Math.log10(value) - minDecade) / (maxDecade - minDecade);
      return from + t * (to - from);
    }
  }
}
