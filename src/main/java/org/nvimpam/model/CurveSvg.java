package org.nvimpam.model;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;

/**
 * FUNCT curves as an SVG plot: a legend line per curve (its colour, id and title), the plot's
 * frame with the axes at its left and bottom, ticks at round values with their labels, the
 * minimum and maximum of X and Y at the axes' ends, and one polyline per curve, its points as the
 * solver uses them ({@link Curves.Curve#x}, {@link Curves.Curve#y}).
 */
public final class CurveSvg {
  static final int WIDTH = 800;
  static final int LEFT = 90;
  static final int RIGHT = 30;
  static final int PLOT_H = 400;
  static final int LEGEND_LINE = 20;
  static final int BOTTOM = 60;
  /** Okabe–Ito colours, as the benchmark's chart: distinguishable with the common colour-vision deficiencies. */
  static final String[] COLOURS = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
  private static final String FONT = "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"13\"";

  private CurveSvg() {}

  /** The plot's box in data units: {xmin, xmax, ymin, ymax}, a single value widened as the Neovim plot widens it. */
  static double[] extent(List<Curves.Curve> curves) {
    double x0 = Double.POSITIVE_INFINITY, x1 = Double.NEGATIVE_INFINITY;
    double y0 = Double.POSITIVE_INFINITY, y1 = Double.NEGATIVE_INFINITY;
    for (Curves.Curve c : curves) {
      for (int i = 0; i < c.size(); i++) {
        x0 = Math.min(x0, c.x(i));
        x1 = Math.max(x1, c.x(i));
        y0 = Math.min(y0, c.y(i));
        y1 = Math.max(y1, c.y(i));
      }
    }
    if (x0 > x1) return new double[] {0, 1, 0, 1};
    double[] x = widen(x0, x1);
    double[] y = widen(y0, y1);
    return new double[] {x[0], x[1], y[0], y[1]};
  }

  private static double[] widen(double a, double b) {
    if (a != b) return new double[] {a, b};
    double d = a == 0 ? 1 : Math.abs(a) * 0.5;
    return new double[] {a - d, b + d};
  }

  /** The top of the plot's frame, below the legend. */
  static int top(int curves) {
    return 20 + LEGEND_LINE * curves + 10;
  }

