package org.nvimpam.lines;

/** Lines as bytes, read in place: a deck (org.nvimpam.deck.Deck) or a batch of {@link Lines}. */
public interface LineSource {
  int lineCount();

  /** The array holding line {@code i}. */
  byte[] bytes(int i);

  /** Offset of line {@code i} in {@link #bytes(int) bytes(i)}. */
  int start(int i);

  /** Raw length of line {@code i}, a final CR included. */
  int length(int i);

  /** A copy of line {@code i}; for tests and messages, not for hot paths. */
  default byte[] line(int i) {
    int s = start(i);
    return java.util.Arrays.copyOfRange(bytes(i), s, s + length(i));
  }

  /** The length of line {@code i} without one final CR (FOLDS.md §2.3). */
  default int contentLength(int i) {
    return contentLength(bytes(i), start(i), length(i));
  }

  /** The length of a raw line of {@code rawLen} bytes without one final CR (FOLDS.md §2.3). */
  static int contentLength(byte[] a, int off, int rawLen) {
    return rawLen > 0 && a[off + rawLen - 1] == '\r' ? rawLen - 1 : rawLen;
  }
}
