package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChunkLinesTest {
  /** A chunk of {@code n} random lines (some empty, some starting with I), one segment. */
  private static DeckChunk chunk(Random rnd, int n) {
    ByteArrayOutputStream seg = new ByteArrayOutputStream();
    int[] offs = new int[n];
    int[] lens = new int[n];
    long bytes = 0;
    for (int i = 0; i < n; i++) {
      String line = switch (rnd.nextInt(4)) {
        case 0 -> "";
        case 1 -> "NODE  / " + rnd.nextInt(1000);
        case 2 -> rnd.nextInt(30) == 0 ? "INCLU / a.inc" : "$ " + i;
        default -> "   I" + i;
      };
      offs[i] = seg.size();
      lens[i] = line.length();
      bytes += line.length();
      seg.writeBytes(line.getBytes(StandardCharsets.ISO_8859_1));
      seg.write('\n');
    }
    byte[] a = seg.toByteArray();
    return new DeckChunk(new byte[][] {a}, new int[] {0}, new int[] {a.length}, offs, lens, n, bytes);
  }

  /** The quick test agrees with a look at every line of the piece, across chunks and cuts. */
  @Test
  void someLineBeginsAgreesWithEveryLine() {
    Random rnd = new Random(34);
    int yes = 0;
    for (int round = 0; round < 2000; round++) {
      int k = 1 + rnd.nextInt(3);
      DeckChunk[] cs = new DeckChunk[k];
      int[] from = new int[k];
      for (int i = 0; i < k; i++) {
        cs[i] = chunk(rnd, 1 + rnd.nextInt(40));
        from[i] = i == 0 ? rnd.nextInt(cs[i].count()) : 0;
      }
      int to = from[k - 1] + rnd.nextInt(cs[k - 1].count() - from[k - 1] + 1);
      if (k == 1 && to == from[0]) continue;
      ChunkLines lines = new ChunkLines(cs, from, to);
      boolean any = false;
      for (int i = 0; i < lines.lineCount(); i++) {
        any |= lines.length(i) > 0 && lines.bytes(i)[lines.start(i)] == 'I';
      }
      assertEquals(any, lines.someLineBegins((byte) 'I'), "round " + round);
      if (any) yes++;
    }
    assertEquals(true, yes > 100 && yes < 1900, "both answers tested: " + yes);
  }
}
