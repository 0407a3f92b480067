package org.nvimpam.deck;

/**
 * Lines of consecutive {@link DeckChunk}s as one {@link LineSource}, read in place: a piece of a
 * file streamed by {@link DeckFile#read(java.nio.file.Path, long, boolean, DeckFile.ChunkSink)},
 * from line {@code from[0]} of the first chunk to line {@code to} (exclusive) of the last. Not
 * thread-safe (it remembers the chunk read last).
 */
public final class ChunkLines implements LineSource {
  private final DeckChunk[] chunks;
  private final int[] from; // the first line of each chunk in the piece
  private final int[] first; // the piece's line of each chunk's first line in it
  private final int count;
  private int k; // the chunk of the line read last

  /**
   * Lines {@code [from[i], its count)} of each chunk {@code chunks[i]} but the last, and lines
   * {@code [from[last], to)} of the last.
   */
  public ChunkLines(DeckChunk[] chunks, int[] from, int to) {
    this.chunks = chunks;
    this.from = from;
    this.first = new int[chunks.length];
    int n = 0;
    for (int i = 0; i < chunks.length; i++) {
      first[i] = n;
      n += (i == chunks.length - 1 ? to : chunks[i].count) - from[i];
    }
    this.count = n;
  }

  /** The lines of one chunk. */
  public static ChunkLines of(DeckChunk c) {
    return new ChunkLines(new DeckChunk[] {c}, new int[] {0}, c.count);
  }

  /** The last line of {@code c} that is a card header, or -1. */
  public static int lastHeader(DeckChunk c) {
    for (int i = c.count - 1; i >= 0; i--) {
      byte[] a = segment(c, i);
      if (LineBytes.headerWord(a, c.offs[i], LineBytes.contentLength(a, c.offs[i], c.lens[i])) != 0) return i;
    }
    return -1;
  }

  private static byte[] segment(DeckChunk c, int line) {
    byte[][] s = c.segments;
    if (s.length == 1) return s[0];
    int j = c.segmentFirstLine.length - 1;
    while (c.segmentFirstLine[j] > line) j--;
    return s[j];
  }

  /** The chunk's line of piece line {@code i}; sets {@link #k}. */
  private int at(int i) {
    int j = k;
    if (i < first[j] || (j + 1 < first.length && i >= first[j + 1])) {
      j = first.length - 1;
      while (first[j] > i) j--;
      k = j;
    }
    return i - first[j] + from[j];
  }

  @Override
  public int lineCount() {
    return count;
  }

  @Override
  public byte[] bytes(int i) {
    int line = at(i);
    return segment(chunks[k], line);
  }

  @Override
  public int start(int i) {
    int line = at(i);
    return chunks[k].offs[line];
  }

  @Override
  public int length(int i) {
    int line = at(i);
    return chunks[k].lens[line];
  }
}
