package org.nvimpam.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.nvimpam.fold.FoldPlan;
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

  private static final String RESET = "require('nvimpam.folds').reset(...)";
  private static final String CLEAR = "require('nvimpam.folds').clear(...)";
  private static final String VERIFY = "return require('nvimpam.folds').verify(...)";
  private static final String FLOOR = "return require('nvimpam.folds').floor(...)";

  private static final int FLOOR_WARMUP = 5;

  private final Nvim nvim;
  private final Buffer buffer;
  private final int warmup;
  private final int runs;
  private final List<Double> floorSamples = new ArrayList<>();
  private int floorWarmups;

  public StrategyTimer(Nvim nvim, Buffer buffer, int warmup, int runs) {
    if (runs < 1 || warmup < 0) {
      throw new IllegalArgumentException("need runs >= 1 and warmup >= 0, got " + runs + " and " + warmup);
    }
    this.nvim = nvim;
    this.buffer = buffer;
    this.warmup = warmup;
    this.runs = runs;
  }

  /** Told before each run; {@code run} counts from 1, warm-up runs first. */
  @FunctionalInterface
  public interface RunListener {
    void beforeRun(String strategy, boolean warmup, int run, int of);
  }

  public Timing time(FoldStrategy strategy, FoldPlan plan) {
    return time(strategy, plan, (name, warm, run, of) -> {});
  }

  public Timing time(FoldStrategy strategy, FoldPlan plan, RunListener listener) {
    double[] ms = new double[runs];
    long bytes = 0;
    for (int r = -warmup; r < runs; r++) {
      if (r < 0) {
        listener.beforeRun(strategy.name(), true, r + warmup + 1, warmup);
      } else {
        listener.beforeRun(strategy.name(), false, r + 1, runs);
      }
      lua(RESET);
      long sent0 = nvim.rpc().bytesWritten();
      long t0 = System.nanoTime();
      strategy.apply(nvim, buffer, plan);
      long t1 = System.nanoTime();
      long sent = nvim.rpc().bytesWritten() - sent0;
      verify(strategy.name(), plan);
      if (r >= 0) {
        ms[r] = (t1 - t0) / 1e6;
        bytes = sent;
        floorSamples.add(floorRun()); // interleaved, so the floor sees the same machine state
      }
    }
    Arrays.sort(ms);
    return new Timing(strategy.name(), plan.size(), median(ms), ms[0], ms[ms.length - 1], bytes);
  }

  /**
   * The floor: the plan, created by a Lua loop inside Neovim and timed there, once after every
   * measured run of {@link #time}; the median of all those samples. Call after {@link #time}.
   */
  public double floorMs() {
    if (floorSamples.isEmpty()) {
      throw new IllegalStateException("no floor sample: time a strategy first");
    }
    double[] ms = floorSamples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return median(ms);
  }

  private double floorRun() {
    // LuaJIT compiles a loop after ~56 iterations: on small decks the first calls run interpreted.
    for (; floorWarmups < FLOOR_WARMUP; floorWarmups++) {
      lua(CLEAR);
      lua(FLOOR);
    }
    lua(CLEAR); // in its own request, as the strategies' reset
    return ((Number) lua(FLOOR)).doubleValue();
  }

  private void verify(String strategy, FoldPlan plan) {
    long found = ((Number) lua(VERIFY)).longValue();
    if (found != plan.size()) {
      throw new IllegalStateException("strategy '" + strategy + "' left " + (found < 0 ? "extra folds" : found + " of "
          + plan.size() + " folds") + " in Neovim");
    }
  }

  private Object lua(String code) {
    return nvim.execLua(code, out -> {
      out.packArrayHeader(1);
      out.packLong(buffer.id());
    }).join();
  }

  /** The median of an ascending array. */
  public static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
