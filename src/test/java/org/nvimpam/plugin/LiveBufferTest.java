package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.deck.Deck;
import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;

/** What a live buffer does with line events, apart from Neovim (PluginIT covers it with Neovim). */
class LiveBufferTest {
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final List<FoldPlan> pushed = new ArrayList<>();
  private final List<Boolean> whole = new java.util.concurrent.CopyOnWriteArrayList<>();
  private volatile Throwable lost;
  private volatile boolean typing;
  private volatile Runnable duringPush; // runs inside push(), as Neovim's events would cross it
  private volatile RuntimeException pushFails;
  private final List<Throwable> reported = new java.util.concurrent.CopyOnWriteArrayList<>();
  private volatile long debounceMs = 1_000_000; // refreshes in most tests are explicit
  private volatile boolean checksOn; // DiagnosticsIT covers the checks, with Neovim; one test here their order
  private volatile java.util.concurrent.Executor background = Runnable::run; // at once, in order, as the host's one thread runs it
  private volatile java.util.function.IntUnaryOperator inherited = x -> -1; // called before a whole check, off the lock
  private final List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>(); // pushes and the checks' steps
  private volatile Thread checker; // the checks' own thread, where a test gives them one

  private final LiveBuffer.Host host = new LiveBuffer.Host() {
    @Override
    public long debounceMs() {
      return debounceMs;
    }

    @Override
    public boolean oneLineFolds() {
      return false;
    }

    @Override
    public boolean userIsTyping() {
      return typing;
    }

    @Override
    public FoldSummary push(Buffer buffer, int lines, FoldPlan plan, double parseMs, double waitedMs,
        long changedtick, boolean whole) {
      LiveBufferTest.this.whole.add(whole);
      pushed.add(plan);
      order.add("push");
      Runnable r = duringPush;
      duringPush = null;
      if (r != null) r.run();
      RuntimeException f = pushFails;
      pushFails = null;
      if (f != null) throw f;
      return new FoldSummary(buffer.id(), lines, plan.size(), 0, parseMs, waitedMs, 0, "test");
    }

    @Override
    public boolean checks() {
      if (Thread.currentThread() == checker) order.add("checks");
      return checksOn;
    }

    @Override
    public int maxDiagnostics() {
      return 0;
    }

    @Override
    public int inheritedVersion(LiveBuffer buffer) {
      return inherited.applyAsInt(0);
    }

    @Override
    public void checkedFirst(LiveBuffer buffer) {}

    @Override
    public void publish(Buffer buffer, long changedtick, org.nvimpam.deck.ProblemItems problems) {
      published = true;
    }

    @Override
    public void awaitEvents() {} // events reach this test's buffer synchronously

    @Override
    public void background(Runnable work) {
      background.execute(work);
    }

    @Override
    public boolean inBackground() {
      return Thread.currentThread() == checker;
    }

    @Override
    public void detached(LiveBuffer buffer) {}

    @Override
    public Throwable lost(LiveBuffer buffer, Throwable cause) {
      lost = cause;
      return cause;
    }
  };

  private final LiveBuffer live = new LiveBuffer(new Buffer(1), new FoldEngine(new FoldOptions(true)), scheduler, host,
      e -> {
        reported.add(e);
        throw new AssertionError(e);
      });

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  private static final Lines NODES = Lines.ofLatin1("NODE  /        1", "NODE  /        2", "NODE  /        3");

  private void load(Lines lines) {
    live.onLoaded(new Buffer(1), Deck.of(lines), new BufferLoad.Stats(lines.count(), lines.byteSize(), 1, 0, 0, 0));
  }

  @Test
  void anEventOutsideTheHeldLinesStopsLiveFoldingWithAReason() throws Exception {
    load(NODES);

    live.onLines(new Buffer(1), 2, 10, 12, Lines.ofLatin1("x"), false);

    long end = System.currentTimeMillis() + 5000; // reported from the scheduler, outside the lock
    while (lost == null && System.currentTimeMillis() < end) Thread.sleep(5);
    assertNotNull(lost);
    assertEquals(LiveBuffer.Phase.CLOSED, live.phase());
  }

  @Test
  void unchangedFoldsAreNotPushedWholeAgainButRefolded() throws Exception {
    load(NODES);
    live.firstPush().get(5, java.util.concurrent.TimeUnit.SECONDS); // the load's own push
    live.onLines(new Buffer(1), 2, 1, 2, Lines.ofLatin1("NODE  /        9"), false); // same folds

    long end = System.currentTimeMillis() + 5000;
    while (pushed.size() < 2 && System.currentTimeMillis() < end) Thread.sleep(5);

    // Neovim's side must hear of every change (it alone knows what its folds became); a refold
    // that finds nothing to change costs nothing there.
    assertEquals(List.of(true, false), whole, "the first push is whole, the one after the edit a refold");
  }

