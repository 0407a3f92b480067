package org.nvimpam.deck;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The files a deck includes: its {@code INCLU / } lines, whose columns 9–80 hold a file name
 * (quotes around it removed), continued on the next line where column 81 holds {@code &} or
 * {@code -}. The names are as written; resolving them is the caller's.
 */
public final class Includes {
  private static final byte[] INCLU = LineBytes.ascii("INCLU /");

  private Includes() {}

  public static List<String> of(LineSource src) {
    List<String> out = new ArrayList<>();
    int n = src.lineCount();
    for (int i = 0; i < n; i++) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int len = src.contentLength(i);
      if (len < 8 || a[off] != 'I' || !LineBytes.startsWith(a, off, len, INCLU)) continue;
      StringBuilder name = new StringBuilder(text(a, off, len, 8));
      while (len > 80 && (a[off + 80] == '&' || a[off + 80] == '-') && i + 1 < n) {
        i++;
        a = src.bytes(i);
        off = src.start(i);
        len = src.contentLength(i);
        name.append(text(a, off, len, 0));
      }
      String s = name.toString().trim();
      if (s.length() >= 2 && (s.charAt(0) == '"' || s.charAt(0) == '\'') && s.charAt(s.length() - 1) == s.charAt(0)) {
        s = s.substring(1, s.length() - 1);
      }
      if (!s.isEmpty()) out.add(s);
    }
    return out;
  }

  private static String text(byte[] a, int off, int len, int from) {
    int to = Math.min(80, len);
    if (from >= to) return "";
    return new String(a, off + from, to - from, StandardCharsets.UTF_8).trim();
  }
}
