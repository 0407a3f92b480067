package org.nvimpam.deck;

/** Lines as bytes, read in place: a {@link Deck} or {@link Lines}. */
public interface LineSource {
  int lineCount();

  /** The array holding line {@code i}. */
  byte[] bytes(int i);

  /** Offset of line {@code i} in {@link #bytes(int) bytes(i)}. */
  int start(int i);

  /** Raw length of line {@code i}, a final CR included. */
  int length(int i);

  /** The length of line {@code i} without one final CR (FOLDS.md §2.3). */
  default int contentLength(int i) {
    return LineBytes.contentLength(bytes(i), start(i), length(i));
  }
}
