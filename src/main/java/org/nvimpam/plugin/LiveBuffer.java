package org.nvimpam.plugin;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.nvimpam.deck.Deck;
import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.fold.FoldSet;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.BufferListener;
import org.nvimpam.nvim.StartTrace;
import org.nvimpam.rpc.Log;
import org.nvimpam.strategy.FoldStrategyException;

/**
 * A buffer folded live: its lines are loaded in chunks ({@link BufferLoad}), Neovim's line events
 * then update its fold engine incrementally, and the folds are pushed again, never while the user
 * is typing in insert mode.
 *
 * <p>Debounce: an isolated change refolds at once (leading edge); changes closer together than
 * the debounce time are coalesced into one refold that long after the last of them (trailing
 * edge).
 *
 * <p>Threads and the one lock: events and the load's result arrive on the RPC dispatcher thread,
 * refreshes run on the scheduler, the checks and the id index after them on the host's background
 * thread. Every field below is guarded by this object's monitor, which is
 * never held while calling out (pushing folds, Neovim, the host's callbacks), so it is always the
 * last lock taken.
 *
 * <p>The folds go first: an event updates the fold engine only, and the field checks and the id
 * index take the edit later ({@link #catchUp}), after its refold or before the next edit. Their
 * long work goes in short steps ({@link org.nvimpam.ids.StepSize}) that wait while an edit wants
 * the lock or its refold is due ({@link #yieldToEdits}).
 */
final class LiveBuffer implements BufferLoad.Target, org.nvimpam.ids.IdBuffer {
  private static final Log LOG = Log.of(LiveBuffer.class);

  /** What a refresh needs from the rest of the plugin. */
  interface Host {
    long debounceMs();

    boolean oneLineFolds();

    /** Whether the user is in insert or replace mode, as the last notifications told us. */
    boolean userIsTyping();

    /**
     * Pushes {@code plan}, the buffer's folds at {@code changedtick} (-1 before the first event
     * with one), after the edits and their refresh waited {@code waitedMs} for the buffer's lock.
     * With {@code whole} (the first push, :NvimpamFold, a new window) the configured strategy
     * applies it whole; otherwise only the folds that differ from Neovim's are changed.
     */
    FoldSummary push(Buffer buffer, int lines, FoldPlan plan, double parseMs, double waitedMs, long changedtick,
        boolean whole);

    /** Whether fields are checked (the {@code checks} option), and how many problems Neovim shows. */
    boolean checks();

    int maxDiagnostics();

    /**
     * The version of an open deck that includes this buffer's file, or -1. Called without this
     * buffer's lock held: it reads other buffers.
     */
    int inheritedVersion(LiveBuffer buffer);

    /** This buffer was checked as a whole for the first time: buffers it includes may inherit its version. */
    void checkedFirst(LiveBuffer buffer);

    /** Shows {@code problems} (null: none, the checks are off) as the buffer's diagnostics. */
    void publish(Buffer buffer, long changedtick, org.nvimpam.deck.ProblemItems problems);

    /** Returns once every buffer event Neovim sent so far has been handled (a bounded wait). */
    void awaitEvents();

    /**
     * Runs {@code work} (the checks and the id index after a refresh) on a thread of its own, in
     * order: on the refresh thread, a whole-deck check or index build held up the next refold (at
     * 10M lines, the first edit after opening waited seconds).
     */
    void background(Runnable work);

    /**
     * Whether the current thread is the one {@link #background} runs work on. Only that work waits
     * for a due refold: a call (goto, a new card's id) may come from a Neovim that waits for its
     * answer, and so holds the refold's push up.
     */
    boolean inBackground();

    void detached(LiveBuffer buffer);

    /**
     * Live folding of the buffer stopped: its load failed (an {@link OutOfMemoryError} when the
     * heap ran out) or an event did not fit the lines we hold. The buffer's state is dropped.
     * Returns the failure as the user should read it.
     */
    Throwable lost(LiveBuffer buffer, Throwable cause);
  }

