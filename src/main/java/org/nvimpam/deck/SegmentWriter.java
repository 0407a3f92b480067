package org.nvimpam.deck;

import java.util.Arrays;

/**
 * Writes the lines of a deck being loaded into arena segments, chunk after chunk, so that a
 * decoder can read each line's bytes straight to where the deck will keep them.
 *
 * <p>Segments are filled densely across chunks (a chunk continues the segment the previous one
 * left) and are at most {@link Deck#SEGMENT_BYTES} long unless one line is longer; with a known
 * total the last one is sized to what remains, so a small deck holds no slack. Owned by one thread
 * at a time (the RPC reader decodes chunk replies); the chunks it returns may be handed to another.
 */
public final class SegmentWriter {
  private static final int FIRST_GUESS = 64 * 1024;

  private long expectedBytes; // bytes still expected; sizes the next segment
  private int guess = FIRST_GUESS; // the next segment's size once the expected bytes ran out
  private byte[] seg;
  private int pos;

  // The chunk being written.
  private byte[][] segs = new byte[2][];
  private int[] segFirst = new int[2];
  private int segCount;
  private int[] offs;
  private int[] lens;
  private int count;
  private long bytes;

  /** {@code expectedBytes}: the deck's line bytes as far as known, to size segments; -1 if unknown. */
  public SegmentWriter(long expectedBytes) {
    this.expectedBytes = expectedBytes;
  }

  /** Starts a chunk of about {@code lines} lines (more are allowed). */
  public void begin(int lines) {
    segCount = 0;
    offs = new int[Math.max(1, lines)];
    lens = new int[Math.max(1, lines)];
    count = 0;
    bytes = 0;
  }

  /**
   * Room for a line of {@code len} bytes: write them into the returned array at {@link
   * #position()}, then call {@link #commit}.
   */
  public byte[] reserve(int len) {
    if (seg == null || seg.length - pos < len) {
      newSegment(len);
    }
    if (segCount == 0 || segs[segCount - 1] != seg) {
      if (segCount == segs.length) {
        segs = Arrays.copyOf(segs, segCount * 2);
        segFirst = Arrays.copyOf(segFirst, segCount * 2);
      }
      segs[segCount] = seg;
      segFirst[segCount] = count;
      segCount++;
    }
    return seg;
  }

  public int position() {
    return pos;
  }

  /** Ends the line whose {@code len} bytes were written at {@link #position()}. */
  public void commit(int len) {
    if (count == offs.length) {
      int cap = count + (count >> 1) + 16;
      offs = Arrays.copyOf(offs, cap);
      lens = Arrays.copyOf(lens, cap);
    }
    offs[count] = pos;
    lens[count] = len;
    count++;
    pos += len;
    bytes += len;
    expectedBytes -= len;
  }

  /** Adds one line, copying it; for lines that are not decoded in place. */
  public void add(byte[] src, int off, int len) {
    byte[] dst = reserve(len);
    System.arraycopy(src, off, dst, pos, len);
    commit(len);
  }

  /** The lines written since {@link #begin}. */
  public DeckChunk end() {
    int[] ends = new int[segCount];
    for (int s = 0; s < segCount; s++) {
      int last = (s + 1 < segCount ? segFirst[s + 1] : count) - 1;
      ends[s] = last < segFirst[s] ? 0 : offs[last] + lens[last];
    }
    DeckChunk c = new DeckChunk(Arrays.copyOf(segs, segCount), Arrays.copyOf(segFirst, segCount), ends,
        offs, lens, count, bytes);
    offs = lens = null;
    return c;
  }

  private void newSegment(int len) {
    if (len > Deck.SEGMENT_BYTES) { // a line of its own; the next line starts a fresh segment
      seg = new byte[len];
      pos = 0;
      return;
    }
    long want;
    if (expectedBytes >= len) {
      want = expectedBytes;
    } else { // more than expected (edits during a load, or no estimate): grow the guesses
      want = Math.max(len, guess);
      guess = (int) Math.min(Deck.SEGMENT_BYTES, 2L * guess);
    }
    seg = new byte[(int) Math.min(Deck.SEGMENT_BYTES, want)];
    pos = 0;
  }
}
