package org.nvimpam.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.strategy.StrategyWire;

/**
 * Neovim's own handling of the requests that {@code call-atomic} and {@code per-command} send, one
 * API call per fold: the same calls, encoded before the clock starts and written back to back
 * without the strategies' frame (and but for {@link #PER_COMMAND_PACED} without their flow
 * control), timed until Neovim has answered them all. What is left is what Neovim takes for those
 * bytes, a bound that no client doing those calls beats.
 */
final class WireReplay {
  static final String CALL_ATOMIC = "replay-call-atomic";
  static final String PER_COMMAND = "replay-per-command";
  /** The same, paced as the strategy paces them. */
  static final String PER_COMMAND_PACED = "replay-per-command-paced";

  private final List<byte[]> atomicBatches;
  private final List<byte[]> notificationWrites;

  /** Encodes the plan's calls for window {@code window}, in the strategies' batch and write sizes. */
  WireReplay(FoldPlan plan, long window) {
    atomicBatches = StrategyWire.callAtomicBatches(plan);
    notificationWrites = StrategyWire.perCommandWrites(plan, window);
  }

  /** The measures this Neovim can take: call-atomic's only where it has nvim_call_atomic. */
  static List<String> measures(Nvim nvim) {
    return StrategyWire.hasCallAtomic(nvim.apiInfo())
        ? List.of(CALL_ATOMIC, PER_COMMAND, PER_COMMAND_PACED)
        : List.of(PER_COMMAND, PER_COMMAND_PACED);
  }

  /** One sample of the named measure, in milliseconds. */
  double sample(Nvim nvim, String name) {
    long t0 = System.nanoTime();
    switch (name) {
      case CALL_ATOMIC -> {
        List<CompletableFuture<?>> replies = new ArrayList<>();
        for (byte[] batch : atomicBatches) {
          replies.add(nvim.call("nvim_call_atomic", out -> out.writePayload(batch), Decoders.nil()));
        }
        for (CompletableFuture<?> reply : replies) {
          Await.call(reply, "a replayed nvim_call_atomic");
        }
      }
      case PER_COMMAND, PER_COMMAND_PACED -> {
        Runnable pacer = name.equals(PER_COMMAND_PACED) ? StrategyWire.pacer(nvim) : null;
        for (byte[] write : notificationWrites) {
          if (pacer != null) {
            pacer.run();
          }
          nvim.rpc().notify("nvim_call_function", out -> out.writePayload(write));
        }
        // Answered only after the notifications ahead of it ran (see NotifiedCommandsStrategy).
        Await.call(nvim.rpc().requestInOrder("nvim_eval", out -> out.packArrayHeader(1).packString("0"),
            Decoders.nil()), "the replayed notifications");
      }
      default -> throw new IllegalArgumentException("no replay measure '" + name + "'");
    }
    return (System.nanoTime() - t0) / 1e6;
  }
}