  enum Phase { LOADING, LIVE, CLOSED }

  /** What one refresh did. */
  enum Outcome {
    /** The folds went to Neovim; {@link Refresh#summary()} tells how long it took. */
    PUSHED,
    /** The folds equal those last pushed. */
    UNCHANGED,
    /** The user is typing; the refresh follows InsertLeave. */
    DEFERRED_WHILE_TYPING,
    /** The lines are still loading; the refresh follows the load. */
    LOADING,
    /** A newer edit arrived while the plan was made; its own refresh follows. */
    SUPERSEDED,
    /** Live folding stopped (detached, lost or failed). */
    CLOSED,
  }

  record Refresh(Outcome outcome, FoldSummary summary) {
    static final Refresh UNCHANGED = new Refresh(Outcome.UNCHANGED, null);
    static final Refresh DEFERRED = new Refresh(Outcome.DEFERRED_WHILE_TYPING, null);
    static final Refresh LOADING = new Refresh(Outcome.LOADING, null);
    static final Refresh SUPERSEDED = new Refresh(Outcome.SUPERSEDED, null);
    static final Refresh CLOSED = new Refresh(Outcome.CLOSED, null);
  }

  private final Buffer buffer;
  private FoldEngine engine; // an early read's, once its deck is taken
  private EarlyReads.Read early; // the early read of the buffer's file, or null
  private final ScheduledExecutorService scheduler;
  private final Host host;
  private final Consumer<Throwable> errors;
  private final CompletableFuture<FoldSummary> firstPush = new CompletableFuture<>();
  private final BufferChecks checks = new BufferChecks();
  private final org.nvimpam.ids.BufferIds ids = new org.nvimpam.ids.BufferIds(); // the id index (org.nvimpam.ids)
  private volatile org.nvimpam.ids.IdService idService; // set by the host; null: no id features
  private boolean idsFailed; // the id index threw once: it stays off, the folds go on
  private boolean checksFailed; // the checks threw once: they stay off, the folds go on
  private volatile java.nio.file.Path file; // the buffer's file, for its include files; null when unknown

  private Phase phase = Phase.LOADING;
  private BufferLoad load;
  private BufferLoad.Stats loadStats;
  private long changes; // bumped by every applied event with lines
  private long changedtick = -1; // of the last event with one: the tick the engine's folds are of
  private long pushedChanges = -1;
  private FoldSet pushed;
  private double parseMs;
  private ScheduledFuture<?> pending;
  private long lastEventNanos = Long.MIN_VALUE / 2;
  private boolean waitingForInsertLeave;
  // A change nvimpam applies in parts (Lua's nvimpam.tree.paced) is under way: its partial states
  // are neither refolded nor checked (each refold and the problems of a half-renumbered deck would
  // cost Neovim's main loop between the parts); the end of the hold refreshes once.
  private boolean held;
  private boolean windowsMayDiffer; // lines were deleted since the last push: push even if unchanged
  private long failedDeckBytes;
  private int failedDeckLines;
  // The edit the fold engine took last, not given to the checks and the id index yet; -1: none.
  private int lagFirst = -1;
  private int lagLast;
  private int lagCount;
  private long waitNanos; // what the edits since the last push and their refreshes waited for the lock
  private boolean refreshing; // a refresh is under way
  private boolean pendingAtOnce; // the pending refresh runs without the debounce
  // Outside the lock: an edit or its refold is due, and work in steps lets it go first.
  private final java.util.concurrent.atomic.AtomicInteger waiting = new java.util.concurrent.atomic.AtomicInteger();
  private volatile boolean refoldDue;

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

  void file(java.nio.file.Path f) {
    file = f;
  }

  @Override
  public java.nio.file.Path file() {
    return file;
  }

