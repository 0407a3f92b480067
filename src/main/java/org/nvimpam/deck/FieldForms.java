package org.nvimpam.deck;

/**
 * The value tests of docs/CARDS.md ("What is an error") on bytes {@code a[s, e)}: the value with
 * the spaces around it already removed, never empty. No regex, no allocation.
 */
final class FieldForms {
  private FieldForms() {}

  static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }

  /** {@code <…>}, {@code […]} or {@code {…}} with neither bracket of its pair inside. */
  static boolean isParameter(byte[] a, int s, int e) {
    byte open = a[s];
    byte close;
    switch (open) {
      case '<' -> close = '>';
      case '[' -> close = ']';
      case '{' -> close = '}';
      default -> {
        return false;
      }
    }
    if (e - s < 2 || a[e - 1] != close) return false;
    for (int i = s + 1; i < e - 1; i++) {
      if (a[i] == open || a[i] == close) return false;
    }
    return true;
  }

  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final long ZEROS = 0x3030303030303030L;
  private static final long HIGH_NIBBLES = 0xF0F0F0F0F0F0F0F0L;
  private static final long SIXES = 0x0606060606060606L;

  /** An optional sign and at least one digit. */
  static boolean isInt(byte[] a, int s, int e) {
    int i = s;
    if (a[i] == '+' || a[i] == '-') i++;
    if (i == e) return false;
    if (e - i <= 8 && e >= 8) { // the digits, at most 8, tested at once in the 8 bytes ending at e
      long x = (long) LONGS.get(a, e - 8);
      int keep = 8 * (e - i); // the value's bytes are the high ones (little endian)
      long mask = keep == 64 ? -1L : -1L << (64 - keep);
      x = (x & mask) | (ZEROS & ~mask); // bytes before the value count as digits
      return (x & HIGH_NIBBLES) == ZEROS && ((x + SIXES) & HIGH_NIBBLES) == ZEROS;
    }
    for (; i < e; i++) {
      if (!isDigit(a[i])) return false;
    }
    return true;
  }

  private static final long LOWS7 = 0x7F7F7F7F7F7F7F7FL;
  private static final long DOTS = 0x2E2E2E2E2E2E2E2EL;

  /** The high bit of every byte of {@code v} that is 0, exactly (no borrow between bytes). */
  private static long zeroBytes(long v) {
    return ~(((v & LOWS7) + LOWS7) | v | LOWS7);
  }

  /**
   * Whether 8 bytes (those before the value already set to '0') are digits and at most
   * {@code dotsLeft} points; returns the points left, or -1.
   */
  private static int digitsAndPoints(long x, int dotsLeft) {
    long dots = zeroBytes(x ^ DOTS);
    int n = LineBytes.countMarked(dots);
    if (n > dotsLeft) return -1;
    x ^= (dots >>> 7) * 0x1E; // '.' ^ 0x1E == '0'
    if ((x & HIGH_NIBBLES) != ZEROS || ((x + SIXES) & HIGH_NIBBLES) != ZEROS) return -1;
    return dotsLeft - n;
  }

  /**
   * {@code [+-]? d* .? d* ([eEdD] [+-]? d*)?}, or {@code [+-]? d* .? d* [+-] d+} with a digit before
   * the exponent's sign.
   */
  static boolean isFloat(byte[] a, int s, int e) {
    int i = s;
    if (a[i] == '+' || a[i] == '-') i++;
    int n = e - i;
    if (n > 0 && n <= 16 && e >= 16) { // the common case, digits and a point, 8 bytes at a time
      long hi = (long) LONGS.get(a, e - 8);
      long lo = (long) LONGS.get(a, e - 16);
      if (n < 8) {
        long mask = -1L << (64 - 8 * n);
        hi = (hi & mask) | (ZEROS & ~mask);
        lo = ZEROS;
      } else if (n < 16) {
        long mask = n == 8 ? 0 : -1L << (64 - 8 * (n - 8));
        lo = (lo & mask) | (ZEROS & ~mask);
      }
      int left = digitsAndPoints(hi, 1);
      if (left >= 0 && digitsAndPoints(lo, left) >= 0) return true;
      // else an exponent, or no float: the byte walk below decides
    }
    int digits = 0;
    while (i < e && isDigit(a[i])) {
      i++;
      digits++;
    }
    if (i < e && a[i] == '.') i++;
    while (i < e && isDigit(a[i])) {
      i++;
      digits++;
    }
    if (i == e) return true;
    byte b = a[i];
    if (b == 'e' || b == 'E' || b == 'd' || b == 'D') {
      i++;
      if (i < e && (a[i] == '+' || a[i] == '-')) i++;
      while (i < e && isDigit(a[i])) i++;
      return i == e;
    }
    if ((b == '+' || b == '-') && digits > 0) {
      i++;
      int exp = 0;
      while (i < e && isDigit(a[i])) {
        i++;
        exp++;
      }
      return exp > 0 && i == e;
    }
    return false;
  }

  static boolean isFlags(byte[] a, int s, int e) {
    for (int i = s; i < e; i++) {
      if (a[i] != '0' && a[i] != '1') return false;
    }
    return true;
  }

  static boolean equalsBytes(byte[] a, int s, int e, byte[] word) {
    if (e - s != word.length) return false;
    for (int i = 0; i < word.length; i++) {
      if (a[s + i] != word[i]) return false;
    }
    return true;
  }
}
