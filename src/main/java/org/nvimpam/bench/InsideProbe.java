package org.nvimpam.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.strategy.StrategyTimer;

/**
 * {@code bench --floor-row}'s measures of Neovim's own part of the strategies: the inside
 * measures of lua/nvimpam/tools/bench.lua and the replayed requests ({@link WireReplay}), each sampled
 * once after every floor sample of a {@link StrategyTimer}, so that they see the same machine
 * state as the strategies.
 */
final class InsideProbe implements StrategyTimer.AfterFloor {
  /** Warm-up samples of each measure on the first run, as the floor has (LuaJIT compiles late). */
  private static final int WARMUP = 5;

  private final Nvim nvim;
  private final Buffer buffer;
  private final Map<String, List<Double>> samples = new TreeMap<>();
  private List<String> measures; // lua/nvimpam/tools/bench.lua's, asked once
  private FoldPlan plan; // the one being timed
  private WireReplay replay; // its requests, encoded
  private List<String> replayMeasures = List.of();

  InsideProbe(Nvim nvim, Buffer buffer) {
    this.nvim = nvim;
    this.buffer = buffer;
  }

  @Override
  public void sample(FoldPlan plan, boolean first) {
    if (measures == null) {
      measures = StrategyTimer.names(nvim, LuaEntry.BENCH_INSIDE_MEASURES);
    }
    if (plan != this.plan) {
      long window = ((Number) Await.call(nvim.execLua("return vim.fn.bufwinid(...)", out -> {
        out.packArrayHeader(1);
        out.packLong(buffer.id());
      }), "the buffer's window")).longValue();
      replay = new WireReplay(plan, window);
      replayMeasures = WireReplay.measures(nvim);
      this.plan = plan;
    }
    int warmups = first ? WARMUP : 0;
    for (String m : measures) {
      for (int w = 0; w < warmups; w++) {
        StrategyTimer.clear(nvim, buffer);
        StrategyTimer.floorSample(nvim, buffer, m);
      }
      StrategyTimer.clear(nvim, buffer);
      add(m, StrategyTimer.floorSample(nvim, buffer, m));
    }
    for (String m : replayMeasures) {
      for (int w = 0; w < warmups; w++) {
        StrategyTimer.clear(nvim, buffer);
        replay.sample(nvim, m);
      }
      StrategyTimer.clear(nvim, buffer);
      add(m, replay.sample(nvim, m));
      StrategyTimer.verify(nvim, buffer, m, plan); // a replay that made no folds must not look fast either
    }
  }

  private void add(String measure, double ms) {
    samples.computeIfAbsent(measure, k -> new ArrayList<>()).add(ms);
  }

  /** The medians of the floor's other candidates, then of these measures, by name. */
  List<StrategyTimer.Median> rows(StrategyTimer timer) {
    List<StrategyTimer.Median> rows = new ArrayList<>(timer.otherCandidates());
    for (Map.Entry<String, List<Double>> e : samples.entrySet()) {
      rows.add(new StrategyTimer.Median(e.getKey(), StrategyTimer.median(e.getValue())));
    }
    return rows;
  }
}
