package org.nvimpam.strategy;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessagePacker;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.ApiInfo;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.Decoder;

/**
 * Batches of {@code nvim_command} calls in {@code nvim_call_atomic} (deprecated since Neovim 0.10,
 * still served by 0.12). A batch stops at its first error and names its index, which maps back to
 * the fold exactly. It keeps that function on purpose, as its name says: a Neovim that no longer
 * serves it gets an error naming the strategies to use instead.
 */
final class CallAtomicStrategy extends CommandStreamStrategy {
  static final String NAME = "call-atomic";
  /**
   * Folds per nvim_call_atomic. At 100k folds the size hardly matters (medians: 250 → 99.3 ms,
   * 1000 → 96.5 ms, 2000 → 98.7 ms, 5000 → 97.5 ms); 1000 came first twice.
   */
  static final int DEFAULT_BATCH = 1000;

  /** The framing of one call before its command: {@code ["nvim_command", [cmd]]}. */
  static final byte[] CALL = FoldCommands.msgpack(out -> out.packArrayHeader(2).packString("nvim_command")
      .packArrayHeader(1));

  CallAtomicStrategy(int batch) {
    super(NAME, batch);
  }

  /** Why this strategy cannot run on the Neovim described by {@code info}, or null if it can. */
  static String unavailableIn(ApiInfo info) {
    if (info.hasFunction("nvim_call_atomic")) {
      return null;
    }
    return "Neovim " + info.version() + " has no nvim_call_atomic (deprecated since 0.10), which the "
        + NAME + " strategy is made of: choose another, e.g. :NvimpamFoldStrategy " + LuaStrategy.NAME
        + " (the default) or " + NotifiedCommandsStrategy.PIPE + " (the same Ex commands, batched)";
  }

  @Override
  CompletableFuture<?> sendChunk(Nvim nvim, FoldPlan plan, FoldCommands commands, int from, int to) {
    String unavailable = unavailableIn(nvim.apiInfo());
    if (unavailable != null) {
      throw new IllegalStateException(unavailable);
    }
    return nvim.call("nvim_call_atomic", out -> packBatch(out, plan, commands, from, to), ERROR).thenApply(error -> {
      if (error != null) {
        throw new FoldFailure(from + error.index(), error.message());
      }
      return null;
    });
  }

  /** The params of the nvim_call_atomic that creates folds {@code [from, to)}: one call per fold. */
  static void packBatch(MessagePacker out, FoldPlan plan, FoldCommands commands, int from, int to)
      throws IOException {
    out.packArrayHeader(1);
    out.packArrayHeader(to - from);
    commands.packEach(out, plan, from, to, CALL, CALL);
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
