package org.nvimpam.bench;

import java.io.IOException;

/**
 * Writes a report as CSV (RFC 4180): a header row with the JSON field names, then one row per
 * result. Times have at most 3 decimals; a time that was not measured is an empty cell.
 */
final class ReportCsv {
  static final String HEADER = "deck,lines,bytes,folds,get_lines_ms,parse_ms,strategy,"
      + "median_ms,min_ms,max_ms,bytes_sent,floor_ms";

  private ReportCsv() {}

  static void write(BenchReport report, Appendable out) throws IOException {
    out.append(HEADER).append('\n');
    for (BenchResult r : report.results()) {
      out.append(cell(r.deck())).append(',')
          .append(Long.toString(r.lines())).append(',')
          .append(Long.toString(r.bytes())).append(',')
          .append(Long.toString(r.folds())).append(',')
          .append(number(r.getLinesMs())).append(',')
          .append(number(r.parseMs())).append(',')
          .append(cell(r.strategy())).append(',')
          .append(number(r.medianMs())).append(',')
          .append(number(r.minMs())).append(',')
          .append(number(r.maxMs())).append(',')
          .append(Long.toString(r.bytesSent())).append(',')
          .append(number(r.floorMs())).append('\n');
    }
  }

  private static String number(double ms) {
    String s = Decimals.format(ms, 3);
    return s == null ? "" : s;
  }

  /** Quotes a text cell that holds a comma, a quote or a line break. */
  private static String cell(String s) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return s;
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }
}
