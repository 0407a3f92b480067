package org.nvimpam.deck;

import java.util.Arrays;

/**
 * Field problems in primitive arrays, sorted by line: where each is and what it is, never its
 * message (that is made from the deck's bytes when it is shown). {@code meta} packs the severity,
 * the kind, the field, the row and the layout entry.
 */
final class ProblemList {
  static final int ERROR = 1;
  static final int WARN = 2;
  static final int HINT = 4;
  static final int FORM = 0;
  static final int RUNS = 1;
  static final int TAB = 2;
  static final int PAST80 = 3;
  static final int BLANK = 4;
  /** A line that starts with a card's keyword but is no card header line (FOLDS.md §3): WARN. */
  static final int HEADER = 5;
  /** The same with a word the table does not know (the solver may): HINT. */
  static final int NOT_HEADER = 6;

  int size;
  int[] lines = new int[16];
  int[] cols = new int[16];
  int[] ends = new int[16];
  long[] meta = new long[16];

  /** {@code entry} -1: on a line of no card with an entry; {@code row}, {@code field} -1: none. */
  static long meta(int entry, int row, int field, int kind, int severity) {
    return ((long) (entry + 1) << 39) | ((long) (row + 1) << 23) | ((long) (field + 1) << 7) | ((long) kind << 3)
        | severity;
  }

  int severity(int p) {
    return (int) (meta[p] & 7);
  }

  int kind(int p) {
    return (int) ((meta[p] >>> 3) & 15);
  }

  int field(int p) {
    return (int) ((meta[p] >>> 7) & 0xFFFF) - 1;
  }

  int row(int p) {
    return (int) ((meta[p] >>> 23) & 0xFFFF) - 1;
  }

  int entry(int p) {
    return (int) (meta[p] >>> 39) - 1;
  }

  void clear() {
    size = 0;
  }

  void add(int line, int col, int end, long m) {
    if (size == lines.length) grow(size + 1);
    lines[size] = line;
    cols[size] = col;
    ends[size] = end;
    meta[size++] = m;
  }

  void add(ProblemList o, int p) {
    add(o.lines[p], o.cols[p], o.ends[p], o.meta[p]);
  }

  private void grow(int min) {
    int n = Math.max(min, lines.length + (lines.length >> 1) + 16);
    lines = Arrays.copyOf(lines, n);
    cols = Arrays.copyOf(cols, n);
    ends = Arrays.copyOf(ends, n);
    meta = Arrays.copyOf(meta, n);
  }

  /** The first problem on line {@code line} or later. */
  int firstAtOrAfter(int line) {
    return SortedLines.firstAtOrAfter(lines, size, line);
  }

  /**
   * Replaces the problems of old lines {@code [from, oldTo)} by {@code with} (already numbered
   * anew) and shifts those after by {@code delta}.
   */
  void splice(int from, int oldTo, ProblemList with, int delta) {
    int a = firstAtOrAfter(from);
    int b = firstAtOrAfter(oldTo);
    int tail = size - b;
    int n = a + with.size + tail;
    if (n > lines.length) grow(n);
    int dst = a + with.size;
    System.arraycopy(lines, b, lines, dst, tail);
    System.arraycopy(cols, b, cols, dst, tail);
    System.arraycopy(ends, b, ends, dst, tail);
    System.arraycopy(meta, b, meta, dst, tail);
    for (int i = dst; i < dst + tail; i++) lines[i] += delta;
    System.arraycopy(with.lines, 0, lines, a, with.size);
    System.arraycopy(with.cols, 0, cols, a, with.size);
    System.arraycopy(with.ends, 0, ends, a, with.size);
    System.arraycopy(with.meta, 0, meta, a, with.size);
    size = n;
  }

  void swap(int i, int j) {
    int t = lines[i];
    lines[i] = lines[j];
    lines[j] = t;
    t = cols[i];
    cols[i] = cols[j];
    cols[j] = t;
    t = ends[i];
    ends[i] = ends[j];
    ends[j] = t;
    long m = meta[i];
    meta[i] = meta[j];
    meta[j] = m;
  }
}
