package org.nvimpam.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;

/**
 * Times fold strategies on one buffer of a running Neovim. Every run starts from a cleared fold
 * state and ends with a check that Neovim holds exactly the plan's folds, so that a broken
 * strategy cannot look fast. Times run from the first byte sent until Neovim's last reply.
 */
public final class StrategyTimer {
  /** Medians and extremes of the runs after warm-up, in milliseconds. */
  public record Timing(String strategy, int folds, double medianMs, double minMs, double maxMs, long bytesSent) {}

  private static final String RESET = "require('nvimpam.bench').reset(...)";
  private static final String CLEAR = "require('nvimpam.bench').clear(...)";
  private static final String VERIFY = "return require('nvimpam.bench').verify(...)";
  private static final String FLOOR_PREPARE = "require('nvimpam.bench').floor_prepare(...)";
  private static final String FLOOR = "return require('nvimpam.bench').floor(...)";
  private static final String CANDIDATES = "return require('nvimpam.bench').floor_candidates()";
  private static final String INSIDE = "return require('nvimpam.bench').inside_measures()";

  private static final int FLOOR_WARMUP = 5;

  private final Nvim nvim;
  private final Buffer buffer;
  private final int warmup;
  private final int runs;
  private final Map<String, List<Double>> floorSamples = new TreeMap<>();
  private final Map<String, List<Double>> insideSamples = new TreeMap<>();
  private final boolean sampleInside;
  private int floorWarmups;
  private List<String> candidates; // the floor's, from lua/nvimpam/bench.lua
  private List<String> insideMeasures;
  private FoldPlan plan; // the one being timed
  private WireReplay replay; // its replayed requests, with inside measures
  private List<String> replayMeasures = List.of();

  public StrategyTimer(Nvim nvim, Buffer buffer, int warmup, int runs) {
    this(nvim, buffer, warmup, runs, false);
  }

