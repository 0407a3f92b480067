package org.nvimpam.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a report as an aligned text table for people: where it was measured, then one row per
 * result, text left-aligned and numbers right-aligned, with the ratio of each strategy's median to
 * the floor. A time that was not measured shows as {@code -}.
 */
final class ReportTable {
  private static final String[] HEADER = {
    "deck", "lines", "bytes", "folds", "get lines ms", "parse ms", "strategy",
    "median ms", "min ms", "max ms", "bytes sent", "floor ms", "x floor"
  };
  /** Columns holding text, which are left-aligned. */
  private static final boolean[] TEXT = {
    true, false, false, false, false, false, true, false, false, false, false, false, false
  };
  private static final String GAP = "  ";

  private ReportTable() {}

  static void write(BenchReport report, Appendable out) throws IOException {
    out.append("Neovim ").append(report.nvimVersion())
        .append(", Java ").append(report.javaVersion())
        .append(", ").append(report.machine()).append('\n');
    List<String[]> rows = new ArrayList<>();
    rows.add(HEADER);
    for (BenchResult r : report.results()) rows.add(row(r));
    int[] widths = new int[HEADER.length];
    for (String[] row : rows) {
      for (int c = 0; c < row.length; c++) widths[c] = Math.max(widths[c], row[c].length());
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.length; c++) {
        if (c > 0) line.append(GAP);
        String padding = " ".repeat(widths[c] - row[c].length());
        line.append(TEXT[c] ? row[c] + padding : padding + row[c]);
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }

  private static String[] row(BenchResult r) {
    return new String[] {
      r.deck(),
      Long.toString(r.lines()),
      Long.toString(r.bytes()),
      Long.toString(r.folds()),
      number(r.getLinesMs(), 3),
      number(r.parseMs(), 3),
      r.strategy(),
      number(r.medianMs(), 3),
      number(r.minMs(), 3),
      number(r.maxMs(), 3),
      Long.toString(r.bytesSent()),
      number(r.floorMs(), 3),
      number(r.ratioToFloor(), 2)
    };
  }

  /** Fixed decimals, so that the points of a right-aligned column line up. */
  private static String number(double value, int decimals) {
    return Double.isFinite(value) ? String.format(Locale.ROOT, "%." + decimals + "f", value) : "-";
  }
}
