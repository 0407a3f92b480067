package org.nvimpam.plugin;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.nvimpam.deck.Deck;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;

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
    Deck lines = nvim.bufGetDeck(buffer);
    long t1 = System.nanoTime();
    FoldPlan plan = FoldParser.parse(lines, s.foldOptions()).plan(s.oneLineFolds());
    long t2 = System.nanoTime();
    apply(s, buffer, plan);
    long t3 = System.nanoTime();
    return record(new FoldSummary(buffer.id(), lines.lineCount(), plan.size(), (t1 - t0) / 1e6, (t2 - t1) / 1e6,
        (t3 - t2) / 1e6, s.strategy()));
  }

  /** Pushes a plan computed elsewhere (live folding) and records it like a fold. */
  FoldSummary push(Buffer buffer, int lines, FoldPlan plan, double parseMs) {
    Settings s = settings.get();
    long t0 = System.nanoTime();
    apply(s, buffer, plan);
    return record(new FoldSummary(buffer.id(), lines, plan.size(), 0, parseMs, (System.nanoTime() - t0) / 1e6,
        s.strategy()));
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
