package org.nvimpam.lines;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable batch of lines held as raw bytes: one byte array and the start offset of every line.
 *
 * <p>Lines are never decoded (FOLDS.md §2.2): any byte, including NUL, CR and invalid UTF-8, is an
 * ordinary byte. Line {@code i} is {@code data[start(i) .. end(i))}.
 */
public final class Lines implements LineSource {
  private static final Lines EMPTY = new Lines(new byte[0], new int[] {0}, 0);

  private final byte[] data;
  private final int[] starts; // count + 1 entries; starts[count] is the end of the last line
  private final int count;

  private Lines(byte[] data, int[] starts, int count) {
    this.data = data;
    this.starts = starts;
    this.count = count;
  }

  public static Lines empty() {
    return EMPTY;
  }

  /**
   * Wraps arrays without copying. {@code starts} must hold at least {@code count + 1} ascending
   * offsets into {@code data}; the caller gives up ownership of both arrays.
   */
  public static Lines wrap(byte[] data, int[] starts, int count) {
    if (count < 0 || starts.length < count + 1) {
      throw new IllegalArgumentException("starts needs " + (count + 1) + " entries, has " + starts.length);
    }
    if (starts[0] < 0 || starts[count] > data.length) {
      throw new IllegalArgumentException("line offsets outside the data");
    }
    return new Lines(data, starts, count);
  }

  /** Splits file bytes on LF only; a final LF does not start another line; CR bytes are kept. */
  public static Lines split(byte[] bytes) {
    int n = 0;
    for (byte b : bytes) {
      if (b == '\n') n++;
    }
    boolean unterminatedLast = bytes.length > 0 && bytes[bytes.length - 1] != '\n';
    int count = n + (unterminatedLast ? 1 : 0);
    // The data keeps every byte but the LFs, so that line i ends where line i+1 starts.
    byte[] data = new byte[bytes.length - n];
    int[] starts = new int[count + 1];
    int w = 0;
    int line = 0;
    int from = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '\n') {
        int len = i - from;
        System.arraycopy(bytes, from, data, w, len);
        starts[line++] = w;
        w += len;
        from = i + 1;
      }
    }
    if (unterminatedLast) {
      int len = bytes.length - from;
      System.arraycopy(bytes, from, data, w, len);
      starts[line++] = w;
      w += len;
    }
    starts[count] = w;
    return new Lines(data, starts, count);
  }

  /** Lines from strings whose chars are bytes (ISO-8859-1), as the test vectors write them. */
  public static Lines ofLatin1(String... lines) {
    Builder b = new Builder(lines.length, 16 * lines.length);
    for (String s : lines) {
      byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
      b.add(bytes, 0, bytes.length);
    }
    return b.build();
  }

  /** One batch holding the lines of all {@code parts} in order; a single part is returned as is. */
  public static Lines concat(List<Lines> parts) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    long bytes = 0;
    int lines = 0;
    for (Lines p : parts) {
      bytes += p.byteSize();
      lines += p.count;
    }
    if (bytes > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("lines exceed 2 GiB");
    }
    byte[] data = new byte[(int) bytes];
    int[] starts = new int[lines + 1];
    int w = 0;
    int line = 0;
    for (Lines p : parts) {
      int base = w - p.starts[0];
      for (int i = 0; i < p.count; i++) {
        starts[line++] = p.starts[i] + base;
      }
      System.arraycopy(p.data, p.starts[0], data, w, p.byteSize());
      w += p.byteSize();
    }
    starts[lines] = w;
    return new Lines(data, starts, lines);
  }

  public int count() {
    return count;
  }

  @Override
  public int lineCount() {
    return count;
  }

  @Override
  public byte[] bytes(int i) {
    return data;
  }

  /** The shared backing array; read only. */
  public byte[] data() {
    return data;
  }

  @Override
  public int start(int line) {
    return starts[line];
  }

  public int end(int line) {
    return starts[line + 1];
  }

  @Override
  public int length(int line) {
    return starts[line + 1] - starts[line];
  }

  /** Total bytes of all lines, terminators excluded. */
  public int byteSize() {
    return starts[count] - starts[0];
  }

  /** A copy of one line's bytes; for tests and messages, not for hot paths. */
  @Override
  public byte[] line(int i) {
    return Arrays.copyOfRange(data, starts[i], starts[i + 1]);
  }

  /** Collects lines into one growing byte array. */
  public static final class Builder {
    private byte[] data;
    private int[] starts;
    private int count;
    private int size;

    public Builder(int expectedLines, int expectedBytes) {
      data = new byte[Math.max(16, expectedBytes)];
      starts = new int[Math.max(2, expectedLines + 1)];
    }

    public Builder add(byte[] src, int off, int len) {
      ensureData(len);
      System.arraycopy(src, off, data, size, len);
      return commit(len);
    }

    /** Room for {@code len} more bytes at {@link #array()}{@code [}{@link #size()}{@code ..]}. */
    public byte[] reserve(int len) {
      ensureData(len);
      return data;
    }

    /** Ends the line whose {@code len} bytes were written into the array from {@link #reserve}. */
    public Builder commit(int len) {
      if (count + 2 > starts.length) {
        starts = Arrays.copyOf(starts, Math.max(starts.length * 2, count + 2));
      }
      starts[count] = size;
      size += len;
      count++;
      starts[count] = size;
      return this;
    }

    public byte[] array() {
      return data;
    }

    public int size() {
      return size;
    }

    public int count() {
      return count;
    }

    private void ensureData(int len) {
      long need = (long) size + len;
      if (need > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("lines exceed 2 GiB");
      }
      if (need > data.length) {
        long grown = Math.max(need, data.length + (data.length >> 1));
        data = Arrays.copyOf(data, (int) Math.min(grown, Integer.MAX_VALUE - 16));
      }
    }

    /** The lines so far; trims the arrays so that a built batch holds no slack. */
    public Lines build() {
      byte[] d = size == data.length ? data : Arrays.copyOf(data, size);
      int[] s = starts.length == count + 1 ? starts : Arrays.copyOf(starts, count + 1);
      Lines l = new Lines(d, s, count);
      data = new byte[16];
      starts = new int[2];
      count = 0;
      size = 0;
      return l;
    }
  }
}
