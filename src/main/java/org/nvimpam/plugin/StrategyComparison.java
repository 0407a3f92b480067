package org.nvimpam.plugin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.strategy.FoldStrategies;
import org.nvimpam.strategy.FoldStrategy;
import org.nvimpam.strategy.StrategyTimer;

/**
 * :NvimpamFoldBench: every strategy on the user's buffer in the user's Neovim, so that they can
 * pick one for their deck and Neovim version. The configured strategy folds the buffer again
 * at the end. A product feature, timed by the product's {@link StrategyTimer}; the benchmark
 * tool (org.nvimpam.bench) uses the same timer, never the other way round.
 */
final class StrategyComparison {
  private static final int WARMUP = 1;
  private static final int RUNS = 3;

  private final Nvim nvim;
  private final Settings settings;

  StrategyComparison(Nvim nvim, Settings settings) {
    this.nvim = nvim;
    this.settings = settings;
  }

  List<Map<String, Object>> run(Buffer buffer) {
    FoldPlan plan = FoldParser.parse(BufferLoad.deckOf(nvim, buffer), settings.foldOptions())
        .plan(settings.oneLineFolds());
    StrategyTimer timer = new StrategyTimer(nvim, buffer, WARMUP, RUNS);
    List<FoldStrategy> strategies = new ArrayList<>();
    for (String name : FoldStrategies.names()) {
      strategies.add(FoldStrategies.byName(name));
    }
    List<StrategyTimer.Timing> timings = new ArrayList<>();
    for (StrategyTimer.Outcome o : timer.timeAll(strategies, plan, (name, warm, run, of) -> {})) {
      if (o.failure() != null) {
        throw o.failure();
      }
      timings.add(o.timing());
    }
    StrategyTimer.Median floor = timer.floor();
    settings.newStrategy().apply(nvim, buffer, plan);
    List<Map<String, Object>> rows = new ArrayList<>();
    for (StrategyTimer.Timing t : timings) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("strategy", t.strategy());
      row.put("folds", t.folds());
      row.put("median_ms", t.medianMs());
      row.put("min_ms", t.minMs());
      row.put("max_ms", t.maxMs());
      row.put("bytes_sent", t.bytesSent());
      row.put("floor_ms", floor.ms());
      row.put("floor_method", floor.method());
      rows.add(row);
    }
    return rows;
  }

  /** The rows as an aligned table, with each strategy's ratio to the floor. */
  static List<String> table(List<Map<String, Object>> rows) {
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "%-12s %10s %10s %10s %8s", "strategy", "median ms", "min ms", "max ms",
        "x floor"));
    double floor = 0;
    long folds = 0;
    String method = "";
    for (Map<String, Object> r : rows) {
      floor = ((Number) r.get("floor_ms")).doubleValue();
      method = String.valueOf(r.get("floor_method"));
      folds = ((Number) r.get("folds")).longValue();
      double median = ((Number) r.get("median_ms")).doubleValue();
      lines.add(String.format(Locale.ROOT, "%-12s %10.2f %10.2f %10.2f %8.2f", r.get("strategy"), median,
          ((Number) r.get("min_ms")).doubleValue(), ((Number) r.get("max_ms")).doubleValue(),
          floor > 0 ? median / floor : 0));
    }
    lines.add(String.format(Locale.ROOT, "%s folds; floor (prebuilt commands inside Neovim, %s): %.2f ms",
        Messages.grouped(folds), method, floor));
    return lines;
  }
}
