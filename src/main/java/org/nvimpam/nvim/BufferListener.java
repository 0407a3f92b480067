package org.nvimpam.nvim;

import org.nvimpam.lines.Lines;

/**
 * Receives the updates of one attached buffer ({@code nvim_buf_attach}), on the connection's
 * dispatcher thread, in the order Neovim sent them.
 */
public interface BufferListener {
  /**
   * What Neovim holds after an event that left no lines: deleting every line leaves one empty line
   * that no event reports, though the events after it count it (a later {@code :read} inserts
   * after it, an undo replaces it). A listener that mirrors the buffer adds it when its copy runs
   * empty.
   */
  static Lines lineLeftWhenEmptied() {
    return Lines.ofLatin1("");
  }

  /**
   * Lines {@code [firstline, lastline)} (0-based, old numbering) were replaced by {@code
   * linedata}. The initial dump has {@code lastline == -1}. {@code changedtick} is -1 when Neovim
   * sent nil ({@code 'inccommand'} previews). {@code more} is true when the change continues in
   * the next event.
   */
  void onLines(Buffer buf, long changedtick, int firstline, int lastline, Lines linedata,
      boolean more);

  default void onChangedTick(Buffer buf, long tick) {}

  /** The buffer was detached (e.g. by {@code :edit!}); no more events follow. */
  default void onDetach(Buffer buf) {}
}
