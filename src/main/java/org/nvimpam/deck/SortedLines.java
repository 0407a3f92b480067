package org.nvimpam.deck;

/** Searches in the ascending line numbers of problem and definition lists. */
public final class SortedLines {
  private SortedLines() {}

  /** The first index {@code i < size} with {@code lines[i] >= line}, or {@code size}; lines may repeat. */
  public static int firstAtOrAfter(int[] lines, int size, int line) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (lines[mid] < line) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
