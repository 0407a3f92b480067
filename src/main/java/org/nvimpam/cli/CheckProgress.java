package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.nvimpam.model.TreeCheck;

/**
 * {@code check}'s progress on stderr, only when stderr is a terminal and only once the work has
 * taken a second: one line, rewritten in place, cleared before anything else is printed.
 */
final class CheckProgress implements TreeCheck.Progress, AutoCloseable {
  private static final long DELAY_MS = 1000;
  private static final long EVERY_MS = 250;
  private final PrintWriter err;
  private final String verb;
  private final Thread ticker;
  private volatile Path file;
  private volatile long bytes;
  private volatile long lines;
  private boolean shown; // guarded by this

  private CheckProgress(PrintWriter err, String verb, boolean on) {
    this.err = err;
    this.verb = verb;
    this.ticker = on ? new Thread(this::tick, "nvimpam-check-progress") : null;
    if (ticker != null) {
      ticker.setDaemon(true);
      ticker.start();
    }
  }

  static CheckProgress start(PrintWriter err) {
    return start(err, "checking");
  }

  /** The progress of another headless command, whose line starts with {@code verb}. */
  static CheckProgress start(PrintWriter err, String verb) {
    return new CheckProgress(err, verb, stderrIsTerminal());
  }

  /**
   * Whether stderr is a terminal: Java 17 cannot ask, so on Linux where fd 2 points, else whether
   * the process has a console at all.
   */
  private static boolean stderrIsTerminal() {
    try {
      String t = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return t.startsWith("/dev/pts/") || t.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }

  @Override
  public void read(Path f, long b, long l) {
    file = f;
    bytes = b;
    lines = l;
  }

  private void tick() {
    try {
      Thread.sleep(DELAY_MS);
      while (true) {
        Path f = file;
        if (f != null) {
          synchronized (this) {
            err.print("\r\033[K" + verb + " " + f.getFileName() + ": " + lines + " lines read (" + (bytes >> 20) + " MB)");
            err.flush();
            shown = true;
          }
        }
        Thread.sleep(EVERY_MS);
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  /** Clears the progress line, if shown, before other output. */
  synchronized void clear() {
    if (!shown) return;
    err.print("\r\033[K");
    err.flush();
    shown = false;
  }

  @Override
  public void close() {
    if (ticker != null) {
      ticker.interrupt();
      try {
        ticker.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    clear();
  }
}