  /** Starts loading the buffer's lines; the first push follows the load. Returns at once. */
  synchronized void startLoading(org.nvimpam.nvim.Nvim nvim, BufferLoad.Options options, EarlyReads.Read earlyRead) {
    early = earlyRead;
    load = BufferLoad.start(nvim, buffer, this, options, earlyRead);
  }

  /**
   * Completes with the first push once the buffer is loaded and folded, or exceptionally with why
   * it could not be.
   */
  CompletableFuture<FoldSummary> firstPush() {
    return firstPush;
  }

  /** Heap held by the buffer's deck (0 while it loads). */
  synchronized long heldBytes() {
    return phase == Phase.LIVE ? engine.deck().heapBytes() : 0;
  }

  synchronized Phase phase() {
    return phase;
  }

  synchronized BufferLoad.Stats loadStats() {
    return loadStats;
  }

  @Override
  public void onLoaded(Buffer buf, Deck deck, BufferLoad.Stats stats) {
    synchronized (this) {
      if (phase != Phase.LOADING) return;
      long t0 = System.nanoTime();
      FoldEngine folded = early == null ? null : early.engineOf(deck, engine.options());
      double foldedMs = folded == null ? 0 : early.taken().parseMs();
      early = null;
      try {
        if (folded != null) { // the early read folded this deck already
          engine = folded;
        } else {
          engine.load(deck);
        }
      } catch (RuntimeException | OutOfMemoryError e) {
        phase = Phase.CLOSED;
        load = null;
        failedDeckBytes = deck.byteSize() + deck.lineCount();
        failedDeckLines = deck.lineCount();
        lostOutsideLock(e);
        return;
      }
      parseMs = folded != null ? foldedMs : (System.nanoTime() - t0) / 1e6;
      loadStats = stats;
      StartTrace.mark("folded");
      load = null;
      phase = Phase.LIVE;
      changes++;
      schedule(0);
    }
  }

  @Override
  public void onLoadFailed(Buffer buf, Throwable cause, int lines, long deckBytes) {
    synchronized (this) {
      if (phase == Phase.CLOSED) return;
      phase = Phase.CLOSED;
      load = null;
      failedDeckBytes = deckBytes;
      failedDeckLines = lines;
    }
    Throwable reported = host.lost(this, cause);
    firstPush.completeExceptionally(reported);
  }

  /** The size of the deck whose load failed, as Neovim counted it; 0 when unknown. */
  synchronized long failedDeckBytes() {
    return failedDeckBytes;
  }

  synchronized int failedDeckLines() {
    return failedDeckLines;
  }

  @Override
  public void onLines(Buffer buf, long changedtick, int firstline, int lastline, Lines linedata, boolean more) {
    long w0 = wantLock();
    synchronized (this) {
      gotLock(w0);
      if (phase != Phase.LIVE) return;
      long t0 = System.nanoTime();
      try {
        edit(firstline, lastline, linedata);
        if (engine.deck().lineCount() == 0) edit(0, 0, BufferListener.lineLeftWhenEmptied());
      } catch (RuntimeException e) { // an edit outside the lines we hold: we lost track
        phase = Phase.CLOSED;
        cancelPending();
        lostOutsideLock(e);
        return;
      }
      parseMs = (System.nanoTime() - t0) / 1e6;
      changes++;
      if (changedtick >= 0) this.changedtick = changedtick;
      // Neovim deletes the manual folds of deleted lines: after ddP the folds equal those pushed
      // last, but a window lost one. An event that removes lines (net, or more than one replaced)
      // makes the next refresh push even an unchanged fold set.
      int removed = lastline - firstline;
      if (removed > linedata.count() || removed > 1) windowsMayDiffer = true;
      // 'inccommand' previews carry no changedtick: keep the lines in step, but fold only real edits.
      if (more || changedtick < 0) return;
      long now = System.nanoTime();
      long debounceNanos = TimeUnit.MILLISECONDS.toNanos(host.debounceMs());
      boolean isolated = now - lastEventNanos >= debounceNanos; // a pending refresh is replaced either way
      lastEventNanos = now;
      schedule(isolated ? 0 : host.debounceMs());
    }
  }

