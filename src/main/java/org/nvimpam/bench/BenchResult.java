package org.nvimpam.bench;

import java.util.Objects;

/**
 * One measurement: one deck folded by one strategy.
 *
 * <p>Times are in milliseconds; {@code medianMs}, {@code minMs} and {@code maxMs} are over the
 * measured runs of applying the folds, and {@code floorMs} is the time Neovim itself needs to run
 * the same folds' prebuilt commands, the fastest way found (lua/nvimpam/tools/bench.lua). A time that
 * was not measured is {@link Double#NaN}.
 *
 * @param deck the deck's name (a file name or a synthetic deck's description)
 * @param lines the deck's lines
 * @param bytes the deck's size in bytes
 * @param folds the folds sent to Neovim
 * @param getLinesMs time to get the deck's lines from Neovim
 * @param parseMs time from lines in the JVM to the complete fold set
 * @param strategy the name of the strategy that applied the folds
 * @param bytesSent bytes the strategy sent to Neovim
 */
public record BenchResult(
    String deck,
    long lines,
    long bytes,
    long folds,
    double getLinesMs,
    double parseMs,
    String strategy,
    double medianMs,
    double minMs,
    double maxMs,
    long bytesSent,
    double floorMs) {

  public BenchResult {
    Objects.requireNonNull(deck, "deck");
    Objects.requireNonNull(strategy, "strategy");
  }

  /** How many times slower than the floor the strategy's median is; NaN without a floor. */
  public double ratioToFloor() {
    return floorMs > 0 ? medianMs / floorMs : Double.NaN;
  }
}
