package org.nvimpam.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;

/**
 * Times fold strategies on one buffer of a running Neovim. Every run starts from a cleared fold
 * state and ends with a check that Neovim holds exactly the plan's folds, so that a broken
 * strategy cannot look fast. Times run from the first byte sent until Neovim's last reply.
 */
public final class StrategyTimer {
  /** Medians and extremes of the runs after warm-up, in milliseconds. */
  public record Timing(String strategy, int folds, double medianMs, double minMs, double maxMs, long bytesSent) {}

  private static final int FLOOR_WARMUP = 5;

  private final Nvim nvim;
  private final Buffer buffer;
  private final int warmup;
  private final int runs;
  private final Map<String, List<Double>> floorSamples = new TreeMap<>();
  private final AfterFloor afterFloor;
  private int floorWarmups;
  private List<String> candidates; // the floor's, from lua/nvimpam/tools/bench.lua

  /**
   * More samples taken after each measured run's floor, on the same machine state: the
   * benchmark's measures of Neovim's own part of the strategies (org.nvimpam.bench.InsideProbe).
   */
  @FunctionalInterface
  public interface AfterFloor {
    /** Samples for {@code plan}; {@code first} on the first measured run, for warming up. */
    void sample(FoldPlan plan, boolean first);
  }

  public StrategyTimer(Nvim nvim, Buffer buffer, int warmup, int runs) {
    this(nvim, buffer, warmup, runs, (plan, first) -> {});
  }

  public StrategyTimer(Nvim nvim, Buffer buffer, int warmup, int runs, AfterFloor afterFloor) {
    if (runs < 1 || warmup < 0) {
      throw new IllegalArgumentException("need runs >= 1 and warmup >= 0, got " + runs + " and " + warmup);
    }
    this.nvim = nvim;
    this.buffer = buffer;
    this.warmup = warmup;
    this.runs = runs;
    this.afterFloor = afterFloor;
  }

  /** Told before each run; {@code run} counts from 1, warm-up runs first. */
  @FunctionalInterface
  public interface RunListener {
    void beforeRun(String strategy, boolean warmup, int run, int of);
  }

  /** A strategy's timing, or why it failed (then the others went on without it). */
  public record Outcome(FoldStrategy strategy, Timing timing, RuntimeException failure) {}

  /**
   * Times the strategies in rounds: each round runs every strategy once, warm-up rounds first, so
   * that they share the machine's state and the JVM's warming up (the strategy timed first used to
   * pay 15-25% more at 10k folds). A strategy that fails leaves the rounds; should Neovim be gone,
   * timing stops there.
   */
  public List<Outcome> timeAll(List<FoldStrategy> strategies, FoldPlan plan, RunListener listener) {
    int n = strategies.size();
    double[][] ms = new double[n][runs];
    long[] bytes = new long[n];
    RuntimeException[] failures = new RuntimeException[n];
    rounds:
    for (int r = -warmup; r < runs; r++) {
      for (int s = 0; s < n; s++) {
        if (failures[s] != null) {
          continue;
        }
        FoldStrategy strategy = strategies.get(s);
        if (r < 0) {
          listener.beforeRun(strategy.name(), true, r + warmup + 1, warmup);
        } else {
          listener.beforeRun(strategy.name(), false, r + 1, runs);
        }
        try {
          lua(nvim, buffer, LuaEntry.BENCH_RESET);
          long sent0 = nvim.rpc().bytesWritten();
          long t0 = System.nanoTime();
          strategy.apply(nvim, buffer, plan);
          long t1 = System.nanoTime();
          long sent = nvim.rpc().bytesWritten() - sent0;
          verify(nvim, buffer, strategy.name(), plan);
          if (r >= 0) {
            ms[s][r] = (t1 - t0) / 1e6;
            bytes[s] = sent;
            floorRun(plan); // after every run, so the floor sees the same machine state
          }
        } catch (RuntimeException e) {
          failures[s] = e;
          if (nvim.rpc().isClosed()) {
            break rounds;
          }
        }
      }
    }
    List<Outcome> outcomes = new ArrayList<>();
    for (int s = 0; s < n; s++) {
      FoldStrategy strategy = strategies.get(s);
      if (failures[s] != null) {
        outcomes.add(new Outcome(strategy, null, failures[s]));
      } else if (nvim.rpc().isClosed()) {
        outcomes.add(new Outcome(strategy, null, new IllegalStateException("Neovim exited")));
      } else {
        double[] sorted = ms[s].clone();
        Arrays.sort(sorted);
        outcomes.add(new Outcome(strategy, new Timing(strategy.name(), plan.size(), median(sorted), sorted[0],
            sorted[sorted.length - 1], bytes[s]), null));
      }
    }
    return outcomes;
  }

