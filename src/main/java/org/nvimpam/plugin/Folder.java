package org.nvimpam.plugin;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.nvimpam.deck.Lines;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
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
   * Pushes a plan computed elsewhere (live folding) and records it like a fold. With {@code
   * changedtick >= 0} the plan is the buffer's at that changedtick and only the folds that differ
   * from Neovim's are changed ({@link LiveRefold}); with -1 the configured strategy applies it whole.
   */
  FoldSummary push(Buffer buffer, int lines, FoldPlan plan, double parseMs, long changedtick) {
    Settings s = settings.get();
    long t0 = System.nanoTime();
    String how = s.strategy();
    if (changedtick >= 0) {
      LiveRefold.Result r = exclusively(() -> LiveRefold.apply(nvim, buffer, plan, changedtick));
      how = switch (r.outcome()) {
        case CHANGED -> "refold of " + r.folds() + " folds";
        case APPLIED_WHOLE -> "whole plan, lua";
        case STALE -> "stale, skipped";
      };
    } else {
      apply(s, buffer, plan);
    }
    return record(new FoldSummary(buffer.id(), lines, plan.size(), 0, parseMs, (System.nanoTime() - t0) / 1e6, how));
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