  /**
   * Lines {@code [first, last)} were replaced by {@code data}: the fold engine takes the edit now,
   * the checks and the id index once its folds are pushed. Holds the lock.
   */
  private void edit(int first, int last, Lines data) {
    catchUp(); // they read the deck as this edit finds it
    engine.apply(first, last, data);
    lagFirst = first;
    lagLast = last;
    lagCount = data.count();
  }

  /**
   * Gives the checks and the id index the edit the folds took last. Every use of either calls it
   * first: they follow the deck one edit behind the folds, and only while no later edit has
   * changed it. Holds the lock.
   */
  private void catchUp() {
    if (lagFirst < 0) return;
    int first = lagFirst;
    lagFirst = -1;
    checkEdit(first, lagLast, lagCount);
    idEdit(first, lagLast, lagCount);
  }

  /**
   * Called before each step of work in steps, without the lock: waits while an edit wants the lock
   * or (on the background thread) its refold is due, so that they never wait for more than the
   * step under way (the monitor is not fair: a thread that takes it again at once keeps a waiting
   * edit out). At most a second, as a refold may wait for a Neovim at a prompt.
   */
  private void yieldToEdits() {
    boolean background = host.inBackground();
    long end = System.nanoTime() + YIELD_NANOS;
    while (((background && refoldDue) || waiting.get() > 0) && System.nanoTime() - end < 0) {
      java.util.concurrent.locks.LockSupport.parkNanos(100_000);
    }
  }

  private static final long YIELD_NANOS = 1_000_000_000L;

  /** Before an edit or its refold takes the lock: steps let it in first. Returns when it began to wait. */
  private long wantLock() {
    waiting.incrementAndGet();
    return System.nanoTime();
  }

  /** The lock is taken, after waiting since {@code since}: that wait counts against the next refold. */
  private void gotLock(long since) {
    waiting.decrementAndGet();
    waitNanos += System.nanoTime() - since;
  }

  /** Whether an edit's refold is under way or due at once. Holds the lock. */
  private void updateDue() {
    refoldDue = phase == Phase.LIVE && (refreshing || (pending != null && pendingAtOnce));
  }

  /** Checks the cards an edit touched; a failure stops the checks, never the folds. Holds the lock. */
  private void checkEdit(int first, int last, int count) {
    try {
      checks.edited(engine.deck(), first, last, count);
    } catch (RuntimeException e) {
      checks.drop();
      checksFailed = true;
      LOG.warning("field checks of buffer " + buffer.id() + " failed", e);
      scheduler.execute(() -> errors.accept(new IllegalStateException("field checks stopped for this buffer: "
          + e.getMessage(), e)));
    }
  }

  /** Updates the id index from the cards an edit touched; a failure stops the ids, never the folds. Holds the lock. */
  private void idEdit(int first, int last, int count) {
    if (idsFailed || idService == null) return;
    try {
      ids.edited(engine.deck(), first, last, count);
    } catch (RuntimeException e) {
      idsFailed = true;
      LOG.warning("id index of buffer " + buffer.id() + " failed", e);
      scheduler.execute(() -> errors.accept(new IllegalStateException("ids stopped for this buffer: " + e.getMessage(), e)));
    }
  }

  /** Turns the id features on for this buffer (the index is built after the first folds). */
  void idService(org.nvimpam.ids.IdService s) {
    idService = s;
  }

