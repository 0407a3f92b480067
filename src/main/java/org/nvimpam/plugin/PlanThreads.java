package org.nvimpam.plugin;

/**
 * The threads a command's plan runs on in the plugin's JVM: up to four, and one core left to
 * Neovim, whose main loop is the user's while the plan runs (the headless commands take every
 * core). On two cores it costs little: a 1M-line offset in Neovim took 8.8-9.3 s against
 * 8.2-8.6 s with the plan on both, side by side.
 */
final class PlanThreads {
  private PlanThreads() {}

  static int count() {
    return Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() - 1));
  }
}
