package org.nvimpam.strategy;

/** A fold plan could not be applied; the buffer's windows were left without folds, not half-folded. */
public final class FoldStrategyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String strategy;
  private final int foldIndex;

  /**
   * @param foldIndex the 0-based index of the failing fold in plan order, or -1 when the failure
   *     concerns no single fold (a lost connection, a failing preparation step)
   */
  public FoldStrategyException(String strategy, int foldIndex, String detail, Throwable cause) {
    super("nvimpam: strategy '" + strategy + "' failed" + (foldIndex >= 0 ? " on fold " + (foldIndex + 1) : "")
        + ": " + detail, cause);
    this.strategy = strategy;
    this.foldIndex = foldIndex;
  }

  public String strategy() {
    return strategy;
  }

  /** The 0-based index in plan order of the fold that failed, or -1. */
  public int foldIndex() {
    return foldIndex;
  }
}
