package org.nvimpam.model;

import java.nio.charset.StandardCharsets;
import org.nvimpam.ids.IntList;

/** The numbers of a line the card-layout table does not describe that may be ids. */
final class LineIntegers {
  private LineIntegers() {}

  /**
   * Adds to {@code values} the integers of bytes {@code [off, off + len)} of {@code a} (no part of a
   * real number; blanks, commas and letters around them) that may be ids, in line order, up to a
   * run of more digits than an id has; that run (which may be ids side by side), or null.
   */
  static String read(byte[] a, int off, int len, IntList values) {
    int i = 0;
    while (i < len) {
      byte b = a[off + i];
      if (b < '0' || b > '9') {
        i++;
        continue;
      }
      int s = i;
      while (i < len && a[off + i] >= '0' && a[off + i] <= '9') i++;
      boolean real = (s > 0 && a[off + s - 1] == '.') || (i < len && (a[off + i] == '.' || a[off + i] == 'E' || a[off + i] == 'e'
          || a[off + i] == 'D' || a[off + i] == 'd') && !(s > 0 && Character.isLetter(a[off + s - 1])));
      if (real) {
        while (i < len && a[off + i] != ' ' && a[off + i] != ',') i++; // the rest of the number
        continue;
      }
      if (i - s > 10) return new String(a, off + s, i - s, StandardCharsets.US_ASCII);
      long v = 0;
      for (int k = s; k < i; k++) v = 10 * v + (a[off + k] - '0');
      if (v > 0 && v <= Integer.MAX_VALUE) values.add((int) v);
    }
    return null;
  }
}
