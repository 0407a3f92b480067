package org.nvimpam.strategy;

import java.util.List;
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
  /** Folds per nvim_call_atomic; measured with `bench` (see README). */
  static final int DEFAULT_BATCH = 2000;
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
      sent.add(new Sent(nvim.call("nvim_call_atomic", out -> {
        out.packArrayHeader(1);
        out.packArrayHeader(to - first);
        for (int i = first; i < to; i++) {
          out.packArrayHeader(2);
          out.packString("nvim_command");
          out.packArrayHeader(1);
          commands.pack(out, plan, i);
        }
      }, errorOf(first)), first, to - first));
    }
  }

  /** Reads {@code [results, error]}; an error {@code [index, type, message]} becomes a FoldFailure. */
  private static Decoder<Void> errorOf(int firstFold) {
    return in -> {
      int n = in.unpackArrayHeader();
      in.skipValue();
      if (n < 2 || in.getNextFormat() == MessageFormat.NIL) {
        for (int i = 2; i < n; i++) {
          in.skipValue();
        }
        return null;
      }
      in.unpackArrayHeader();
      long index = in.unpackLong();
      in.skipValue();
      String message = in.unpackString();
      throw new FoldFailure(firstFold + (int) index, message);
    };
  }
}
