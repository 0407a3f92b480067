package org.nvimpam.nvim;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Where a start's milliseconds go: with {@code NVIMPAM_START_TRACE=FILE} in the JVM's environment
 * (Neovim passes its own on), each phase of the way to the first folds appends {@code J phase
 * nanos} to FILE, on the clock of {@link System#nanoTime} (Linux: CLOCK_MONOTONIC, the clock of
 * Neovim's {@code vim.loop.hrtime()}, so the Lua side can add its own lines). Off, a phase costs
 * one test of a constant. Each line is one write to the file opened for appending, so that lines
 * of the JVM's threads and of Neovim never interleave; no formatting, whose first use would cost
 * the start it measures.
 */
public final class StartTrace {
  /** The environment variable naming the file. */
  public static final String ENV = "NVIMPAM_START_TRACE";

  private static final FileOutputStream OUT = open(System.getenv(ENV));

  private StartTrace() {}

  private static FileOutputStream open(String file) {
    if (file == null || file.isEmpty()) return null;
    try {
      return new FileOutputStream(file, true);
    } catch (IOException e) {
      System.err.println("nvimpam: no start trace: " + e.getMessage());
      return null;
    }
  }

  /** Marks {@code phase} as reached now. */
  public static void mark(String phase) {
    if (OUT == null) return;
    long t = System.nanoTime();
    byte[] line = new StringBuilder(phase.length() + 24).append("J ").append(phase).append(' ').append(t).append('\n')
        .toString().getBytes(StandardCharsets.UTF_8);
    try {
      OUT.write(line);
    } catch (IOException e) {
      System.err.println("nvimpam: start trace line lost: " + e.getMessage()); // the start goes on
    }
  }
}
