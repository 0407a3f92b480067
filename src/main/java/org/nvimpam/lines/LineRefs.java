package org.nvimpam.lines;

import java.util.Arrays;

/**
 * Lines held where they already are: per line, the array it lies in, its start and its length
 * (12 bytes a line), its bytes not copied. A plan's new lines are slices of the pieces' output;
 * one array per line cost 10M small arrays for a 10M-line offset (their headers alone a third of
 * the bytes). The arrays must not change while this is read.
 */
public final class LineRefs implements LineSource {
  private static final LineRefs EMPTY = new LineRefs(new byte[0][], new int[0], new int[0]);

  // exactly one entry per line: an index outside them is outside the lines
  private final byte[][] arrays;
  private final int[] starts;
  private final int[] lengths;

  private LineRefs(byte[][] arrays, int[] starts, int[] lengths) {
    this.arrays = arrays;
    this.starts = starts;
    this.lengths = lengths;
  }

  /** Whole arrays as lines. */
  public static LineRefs of(byte[]... lines) {
    if (lines.length == 0) return EMPTY;
    Builder b = new Builder(lines.length);
    for (byte[] l : lines) b.add(l, 0, l.length);
    return b.build();
  }

  @Override
  public int lineCount() {
    return arrays.length;
  }

  @Override
  public byte[] bytes(int i) {
    return arrays[i];
  }

  @Override
  public int start(int i) {
    return starts[i];
  }

  @Override
  public int length(int i) {
    return lengths[i];
  }

  /** Collects slices of arrays as lines. */
  public static final class Builder {
    private byte[][] arrays;
    private int[] starts;
    private int[] lengths;
    private int count;

    public Builder(int expectedLines) {
      int n = Math.max(4, expectedLines);
      arrays = new byte[n][];
      starts = new int[n];
      lengths = new int[n];
    }

    /** Line {@code a[off, off + len)}, not copied. */
    public Builder add(byte[] a, int off, int len) {
      if (off < 0 || len < 0 || off + len > a.length) {
        throw new IndexOutOfBoundsException("[" + off + ", " + (off + len) + ") of " + a.length + " bytes");
      }
      if (count == arrays.length) {
        int cap = count + (count >> 1) + 1;
        arrays = Arrays.copyOf(arrays, cap);
        starts = Arrays.copyOf(starts, cap);
        lengths = Arrays.copyOf(lengths, cap);
      }
      arrays[count] = a;
      starts[count] = off;
      lengths[count++] = len;
      return this;
    }

    public int count() {
      return count;
    }

    /** The lines added so far (the builder starts over, empty). */
    public LineRefs build() {
      LineRefs r = count == 0 ? EMPTY
          : new LineRefs(Arrays.copyOf(arrays, count), Arrays.copyOf(starts, count), Arrays.copyOf(lengths, count));
      count = 0;
      return r;
    }
  }
}
