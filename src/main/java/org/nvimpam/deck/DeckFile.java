package org.nvimpam.deck;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.nvimpam.lines.Lines;

/**
 * Reads a deck file into a {@link Deck}: the file's bytes go straight into the deck's segments
 * (no line is copied, except one cut by a segment's end), and lines are split on LF. A CR before
 * the LF stays part of its line, as Neovim keeps it with 'fileformat' unix; with {@code dos} it is
 * left out of the line, as Neovim does with 'fileformat' dos. Terminators stay in the segments as
 * a little garbage (one or two bytes a line).
 *
 * <p>The newline scan looks at eight bytes at a time (the JVM runs C1 only, which compiles the
 * long loads of a VarHandle well and a byte loop poorly): a 588 MB deck is read in a third of
 * the time of a byte-at-a-time scan. The file is read in pieces of {@link #PIECE} bytes, each
 * scanned while it is still in the CPU's cache, and the JDK's copy of each read goes through a
 * temporary buffer that small (DeckFileBenchmark.read: 44.5 ms instead of 47.5 ms with reads of
 * whole segments).
 */
public final class DeckFile {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
  private static final long LFS = 0x0A0A0A0A0A0A0A0AL;
  private static final long SMALL = 16L << 20;
  private static final int PIECE = 1 << 18;
  private static final int MAX_START = Deck.SEGMENT_BYTES - 1; // the last offset a line may start at

  private DeckFile() {}

  /** {@link #read(Path, int, long, boolean)} of a file read with 'fileformat' unix. */
  public static Deck read(Path file, int expectedLines, long fileBytes) throws IOException {
    return read(file, expectedLines, fileBytes, false);
  }

  /**
   * The lines of {@code file}; {@code expectedLines} and {@code fileBytes} size the deck, and no
   * more than {@code fileBytes} are read (a file grown since it was measured is caught by the
   * caller's checks). An unterminated last line is a line too.
   */
  public static Deck read(Path file, int expectedLines, long fileBytes, boolean dos) throws IOException {
    Deck deck = Deck.withCapacity(expectedLines);
    read(file, fileBytes, new Lines(dos, deck, null));
    return deck;
  }

  /** Where the lines of a file go as they are read. */
  public interface ChunkSink {
    /** The next lines of the file, one segment's worth, to be appended to a deck once. */
    void take(DeckChunk next) throws IOException;
  }

  /**
   * As {@link #read(Path, int, long, boolean)}, but each segment's lines go to {@code sink} as soon
   * as they are scanned (in file order), so that another thread can use them while the rest of
   * the file is read.
   */
  public static void read(Path file, long fileBytes, boolean dos, ChunkSink sink) throws IOException {
    read(file, fileBytes, new Lines(dos, null, sink));
  }

