package org.nvimpam.bench;

import java.io.IOException;

/**
 * Writes a report as {@code {"nvim": "…", "java": "…", "results": [{"deck": "…", "lines": L, …},
 * …]}}, one result object per line. Times have at most 3 decimals; a time that was not measured is
 * {@code null}.
 */
public final class ReportJson {
  private ReportJson() {}

  static void write(BenchReport report, Appendable out) throws IOException {
    out.append("{\"nvim\": ");
    string(report.nvimVersion(), out);
    out.append(", \"java\": ");
    string(report.javaVersion(), out);
    out.append(", \"results\": [");
    String separator = "\n  ";
    for (BenchResult r : report.results()) {
      out.append(separator);
      separator = ",\n  ";
      out.append("{\"deck\": ");
      string(r.deck(), out);
      out.append(", \"lines\": ").append(Long.toString(r.lines()));
      out.append(", \"bytes\": ").append(Long.toString(r.bytes()));
      out.append(", \"folds\": ").append(Long.toString(r.folds()));
      out.append(", \"get_lines_ms\": ").append(number(r.getLinesMs()));
      out.append(", \"parse_ms\": ").append(number(r.parseMs()));
      out.append(", \"strategy\": ");
      string(r.strategy(), out);
      out.append(", \"median_ms\": ").append(number(r.medianMs()));
      out.append(", \"min_ms\": ").append(number(r.minMs()));
      out.append(", \"max_ms\": ").append(number(r.maxMs()));
      out.append(", \"bytes_sent\": ").append(Long.toString(r.bytesSent()));
      out.append(", \"floor_ms\": ").append(number(r.floorMs()));
      out.append('}');
    }
    out.append(report.results().isEmpty() ? "]}\n" : "\n]}\n");
  }

  private static String number(double ms) {
    String s = Decimals.format(ms, 3);
    return s == null ? "null" : s;
  }

  /** A JSON string literal: quotes, backslashes and control characters escaped. */
  /** {@code s} as a JSON string, quotes included. */
  public static String quoted(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2);
    try {
      string(s, b);
    } catch (IOException e) {
      throw new AssertionError(e); // a StringBuilder does not throw
    }
    return b.toString();
  }

  public static void string(String s, Appendable out) throws IOException {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
        }
      }
    }
    out.append('"');
  }
}
