package org.nvimpam.bench;

import java.util.concurrent.TimeUnit;
import org.nvimpam.nvim.Nvim;

/**
 * Measures how long Neovim takes to answer another client, the way a user would feel a frozen
 * editor: a second connection asks {@code nvim_eval("1")} every few milliseconds and keeps the
 * answer times. {@link #maxMs} is the longest wait in a time window.
 */
final class StallProbe implements AutoCloseable {
  private static final long PERIOD_MS = 5;

  private final Nvim client;
  private final Thread thread;
  private volatile boolean running = true;
  // (start, latency) pairs in nanoseconds; only the prober thread writes them.
  private long[] starts = new long[1 << 16];
  private long[] waits = new long[1 << 16];
  private volatile int n;

  StallProbe(String address) throws java.io.IOException {
    client = Nvim.socket(address);
    thread = new Thread(this::run, "nvimpam-bench-stall-probe");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (running) {
      long t0 = System.nanoTime();
      try {
        client.eval("1").get(120, TimeUnit.SECONDS);
      } catch (Exception e) {
        if (running) record(t0, System.nanoTime() - t0);
        return;
      }
      record(t0, System.nanoTime() - t0);
      try {
        Thread.sleep(PERIOD_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void record(long start, long wait) {
    int i = n;
    if (i == starts.length) {
      starts = java.util.Arrays.copyOf(starts, i * 2);
      waits = java.util.Arrays.copyOf(waits, i * 2);
    }
    starts[i] = start;
    waits[i] = wait;
    n = i + 1;
  }

  /** The longest answer time of a probe sent in {@code [fromNanos, toNanos)}, in ms. */
  double maxMs(long fromNanos, long toNanos) {
    int count = n;
    long max = 0;
    for (int i = 0; i < count; i++) {
      if (starts[i] >= fromNanos && starts[i] < toNanos) max = Math.max(max, waits[i]);
    }
    // A probe still waiting counts too: its wait so far.
    return max / 1e6;
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
    client.close();
  }
}
