package org.nvimpam.strategy;

import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;

/**
 * Refolds a live buffer after edits: one {@code nvim_exec_lua} call to {@code refold()} in
 * lua/nvimpam/fold/init.lua, which changes only the folds that differ from what Neovim holds (Neovim
 * itself moved the others along with the lines). Whatever strategy is configured, this is the
 * live path: the strategies differ in how a whole plan travels, and here almost nothing does.
 */
public final class LiveRefold {
  /** How a refold went. */
  public enum Outcome {
    /** Only the differing folds were deleted and created. */
    CHANGED,
    /** The windows or the buffer were not those of the last plan: the whole plan was applied. */
    APPLIED_WHOLE,
    /** The buffer changed after the plan was computed; nothing was done (the next refold follows). */
    STALE
  }

  /** The outcome and how many folds were deleted or created (0 unless {@link Outcome#CHANGED}). */
  public record Result(Outcome outcome, int folds) {}

  private static final String NAME = "live refold";

  private LiveRefold() {}

  /**
   * Refolds {@code buffer} to {@code plan}, the fold plan of the buffer at {@code changedtick}.
   *
   * @throws FoldStrategyException when neither the refold nor the whole plan could be applied;
   *     the windows are then left without folds, not half-folded
   */
  public static Result apply(Nvim nvim, Buffer buffer, FoldPlan plan, long changedtick) {
    Object reply = SingleCallStrategy.result(NAME,
        LuaEntry.FOLDS_REFOLD.call(nvim, out -> PlanPayload.packForLua(out, buffer.id(), plan, changedtick)),
        "the live refold");
    int n = reply instanceof Number num ? num.intValue() : 0;
    return switch (n) {
      case -1 -> new Result(Outcome.STALE, 0);
      case -2 -> new Result(Outcome.APPLIED_WHOLE, 0);
      default -> new Result(Outcome.CHANGED, n);
    };
  }
}