  @Test
  void aPlanTheBufferOutranFailsQuietlyAndTheNewerChangeIsRefolded() throws Exception {
    debounceMs = 20; // the newer change comes within the debounce: its refresh is the trailing one
    load(NODES);
    live.firstPush().get(5, java.util.concurrent.TimeUnit.SECONDS); // the load's own push
    duringPush = () -> live.onLines(new Buffer(1), 4, 2, 3, Lines.ofLatin1(), false); // a newer delete
    pushFails = new org.nvimpam.strategy.FoldStrategyException("lua", 2, "E16: Invalid range", null);
    live.onLines(new Buffer(1), 3, 3, 3, Lines.ofLatin1("SHELL /        1"), false);

    long end = System.currentTimeMillis() + 5000;
    while (pushed.size() < 3 && System.currentTimeMillis() < end) Thread.sleep(5);
    assertEquals(3, pushed.size(), "the load's push, the one the buffer outran, the newer change's");
    assertEquals(List.of(), reported, "a plan for lines that are gone is no error the user can act on");
  }

  @Test
  void aPushThatFailsAtTheBuffersOwnTextIsReported() throws Exception {
    load(NODES);
    live.firstPush().get(5, java.util.concurrent.TimeUnit.SECONDS);
    pushFails = new org.nvimpam.strategy.FoldStrategyException("lua", 0, "E16: Invalid range", null);
    live.onLines(new Buffer(1), 3, 3, 3, Lines.ofLatin1("SHELL /        1"), false);

    long end = System.currentTimeMillis() + 5000;
    while (reported.isEmpty() && System.currentTimeMillis() < end) Thread.sleep(5);
    assertEquals(1, reported.size());
  }

  @Test
  void nothingIsPushedWhileTheUserTypesAndTheRefreshFollowsInsertLeave() throws Exception {
    typing = true; // before the load, whose push would otherwise race with it
    load(NODES);
    assertEquals(LiveBuffer.Outcome.DEFERRED_WHILE_TYPING, live.refresh(false).outcome());
    assertTrue(pushed.isEmpty());

    typing = false;
    live.insertLeft();

    long end = System.currentTimeMillis() + 5000;
    while (pushed.isEmpty() && System.currentTimeMillis() < end) {
      Thread.sleep(5);
    }
    assertEquals(1, pushed.size());
  }

  @Test
  void aHeldBufferIsNeitherRefoldedNorCheckedUntilReleasedThenOnce() throws Exception {
    load(NODES);
    live.firstPush().get(5, java.util.concurrent.TimeUnit.SECONDS); // the load's own push
    int checked = order.size();
    live.hold(true); // a change in parts (Lua's nvimpam.tree.paced) begins
    for (int i = 0; i < 5; i++) { // isolated changes, each of which would refold at once
      live.onLines(new Buffer(1), 2, 3, 3, Lines.ofLatin1(i % 2 == 0 ? "SHELL /        1" : "BEAM  /        1"), false);
      Thread.sleep(60);
    }
    Thread.sleep(200);
    assertEquals(1, pushed.size(), "no refold of a partial state");
    assertEquals(checked, order.size(), "no check of a partial state: " + order);
    live.hold(false);
    long end = System.currentTimeMillis() + 5000;
    while (pushed.size() < 2 && System.currentTimeMillis() < end) Thread.sleep(5);
    Thread.sleep(200);
    assertEquals(2, pushed.size(), "one refold of the result");
  }

  @Test
  void anIsolatedChangeRefoldsAtOnceWithoutWaitingForTheDebounce() throws Exception {
    load(NODES);
    live.firstPush().get(5, java.util.concurrent.TimeUnit.SECONDS); // the load's own push
    // A debounce far longer than the test: only a leading-edge refresh can push in time.
    live.onLines(new Buffer(1), 2, 3, 3, Lines.ofLatin1("SHELL /        1"), false);

    long end = System.currentTimeMillis() + 5000;
    while (pushed.size() < 2 && System.currentTimeMillis() < end) Thread.sleep(5);
    assertEquals(2, pushed.size());
  }

