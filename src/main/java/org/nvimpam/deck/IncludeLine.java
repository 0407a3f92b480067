package org.nvimpam.deck;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.nvimpam.lines.LineSource;

/**
 * One {@code INCLU / } line of a deck: its 0-based line and the file name of columns 9–80 (quotes
 * removed), continued on the next line where column 81 holds {@code &} or {@code -}, and the
 * columns of the name on its first line. The names are as written; resolving them is the caller's.
 */
public record IncludeLine(int line, int from, int to, String name) {
  private static final byte[] INCLU = LineBytes.ascii("INCLU /");

  /** Whether line {@code i} of {@code src} goes on on the next line (column 81 holds & or -). */
  public static boolean continued(LineSource src, int i) {
    return continued(src.bytes(i), src.start(i), src.contentLength(i));
  }

  private static boolean continued(byte[] a, int off, int len) {
    return LineBytes.isContinuationMark(LineBytes.column81(a, off, len));
  }

  /** The INCLU lines of {@code src}, in order. */
  public static List<IncludeLine> of(LineSource src) {
    List<IncludeLine> out = new ArrayList<>();
    read(src, 0, src.lineCount(), out);
    return out;
  }

  /**
   * Adds the INCLU lines that begin in lines {@code [from, to)} of {@code src} to {@code out}, in
   * order; returns where the next read begins: {@code to}, or after the continuation lines of the
   * last one.
   */
  public static int read(LineSource src, int from, int to, List<IncludeLine> out) {
    int n = src.lineCount();
    int i = from;
    for (; i < to; i++) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int len = src.contentLength(i);
      if (len < 8 || a[off] != 'I' || !LineBytes.startsWith(a, off, len, INCLU)) continue;
      int first = i;
      int s = 8;
      int e = Math.min(80, len);
      while (s < e && a[off + s] == ' ') s++;
      while (e > s && a[off + e - 1] == ' ') e--;
      StringBuilder name = new StringBuilder(new String(a, off + s, e - s, StandardCharsets.UTF_8));
      while (continued(a, off, len) && i + 1 < n) {
        i++;
        a = src.bytes(i);
        off = src.start(i);
        len = src.contentLength(i);
        name.append(new String(a, off, Math.min(80, len), StandardCharsets.UTF_8).trim());
      }
      String t = name.toString().trim();
      if (t.length() >= 2 && (t.charAt(0) == '"' || t.charAt(0) == '\'') && t.charAt(t.length() - 1) == t.charAt(0)) {
        t = t.substring(1, t.length() - 1);
      }
      if (!t.isEmpty()) out.add(new IncludeLine(first, s, Math.max(e, s + 1), t));
    }
    return i;
  }
}