  /**
   * With {@code inside}, every floor sample also samples Neovim's own part of the strategies (see
   * lua/nvimpam/bench.lua) and its handling of replayed requests ({@link WireReplay}), reported by
   * {@link #inside()}.
   */
  public StrategyTimer(Nvim nvim, Buffer buffer, int warmup, int runs, boolean inside) {
    if (runs < 1 || warmup < 0) {
      throw new IllegalArgumentException("need runs >= 1 and warmup >= 0, got " + runs + " and " + warmup);
    }
    this.nvim = nvim;
    this.buffer = buffer;
    this.warmup = warmup;
    this.runs = runs;
    this.sampleInside = inside;
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
    if (sampleInside && plan != this.plan) {
      long window = ((Number) lua("return vim.fn.bufwinid(...)")).longValue();
      replay = new WireReplay(plan, window);
      replayMeasures = CallAtomicStrategy.unavailableIn(nvim.apiInfo()) == null
          ? List.of(WireReplay.CALL_ATOMIC, WireReplay.PER_COMMAND, WireReplay.PER_COMMAND_PACED)
          : List.of(WireReplay.PER_COMMAND, WireReplay.PER_COMMAND_PACED);
    }
    this.plan = plan;
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
          lua(RESET);
          long sent0 = nvim.rpc().bytesWritten();
          long t0 = System.nanoTime();
          strategy.apply(nvim, buffer, plan);
          long t1 = System.nanoTime();
          long sent = nvim.rpc().bytesWritten() - sent0;
          verify(strategy.name(), plan);
          if (r >= 0) {
            ms[s][r] = (t1 - t0) / 1e6;
            bytes[s] = sent;
            floorRun(); // after every run, so the floor sees the same machine state
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
   * S,Efold} strings (see lua/nvimpam/bench.lua for the candidates), each sampled once after every
   * measured run of {@link #time}. The floor is the candidate with the lowest median on this
   * Neovim. Call after {@link #time}.
   */
  public Floor floor() {
    if (floorSamples.isEmpty()) {
      throw new IllegalStateException("no floor sample: time a strategy first");
    }
    Floor best = null;
    for (Map.Entry<String, List<Double>> e : floorSamples.entrySet()) {
      double ms = median(e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray());
      if (best == null || ms < best.ms()) {
        best = new Floor(e.getKey(), ms);
      }
    }
    return best;
  }

  /** The floor's median and the candidate that gave it. */
  public record Floor(String method, double ms) {}

  /**
   * The medians of the floor's other candidates and of Neovim's own part of the strategies, by
   * name (empty unless asked for when constructed).
   */
  public List<Floor> inside() {
    String floor = floorSamples.isEmpty() ? null : floor().method();
    List<Floor> out = new ArrayList<>();
    for (Map<String, List<Double>> samples : List.of(floorSamples, insideSamples)) {
      for (Map.Entry<String, List<Double>> e : samples.entrySet()) {
        if (sampleInside && !e.getKey().equals(floor)) {
          double[] sorted = e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
          out.add(new Floor(e.getKey(), median(sorted)));
        }
      }
    }
    return out;
  }

  public double floorMs() {
    return floor().ms();
  }

  private void floorRun() {
    // The defaults: the strategies' own lines, which execute-joined and the inside rows run.
    Await.call(nvim.execLua(FLOOR_PREPARE, out -> {
      out.packArrayHeader(3);
      out.packLong(buffer.id());
      out.packInt(NotifiedCommandsStrategy.DEFAULT_CHUNK);
      out.packInt(SingleCallStrategy.DEFAULT_PER_LINE);
    }), "preparing the floor's commands");
    if (candidates == null) { // the same on every run: asked once
      candidates = names(CANDIDATES);
      insideMeasures = sampleInside ? names(INSIDE) : List.of();
    }
    sample(candidates, floorSamples);
    sample(insideMeasures, insideSamples);
    sampleReplays();
    floorWarmups = FLOOR_WARMUP;
  }

  private List<String> names(String code) {
    List<String> names = new ArrayList<>();
    for (Object o : (List<?>) Await.call(nvim.execLua(code, out -> out.packArrayHeader(0)), code)) {
      names.add(String.valueOf(o));
    }
    return names;
  }

  private void sample(List<String> names, Map<String, List<Double>> samples) {
    for (String c : names) {
      // LuaJIT compiles a loop after ~56 iterations: on small decks the first calls run interpreted.
      for (int w = floorWarmups; w < FLOOR_WARMUP; w++) {
        lua(CLEAR);
        floorSample(c);
      }
      lua(CLEAR); // in its own request, as the strategies' reset
      samples.computeIfAbsent(c, k -> new ArrayList<>()).add(floorSample(c));
    }
  }

  private void sampleReplays() {
    for (String m : replayMeasures) {
      for (int w = floorWarmups; w < FLOOR_WARMUP; w++) {
        lua(CLEAR);
        replay.sample(nvim, m);
      }
      lua(CLEAR);
      insideSamples.computeIfAbsent(m, k -> new ArrayList<>()).add(replay.sample(nvim, m));
      verify(m, plan); // a replay that made no folds must not look fast either
    }
  }

  private double floorSample(String candidate) {
    return ((Number) Await.call(nvim.execLua(FLOOR, out -> {
      out.packArrayHeader(2);
      out.packLong(buffer.id());
      out.packString(candidate);
    }), "a floor sample")).doubleValue();
  }

  private void verify(String strategy, FoldPlan plan) {
    long found = ((Number) lua(VERIFY)).longValue();
    if (found != plan.size()) {
      throw new IllegalStateException("strategy '" + strategy + "' left " + (found < 0 ? "extra folds" : found + " of "
          + plan.size() + " folds") + " in Neovim");
    }
  }

  private Object lua(String code) {
    return Await.call(nvim.execLua(code, out -> {
      out.packArrayHeader(1);
      out.packLong(buffer.id());
    }), code);
  }

  /** The median of an ascending array. */
  public static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
