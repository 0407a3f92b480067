package org.nvimpam.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Number formatting shared by the report writers. */
final class Decimals {
  private Decimals() {}

  /**
   * {@code value} with at most {@code decimals} decimals and no trailing zeros ({@code 12.5},
   * {@code 3}, {@code 0.001}), never in exponent notation; null for NaN and infinities.
   */
  static String format(double value, int decimals) {
    if (!Double.isFinite(value)) return null;
    BigDecimal rounded = BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP);
    return rounded.signum() == 0 ? "0" : rounded.stripTrailingZeros().toPlainString();
  }
}
