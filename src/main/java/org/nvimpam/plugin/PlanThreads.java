package org.nvimpam.plugin;

/**
 * The threads a command's plan runs on in the plugin's JVM: up to four, and one core left to
 * Neovim. A plan on every core of a two-core machine kept Neovim's main loop off the CPU for 20 ms
 * (the headless commands take every core).
 */
final class PlanThreads {
  private PlanThreads() {}

  static int count() {
    return Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() - 1));
  }
}