  @Test
  void aBurstOfChangesIsCoalescedIntoOneRefoldAfterTheLast() throws Exception {
    load(NODES);
    live.firstPush().get(5, java.util.concurrent.TimeUnit.SECONDS); // the load's own push
    debounceMs = 1500; // long enough that a slow machine still delivers the burst within it
    String[] kinds = {"SHELL /        1", "BEAM  /        1", "SOLID /        1", "SHELL /        2"};
    live.onLines(new Buffer(1), 2, 3, 3, Lines.ofLatin1(kinds[0]), false); // leading edge: pushed at once
    long end = System.currentTimeMillis() + 5000;
    while (pushed.size() < 2 && System.currentTimeMillis() < end) Thread.sleep(5);
    for (int i = 1; i < kinds.length; i++) { // each within the debounce of the one before
      live.onLines(new Buffer(1), 3 + i, 3 + i, 3 + i, Lines.ofLatin1(kinds[i]), false);
    }
    end = System.currentTimeMillis() + 10_000;
    while (pushed.size() < 3 && System.currentTimeMillis() < end) Thread.sleep(5);
    Thread.sleep(1600); // more than the debounce: a second trailing push would have come by now
    assertEquals(3, pushed.size());
  }

  @Test
  void anEditMadeWhileTheDeckIsCheckedIsRefoldedBeforeTheNextStepOfTheCheck() throws Exception {
    String[] nodes = new String[20_000]; // a whole check of several steps
    for (int i = 0; i < nodes.length; i++) nodes[i] = String.format("NODE  / %8d", i + 1);
    java.util.concurrent.ExecutorService own = java.util.concurrent.Executors.newSingleThreadExecutor(r -> checker = new Thread(r));
    try {
      checksOn = true;
      background = own;
      inherited = x -> { // on the checks' thread, before their first step: an edit comes
        inherited = y -> -1;
        order.add("edit");
        // The refold may run once the checks' thread waits (for it, or between two steps).
        scheduler.execute(() -> {
          long end = System.nanoTime() + 5_000_000_000L;
          while (System.nanoTime() < end && checker.getState() != Thread.State.WAITING
              && checker.getState() != Thread.State.TIMED_WAITING) Thread.onSpinWait();
        });
        live.onLines(new Buffer(1), 2, 5, 5, Lines.ofLatin1("SHELL /        1"), false);
        return -1;
      };
      load(Lines.ofLatin1(nodes));
      long end = System.currentTimeMillis() + 10_000;
      while (!published && System.currentTimeMillis() < end) Thread.sleep(5); // the whole check is done
      own.submit(() -> {}).get(10, java.util.concurrent.TimeUnit.SECONDS); // and what was queued after it

      List<String> afterEdit = order.subList(order.indexOf("edit"), order.size());
      assertEquals("push", afterEdit.stream().filter(e -> !e.equals("edit")).findFirst().orElse("none"),
          "the edit's refold comes before the next step of the check: " + order);
      assertTrue(afterEdit.stream().filter(e -> e.equals("checks")).count() > 2, "the check went on in steps: " + order);
    } finally {
      own.shutdownNow();
    }
  }

  private volatile boolean published;

  @Test
  void aRefreshWhileLoadingSaysSoAndThePushFollowsTheLoad() throws Exception {
    assertEquals(LiveBuffer.Outcome.LOADING, live.refresh(false).outcome());
    load(NODES);
    FoldSummary first = live.firstPush().get(5, java.util.concurrent.TimeUnit.SECONDS);
    assertEquals(3, first.lines());
  }

  @Test
  void deletedLinesArePushedAgainEvenWhenTheFoldsEndUpUnchanged() throws Exception {
    load(NODES);
    live.firstPush().get(5, java.util.concurrent.TimeUnit.SECONDS);
    // ddP: the card deleted and put back. Neovim dropped the fold with the deleted lines.
    typing = true; // holds the scheduled refreshes back, so that only the explicit one below runs
    live.onLines(new Buffer(1), 2, 0, 3, Lines.empty(), false);
    live.onLines(new Buffer(1), 3, 0, 0, NODES, false);
    Thread.sleep(100);
    typing = false;

    assertEquals(LiveBuffer.Outcome.PUSHED, live.refresh(false).outcome());
    assertEquals(pushed.get(0).size(), pushed.get(1).size());
    live.onLines(new Buffer(1), 4, 1, 2, Lines.ofLatin1("NODE  /        9"), false); // a line typed over
    long end = System.currentTimeMillis() + 5000;
    while (pushed.size() < 3 && System.currentTimeMillis() < end) Thread.sleep(5);
    assertEquals(false, whole.get(whole.size() - 1), "a line typed over is refolded, not pushed whole");
  }
}
