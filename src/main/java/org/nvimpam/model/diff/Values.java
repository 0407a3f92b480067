package org.nvimpam.model.diff;

import java.nio.charset.StandardCharsets;

/**
 * Values as the solver reads them, from bytes: an integer field as a number ({@code 007} is 7), a
 * float as a double ({@code 1.}, {@code 1.0}, {@code 1.0E0}, {@code 1.0D0} and Fortran's
 * {@code 10.-1} are one value), text trimmed. A value is a tag and 64 bits: the number, the
 * double's bits, or for text a hash of its bytes (the text itself is compared where a card is
 * reported). No allocation, except for a float of more digits than a long holds.
 */
final class Values {
  static final int BLANK = 0; // an int_or_blank field left blank: no number
  static final int INT = 1;
  static final int REAL = 2;
  static final int TEXT = 3;

  private Values() {}

  private static final double[] POW10 = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22};

  /** Bytes {@code [s, e)} with the spaces around them left out: {@code {s, e}} packed as {@code s << 32 | e}. */
  static long trim(byte[] a, int s, int e) {
    while (s < e && a[s] == ' ') s++;
    while (e > s && a[e - 1] == ' ') e--;
    return ((long) s << 32) | e;
  }

  /** The integer in {@code [s, e)} (an optional sign, then digits, at most 18), or {@link Long#MIN_VALUE}. */
  static long integer(byte[] a, int s, int e) {
    boolean neg = false;
    if (s < e && (a[s] == '+' || a[s] == '-')) neg = a[s++] == '-';
    if (s >= e || e - s > 18) return Long.MIN_VALUE;
    long v = 0;
    for (int i = s; i < e; i++) {
      int d = a[i] - '0';
      if (d < 0 || d > 9) return Long.MIN_VALUE;
      v = v * 10 + d;
    }
    return neg ? -v : v;
  }

  /**
   * The float in {@code [s, e)} as the solver reads it ({@code [+-]? d* .? d* ([eEdD] [+-]? d+)?}, or
   * an exponent's sign with no letter after a digit), or NaN when it is no number (a parameter
   * {@code <NAME>}, a lone point). Exact: the fast path is taken only where a double product is
   * correctly rounded, else Java's parser reads it.
   */
  static double real(byte[] a, int s, int e) {
    int i = s;
    boolean neg = false;
    if (i < e && (a[i] == '+' || a[i] == '-')) neg = a[i++] == '-';
    long m = 0;
    int digits = 0; // significant digits in m
    int seen = 0; // digits read
    int scale = 0; // m * 10^scale
    boolean exact = true;
    while (i < e && a[i] >= '0' && a[i] <= '9') {
      seen++;
      if (digits < 18) {
        if (m != 0 || a[i] != '0') digits++;
        m = m * 10 + (a[i] - '0');
      } else {
        scale++;
        exact &= a[i] == '0';
      }
      i++;
    }
    if (i < e && a[i] == '.') {
      i++;
      while (i < e && a[i] >= '0' && a[i] <= '9') {
        seen++;
        if (digits < 18) {
          if (m != 0 || a[i] != '0') digits++;
          m = m * 10 + (a[i] - '0');
          scale--;
        } else {
          exact &= a[i] == '0';
        }
        i++;
      }
    }
    if (seen == 0) return Double.NaN;
    if (i < e) {
      byte b = a[i];
      boolean letter = b == 'e' || b == 'E' || b == 'd' || b == 'D';
      if (letter) i++;
      else if (b != '+' && b != '-') return Double.NaN;
      boolean eneg = false;
      if (i < e && (a[i] == '+' || a[i] == '-')) eneg = a[i++] == '-';
      if (i == e) return Double.NaN;
      int x = 0;
      for (; i < e; i++) {
        int d = a[i] - '0';
        if (d < 0 || d > 9) return Double.NaN;
        x = Math.min(100000, x * 10 + d);
      }
      scale += eneg ? -x : x;
    }
    double v;
    if (m == 0) {
      v = 0.0;
    } else if (exact && m < (1L << 53) && scale >= -22 && scale <= 22) {
      v = scale >= 0 ? m * POW10[scale] : m / POW10[-scale];
    } else {
      v = Double.parseDouble(javaForm(a, s, e));
      return v == 0.0 ? 0.0 : v; // -0. is 0.
    }
    return neg ? -v : v;
  }

  /** A float form as Java's parser reads it: D as E, and an E before a sign with no letter. */
  private static String javaForm(byte[] a, int s, int e) {
    StringBuilder b = new StringBuilder(e - s + 1);
    boolean digit = false;
    boolean exp = false;
    for (int i = s; i < e; i++) {
      char c = (char) a[i];
      if (c == 'd' || c == 'D' || c == 'e' || c == 'E') {
        c = 'E';
        exp = true;
      } else if ((c == '+' || c == '-') && digit && !exp) {
        b.append('E');
        exp = true;
      }
      digit |= c >= '0' && c <= '9';
      b.append(c);
    }
    return b.toString();
  }

  /** A 64-bit hash of bytes {@code [s, e)}. */
  static long text(byte[] a, int s, int e) {
    long h = 0xCBF29CE484222325L;
    for (int i = s; i < e; i++) h = (h ^ (a[i] & 0xFF)) * 0x100000001B3L;
    return h ^ (e - s);
  }

  /** Mixes value {@code v} of tag {@code tag} into {@code h}. */
  static long mix(long h, int tag, long v) {
    h ^= tag;
    h *= 0x9E3779B97F4A7C15L;
    h ^= v;
    h *= 0xBF58476D1CE4E5B9L;
    return h ^ (h >>> 31);
  }

  /** The bits a double is compared by: -0. is 0. */
  static long bits(double d) {
    return Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
  }

  static String string(byte[] a, int s, int e) {
    return new String(a, s, e - s, StandardCharsets.UTF_8);
  }
}
