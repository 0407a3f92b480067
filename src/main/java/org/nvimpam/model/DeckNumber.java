package org.nvimpam.model;

import java.nio.charset.StandardCharsets;

/**
 * A real number of a fixed-column field as the solver reads it ({@code 7.85E-9}, {@code 7.85D-9},
 * {@code 7.85-9}, {@code .5}, {@code 2}), from bytes in place. The forms are those
 * {@code FieldForms.isFloat} accepts.
 */
final class DeckNumber {
  private DeckNumber() {}

  private static final double[] POW10 = new double[23];

  static {
    POW10[0] = 1;
    for (int i = 1; i < POW10.length; i++) POW10[i] = POW10[i - 1] * 10;
  }

  /**
   * The number in bytes {@code [off + from, off + to)} of a line of {@code len} bytes: {@code blank}
   * when the field is blank or past the line's end, NaN when it is no number.
   */
  static double read(byte[] a, int off, int len, int from, int to, double blank) {
    int s = off + Math.min(from, len);
    int e = off + Math.min(to, len);
    while (s < e && a[s] == ' ') s++;
    while (e > s && a[e - 1] == ' ') e--;
    if (s == e) return blank;
    int i = s;
    boolean neg = false;
    if (a[i] == '+' || a[i] == '-') neg = a[i++] == '-';
    long m = 0;
    int digits = 0;
    int scale = 0;
    boolean any = false;
    boolean exact = true;
    while (i < e && a[i] >= '0' && a[i] <= '9') {
      any = true;
      if (digits < 18) {
        m = m * 10 + (a[i] - '0');
        if (m != 0) digits++;
      } else {
        exact = false;
      }
      i++;
    }
    if (i < e && a[i] == '.') {
      i++;
      while (i < e && a[i] >= '0' && a[i] <= '9') {
        any = true;
        if (digits < 18) {
          m = m * 10 + (a[i] - '0');
          if (m != 0) digits++;
          scale--;
        } else {
          exact = false;
        }
        i++;
      }
    }
    if (!any) return Double.NaN;
    int exp = 0;
    if (i < e) {
      byte b = a[i];
      boolean letter = b == 'e' || b == 'E' || b == 'd' || b == 'D';
      if (!letter && b != '+' && b != '-') return Double.NaN;
      if (letter) i++;
      boolean eneg = false;
      if (i < e && (a[i] == '+' || a[i] == '-')) eneg = a[i++] == '-';
      int n = 0;
      while (i < e && a[i] >= '0' && a[i] <= '9') {
        exp = Math.min(9999, exp * 10 + (a[i] - '0'));
        i++;
        n++;
      }
      if (i != e || (!letter && n == 0)) return Double.NaN;
      if (eneg) exp = -exp;
    }
    int k = exp + scale;
    double v;
    if (exact && m < (1L << 53) && k >= -22 && k <= 22) {
      v = k >= 0 ? m * POW10[k] : m / POW10[-k]; // one correctly rounded operation on exact operands
    } else {
      v = slow(a, s, e);
      return v;
    }
    return neg ? -v : v;
  }

  /** The rare number with many digits or a large exponent, through the JDK's parser. */
  private static double slow(byte[] a, int s, int e) {
    String t = new String(a, s, e - s, StandardCharsets.ISO_8859_1).replace('d', 'e').replace('D', 'e');
    int x = Math.max(t.indexOf('e'), t.indexOf('E'));
    if (x < 0) {
      for (int i = 1; i < t.length(); i++) {
        char c = t.charAt(i);
        if ((c == '+' || c == '-') && t.charAt(i - 1) != 'e') {
          t = t.substring(0, i) + "e" + t.substring(i);
          break;
        }
      }
    }
    try {
      return Double.parseDouble(t);
    } catch (NumberFormatException ex) {
      return Double.NaN;
    }
  }
}
