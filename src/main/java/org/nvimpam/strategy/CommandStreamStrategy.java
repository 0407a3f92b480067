package org.nvimpam.strategy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.NvimErrorException;

/**
 * The strategies that create folds with Ex commands sent from the JVM. The refresh is framed by
 * our Lua code ({@link RefreshFrame}), and every request in between is pipelined, the plan last:
 * all are written before any reply is awaited.
 */
abstract class CommandStreamStrategy implements FoldStrategy {
  /** A request in flight and the folds it creates, for mapping its error to a fold. */
  record Sent(CompletableFuture<?> reply, int firstFold, int folds) {}

  /** A failure that already knows its fold (e.g. from nvim_call_atomic's error index). */
  static final class FoldFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int foldIndex;

    FoldFailure(int foldIndex, String message) {
      super(message, null, false, false);
      this.foldIndex = foldIndex;
    }
  }

  private final String name;
  private final int chunk;

  CommandStreamStrategy(String name, int chunk) {
    if (chunk < 1) {
      throw new IllegalArgumentException("folds per request must be at least 1, got " + chunk);
    }
    this.name = name;
    this.chunk = chunk;
  }

  @Override
  public final String name() {
    return name;
  }

  /** Sends the request creating folds {@code [from, to)} of the plan in the current window. */
  abstract CompletableFuture<?> sendChunk(Nvim nvim, FoldPlan plan, FoldCommands commands, int from, int to);

  @Override
  public final void apply(Nvim nvim, Buffer buffer, FoldPlan plan) {
    List<Long> windows = RefreshFrame.prepare(nvim, name(), buffer);
    List<Sent> sent = new ArrayList<>();
    FoldStrategyException failure;
    try {
      for (long window : windows) {
        // Folds are per window: create them in each one, without firing WinEnter/BufEnter.
        sent.add(new Sent(nvim.command("noautocmd call win_gotoid(" + window + ")"), -1, 0));
        FoldCommands commands = new FoldCommands();
        for (int from = 0; from < plan.size(); from += chunk) {
          int to = Math.min(plan.size(), from + chunk);
          sent.add(new Sent(sendChunk(nvim, plan, commands, from, to), from, to - from));
        }
      }
      RefreshFrame.Behind behind = RefreshFrame.sendBehind(nvim, name(), buffer, plan);
      failure = firstFailure(sent, plan);
      if (failure == null) {
        failure = behind.failure();
      }
    } catch (RuntimeException e) {
      failure = new FoldStrategyException(name(), -1, e.getMessage(), e);
    }
    if (failure != null) {
      RefreshFrame.undo(nvim, name(), buffer, failure);
    }
  }

  /** Waits for every reply; the first failure in send order, or null. */
  private FoldStrategyException firstFailure(List<Sent> sent, FoldPlan plan) {
    FoldStrategyException first = null;
    for (Sent s : sent) {
      try {
        Await.call(s.reply(), "the fold commands");
      } catch (CompletionException e) {
        if (first == null) {
          first = describe(s, e.getCause(), plan);
        }
      }
    }
    return first;
  }

  private FoldStrategyException describe(Sent s, Throwable cause, FoldPlan plan) {
    if (cause instanceof FoldFailure f) {
      return f.foldIndex >= 0 && f.foldIndex < plan.size()
          ? FoldStrategyException.atFold(name(), plan, f.foldIndex, f.getMessage(), null)
          : new FoldStrategyException(name(), -1, f.getMessage(), null);
    }
    if (cause instanceof NvimErrorException e && s.folds() == 1) {
      return FoldStrategyException.atFold(name(), plan, s.firstFold(), e.nvimMessage(), e);
    }
    if (cause instanceof NvimErrorException e && s.folds() > 1) {
      int last = s.firstFold() + s.folds() - 1;
      return new FoldStrategyException(name(), -1,
          "one of folds " + (s.firstFold() + 1) + "-" + (last + 1) + " (lines " + plan.start(s.firstFold()) + "-"
              + plan.end(last) + "): " + e.nvimMessage(), e);
    }
    return new FoldStrategyException(name(), -1, String.valueOf(cause.getMessage()), cause);
  }
}
