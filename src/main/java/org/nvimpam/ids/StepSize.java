package org.nvimpam.ids;

/**
 * How many lines the next step of long work under a buffer's lock reads (a whole check, a first
 * index build), so that a step takes about {@link #TARGET_NANOS}: an edit that arrives meanwhile
 * waits for at most one step. Fixed line counts did not bound that wait: the cost of a line differs
 * between the kinds of work and between machines (50,000 lines of the id index held the lock 30 to
 * 140 ms). Each step's size follows from the time the one before took per line, in the thread's
 * CPU time: on a busy machine a step's wall time is mostly other processes' turns, and sizing by
 * it shrank the steps to a few lines (the work then took ten times as long) without shortening a
 * step that was preempted.
 */
public final class StepSize {
  /** What a step should take. */
  static final long TARGET_NANOS = 2_000_000;
  /** Lines of a first step: well under the target on any deck. */
  static final int FIRST_LINES = 1_000;
  private static final int MIN_LINES = 64;
  // Steps over cheap lines (NODE runs) grow large, and a costly stretch after them made one step
  // of the checks at 10M lines take 104 ms of CPU.
  private static final int MAX_LINES = 16_384;

  private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
  private static final boolean CPU_TIME = THREADS.isCurrentThreadCpuTimeSupported();

  private int lines = FIRST_LINES;

  /** The current thread's CPU time in ns, where the JVM can tell it; else the wall clock's. */
  public static long now() {
    return CPU_TIME ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
  }

  /** Lines for the next step. */
  public int lines() {
    return lines;
  }

  /**
   * The step just done read {@link #lines()} lines in {@code nanos} (as {@link #now} counts them):
   * sizes the next one. It grows at
   * most twofold, since a stretch of cheap lines says little about the lines after it.
   */
  public void took(long nanos) {
    double perLine = Math.max(1, nanos) / (double) lines;
    long next = (long) (TARGET_NANOS / perLine);
    lines = (int) Math.max(MIN_LINES, Math.min(Math.min(MAX_LINES, 2L * lines), next));
  }
}
