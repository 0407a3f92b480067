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

  /** An optional sign and at least one digit. */
  static boolean isInt(byte[] a, int s, int e) {
    int i = s;
    if (a[i] == '+' || a[i] == '-') i++;
    if (i == e) return false;
    for (; i < e; i++) {
      if (!isDigit(a[i])) return false;
    }
    return true;
  }

  /**
   * {@code [+-]? d* .? d* ([eEdD] [+-]? d*)?}, or {@code [+-]? d* .? d* [+-] d+} with a digit before
   * the exponent's sign.
   */
  static boolean isFloat(byte[] a, int s, int e) {
    int i = s;
    if (a[i] == '+' || a[i] == '-') i++;
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
