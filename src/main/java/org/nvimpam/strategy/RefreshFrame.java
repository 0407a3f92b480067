package org.nvimpam.strategy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;

/**
 * The calls into lua/nvimpam/fold/init.lua that frame a refresh made of separate requests: prepare
 * (remember views, 'foldlevel' and fold states, install the fold texts, clear the folds), adopt
 * (the plan, sent after the commands that create its folds: its bytes travel while Neovim runs
 * them, instead of before, while Neovim waits) and finish (restore all that, or on failure remove
 * the partial folds). The command strategies send adopt and finish right behind their commands.
 */
final class RefreshFrame {
  private RefreshFrame() {}

  /** What went wrong in Neovim, or the deadline that passed. */
  static Throwable cause(RuntimeException e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }

  /** Returns the ids of the windows showing the buffer, in which the folds must be created. */
  static List<Long> prepare(Nvim nvim, String strategy, Buffer buffer) {
    try {
      Object reply = Await.call(LuaEntry.FOLDS_BEGIN.call(nvim, out -> out.packLong(buffer.id())),
          "nvim_exec_lua (prepare the fold refresh)");
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

  /** The end of a refresh, sent right behind its commands; {@link #failure} waits for it. */
  record Behind(String strategy, CompletableFuture<Object> adopt, CompletableFuture<Object> finish) {
    /** The first of the two calls that failed, or null. */
    FoldStrategyException failure() {
      FoldStrategyException f = RefreshFrame.failure(strategy, adopt, "hand over the fold plan");
      return f != null ? f : RefreshFrame.failure(strategy, finish, "restore the windows");
    }
  }

  /**
   * Sends the plan of the refresh, then its finish, without waiting for either: the command
   * strategies write them behind their commands, so that the plan's bytes travel while Neovim
   * creates the folds and no round trip is spent on the finish. Should anything fail, {@link
   * #undo} cleans up after it.
   */
  static Behind sendBehind(Nvim nvim, String strategy, Buffer buffer, FoldPlan plan) {
    CompletableFuture<Object> adopt = LuaEntry.FOLDS_ADOPT.call(nvim, out -> PlanPayload.packForLua(out, buffer.id(), plan));
    CompletableFuture<Object> finish = LuaEntry.FOLDS_FINISH.call(nvim, out -> out.packLong(buffer.id()).packBoolean(false));
    return new Behind(strategy, adopt, finish);
  }

  private static FoldStrategyException failure(String strategy, CompletableFuture<Object> call, String what) {
    try {
      Await.call(call, "nvim_exec_lua (" + what + ")");
      return null;
    } catch (CompletionException | Await.DeadlineException e) {
      return new FoldStrategyException(strategy, -1, "could not " + what + ": " + cause(e).getMessage(), cause(e));
    }
  }

  /**
   * After a failure in a refresh that may have been finished already ({@link #sendBehind}): a
   * frame of its own that leaves no folds behind. Throws {@code failure}.
   */
  static void undo(Nvim nvim, String strategy, Buffer buffer, FoldStrategyException failure) {
    try {
      prepare(nvim, strategy, buffer);
    } catch (FoldStrategyException e) {
      failure.addSuppressed(e);
      throw failure;
    }
    finish(nvim, strategy, buffer, failure);
  }

  /**
   * Restores what prepare saved; with a failure, clears the partial folds first and throws it.
   * A failure of finish itself is thrown too, after the refresh's own failure if there was one.
   */
  static void finish(Nvim nvim, String strategy, Buffer buffer, FoldStrategyException failure) {
    try {
      Await.call(LuaEntry.FOLDS_FINISH.call(nvim, out -> out.packLong(buffer.id()).packBoolean(failure != null)),
          "nvim_exec_lua (finish the fold refresh)");
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
