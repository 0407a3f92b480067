package org.nvimpam.plugin;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.nvimpam.deck.Lines;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.strategy.FoldStrategyException;
import org.nvimpam.strategy.LiveRefold;

/** Folds a buffer once: its current lines from Neovim, a full parse, a push with the strategy. */
final class Folder {
  private final Nvim nvim;
  private final AtomicReference<Settings> settings;
  private final AtomicReference<FoldSummary> last = new AtomicReference<>();
  // One push at a time: a live refresh and :NvimpamFold of the same buffer must not interleave
  // their prepare/finish calls in Neovim. (No deadlock: Neovim answers our calls while it waits.)
  private final Object pushLock = new Object();

  Folder(Nvim nvim, AtomicReference<Settings> settings) {
    this.nvim = nvim;
    this.settings = settings;
  }

  FoldSummary fold(Buffer buffer) {
    Settings s = settings.get();
    long t0 = System.nanoTime();
    long count = nvim.bufLineCount(buffer).join();
    if (count >= s.notifyLines()) {
      Messages.progress(nvim, "nvimpam: folding " + Messages.grouped(count) + " lines…");
    }
    Lines lines = nvim.bufGetAllLines(buffer);
    long t1 = System.nanoTime();
    FoldPlan plan = FoldParser.parse(lines, s.foldOptions()).plan(s.oneLineFolds());
    long t2 = System.nanoTime();
    apply(s, buffer, plan);
    long t3 = System.nanoTime();
    return record(new FoldSummary(buffer.id(), lines.count(), plan.size(), (t1 - t0) / 1e6, (t2 - t1) / 1e6,
        (t3 - t2) / 1e6, s.strategy()));
  }

  /**
   * Pushes a plan computed elsewhere (live folding), the buffer's folds at {@code changedtick}, and
   * records it like a fold. With {@code whole} the configured strategy applies it whole; otherwise
   * only the folds that differ from Neovim's are changed ({@link LiveRefold}). A whole plan that
   * fails because the buffer changed after it was computed is skipped, not reported: the refold of
   * that change follows.
   */
  FoldSummary push(Buffer buffer, int lines, FoldPlan plan, double parseMs, long changedtick, boolean whole) {
    Settings s = settings.get();
    long t0 = System.nanoTime();
    String how = s.strategy();
    if (!whole && changedtick >= 0) {
      LiveRefold.Result r = exclusively(() -> LiveRefold.apply(nvim, buffer, plan, changedtick));
      how = switch (r.outcome()) {
        case CHANGED -> "refold of " + r.folds() + " folds";
        case APPLIED_WHOLE -> "whole plan, lua";
        case STALE -> "stale, skipped";
      };
    } else {
      try {
        apply(s, buffer, plan);
      } catch (FoldStrategyException e) {
        if (!changedSince(buffer, changedtick)) {
          throw e;
        }
        how = "stale, skipped";
      }
    }
    return record(new FoldSummary(buffer.id(), lines, plan.size(), 0, parseMs, (System.nanoTime() - t0) / 1e6, how));
  }

  /** Whether the buffer's changedtick moved past {@code changedtick}; false when that is unknown. */
  private boolean changedSince(Buffer buffer, long changedtick) {
    if (changedtick < 0) {
      return false;
    }
    try {
      return nvim.bufChangedtick(buffer).join() != changedtick;
    } catch (java.util.concurrent.CompletionException gone) {
      return false; // e.g. the buffer was wiped: the push's own failure says what happened
    }
  }

  private void apply(Settings s, Buffer buffer, FoldPlan plan) {
    exclusively(() -> {
      s.newStrategy().apply(nvim, buffer, plan);
      return null;
    });
  }

  /** Runs work that pushes folds (e.g. :NvimpamFoldBench) with no other push in between. */
  <T> T exclusively(Supplier<T> work) {
    synchronized (pushLock) {
      return work.get();
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
}
