package org.nvimpam.plugin;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.nvimpam.deck.Deck;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.ErrorValue;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.strategy.FoldStrategy;
import org.nvimpam.strategy.FoldStrategyException;
import org.nvimpam.strategy.LiveRefold;

/** Folds a buffer once: its current lines from Neovim, a full parse, a push with the strategy. */
final class Folder {
  private final Nvim nvim;
  private final AtomicReference<Settings> settings;
  private final AtomicReference<FoldSummary> last = new AtomicReference<>();
  // One push at a time: a live refresh and :NvimpamFold of the same buffer must not interleave
  // their prepare/finish calls in Neovim. Waiting for it is bounded: a push parked behind a
  // Neovim that stopped answering (a prompt, SIGSTOP) must not stall every later push forever.
  private final ReentrantLock pushLock = new ReentrantLock();
  // The strategy of the last push, while the settings name it: it remembers what this Neovim
  // needs (lua and viml leave the commands out where Neovim creates the folds natively).
  private FoldStrategy strategy; // guarded by pushLock

  Folder(Nvim nvim, AtomicReference<Settings> settings) {
    this.nvim = nvim;
    this.settings = settings;
  }

  FoldSummary fold(Buffer buffer) {
    Settings s = settings.get();
    long t0 = System.nanoTime();
    long count = Await.call(nvim.bufLineCount(buffer), "nvim_buf_line_count");
    if (count >= s.notifyLines()) {
      Messages.progress(nvim, "nvimpam: folding " + Messages.grouped(count) + " lines…");
    }
    Deck lines = BufferLoad.deckOf(nvim, buffer);
    long t1 = System.nanoTime();
    FoldPlan plan = FoldParser.parse(lines, s.foldOptions()).plan(s.oneLineFolds());
    long t2 = System.nanoTime();
    apply(s, buffer, plan, new long[1]);
    long t3 = System.nanoTime();
    return record(new FoldSummary(buffer.id(), lines.lineCount(), plan.size(), (t1 - t0) / 1e6, (t2 - t1) / 1e6, 0,
        (t3 - t2) / 1e6, s.strategy()));
  }

  /**
   * Pushes a plan computed elsewhere (live folding), the buffer's folds at {@code changedtick}, and
   * records it like a fold, with {@code waitedMs} its edits already waited for other work. With
   * {@code whole} the configured strategy applies it whole; otherwise only the folds that differ
   * from Neovim's are changed ({@link LiveRefold}). A whole plan that fails because the buffer
   * changed after it was computed is skipped, not reported: the refold of that change follows.
   */
  FoldSummary push(Buffer buffer, int lines, FoldPlan plan, double parseMs, double waitedMs, long changedtick,
      boolean whole) {
    Settings s = settings.get();
    long t0 = System.nanoTime();
    long[] began = {0}; // when the push had the push lock: what came before is a wait for another push
    String how = s.strategy();
    if (!whole && changedtick >= 0) {
      LiveRefold.Result r = exclusively(() -> {
        began[0] = System.nanoTime();
        return LiveRefold.apply(nvim, buffer, plan, changedtick);
      });
      how = switch (r.outcome()) {
        case CHANGED -> "refold of " + r.folds() + " folds";
        case APPLIED_WHOLE -> "whole plan, lua";
        case STALE -> "stale, skipped";
      };
    } else {
      try {
        apply(s, buffer, plan, began);
      } catch (FoldFailure e) {
        if (!changedSince(buffer, changedtick)) {
          throw e;
        }
        how = "stale, skipped";
      }
    }
    long t1 = System.nanoTime();
    long lockWait = began[0] == 0 ? 0 : began[0] - t0;
    return record(new FoldSummary(buffer.id(), lines, plan.size(), 0, parseMs, waitedMs + lockWait / 1e6,
        (t1 - t0 - lockWait) / 1e6, how));
  }

  /** Whether the buffer's changedtick moved past {@code changedtick}; false when that is unknown. */
  private boolean changedSince(Buffer buffer, long changedtick) {
    if (changedtick < 0) {
      return false;
    }
    try {
      return Await.call(nvim.bufChangedtick(buffer), "nvim_buf_get_changedtick") != changedtick;
    } catch (java.util.concurrent.CompletionException | Await.DeadlineException gone) {
      return false; // e.g. the buffer was wiped: the push's own failure says what happened
    }
  }

  /** Applies {@code plan} with the configured strategy; {@code began[0]} is set when it had the push lock. */
  private void apply(Settings s, Buffer buffer, FoldPlan plan, long[] began) {
    exclusively(() -> {
      began[0] = System.nanoTime();
      try {
        if (strategy == null || !strategy.name().equals(s.strategy())) {
          strategy = s.newStrategy();
        }
        strategy.apply(nvim, buffer, plan);
      } catch (FoldStrategyException e) {
        throw FoldFailure.of(e);
      }
      return null;
    });
  }

  /** Runs work that pushes folds (e.g. :NvimpamFoldBench) with no other push in between. */
  <T> T exclusively(Supplier<T> work) {
    boolean locked;
    try {
      locked = pushLock.tryLock(Await.CALL.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Await.DeadlineException("interrupted while waiting for the fold push before this one", e);
    }
    if (!locked) {
      throw new Await.DeadlineException("the fold push before this one has waited for Neovim for over "
          + Await.CALL.toSeconds() + " s (is Neovim at a prompt, or stopped?); this push was dropped", null);
    }
    try {
      return work.get();
    } finally {
      pushLock.unlock();
    }
  }

  private FoldSummary record(FoldSummary summary) {
    last.set(summary);
    return summary;
  }

  /** The last fold of any buffer, or null. */
  FoldSummary last() {
    return last.get();
  }

  /** A strategy's failure with the fold it names, as the Lua side receives it. */
  static final class FoldFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient ErrorValue value;

    private FoldFailure(ErrorValue value, Throwable cause) {
      super(value.message(), cause);
      this.value = value;
    }

    static FoldFailure of(FoldStrategyException e) {
      return new FoldFailure(e.error(), e);
    }

    ErrorValue value() {
      return value;
    }
  }
}