  /** Builds or updates the id index off Neovim's main loop and sends the cross-reference problems. */
  void publishIds() {
    org.nvimpam.ids.IdService s = idService;
    synchronized (this) {
      if (s == null || idsFailed || phase != Phase.LIVE) return;
    }
    try {
      org.nvimpam.deck.CardLayouts.bundled(); // read out of the lock (see publishChecksOrThrow), for the checks off
      s.publish(this);
    } catch (RuntimeException e) {
      synchronized (this) {
        idsFailed = true;
      }
      LOG.warning("id index of buffer " + buffer.id() + " failed", e);
      errors.accept(new IllegalStateException("ids stopped for this buffer: " + e.getMessage(), e));
    }
  }

  @Override
  public long bufferId() {
    return buffer.id();
  }

  @Override
  public <T> T withIds(java.util.function.BiFunction<org.nvimpam.ids.BufferIds, org.nvimpam.lines.LineSource, T> f) {
    wantLock(); // a call (goto, a check) goes before the next step of work in steps
    synchronized (this) {
      waiting.decrementAndGet();
      if (phase != Phase.LIVE) return null;
      catchUp();
      return idsFailed ? null : f.apply(ids, engine.deck());
    }
  }

  @Override
  public void inSteps(org.nvimpam.ids.IdBuffer.Step step) {
    org.nvimpam.ids.StepSize size = new org.nvimpam.ids.StepSize();
    while (true) {
      yieldToEdits();
      synchronized (this) {
        if (phase != Phase.LIVE) return;
        catchUp();
        if (idsFailed) return;
        long t0 = org.nvimpam.ids.StepSize.now();
        boolean done = step.step(ids, engine.deck(), size.lines());
        size.took(org.nvimpam.ids.StepSize.now() - t0);
        if (done) return;
      }
    }
  }

  /** The host's callbacks run outside the lock; this one is handed to the scheduler. */
  private void lostOutsideLock(Throwable e) {
    scheduler.execute(() -> firstPush.completeExceptionally(host.lost(this, e)));
  }

  @Override
  public void onDetach(Buffer buf) {
    close();
    host.detached(this);
  }

  /** Stops live folding: no more refreshes, a load in progress is abandoned. */
  void close() {
    BufferLoad l;
    synchronized (this) {
      phase = Phase.CLOSED;
      cancelPending();
      updateDue();
      l = load;
      load = null;
    }
    if (l != null) l.cancel();
    firstPush.completeExceptionally(new IllegalStateException("live folding of buffer " + buffer.id() + " stopped"));
  }

  /** Holds (or, {@code on} false, releases and refreshes at once) the refolds and checks. */
  synchronized void hold(boolean on) {
    if (held == on) return;
    held = on;
    if (on) {
      cancelPending();
      updateDue();
    } else {
      schedule(0);
    }
  }

  synchronized void insertLeft() {
    if (waitingForInsertLeave) {
      waitingForInsertLeave = false;
      schedule(0);
    }
  }

  /** Pushes the folds again even when they did not change (a new window shows the buffer). */
  synchronized void forceRefresh() {
    pushedChanges = -1;
    pushed = null;
    if (phase == Phase.LIVE) schedule(0);
  }

  private void cancelPending() {
    if (pending != null) {
      pending.cancel(false);
      pending = null;
    }
  }

  private void schedule(long delayMs) {
    cancelPending();
    if (phase == Phase.LIVE && !held) {
      pending = scheduler.schedule(this::refreshQuietly, delayMs, TimeUnit.MILLISECONDS);
      pendingAtOnce = delayMs == 0;
    }
    updateDue();
  }

  private void refreshQuietly() {
    long w0 = wantLock();
    synchronized (this) {
      gotLock(w0);
      pending = null;
      refreshing = true;
      updateDue();
    }
    Refresh r = null;
    try {
      r = refresh(false);
      if (r.outcome() == Outcome.PUSHED && firstPush.complete(r.summary())) StartTrace.mark("pushed");
    } catch (RuntimeException e) {
      LOG.fine("live refresh failed", e);
      firstPush.completeExceptionally(e);
      errors.accept(e);
    } finally {
      synchronized (this) {
        refreshing = false;
        updateDue();
      }
    }
    if (r != null && (r.outcome() == Outcome.PUSHED || r.outcome() == Outcome.UNCHANGED)) {
      host.background(this::publishAfterRefresh); // the edits' checks and ids, now that the folds are in place
    }
  }

