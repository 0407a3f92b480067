package org.nvimpam.model;

/**
 * What the hunks of a change applied in parts share (the plugin's plans of hunks: each hunk's
 * triple is in the plan Neovim decodes in one go, its lines come a page at a time).
 */
final class Hunks {
  /**
   * Unchanged lines between two changed ones, up to this many, go into one hunk as they are:
   * a 1M-line offset made 60k hunks of the changed lines alone, a plan Neovim decodes in one go.
   */
  static final int GAP = 32;

  private Hunks() {}
}