  private static void read(Path file, long fileBytes, Lines lines) throws IOException {
    long remaining = Math.max(0, fileBytes);
    byte[] seg = new byte[segmentSize(remaining, 0)];
    int pos = 0; // bytes of seg filled
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      while (remaining > 0) {
        int n = ch.read(ByteBuffer.wrap(seg, pos, (int) Math.min(Math.min(seg.length - pos, remaining), PIECE)));
        if (n < 0) break;
        remaining -= n;
        int scanned = pos;
        pos += n;
        // A segment grown for a line longer than a segment ends after it: the deck addresses
        // the starts of lines in the first SEGMENT_BYTES of a segment only.
        while ((scanned = lines.scan(seg, scanned, pos)) < pos) {
          int start = lines.start;
          seg = cut(lines, seg, pos, remaining);
          pos -= start;
          scanned -= start;
        }
        if (pos == seg.length && remaining > 0) { // full: hand its lines over, move the cut line on
          int start = lines.start;
          seg = cut(lines, seg, pos, remaining);
          pos -= start;
        }
      }
    }
    if (lines.start < pos) { // the last line has no LF
      if (lines.start > MAX_START) {
        int start = lines.start;
        seg = cut(lines, seg, pos, 0);
        pos -= start;
      }
      lines.add(lines.start, pos);
    }
    if (lines.count > 0) lines.emit(lines.chunk(seg, pos));
  }

  /** Hands the lines of {@code seg} on; returns a new segment holding the line begun at its end. */
  private static byte[] cut(Lines lines, byte[] seg, int pos, long remaining) throws IOException {
    int tail = pos - lines.start;
    int size = segmentSize(remaining, tail);
    byte[] next = size == Deck.SEGMENT_BYTES ? lines.segments.poll() : null;
    if (next == null) next = new byte[size];
    System.arraycopy(seg, lines.start, next, 0, tail);
    lines.emit(lines.chunk(seg, lines.start));
    return next;
  }

  /**
   * About how many lines a file of {@code fileBytes} has, from 8 KiB at four places (a deck's
   * head of comments and parameters is no sample of its nodes), a little over rather than under:
   * a deck read without a line count then sizes its index once instead of growing it by copies.
   */
  public static int estimateLines(Path file, long fileBytes) throws IOException {
    if (fileBytes < SMALL) return (int) (fileBytes / 32 + 16); // a cold JVM would scan samples slower than it grows an index
    byte[] sample = new byte[1 << 13]; // little: the JVM may still interpret this loop
    long read = 0;
    long lfs = 0;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      for (int k = 0; k < 4; k++) {
        ByteBuffer b = ByteBuffer.wrap(sample);
        long at = (fileBytes - sample.length) * k / 3;
        while (b.hasRemaining() && ch.read(b, at + b.position()) > 0) {}
        for (int i = 0; i < b.position(); i++) if (sample[i] == '\n') lfs++;
        read += b.position();
      }
    }
    double perLine = (double) read / Math.max(1, lfs);
    return (int) Math.min(Integer.MAX_VALUE - 16, fileBytes / perLine * 1.03 + 16);
  }

  /** A segment for what remains of the file plus a cut line; twice the line if it is longer. */
  private static int segmentSize(long remaining, int tail) {
    long want = Math.max(1, remaining + tail);
    if (tail >= Deck.SEGMENT_BYTES) return (int) Math.min(Integer.MAX_VALUE - 16, 2L * tail);
    return (int) Math.min(Deck.SEGMENT_BYTES, want);
  }

  /** The lines found so far in the current segment, and where they go: a deck, or a sink. */
  private static final class Lines implements DeckChunk.Spares {
    final boolean dos;
    final Deck deck;
    final ChunkSink sink;
    int[] offs = new int[1 << 16];
    int[] lens = new int[1 << 16];
    int count;
    int start; // where the next line starts in the segment
    // Line arrays of chunks that a sink's deck has copied: reused, so that a big file read into a
    // sink leaves no garbage of them behind (a 10M-line read: 150 pairs of 0.5 MB).
    private final ConcurrentLinkedQueue<int[][]> spare = new ConcurrentLinkedQueue<>();

    Lines(boolean dos, Deck deck, ChunkSink sink) {
      this.dos = dos;
      this.deck = deck;
      this.sink = sink;
    }

    // Segments of chunks every reader is done with (DeckChunk.done), to be read into again.
    final ConcurrentLinkedQueue<byte[]> segments = new ConcurrentLinkedQueue<>();

    @Override
    public void giveBack(int[] o, int[] l) {
      spare.add(new int[][] {o, l});
    }

    @Override
    public void giveBack(byte[][] segs) {
      for (byte[] s : segs) if (s.length == Deck.SEGMENT_BYTES) segments.add(s);
    }

    void emit(DeckChunk c) throws IOException {
      if (sink != null) {
        sink.take(c);
      } else {
        deck.append(c);
      }
    }

    /**
     * Every LF in {@code a[from, to)} ends a line; returns {@code to}, or where it stopped early:
     * after a line, when the next one would start beyond {@link #MAX_START}. One loop with
     * everything inline: C1 inlines little.
     */
    int scan(byte[] a, int from, int to) {
      int[] o = offs;
      int[] l = lens;
      int n = count;
      int s = start;
      boolean cr = dos;
      int i = from;
      for (; i + 8 <= to; i += 8) {
        long x = (long) LONGS.get(a, i) ^ LFS; // LF bytes are 0 now
        long zero = ~(((x & LOW7) + LOW7) | x | LOW7); // exactly the high bit of each 0 byte
        if (zero == 0) continue;
        if (n + 8 > o.length) { // room for the (at most) 8 lines of this word
          o = offs = Arrays.copyOf(o, o.length * 2);
          l = lens = Arrays.copyOf(l, l.length * 2);
        }
        do {
          int lf = i + LineBytes.firstMarked(zero);
          o[n] = s;
          l[n++] = (cr && lf > s && a[lf - 1] == '\r' ? lf - 1 : lf) - s;
          s = lf + 1;
          if (s > MAX_START) { // only in a segment grown for a long line
            count = n;
            start = s;
            return s;
          }
          zero &= zero - 1;
        } while (zero != 0);
      }
      count = n;
      start = s;
      for (; i < to; i++) {
        if (a[i] != '\n') continue;
        add(start, cr && i > start && a[i - 1] == '\r' ? i - 1 : i);
        start = i + 1;
        if (start > MAX_START) return start;
      }
      return to;
    }

    void add(int s, int e) {
      if (count == offs.length) {
        offs = Arrays.copyOf(offs, count * 2);
        lens = Arrays.copyOf(lens, count * 2);
      }
      offs[count] = s;
      lens[count] = e - s;
      count++;
    }

    /** The lines of {@code seg} as a chunk (its bytes used up to {@code used}); starts the next segment. */
    DeckChunk chunk(byte[] seg, int used) {
      long bytes = 0;
      for (int i = 0; i < count; i++) bytes += lens[i];
      DeckChunk c = new DeckChunk(new byte[][] {seg}, new int[] {0}, new int[] {used}, offs, lens, count, bytes,
          sink != null ? this : null);
      if (sink != null) { // the chunk keeps them until its deck has copied them; a deck here copies them at once
        int[][] s = spare.poll();
        offs = s != null ? s[0] : new int[offs.length];
        lens = s != null ? s[1] : new int[lens.length];
      }
      count = 0;
      start = 0;
      return c;
    }
  }
}
