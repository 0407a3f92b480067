package org.nvimpam.deck;

import org.nvimpam.lines.LineSource;
/**
 * Lines of consecutive {@link DeckChunk}s as one {@link LineSource}, read in place: a piece of a
 * file streamed by {@link DeckFile#read(java.nio.file.Path, long, boolean, DeckFile.ChunkSink)},
 * from line {@code from[0]} of the first chunk to line {@code to} (exclusive) of the last.
 */
public final class ChunkLines implements LineSource {
  private final int count;
  private final int[] offs; // the lines' places, copied flat: a read is two array loads
  private final int[] lens;
  private final byte[][] runSeg; // runs of lines in one segment: their segment
  private final int[] runEnd; // and the piece's line after each run
  private DeckChunk[] held; // the chunks this piece holds (hold()) until done()
  private final DeckChunk[] chunks;

  /**
   * Lines {@code [from[i], its count)} of each chunk {@code chunks[i]} but the last, and lines
   * {@code [from[last], to)} of the last.
   */
  public ChunkLines(DeckChunk[] chunks, int[] from, int to) {
    this.chunks = chunks;
    int n = 0;
    int runs = 0;
    for (int i = 0; i < chunks.length; i++) {
      n += (i == chunks.length - 1 ? to : chunks[i].count) - from[i];
      runs += chunks[i].segments.length;
    }
    count = n;
    offs = new int[n];
    lens = new int[n];
    byte[][] seg = new byte[runs + 1][];
    int[] end = new int[runs + 1];
    int r = 0;
    int at = 0;
    for (int i = 0; i < chunks.length; i++) {
      DeckChunk c = chunks[i];
      int a = from[i];
      int b = i == chunks.length - 1 ? to : c.count;
      System.arraycopy(c.offs, a, offs, at, b - a);
      System.arraycopy(c.lens, a, lens, at, b - a);
      for (int s = 0; s < c.segments.length; s++) {
        int lo = Math.max(a, c.segmentFirstLine[s]);
        int hi = Math.min(b, s + 1 < c.segments.length ? c.segmentFirstLine[s + 1] : c.count);
        if (hi <= lo) continue;
        seg[r] = c.segments[s];
        end[r++] = at + hi - a;
      }
      at += b - a;
    }
    seg[r] = null;
    end[r++] = Integer.MAX_VALUE; // a sentinel: the search below never runs past it
    runSeg = seg;
    runEnd = end;
  }

  /** Holds the chunks of these lines ({@link DeckChunk#hold}) until {@link #done}. */
  public void hold() {
    for (DeckChunk c : chunks) c.hold();
    held = chunks;
  }

  /** Done with these lines: the chunks held go back to the file's reader once no other piece holds them. */
  public void done() {
    DeckChunk[] h = held;
    held = null;
    if (h != null) for (DeckChunk c : h) c.done();
  }

  /** The lines of one chunk. */
  public static ChunkLines of(DeckChunk c) {
    return new ChunkLines(new DeckChunk[] {c}, new int[] {0}, c.count);
  }

  /** The last line of {@code c} that is a card header, or -1. */
  public static int lastHeader(DeckChunk c) {
    for (int i = c.count - 1; i >= 0; i--) {
      byte[] a = segment(c, i);
      if (LineBytes.headerWord(a, c.offs[i], LineSource.contentLength(a, c.offs[i], c.lens[i])) != 0) return i;
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

  /**
   * Whether some line begins with byte {@code b}: read straight from the arrays, a test cheap
   * enough to spare a piece with no such line a search of its lines ({@code INCLU} lines).
   */
  public boolean someLineBegins(byte b) {
    int r = 0;
    for (int i = 0; i < count; i++) {
      while (i >= runEnd[r]) r++;
      if (lens[i] > 0 && runSeg[r][offs[i]] == b) return true;
    }
    return false;
  }

  @Override
  public int lineCount() {
    return count;
  }

  @Override
  public byte[] bytes(int i) { // small enough for C1 to inline: most lines are in the first run
    return i < runEnd[0] ? runSeg[0] : laterRun(i);
  }

  private byte[] laterRun(int i) {
    int r = 1;
    while (i >= runEnd[r]) r++;
    return runSeg[r];
  }

  @Override
  public int start(int i) {
    return offs[i];
  }

  @Override
  public int length(int i) {
    return lens[i];
  }
}
