package org.nvimpam.deck;

/**
 * The numbers the solver reads in fields (docs/CARDS.md, "What is an error"): what a float field's
 * text means, not only whether it is one (FieldForms). lua/nvimpam/model/curves.lua's number()
 * reads the same way; the diff (model.diff) compares floats by {@link #real}.
 */
public final class FieldValues {
  private FieldValues() {}

  private static final double[] POW10 = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22};

  /**
   * The number in bytes {@code a[s, e)} of a float field: 0 for a blank field (a fixed-format read),
   * the value of a float form ({@code 1.5}, {@code 1.}, {@code .5E3}, {@code 1.5D-3}, and {@code
   * 1.5-3} for 1.5E-3), else NaN (a parameter, or a text that is no float form).
   */
  public static double number(byte[] a, int s, int e) {
    while (s < e && a[s] == ' ') s++;
    while (e > s && a[e - 1] == ' ') e--;
    if (s == e) return 0;
    return FieldForms.isFloat(a, s, e) ? real(a, s, e) : Double.NaN;
  }

  /**
   * The float in {@code [s, e)} as the solver reads it ({@code [+-]? d* .? d* ([eEdD] [+-]? d+)?}, or
   * an exponent's sign with no letter after a digit; an exponent letter with no digits is E0, as
   * FieldForms reads it), or NaN when it is no number (a parameter
   * {@code <NAME>}, a lone point). Exact: the fast path is taken only where a double product is
   * correctly rounded, else Java's parser reads it.
   */
  public static double real(byte[] a, int s, int e) {
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
      boolean signed = i < e && (a[i] == '+' || a[i] == '-');
      if (signed) eneg = a[i++] == '-';
      if (i == e && !letter) return Double.NaN; // 2.5E and 2.5E- are 2.5, as FieldForms reads them
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
    char last = b.charAt(b.length() - 1);
    if (exp && (last == 'E' || last == '+' || last == '-')) b.append('0'); // an exponent with no digits: 0
    return b.toString();
  }

}
