package org.nvimpam.bench;

import java.util.Arrays;

/**
 * The machine's steal time ({@link CpuSteal}) sampled every few milliseconds on a thread of its
 * own, so that a gap Neovim's timer saw can be given the CPU time stolen during it. Its clock is
 * {@link System#nanoTime}, CLOCK_MONOTONIC on Linux as libuv's {@code uv.hrtime()} in Neovim.
 */
final class StealLog implements AutoCloseable {
  private static final long PERIOD_MS = 4;
  /** Linux's USER_HZ: /proc/stat counts in hundredths of a second. */
  private static final double MS_PER_TICK = 10;

  private final Thread thread;
  private volatile boolean running = true;
  // (time, steal ticks) pairs; only the sampling thread writes them.
  private long[] at = new long[1 << 14];
  private long[] steal = new long[1 << 14];
  private volatile int n;

  StealLog() {
    thread = CpuSteal.sample() == null ? null : new Thread(this::run, "nvimpam-bench-steal-log");
    if (thread != null) {
      thread.setDaemon(true);
      thread.start();
    }
  }

  private void run() {
    while (running) {
      long[] s = CpuSteal.sample();
      if (s == null) return;
      int i = n;
      if (i == at.length) {
        at = Arrays.copyOf(at, 2 * i);
        steal = Arrays.copyOf(steal, 2 * i);
      }
      at[i] = System.nanoTime();
      steal[i] = s[1];
      n = i + 1;
      try {
        Thread.sleep(PERIOD_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * The CPU time (ms, all CPUs together) stolen from the last sample at or before {@code from} to
   * the first at or after {@code to}: at least what was stolen in between, at a resolution of 10
   * ms. NaN where nothing was sampled around the window.
   */
  double stolenMs(long fromNanos, long toNanos) {
    int count = n;
    long[] t = at;
    long[] s = steal;
    int a = -1;
    int b = -1;
    for (int i = 0; i < count; i++) {
      if (t[i] <= fromNanos) a = i;
      if (t[i] >= toNanos) {
        b = i;
        break;
      }
    }
    return a < 0 || b < 0 ? Double.NaN : (s[b] - s[a]) * MS_PER_TICK;
  }

  @Override
  public void close() {
    running = false;
    if (thread != null) thread.interrupt();
  }
}
