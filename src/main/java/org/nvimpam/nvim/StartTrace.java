package org.nvimpam.nvim;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;

/**
 * Where a start's milliseconds go: with {@code NVIMPAM_START_TRACE=FILE} in the JVM's environment
 * (Neovim passes its own on), each phase of the way to the first folds appends {@code J phase
 * nanos} to FILE, on the clock of {@link System#nanoTime} (Linux: CLOCK_MONOTONIC, the clock of
 * Neovim's {@code vim.loop.hrtime()}, so the Lua side can add its own lines). Off, a phase costs
 * one test of a constant. Written without string concatenation or formatting, whose first use
 * would cost the start it measures.
 */
public final class StartTrace {
  /** The environment variable naming the file. */
  public static final String ENV = "NVIMPAM_START_TRACE";

  private static final PrintStream OUT = open(System.getenv(ENV));

  private StartTrace() {}

  private static PrintStream open(String file) {
    if (file == null || file.isEmpty()) return null;
    try {
      return new PrintStream(new FileOutputStream(file, true), true);
    } catch (IOException e) {
      System.err.println("nvimpam: no start trace: " + e.getMessage());
      return null;
    }
  }

  /** Marks {@code phase} as reached now. */
  public static void mark(String phase) {
    if (OUT == null) return;
    long t = System.nanoTime();
    synchronized (OUT) {
      OUT.print("J ");
      OUT.print(phase);
      OUT.print(' ');
      OUT.println(t);
    }
  }
}
