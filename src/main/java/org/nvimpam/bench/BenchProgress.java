package org.nvimpam.bench;

import java.io.PrintStream;

/**
 * Progress of a benchmark for the person waiting: which deck, which step or strategy, which run.
 * On a terminal the run counter rewrites one line; elsewhere (a log, a pipe) each step is a line
 * of its own and each run a line too, so that a stalled run can be seen.
 */
public final class BenchProgress {
  private final PrintStream out;
  private final boolean terminal;
  private String deck = "";
  private boolean open;

  /**
   * @param out where progress goes, normally stderr
   * @param terminal whether {@code out} is a terminal that understands a carriage return
   */
  public BenchProgress(PrintStream out, boolean terminal) {
    this.out = out;
    this.terminal = terminal;
  }

  void deck(int index, int of, String name) {
    deck = "deck " + index + "/" + of + " (" + name + ")";
    line(deck + ": loading");
  }

  void step(String what) {
    line(deck + ": " + what);
  }

  void run(String what, boolean warmup, int run, int of) {
    line(deck + ": " + what + (warmup ? ", warm-up " : ", run ") + run + " of " + of);
  }

  /** A fact worth keeping on stderr, e.g. which way the floor was measured. */
  void note(String message) {
    endLine();
    out.println(message);
  }

  void warn(String message) {
    endLine();
    out.println("warning: " + message);
    out.flush();
  }

  /** Ends the rewritten line, if any, so that what follows starts on a line of its own. */
  public void done() {
    endLine();
    out.flush();
  }

  private void line(String text) {
    if (terminal) {
      out.print("\r\033[K" + text);
      open = true;
    } else {
      out.println(text);
    }
    out.flush();
  }

  private void endLine() {
    if (open) {
      out.println();
      open = false;
    }
  }
}