  /**
   * The floor: the fastest known way to create the plan's folds inside Neovim from prebuilt {@code
   * S,Efold} strings (see lua/nvimpam/tools/bench.lua for the candidates), each sampled once after every
   * measured run of {@link #timeAll}. The floor is the candidate with the lowest median on this
   * Neovim. Call after {@link #timeAll}.
   */
  public Median floor() {
    if (floorSamples.isEmpty()) {
      throw new IllegalStateException("no floor sample: time a strategy first");
    }
    Median best = null;
    for (Map.Entry<String, List<Double>> e : floorSamples.entrySet()) {
      double ms = median(e.getValue());
      if (best == null || ms < best.ms()) {
        best = new Median(e.getKey(), ms);
      }
    }
    return best;
  }

  /** The median of a measure in Neovim (the floor, or one of its candidates), by the name of its method. */
  public record Median(String method, double ms) {}

  /** The median of every candidate of the floor but the fastest, by name. */
  public List<Median> otherCandidates() {
    String floor = floorSamples.isEmpty() ? null : floor().method();
    List<Median> out = new ArrayList<>();
    for (Map.Entry<String, List<Double>> e : floorSamples.entrySet()) {
      if (!e.getKey().equals(floor)) {
        out.add(new Median(e.getKey(), median(e.getValue())));
      }
    }
    return out;
  }

  public double floorMs() {
    return floor().ms();
  }

  private void floorRun(FoldPlan plan) {
    // The defaults: the strategies' own lines, which execute-joined and the inside rows run.
    Await.call(LuaEntry.BENCH_FLOOR_PREPARE.call(nvim, out -> {
      out.packLong(buffer.id());
      out.packInt(NotifiedCommandsStrategy.DEFAULT_CHUNK);
      out.packInt(SingleCallStrategy.DEFAULT_PER_LINE);
    }), "preparing the floor's commands");
    if (candidates == null) { // the same on every run: asked once
      candidates = names(nvim, LuaEntry.BENCH_FLOOR_CANDIDATES);
    }
    for (String c : candidates) {
      // LuaJIT compiles a loop after ~56 iterations: on small decks the first calls run interpreted.
      for (int w = floorWarmups; w < FLOOR_WARMUP; w++) {
        clear(nvim, buffer);
        floorSample(nvim, buffer, c);
      }
      clear(nvim, buffer); // in its own request, as the strategies' reset
      floorSamples.computeIfAbsent(c, k -> new ArrayList<>()).add(floorSample(nvim, buffer, c));
    }
    afterFloor.sample(plan, floorWarmups < FLOOR_WARMUP);
    floorWarmups = FLOOR_WARMUP;
  }

  /** The names a function of lua/nvimpam/tools/bench.lua lists. */
  public static List<String> names(Nvim nvim, LuaEntry entry) {
    List<String> names = new ArrayList<>();
    for (Object o : (List<?>) Await.call(entry.call(nvim), entry.toString())) {
      names.add(String.valueOf(o));
    }
    return names;
  }

  /** One sample of a way to make the folds inside Neovim, by its name in lua/nvimpam/tools/bench.lua. */
  public static double floorSample(Nvim nvim, Buffer buffer, String candidate) {
    return ((Number) Await.call(LuaEntry.BENCH_FLOOR.call(nvim, out -> {
      out.packLong(buffer.id());
      out.packString(candidate);
    }), "a floor sample")).doubleValue();
  }

  /** Clears the buffer's folds in every window, for the next sample. */
  public static void clear(Nvim nvim, Buffer buffer) {
    lua(nvim, buffer, LuaEntry.BENCH_CLEAR);
  }

  /** Throws unless Neovim holds exactly the plan's folds: a strategy that made none must not look fast. */
  public static void verify(Nvim nvim, Buffer buffer, String strategy, FoldPlan plan) {
    long found = ((Number) lua(nvim, buffer, LuaEntry.BENCH_VERIFY)).longValue();
    if (found != plan.size()) {
      throw new IllegalStateException("strategy '" + strategy + "' left " + (found < 0 ? "extra folds" : found + " of "
          + plan.size() + " folds") + " in Neovim");
    }
  }

  /** Calls a function of lua/nvimpam/tools/bench.lua that takes the buffer. */
  private static Object lua(Nvim nvim, Buffer buffer, LuaEntry entry) {
    return Await.call(entry.call(nvim, out -> out.packLong(buffer.id())), entry.toString());
  }

  /** The median of samples. */
  public static double median(List<Double> samples) {
    return median(samples.stream().mapToDouble(Double::doubleValue).sorted().toArray());
  }

  /** The median of an ascending array. */
  public static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
