package org.nvimpam.deck;

/**
 * The numbers the solver reads in fields (docs/CARDS.md, "What is an error"): what a float field's
 * text means, not only whether it is one (FieldForms). lua/nvimpam/plot.lua's number() reads the
 * same way.
 */
public final class FieldValues {
  private FieldValues() {}

  /**
   * The number in bytes {@code a[s, e)} of a float field: 0 for a blank field (a fixed-format read),
   * the value of a float form ({@code 1.5}, {@code 1.}, {@code .5E3}, {@code 1.5D-3}, and {@code
   * 1.5-3} for 1.5E-3), else NaN (a parameter, or a text that is no float form).
   */
  public static double number(byte[] a, int s, int e) {
    while (s < e && a[s] == ' ') s++;
    while (e > s && a[e - 1] == ' ') e--;
    if (s == e) return 0;
    if (!FieldForms.isFloat(a, s, e)) return Double.NaN;
    int i = s;
    boolean negative = a[i] == '-';
    if (a[i] == '+' || a[i] == '-') i++;
    StringBuilder m = new StringBuilder(e - s + 4);
    if (negative) m.append('-');
    boolean digit = false;
    while (i < e && (FieldForms.isDigit(a[i]) || a[i] == '.')) {
      digit |= a[i] != '.';
      m.append((char) a[i++]);
    }
    if (!digit) return Double.NaN;
    int exp = 0;
    if (i < e) {
      if (a[i] == 'e' || a[i] == 'E' || a[i] == 'd' || a[i] == 'D') i++;
      boolean minus = i < e && a[i] == '-';
      if (i < e && (a[i] == '+' || a[i] == '-')) i++;
      for (; i < e; i++) exp = Math.min(100_000, exp * 10 + (a[i] - '0'));
      if (minus) exp = -exp;
    }
    return Double.parseDouble(m.append('e').append(exp).toString());
  }
}
