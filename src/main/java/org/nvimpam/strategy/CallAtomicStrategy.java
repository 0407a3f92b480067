package org.nvimpam.strategy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.msgpack.core.MessageFormat;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.Decoder;

/**
 * Batches of {@code nvim_command} calls in {@code nvim_call_atomic} (deprecated since Neovim 0.10,
 * still served by 0.11). A batch stops at its first error and names its index, which maps back to
 * the fold exactly.
 */
final class CallAtomicStrategy extends CommandStreamStrategy {
  static final String NAME = "call-atomic";
  /**
   * Folds per nvim_call_atomic. At 100k folds (Neovim 0.7.2, 2 loaded cores) the batch size hardly
   * matters: median of 11 runs in the quietest round 250 → 99 ms, 1000 → 97, 2000 → 99, 5000 → 98.
   */
  static final int DEFAULT_BATCH = 1000;
  private final int batch;

  CallAtomicStrategy(int batch) {
    if (batch < 1) {
      throw new IllegalArgumentException("batch must be at least 1, got " + batch);
    }
    this.batch = batch;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  void send(Nvim nvim, FoldPlan plan, List<Sent> sent) {
    FoldCommands commands = new FoldCommands();
    for (int from = 0; from < plan.size(); from += batch) {
      int first = from;
      int to = Math.min(plan.size(), from + batch);
      CompletableFuture<Void> reply = nvim.call("nvim_call_atomic", out -> {
        out.packArrayHeader(1);
        out.packArrayHeader(to - first);
        for (int i = first; i < to; i++) {
          out.packArrayHeader(2);
          out.packString("nvim_command");
          out.packArrayHeader(1);
          commands.pack(out, plan, i);
        }
      }, ERROR).thenApply(error -> {
        if (error != null) {
          throw new FoldFailure(first + error.index(), error.message());
        }
        return null;
      });
      sent.add(new Sent(reply, first, to - first));
    }
  }

  /** The error part of nvim_call_atomic's reply: the failing call's index and Neovim's message. */
  private record AtomicError(int index, String message) {}

  /** Reads {@code [results, error]}; the error is nil or {@code [index, type, message]}. */
  private static final Decoder<AtomicError> ERROR = in -> {
    int n = in.unpackArrayHeader();
    in.skipValue();
    AtomicError error = null;
    if (n >= 2) {
      if (in.getNextFormat() == MessageFormat.NIL) {
        in.unpackNil();
      } else {
        int fields = in.unpackArrayHeader();
        int index = (int) in.unpackLong();
        in.skipValue();
        error = new AtomicError(index, in.unpackString());
        for (int i = 3; i < fields; i++) {
          in.skipValue();
        }
      }
    }
    for (int i = 2; i < n; i++) {
      in.skipValue();
    }
    return error;
  };
}
