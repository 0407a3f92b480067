package org.nvimpam.strategy;

import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.ErrorValue;

/**
 * A fold plan could not be applied; the buffer's windows were left without folds, not half-folded.
 * It carries the failure as the {@link ErrorValue} the Lua side receives, and its message, the one
 * the user reads, is written here from that value alone.
 */
public final class FoldStrategyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient ErrorValue error;

  /**
   * From the error value our Lua/VimL code returned, or one built in the JVM.
   *
   * @param error what failed; its fold, of and lines name the failing fold when it is known
   */
  public FoldStrategyException(String strategy, ErrorValue error, Throwable cause) {
    this(strategy, error.message(), error.fold(), error.of(), error.firstLine(), error.lastLine(), cause);
  }

  /**
   * @param foldIndex the 0-based index of the failing fold in plan order, or -1 when the failure
   *     concerns no single fold (a lost connection, a failing preparation step)
   */
  public FoldStrategyException(String strategy, int foldIndex, String detail, Throwable cause) {
    this(strategy, detail, foldIndex + 1, 0, 0, 0, cause);
  }

  private FoldStrategyException(String strategy, String reason, int fold, int of, int first, int last,
      Throwable cause) {
    super(message(strategy, reason, fold, of, first, last), cause);
    // Whatever went wrong inside, to the user the plan failed: fold_failed, naming the fold if known.
    this.error = new ErrorValue(ErrorValue.Code.FOLD_FAILED, getMessage(), Math.max(fold, 0), of, first, last,
        strategy);
  }

  /** Fold {@code i} (0-based) of {@code plan} failed for {@code reason}. */
  static FoldStrategyException atFold(String strategy, FoldPlan plan, int i, String reason, Throwable cause) {
    return new FoldStrategyException(strategy, new ErrorValue(ErrorValue.Code.FOLD_FAILED, withoutCommand(reason),
        i + 1, plan.size(), plan.start(i), plan.end(i), strategy), cause);
  }

  /** "E16: Invalid range" of "Vim(fold):E16: Invalid range", as Lua and VimL report it too. */
  private static String withoutCommand(String reason) {
    int close = reason.startsWith("Vim(") ? reason.indexOf("):") : -1;
    return close < 0 ? reason : reason.substring(close + 2);
  }

  /** The one wording of a failed refresh: "... failed on fold N of M (lines S-E): reason". */
  private static String message(String strategy, String reason, int fold, int of, int first, int last) {
    StringBuilder m = new StringBuilder("nvimpam: strategy '").append(strategy).append("' failed");
    if (fold > 0) {
      m.append(" on fold ").append(fold);
      if (of > 0) {
        m.append(" of ").append(of);
      }
      if (first > 0) {
        m.append(" (lines ").append(first).append('-').append(last).append(')');
      }
    }
    return m.append(": ").append(reason).toString();
  }

  public String strategy() {
    return error.strategy();
  }

  /** The failure as it crosses to the Lua side; its message is this exception's. */
  public ErrorValue error() {
    return error;
  }
}
