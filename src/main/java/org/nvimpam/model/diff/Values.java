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