  /** What a refresh that pushed (or found nothing to push) leads to, off the refresh thread. */
  private void publishAfterRefresh() {
    publishChecks();
    publishIds();
  }

  /**
   * Checks the deck's fields (as a whole the first time, after its first folds) and sends Neovim
   * the problems if they changed; clears them when the checks were turned off.
   */
  void publishChecks() {
    try {
      publishChecksOrThrow();
    } catch (RuntimeException e) { // a broken table or a bug in the checks must never stop the folds
      synchronized (this) {
        checks.drop();
        checksFailed = true;
      }
      LOG.warning("field checks of buffer " + buffer.id() + " failed", e);
      errors.accept(new IllegalStateException("field checks stopped for this buffer: " + e.getMessage(), e));
    }
  }

  private void publishChecksOrThrow() {
    boolean first;
    synchronized (this) {
      if (phase != Phase.LIVE) return;
      if (checksFailed) return;
      catchUp();
      first = host.checks() && !checks.checked();
    }
    int inherited = first ? host.inheritedVersion(this) : -1;
    // The table is read at its first use, out of the lock: in the first step, its 130-180 ms of CPU
    // (0.7 s of wall time on a busy machine) held up the first edits after the open.
    if (first) org.nvimpam.deck.CardLayouts.bundled();
    // The whole check goes in steps (a 10M-line deck: 1.4 s), the lock let go in between, so that
    // an edit waits for one step at most; the edits made meanwhile are followed.
    boolean ours = false; // this call finished the whole check (not another one meanwhile)
    org.nvimpam.ids.StepSize size = new org.nvimpam.ids.StepSize();
    while (first) {
      yieldToEdits();
      synchronized (this) {
        if (phase != Phase.LIVE) break;
        catchUp();
        if (!host.checks() || checks.checked()) break;
        long t0 = org.nvimpam.ids.StepSize.now();
        boolean done = checks.checkMore(engine.deck(), inherited, size.lines());
        size.took(org.nvimpam.ids.StepSize.now() - t0);
        if (done) {
          ours = true;
          break;
        }
      }
    }
    org.nvimpam.deck.ProblemItems s;
    long tick;
    synchronized (this) {
      if (phase != Phase.LIVE) return;
      catchUp();
      if (!host.checks()) {
        if (!checks.checked() && !checks.checking()) return;
        checks.drop();
        s = null;
      } else {
        if (!checks.checked()) {
          checks.checkMore(engine.deck(), inherited, Integer.MAX_VALUE);
          ours = true;
        }
        first = first && ours;
        s = checks.changedSnapshot(engine.deck(), host.maxDiagnostics());
        if (s == null && !first) return;
      }
      tick = changedtick;
    }
    if (s != null || !host.checks()) host.publish(buffer, tick, s);
    if (first) host.checkedFirst(this);
  }

  /** The version this deck declares (-1: none), once it was checked. */
  synchronized int declaredVersion() {
    catchUp();
    return checks.checked() ? checks.declared() : -1;
  }

  /** The files this deck's INCLU lines name, as written. */
  synchronized java.util.List<String> includes() {
    if (phase != Phase.LIVE) return java.util.List.of();
    catchUp();
    // The id index keeps them across edits (a read of a 10M-line deck: 0.25 s); without it, read now.
    java.util.List<org.nvimpam.deck.IncludeLine> l = idService != null && !idsFailed
        ? ids.includes(engine.deck()) : org.nvimpam.deck.IncludeLine.of(engine.deck());
    return l.stream().map(org.nvimpam.deck.IncludeLine::name).toList();
  }

