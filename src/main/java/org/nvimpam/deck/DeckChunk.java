package org.nvimpam.deck;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Consecutive lines already written into arena segments by a {@link SegmentWriter}, ready to be
 * appended to a {@link Deck} without copying their bytes. Line {@code i} is {@code
 * segment(i)[offset(i) .. +length(i))}.
 */
public final class DeckChunk {
  final byte[][] segments; // in writing order
  final int[] segmentFirstLine; // the first line of each segment
  final int[] segmentEnd; // bytes written into each segment once this chunk ended
  final int[] offs;
  final int[] lens;
  final int count;
  final long bytes;
  private final Spares spares; // where offs and lens go once a deck has copied them; null: nowhere

  private final AtomicInteger holders = new AtomicInteger();

  /** Takes back the line arrays of chunks a deck has copied into its index, for the next chunks. */
  interface Spares {
    void giveBack(int[] offs, int[] lens);

    /** The segments of a chunk every reader is done with ({@link #done}). */
    void giveBack(byte[][] segments);
  }

  DeckChunk(byte[][] segments, int[] segmentFirstLine, int[] segmentEnd, int[] offs, int[] lens,
      int count, long bytes) {
    this(segments, segmentFirstLine, segmentEnd, offs, lens, count, bytes, null);
  }

  DeckChunk(byte[][] segments, int[] segmentFirstLine, int[] segmentEnd, int[] offs, int[] lens,
      int count, long bytes, Spares spares) {
    this.spares = spares;
    this.segments = segments;
    this.segmentFirstLine = segmentFirstLine;
    this.segmentEnd = segmentEnd;
    this.offs = offs;
    this.lens = lens;
    this.count = count;
    this.bytes = bytes;
  }

  public int count() {
    return count;
  }

  /** Called by the deck this chunk was appended to: its line arrays are copied, and free. */
  void appended() {
    if (spares != null) spares.giveBack(offs, lens);
  }

  /** One more reader of this chunk's lines, streamed from a file: they stay until it is {@link #done}. */
  public void hold() {
    holders.incrementAndGet();
  }

  /**
   * A reader {@link #hold}ing this chunk is done with it. After the last, its segment and line
   * arrays are read into again for the file's next chunks (a 10M-line check allocated 150
   * segments of 4 MB, and G1 started a cycle for each).
   */
  public void done() {
    if (holders.decrementAndGet() == 0 && spares != null) {
      spares.giveBack(offs, lens);
      spares.giveBack(segments);
    }
  }

  /** Bytes of all lines, terminators excluded. */
  public long byteSize() {
    return bytes;
  }

  /** A copy of line {@code i}; for tests and messages. */
  public byte[] line(int i) {
    int s = segmentFirstLine.length - 1;
    while (segmentFirstLine[s] > i) s--;
    return java.util.Arrays.copyOfRange(segments[s], offs[i], offs[i] + lens[i]);
  }
}
