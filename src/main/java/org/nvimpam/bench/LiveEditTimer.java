package org.nvimpam.bench;

import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.BufferListener;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.plugin.BufferLoad;
import org.nvimpam.strategy.LiveRefold;

/**
 * Times a live refold end to end, as the plugin does it without the debounce: from a one-line
 * edit's {@code nvim_buf_lines_event} arriving at the JVM, through the incremental parse and the
 * plan, to Neovim's reply that its folds are refolded ({@link LiveRefold}). Each run deletes a line
 * in the middle of the deck and puts it back: two edits, two samples. After each, Neovim's folds
 * are checked against the plan, outside the timed part.
 */
public final class LiveEditTimer {
  private static final long WAIT_S = 30;

  /** An event with lines, and when it arrived. */
  private record Arrival(long changedtick, long nanos) {}

  private final Nvim nvim;
  private final Buffer buffer;
  private final FoldEngine engine;
  private final BlockingQueue<Arrival> arrivals = new LinkedBlockingQueue<>();
  private final CountDownLatch loaded = new CountDownLatch(1);
  private volatile RuntimeException lost;

  public LiveEditTimer(Nvim nvim, Buffer buffer, FoldOptions options) {
    this.nvim = nvim;
    this.buffer = buffer;
    this.engine = new FoldEngine(options);
  }

  /** Medians and extremes over the samples, in milliseconds. */
  public record Timing(double medianMs, double minMs, double maxMs, int samples) {}

  public Timing time(int warmup, int runs) throws InterruptedException {
    BufferListener listener = new BufferListener() {
      @Override
      public void onLines(Buffer buf, long changedtick, int firstline, int lastline, Lines linedata, boolean more) {
        long t = System.nanoTime();
        try {
          loaded.await(WAIT_S, TimeUnit.SECONDS); // the deck is read before the first edit is made
          engine.apply(firstline, lastline, linedata);
        } catch (RuntimeException e) {
          lost = e;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        if (!more) {
          arrivals.add(new Arrival(changedtick, t));
        }
      }
    };
    if (!Await.call(nvim.bufAttach(buffer, listener), "a live edit")) {
      throw new IllegalStateException("Neovim refused to attach to buffer " + buffer.id());
    }
    try {
      engine.load(BufferLoad.deckOf(nvim, buffer)); // attached first: no edit can fall between
      loaded.countDown();
      LiveRefold.apply(nvim, buffer, engine.folds().plan(false), -1); // the whole plan, once
      double[] ms = new double[2 * runs];
      int middle = engine.deck().lineCount() / 2;
      for (int r = -warmup; r < runs; r++) {
        int line = middle + 7 * r; // 0-based; another line every run
        byte[] text = lineAt(line);
        double deleted = edit(line, line + 1, Lines.empty());
        double restored = edit(line, line, Lines.wrap(text, new int[] {0, text.length}, 1));
        if (r >= 0) {
          ms[2 * r] = deleted;
          ms[2 * r + 1] = restored;
        }
      }
      Arrays.sort(ms);
      int n = ms.length;
      double median = n % 2 == 1 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
      return new Timing(median, ms[0], ms[n - 1], n);
    } finally {
      Await.call(nvim.bufDetach(buffer), "a live edit");
    }
  }

  private byte[] lineAt(int line) {
    return Await.call(nvim.bufGetLines(buffer, line, line + 1, true), "a live edit").line(0);
  }

  /** Makes one edit through the API; the time from its event's arrival to the refold's reply. */
  private double edit(int first, int last, Lines replacement) throws InterruptedException {
    Await.call(nvim.execLua("vim.api.nvim_buf_set_lines(...)", out -> {
      out.packArrayHeader(5);
      out.packLong(buffer.id());
      out.packInt(first);
      out.packInt(last);
      out.packBoolean(true);
      out.packArrayHeader(replacement.count());
      for (int i = 0; i < replacement.count(); i++) {
        byte[] b = replacement.line(i);
        out.packRawStringHeader(b.length);
        out.writePayload(b);
      }
    }), "a live edit");
    Arrival a = arrivals.poll(WAIT_S, TimeUnit.SECONDS);
    if (a == null) {
      throw new IllegalStateException("no buffer event within " + WAIT_S + " s of an edit");
    }
    if (lost != null) {
      throw new IllegalStateException("the fold engine lost track of the buffer", lost);
    }
    FoldPlan plan = engine.folds().plan(false);
    LiveRefold.Result result = LiveRefold.apply(nvim, buffer, plan, a.changedtick());
    double ms = (System.nanoTime() - a.nanos()) / 1e6;
    if (result.outcome() != LiveRefold.Outcome.CHANGED) {
      throw new IllegalStateException("the live refold was not a diff but " + result.outcome());
    }
    long found = ((Number) Await.call(LuaEntry.BENCH_VERIFY.call(nvim, out -> out.packLong(buffer.id())),
        "a live edit")).longValue();
    if (found != plan.size()) {
      throw new IllegalStateException("after a live refold Neovim holds " + (found < 0 ? "extra folds" : found + " of "
          + plan.size() + " folds"));
    }
    return ms;
  }
}
