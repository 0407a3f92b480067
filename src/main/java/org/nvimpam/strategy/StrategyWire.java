package org.nvimpam.strategy;

import java.util.ArrayList;
import java.util.List;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.ApiInfo;
import org.nvimpam.nvim.Nvim;

/**
 * The bytes that {@code call-atomic} and {@code per-command} write for a plan, encoded ahead in
 * the strategies' own batch and write sizes, and their pacing: what the benchmark replays to
 * measure Neovim's part without the strategies' frame (org.nvimpam.bench.WireReplay).
 */
public final class StrategyWire {
  private StrategyWire() {}

  /** Whether this Neovim has {@code nvim_call_atomic}, which call-atomic needs. */
  public static boolean hasCallAtomic(ApiInfo info) {
    return CallAtomicStrategy.unavailableIn(info) == null;
  }

  /** The params of each {@code nvim_call_atomic} request call-atomic sends for the plan. */
  public static List<byte[]> callAtomicBatches(FoldPlan plan) {
    FoldCommands commands = new FoldCommands();
    List<byte[]> batches = new ArrayList<>();
    for (int from = 0; from < plan.size(); from += CallAtomicStrategy.DEFAULT_BATCH) {
      int first = from;
      int to = Math.min(plan.size(), from + CallAtomicStrategy.DEFAULT_BATCH);
      batches.add(FoldCommands.msgpack(out -> CallAtomicStrategy.packBatch(out, plan, commands, first, to)));
    }
    return batches;
  }

  /**
   * The writes per-command makes for the plan in window {@code window}: each is the params of a
   * {@code nvim_call_function} notification followed by whole notifications, so that it goes out
   * as the payload of one notification's frame.
   */
  public static List<byte[]> perCommandWrites(FoldPlan plan, long window) {
    FoldCommands commands = new FoldCommands();
    byte[] params = NotifiedCommandsStrategy.winExecuteParams(window);
    byte[] next = FoldCommands.concat(NotifiedCommandsStrategy.NOTIFICATION, params);
    int perWrite = NotifiedCommandsStrategy.foldsPerWrite(1);
    List<byte[]> writes = new ArrayList<>();
    for (int from = 0; from < plan.size(); from += perWrite) {
      int first = from;
      int to = Math.min(plan.size(), from + perWrite);
      writes.add(FoldCommands.msgpack(out -> commands.packEach(out, plan, first, to, params, next)));
    }
    return writes;
  }

  /** Per-command's flow control: run before each write. */
  public static Runnable pacer(Nvim nvim) {
    return new WritePacer(nvim)::beforeWrite;
  }
}
