package org.nvimpam.plugin;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.nvimpam.deck.Lines;
import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.fold.FoldSet;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.BufferListener;

/**
 * A buffer folded live: Neovim's line events update its fold engine incrementally, and the folds
 * are pushed again after a quiet period, never while the user is typing in insert mode.
 *
 * <p>Events arrive on the RPC dispatcher thread; refreshes run on the scheduler. The engine and
 * the change counters are guarded by this object's lock; pushing happens outside it.
 */
final class LiveBuffer implements BufferListener {
  private static final Logger LOG = Logger.getLogger(LiveBuffer.class.getName());

  /** What a refresh needs from the rest of the plugin. */
  interface Host {
    long debounceMs();

    boolean oneLineFolds();

    /** Whether the user is in insert or replace mode, or Neovim is blocked waiting for input. */
    boolean userIsTyping();

    /**
     * Pushes {@code plan}, the buffer's folds at {@code changedtick} (-1 before the first event
     * with one). With {@code whole} (the first push, :NvimpamFold, a new window) the configured
     * strategy applies it whole; otherwise only the folds that differ from Neovim's are changed.
     */
    FoldSummary push(Buffer buffer, int lines, FoldPlan plan, double parseMs, long changedtick, boolean whole);

    void detached(LiveBuffer buffer);

    /** Stops live folding of a buffer whose events no longer fit the lines we hold. */
    void lost(LiveBuffer buffer, RuntimeException cause);
  }

  private final Buffer buffer;
  private final FoldEngine engine;
  private final ScheduledExecutorService scheduler;
  private final Host host;
  private final Consumer<Throwable> errors;
  private final CompletableFuture<Void> loaded = new CompletableFuture<>();

  private long changes; // bumped by every event with lines
  private long changedtick = -1; // of the last event with one: the tick the engine's folds are of
  private long pushedChanges = -1;
  private FoldSet pushed;
  private double parseMs;
  private ScheduledFuture<?> pending;
  private boolean waitingForInsertLeave;

  LiveBuffer(Buffer buffer, FoldEngine engine, ScheduledExecutorService scheduler, Host host,
      Consumer<Throwable> errors) {
    this.buffer = buffer;
    this.engine = engine;
    this.scheduler = scheduler;
    this.host = host;
    this.errors = errors;
  }

  Buffer buffer() {
    return buffer;
  }

  /** Completes when the initial dump of the buffer has been parsed. */
  CompletableFuture<Void> loaded() {
    return loaded;
  }

  @Override
  public void onLines(Buffer buf, long changedtick, int firstline, int lastline, Lines linedata, boolean more) {
    synchronized (this) {
      long t0 = System.nanoTime();
      try {
        if (lastline == -1) {
          engine.reset(linedata);
        } else {
          engine.apply(firstline, lastline, linedata);
        }
      } catch (RuntimeException e) { // an edit outside the lines we hold: we lost track
        cancel();
        host.lost(this, e);
        return;
      }
      parseMs = (System.nanoTime() - t0) / 1e6;
      changes++;
      if (changedtick >= 0) {
        this.changedtick = changedtick;
      }
    }
    loaded.complete(null);
    // 'inccommand' previews carry no changedtick: keep the lines in step, but fold only real edits.
    if (!more && changedtick >= 0) {
      schedule(host.debounceMs());
    }
  }

  @Override
  public void onDetach(Buffer buf) {
    cancel();
    host.detached(this);
  }

  void insertLeft() {
    boolean due;
    synchronized (this) {
      due = waitingForInsertLeave;
      waitingForInsertLeave = false;
    }
    if (due) {
      schedule(0);
    }
  }

  /** Pushes the folds again even when they did not change (a new window shows the buffer). */
  void forceRefresh() {
    synchronized (this) {
      pushedChanges = -1;
      pushed = null;
    }
    schedule(0);
  }

  synchronized void cancel() {
    if (pending != null) {
      pending.cancel(false);
      pending = null;
    }
  }

  private synchronized void schedule(long delayMs) {
    if (pending != null) {
      pending.cancel(false);
    }
    pending = scheduler.schedule(this::refreshQuietly, delayMs, TimeUnit.MILLISECONDS);
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "live refresh failed", e);
      errors.accept(e);
    }
  }

  /**
   * Pushes the current folds unless the user is typing (then InsertLeave brings us back), nothing
   * changed since the last push, or newer edits arrived meanwhile (their own refresh follows).
   */
  void refresh() {
    push(false);
  }

  /** Pushes the current folds now, whatever the mode and even if unchanged: :NvimpamFold. */
  FoldSummary pushNow() {
    cancel();
    return push(true);
  }

  private FoldSummary push(boolean now) {
    FoldSet folds;
    long snapshot;
    int lines;
    double parse;
    long tick;
    boolean whole;
    synchronized (this) {
      snapshot = changes;
      tick = changedtick;
      whole = pushed == null || now;
      if (!now && snapshot == pushedChanges) {
        return null;
      }
      folds = engine.folds();
      lines = engine.deck().lineCount();
      parse = parseMs;
    }
    if (!now && host.userIsTyping()) {
      synchronized (this) {
        waitingForInsertLeave = true;
      }
      return null;
    }
    // No shortcut for folds equal to the last pushed ones: a refold is what tells Neovim's side
    // the changedtick its folds are of (applied_tick), and equal folds are no proof anyway once
    // lines came or went: Neovim cuts the folds such an edit touches, and an undo does not mend
    // them (dd then u). A refold that finds nothing to change costs no fold command.
    synchronized (this) {
      if (!now && changes != snapshot) {
        return null; // stale: a newer change is already scheduled
      }
    }
    FoldSummary summary = host.push(buffer, lines, folds.plan(host.oneLineFolds()), parse, tick, whole);
    synchronized (this) {
      pushed = folds;
      pushedChanges = snapshot;
    }
    return summary;
  }
}
