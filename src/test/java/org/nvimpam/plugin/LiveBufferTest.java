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
import org.nvimpam.deck.Lines;
import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;

/** What a live buffer does with line events, apart from Neovim (PluginIT covers it with Neovim). */
class LiveBufferTest {
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final List<FoldPlan> pushed = new ArrayList<>();
  private final List<Long> ticks = new ArrayList<>();
  private RuntimeException lost;
  private boolean typing;

  private final LiveBuffer.Host host = new LiveBuffer.Host() {
    @Override
    public long debounceMs() {
      return 1_000_000; // refreshes in these tests are explicit
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
    public FoldSummary push(Buffer buffer, int lines, FoldPlan plan, double parseMs, long changedtick,
        boolean whole) {
      pushed.add(plan);
      ticks.add(whole ? -1 : changedtick);
      return new FoldSummary(buffer.id(), lines, plan.size(), 0, parseMs, 0, "test");
    }

    @Override
    public void detached(LiveBuffer buffer) {}

    @Override
    public void lost(LiveBuffer buffer, RuntimeException cause) {
      lost = cause;
    }
  };

  private final LiveBuffer live = new LiveBuffer(new Buffer(1), new FoldEngine(new FoldOptions(true)), scheduler, host,
      e -> {
        throw new AssertionError(e);
      });

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  private static final Lines NODES = Lines.ofLatin1("NODE  /        1", "NODE  /        2", "NODE  /        3");

  @Test
  void anEventOutsideTheHeldLinesStopsLiveFoldingWithAReason() {
    live.onLines(new Buffer(1), 1, 0, -1, NODES, false);

    live.onLines(new Buffer(1), 2, 10, 12, Lines.ofLatin1("x"), false);

    assertNotNull(lost);
  }

  @Test
  void afterTheFirstPushEveryChangeIsARefoldAtItsChangedtick() {
    live.onLines(new Buffer(1), 1, 0, -1, NODES, false);
    live.refresh();
    live.onLines(new Buffer(1), 2, 1, 2, Lines.ofLatin1("NODE  /        9"), false); // same folds

    live.refresh();

    assertEquals(List.of(-1L, 2L), ticks, "the first push is whole, the next one a refold of tick 2");
  }

  @Test
  void noChangeNoPush() {
    live.onLines(new Buffer(1), 1, 0, -1, NODES, false);
    live.refresh();

    live.refresh();

    assertEquals(1, pushed.size());
  }

  @Test
  void nvimpamFoldPushesTheWholePlan() {
    live.onLines(new Buffer(1), 1, 0, -1, NODES, false);
    live.refresh();
    live.onLines(new Buffer(1), 2, 1, 2, Lines.ofLatin1("NODE  /        9"), false);

    live.pushNow();

    assertEquals(List.of(-1L, -1L), ticks);
  }

  @Test
  void nothingIsPushedWhileTheUserTypesAndTheRefreshFollowsInsertLeave() throws Exception {
    live.onLines(new Buffer(1), 1, 0, -1, NODES, false);
    typing = true;
    live.refresh();
    assertTrue(pushed.isEmpty());

    typing = false;
    live.insertLeft();

    long end = System.currentTimeMillis() + 5000;
    while (pushed.isEmpty() && System.currentTimeMillis() < end) {
      Thread.sleep(5);
    }
    assertEquals(1, pushed.size());
  }
}