  /** The SVG text of {@code curves} (at least one). */
  public static String render(List<Curves.Curve> curves) {
    double[] box = extent(curves);
    int top = top(curves.size());
    int plotW = WIDTH - LEFT - RIGHT;
    int height = top + PLOT_H + BOTTOM;
    StringBuilder s = new StringBuilder(4096);
    s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(height)
        .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height).append("\">\n");
    StringBuilder ids = new StringBuilder();
    for (Curves.Curve c : curves) ids.append(ids.length() == 0 ? "FUNCT " : ", ").append(c.id());
    s.append("<title>").append(xml(ids.toString())).append("</title>\n");
    s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    for (int k = 0; k < curves.size(); k++) {
      Curves.Curve c = curves.get(k);
      int y = 20 + LEGEND_LINE * k + 10;
      String colour = COLOURS[k % COLOURS.length];
      s.append("<line class=\"legend\" x1=\"").append(LEFT).append("\" y1=\"").append(y - 4).append("\" x2=\"")
          .append(LEFT + 30).append("\" y2=\"").append(y - 4).append("\" stroke=\"").append(colour)
          .append("\" stroke-width=\"2\"/>\n");
      String title = "FUNCT " + c.id() + (c.title().isEmpty() ? "" : "  " + c.title())
          + (c.skipped() > 0 ? "  (" + c.skipped() + " points are no numbers)" : "");
      s.append("<text class=\"title\" x=\"").append(LEFT + 38).append("\" y=\"").append(y).append("\" ").append(FONT)
          .append(">").append(xml(title)).append("</text>\n");
    }
    s.append("<rect class=\"plot\" x=\"").append(LEFT).append("\" y=\"").append(top).append("\" width=\"").append(plotW)
        .append("\" height=\"").append(PLOT_H).append("\" fill=\"none\" stroke=\"#cccccc\"/>\n");
    int bottom = top + PLOT_H;
    // ticks and their gridlines
    for (double v : ticks(box[0], box[1])) {
      String px = num(LEFT + (v - box[0]) / (box[1] - box[0]) * plotW);
      s.append("<line class=\"tick x\" x1=\"").append(px).append("\" y1=\"").append(top).append("\" x2=\"").append(px)
          .append("\" y2=\"").append(bottom + 5).append("\" stroke=\"#eeeeee\"/>\n");
      s.append("<text class=\"tick x\" x=\"").append(px).append("\" y=\"").append(bottom + 20)
          .append("\" text-anchor=\"middle\" ").append(FONT).append(" fill=\"#555555\">").append(label(v)).append("</text>\n");
    }
    for (double v : ticks(box[2], box[3])) {
      String py = num(bottom - (v - box[2]) / (box[3] - box[2]) * PLOT_H);
      s.append("<line class=\"tick y\" x1=\"").append(LEFT - 5).append("\" y1=\"").append(py).append("\" x2=\"")
          .append(LEFT + plotW).append("\" y2=\"").append(py).append("\" stroke=\"#eeeeee\"/>\n");
      s.append("<text class=\"tick y\" x=\"").append(LEFT - 8).append("\" y=\"").append(py)
          .append("\" dy=\"4\" text-anchor=\"end\" ").append(FONT).append(" fill=\"#555555\">").append(label(v))
          .append("</text>\n");
    }
    // the axes
    s.append("<line class=\"axis x\" x1=\"").append(LEFT).append("\" y1=\"").append(bottom).append("\" x2=\"")
        .append(LEFT + plotW).append("\" y2=\"").append(bottom).append("\" stroke=\"black\"/>\n");
    s.append("<line class=\"axis y\" x1=\"").append(LEFT).append("\" y1=\"").append(top).append("\" x2=\"").append(LEFT)
        .append("\" y2=\"").append(bottom).append("\" stroke=\"black\"/>\n");
    // minimum and maximum, at the axes' ends
    s.append("<text class=\"min x\" x=\"").append(LEFT).append("\" y=\"").append(bottom + 40).append("\" ").append(FONT)
        .append(">min ").append(label(box[0])).append("</text>\n");
    s.append("<text class=\"max x\" x=\"").append(LEFT + plotW).append("\" y=\"").append(bottom + 40)
        .append("\" text-anchor=\"end\" ").append(FONT).append(">max ").append(label(box[1])).append("</text>\n");
    s.append("<text class=\"max y\" x=\"").append(LEFT - 8).append("\" y=\"").append(top - 6)
        .append("\" text-anchor=\"end\" ").append(FONT).append(">max ").append(label(box[3])).append("</text>\n");
    s.append("<text class=\"min y\" x=\"").append(LEFT - 8).append("\" y=\"").append(bottom + 40)
        .append("\" text-anchor=\"end\" ").append(FONT).append(">min ").append(label(box[2])).append("</text>\n");
    for (int k = 0; k < curves.size(); k++) {
      Curves.Curve c = curves.get(k);
      s.append("<polyline class=\"curve\" data-id=\"").append(c.id()).append("\" fill=\"none\" stroke=\"")
          .append(COLOURS[k % COLOURS.length]).append("\" stroke-width=\"2\" points=\"");
      for (int i = 0; i < c.size(); i++) {
        if (i > 0) s.append(' ');
        s.append(num(LEFT + (c.x(i) - box[0]) / (box[1] - box[0]) * plotW)).append(',')
            .append(num(bottom - (c.y(i) - box[2]) / (box[3] - box[2]) * PLOT_H));
      }
      s.append("\"/>\n");
    }
    s.append("</svg>\n");
    return s.toString();
  }

  /** Round values in [lo, hi]: multiples of 1, 2 or 5 times a power of ten, about five of them. */
  static double[] ticks(double lo, double hi) {
    double raw = (hi - lo) / 5;
    double p = Math.pow(10, Math.floor(Math.log10(raw)));
    double step = raw / p < 1.5 ? p : raw / p < 3.5 ? 2 * p : raw / p < 7.5 ? 5 * p : 10 * p;
    long first = (long) Math.ceil(lo / step - 1e-9);
    long last = (long) Math.floor(hi / step + 1e-9);
    int n = (int) Math.max(0, Math.min(50, last - first + 1));
    double[] t = new double[n];
    for (int i = 0; i < n; i++) t[i] = (first + i) * step;
    return t;
  }

  /** A label: at most 6 significant digits, plain where that is short. */
  static String label(double v) {
    if (v == 0) return "0";
    BigDecimal b = new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros();
    double a = Math.abs(v);
    return a >= 1e-4 && a < 1e7 ? b.toPlainString() : b.toString();
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  private static String xml(String t) {
    StringBuilder b = new StringBuilder(t.length());
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        default -> b.append(c < 0x20 ? ' ' : c);
      }
    }
    return b.toString();
  }
}