  /** An including deck's version reached this one: check it again if that changes its version. */
  void inherit(int version) {
    synchronized (this) {
      if (phase != Phase.LIVE) return;
      catchUp();
      if ((!checks.checked() && !checks.checking()) || !checks.inherit(version, engine.deck())) return;
    }
    publishChecks();
  }

  /** The problems now (checking the whole deck first if that was not done), for :NvimpamCheck. */
  org.nvimpam.deck.ProblemItems problems(int cap) {
    boolean first;
    synchronized (this) {
      if (phase != Phase.LIVE) return null;
      catchUp();
      first = !checks.checked();
    }
    int inherited = first ? host.inheritedVersion(this) : -1;
    synchronized (this) {
      if (phase != Phase.LIVE) return null;
      catchUp();
      checks.checkMore(engine.deck(), inherited, Integer.MAX_VALUE);
      return checks.snapshot(engine.deck(), cap);
    }
  }

  /** Whether changes newer than {@code version} arrived, counting the events still in flight. */
  private boolean outrun(long version) {
    host.awaitEvents();
    synchronized (this) {
      return changes != version;
    }
  }

  /** Pushes the current folds now, whatever the mode and even if unchanged: :NvimpamFold. */
  Refresh pushNow() {
    synchronized (this) {
      cancelPending();
    }
    return refresh(true);
  }

  /**
   * Pushes the current folds unless ({@code force} aside) the user is typing, or they equal the
   * folds last pushed.
   */
  Refresh refresh(boolean force) {
    FoldSet folds;
    long version;
    int lines;
    double parse;
    long tick;
    boolean whole;
    long w0 = wantLock();
    synchronized (this) {
      gotLock(w0);
      if (phase == Phase.LOADING) return Refresh.LOADING;
      if (phase == Phase.CLOSED) return Refresh.CLOSED;
      if (!force && host.userIsTyping()) {
        waitingForInsertLeave = true;
        return Refresh.DEFERRED;
      }
      if (!force && changes == pushedChanges) return Refresh.UNCHANGED;
      folds = engine.folds();
      version = changes;
      lines = engine.deck().lineCount();
      parse = parseMs;
      tick = changedtick;
      whole = force || pushed == null;
      // Equal folds in the JVM are no proof that Neovim's are right (it cuts the folds an edit
      // touches, and an undo does not mend them): once live, a change always refolds. A refold
      // that finds nothing to change costs no fold command, and tells Neovim's side the changedtick
      // its folds are of (applied_tick). Only a whole push is skipped for equal folds.
      if (!force && (whole || tick < 0) && !windowsMayDiffer && folds.equals(pushed)) {
        pushedChanges = version;
        return Refresh.UNCHANGED;
      }
    }
    FoldPlan plan = folds.plan(host.oneLineFolds());
    double waitedMs;
    w0 = wantLock();
    synchronized (this) {
      gotLock(w0);
      // A plan for an older text only risks lines that are gone (E16); the newer edit's refresh follows.
      if (!force && changes != version) return Refresh.SUPERSEDED;
      windowsMayDiffer = false; // this push brings every window in line
      waitedMs = waitNanos / 1e6;
      waitNanos = 0;
    }
    FoldSummary summary;
    try {
      summary = host.push(buffer, lines, plan, parse, waitedMs, tick, whole);
    } catch (FoldStrategyException | Folder.FoldFailure e) {
      if (force || !outrun(version)) throw e;
      // The text changed while the plan was on its way, so it failed on lines that are gone
      // (E16): nothing is wrong, and the refresh of that newer change follows.
      LOG.fine("a plan the buffer outran failed; the newer refresh follows", e);
      return Refresh.SUPERSEDED;
    }
    synchronized (this) {
      if (version > pushedChanges) {
        pushed = folds;
        pushedChanges = version;
      }
    }
    return new Refresh(Outcome.PUSHED, summary);
  }
}
