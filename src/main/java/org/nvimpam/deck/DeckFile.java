package org.nvimpam.deck;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a deck file into a {@link Deck}: lines split on LF only (a CR stays part of its line, as
 * Neovim keeps it with 'fileformat' unix), bytes copied once from a small read buffer into the
 * deck's segments.
 */
public final class DeckFile {
  private static final int READ_BYTES = 1 << 20;

  private DeckFile() {}

  /**
   * The lines of {@code file}; {@code expectedLines} and {@code expectedBytes} (the file's size)
   * size the deck. An unterminated last line is a line too.
   */
  public static Deck read(Path file, int expectedLines, long expectedBytes) throws IOException {
    SegmentWriter w = new SegmentWriter(Math.max(0, expectedBytes - expectedLines));
    Deck deck = Deck.withCapacity(expectedLines);
    byte[] buf = new byte[READ_BYTES];
    byte[] carry = new byte[256]; // the start of a line that continues in the next read
    int carried = 0;
    w.begin(1 << 16);
    int inChunk = 0;
    try (InputStream in = Files.newInputStream(file)) {
      int n;
      while ((n = in.readNBytes(buf, 0, buf.length)) > 0) {
        int from = 0;
        for (int i = 0; i < n; i++) {
          if (buf[i] != '\n') continue;
          if (carried > 0) {
            carry = append(carry, carried, buf, from, i - from);
            w.add(carry, 0, carried + i - from);
            carried = 0;
          } else {
            w.add(buf, from, i - from);
          }
          from = i + 1;
          if (++inChunk == 1 << 16) { // hand lines over in chunks: the writer's index stays small
            deck.append(w.end());
            w.begin(1 << 16);
            inChunk = 0;
          }
        }
        if (from < n) {
          carry = append(carry, carried, buf, from, n - from);
          carried += n - from;
        }
      }
    }
    if (carried > 0) w.add(carry, 0, carried);
    deck.append(w.end());
    return deck;
  }

  private static byte[] append(byte[] carry, int carried, byte[] src, int off, int len) {
    if (carried + len > carry.length) {
      carry = Arrays.copyOf(carry, Math.max(carry.length * 2, carried + len));
    }
    System.arraycopy(src, off, carry, carried, len);
    return carry;
  }
}
