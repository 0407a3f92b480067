package org.nvimpam.deck;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a deck file into a {@link Deck}: the file's bytes go straight into the deck's segments
 * (no line is copied, except one cut by a segment's end), and lines are split on LF only (a CR
 * stays part of its line, as Neovim keeps it with 'fileformat' unix). The LF bytes stay in the
 * segments as a little garbage (one byte a line).
 */
public final class DeckFile {
  private DeckFile() {}

  /**
   * The lines of {@code file}; {@code expectedLines} and {@code fileBytes} size the deck. An
   * unterminated last line is a line too.
   */
  public static Deck read(Path file, int expectedLines, long fileBytes) throws IOException {
    Deck deck = Deck.withCapacity(expectedLines);
    int[] offs = new int[1 << 16];
    int[] lens = new int[1 << 16];
    long remaining = Math.max(0, fileBytes);
    byte[] seg = new byte[segmentSize(remaining, 0)];
    int pos = 0; // bytes of seg filled
    int lineStart = 0;
    int count = 0; // lines of seg found so far
    try (InputStream in = Files.newInputStream(file)) {
      while (true) {
        int n = in.read(seg, pos, seg.length - pos);
        if (n < 0) break;
        remaining -= n;
        for (int i = pos, end = pos + n; i < end; i++) {
          if (seg[i] != '\n') continue;
          if (count == offs.length) {
            offs = Arrays.copyOf(offs, count * 2);
            lens = Arrays.copyOf(lens, count * 2);
          }
          offs[count] = lineStart;
          lens[count] = i - lineStart;
          count++;
          lineStart = i + 1;
        }
        pos += n;
        if (pos == seg.length) { // full: hand its lines over, move the cut line to the next one
          if (remaining <= 0) break; // the file's size as stat'ed is read (a file grown since is caught later)
          int tail = pos - lineStart;
          byte[] next = new byte[segmentSize(remaining, tail)];
          System.arraycopy(seg, lineStart, next, 0, tail);
          deck.append(chunk(seg, lineStart, offs, lens, count));
          seg = next;
          pos = tail;
          lineStart = 0;
          count = 0;
        }
      }
    }
    if (lineStart < pos) { // the last line has no LF
      if (count == offs.length) {
        offs = Arrays.copyOf(offs, count + 1);
        lens = Arrays.copyOf(lens, count + 1);
      }
      offs[count] = lineStart;
      lens[count] = pos - lineStart;
      count++;
      lineStart = pos;
    }
    if (count > 0) deck.append(chunk(seg, lineStart, offs, lens, count));
    return deck;
  }

  /** A segment for what remains of the file plus a cut line; twice the line if it is longer. */
  private static int segmentSize(long remaining, int tail) {
    long want = Math.max(1, remaining + tail);
    if (tail >= Deck.SEGMENT_BYTES) return (int) Math.min(Integer.MAX_VALUE - 16, 2L * tail);
    return (int) Math.min(Deck.SEGMENT_BYTES, want);
  }

  private static DeckChunk chunk(byte[] seg, int used, int[] offs, int[] lens, int count) {
    long bytes = 0;
    for (int i = 0; i < count; i++) bytes += lens[i];
    // the deck copies offs and lens into its index: they can be reused for the next segment
    return new DeckChunk(new byte[][] {seg}, new int[] {0}, new int[] {used}, offs, lens, count, bytes);
  }
}
