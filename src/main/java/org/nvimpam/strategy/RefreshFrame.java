package org.nvimpam.strategy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;

/**
 * The calls into lua/nvimpam/folds.lua that frame a refresh made of separate requests: prepare
 * (remember views, 'foldlevel' and fold states, install the fold texts, clear the folds), adopt
 * (the plan, sent after the commands that create its folds: its bytes travel while Neovim runs
 * them, instead of before, while Neovim waits) and finish (restore all that, or on failure remove
 * the partial folds).
 */
final class RefreshFrame {
  private static final String BEGIN = "return require('nvimpam.folds').begin(...)";
  private static final String ADOPT = "require('nvimpam.folds').adopt(...)";
  private static final String FINISH = "return require('nvimpam.folds').finish(...)";

  private RefreshFrame() {}

  /** What went wrong in Neovim, or the deadline that passed. */
  static Throwable cause(RuntimeException e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }

  /** Returns the ids of the windows showing the buffer, in which the folds must be created. */
  static List<Long> prepare(Nvim nvim, String strategy, Buffer buffer) {
    try {
      Object reply = Await.call(nvim.execLua(BEGIN, out -> {
        out.packArrayHeader(1);
        out.packLong(buffer.id());
      }), "nvim_exec_lua (prepare the fold refresh)");
      List<Long> windows = new ArrayList<>();
      if (reply instanceof List<?> list) {
        for (Object o : list) {
          windows.add(((Number) o).longValue());
        }
      }
      return windows;
    } catch (CompletionException | Await.DeadlineException e) {
      throw new FoldStrategyException(strategy, -1, "could not prepare the refresh: " + cause(e).getMessage(),
          cause(e));
    }
  }

  /** Sends the plan of the refresh; the reply says whether Neovim took it. */
  static CompletableFuture<Object> adopt(Nvim nvim, Buffer buffer, FoldPlan plan) {
    return nvim.execLua(ADOPT, out -> {
      out.packArrayHeader(1);
      PlanPayload.packForLua(out, buffer.id(), plan);
    });
  }

  /** Waits for {@link #adopt}'s reply: a failure there, or null. */
  static FoldStrategyException adopted(String strategy, CompletableFuture<Object> adopt) {
    try {
      Await.call(adopt, "nvim_exec_lua (the fold plan)");
      return null;
    } catch (CompletionException | Await.DeadlineException e) {
      return new FoldStrategyException(strategy, -1, "could not hand over the fold plan: " + cause(e).getMessage(),
          cause(e));
    }
  }

  /**
   * Restores what prepare saved; with a failure, clears the partial folds first and throws it.
   * A failure of finish itself is thrown too, after the refresh's own failure if there was one.
   */
  static void finish(Nvim nvim, String strategy, Buffer buffer, FoldStrategyException failure) {
    try {
      Await.call(nvim.execLua(FINISH, out -> {
        out.packArrayHeader(2);
        out.packLong(buffer.id());
        out.packBoolean(failure != null);
      }), "nvim_exec_lua (finish the fold refresh)");
    } catch (CompletionException | Await.DeadlineException e) {
      FoldStrategyException cleanup = new FoldStrategyException(strategy, -1,
          "could not restore the windows: " + cause(e).getMessage(), cause(e));
      if (failure == null) {
        throw cleanup;
      }
      failure.addSuppressed(cleanup);
    }
    if (failure != null) {
      throw failure;
    }
  }
}
