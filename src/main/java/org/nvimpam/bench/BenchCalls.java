package org.nvimpam.bench;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.nvimpam.nvim.Encoders;
import org.nvimpam.nvim.Nvim;

/** The calls the end-to-end benchmarks make of the Neovim they drive, each bounded by {@link #WAIT_S}. */
final class BenchCalls {
  /** A bound, not a figure: a 10M-line deck's open or check takes seconds, never this long. */
  static final long WAIT_S = 900;

  private BenchCalls() {}

  static Object lua(Nvim nvim, String code) throws Exception {
    return get(nvim.execLua(code, Encoders.none()));
  }

  static <T> T get(CompletableFuture<T> f) throws Exception {
    return f.get(WAIT_S, TimeUnit.SECONDS);
  }

  /** Polls {@code cond} (Lua returning a boolean) every 5 ms until it is true; fails after {@code seconds}. */
  static void waitFor(Nvim nvim, String cond, long seconds) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!Boolean.TRUE.equals(lua(nvim, cond))) {
      if (System.nanoTime() > end) throw new IllegalStateException("not within " + seconds + " s: " + cond);
      Thread.sleep(5);
    }
  }

  /** Milliseconds since {@code t0} ({@link System#nanoTime}). */
  static double ms(long t0) {
    return (System.nanoTime() - t0) / 1e6;
  }
}
