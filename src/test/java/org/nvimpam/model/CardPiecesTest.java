package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.deck.ChunkLines;
import org.nvimpam.deck.DeckFile;

/**
 * The pieces of a file of several segments, whose segments are read into again once the pieces
 * holding them are done: every piece still reads its own lines, whether it is done at once (a
 * chunk waiting for its next piece stays held) or after the next piece is made.
 */
class CardPiecesTest {
  @TempDir Path dir;

  private static String line(int i) {
    return i % 7 == 0 ? "NODE  / " + i : "        " + i + " " + "x".repeat(i % 53);
  }

  @Test
  void piecesKeepTheirLinesWhenDoneAtOnce() throws IOException {
    check(0);
  }

  @Test
  void piecesKeepTheirLinesWhenDoneAfterTheNext() throws IOException {
    check(1);
  }

  private void check(int lag) throws IOException {
    int n = 700_000; // about 25 MB: six segments
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) sb.append(line(i)).append('\n');
    Path f = dir.resolve("d.inc");
    Files.writeString(f, sb, StandardCharsets.US_ASCII);
    List<ChunkLines> waiting = new ArrayList<>();
    int[] next = {0};
    int[] pieces = {0};
    CardPieces cp = new CardPieces(p -> {
      waiting.add(p);
      pieces[0]++;
      while (waiting.size() > lag) {
        ChunkLines w = waiting.remove(0);
        read(w, next);
        w.done();
      }
    });
    DeckFile.read(f, Files.size(f), false, cp::take);
    cp.end();
    for (ChunkLines w : waiting) read(w, next);
    assertEquals(n, next[0]);
    assertTrue(pieces[0] >= 6, pieces[0] + " pieces");
  }

  private static void read(ChunkLines w, int[] next) {
    for (int i = 0; i < w.lineCount(); i++) {
      String got = new String(w.bytes(i), w.start(i), w.length(i), StandardCharsets.US_ASCII);
      assertEquals(line(next[0]), got, "line " + next[0]);
      next[0]++;
    }
  }
}
