package org.nvimpam.fold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckChunk;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.SegmentWriter;
import org.nvimpam.lines.Lines;
import org.nvimpam.testutil.RandomDecks;

/**
 * A deck folded while it is read: {@link FoldEngine#append} of the file's lines chunk by chunk
 * gives the folds of a full parse, after every chunk, wherever the chunks end.
 */
class FoldingReadTest {
  @TempDir Path dir;

  private static DeckChunk chunk(List<byte[]> lines, int from, int to) {
    long bytes = 0;
    for (int i = from; i < to; i++) bytes += lines.get(i).length;
    SegmentWriter w = new SegmentWriter(bytes);
    w.begin(to - from);
    for (int i = from; i < to; i++) w.add(lines.get(i), 0, lines.get(i).length);
    return w.end();
  }

  private static Lines lines(List<byte[]> l) {
    Lines.Builder b = new Lines.Builder(l.size(), 64 * l.size());
    for (byte[] line : l) b.add(line, 0, line.length);
    return b.build();
  }

  private static void appendInRandomChunks(FoldOptions options, long firstSeed) {
    for (long seed = firstSeed; seed < firstSeed + 1500; seed++) {
      RandomDecks gen = new RandomDecks(seed);
      Random r = gen.random();
      List<byte[]> deck = gen.deck(1 + r.nextInt(40));
      FoldEngine engine = new FoldEngine(options);
      engine.load(Deck.withCapacity(0));
      int at = 0;
      while (at < deck.size()) {
        int to = Math.min(deck.size(), at + 1 + r.nextInt(r.nextBoolean() ? 3 : 30));
        FoldSet appended = engine.append(chunk(deck, at, to));
        FoldSet full = FoldParser.parse(lines(deck.subList(0, to)), options);
        if (!appended.equals(full)) {
          StringBuilder sb = new StringBuilder("seed " + seed + ", lines [" + at + ", " + to + ") appended to\n");
          for (int i = 0; i < to; i++) sb.append(i).append(": ").append(RandomDecks.show(deck.get(i))).append('\n');
          fail(sb.append("full parse: ").append(full.toList()).append("\nappended:   ").append(appended.toList()).toString());
        }
        at = to;
      }
    }
  }

  @Test
  void appendingChunksEqualsAFullParseInGenericMode() {
    appendInRandomChunks(FoldOptions.GENERIC, 7_000);
  }

  @Test
  void appendingChunksEqualsAFullParseInCompatibleMode() {
    appendInRandomChunks(FoldOptions.COMPATIBLE, 9_000_000);
  }

  /** A file of random decks one after the other, over {@code bytes}: many segments of the read. */
  private Path bigDeck(long bytes, long seed) throws IOException {
    RandomDecks gen = new RandomDecks(seed);
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) bytes + (1 << 16));
    while (out.size() < bytes) {
      for (byte[] l : gen.deck(50)) {
        out.write(l);
        out.write('\n');
      }
    }
    Path p = dir.resolve("big" + seed + ".pc");
    Files.write(p, out.toByteArray());
    return p;
  }

  @Test
  void aFileFoldedWhileItIsReadHasTheLinesAndFoldsOfAReadThenAParse() throws IOException {
    for (long seed : new long[] {1, 2}) {
      Path p = bigDeck(3L * Deck.SEGMENT_BYTES + 12345, seed);
      long size = Files.size(p);
      FoldingRead.Result r = FoldingRead.read(p, size, DeckFile.estimateLines(p, size), () -> FoldOptions.GENERIC);
      Deck read = DeckFile.read(p, 0, size);
      assertEquals(read.lineCount(), r.deck().lineCount());
      for (int i = 0; i < read.lineCount(); i += 997) {
        assertEquals(new String(read.line(i)), new String(r.deck().line(i)), "line " + i);
      }
      assertEquals(FoldParser.parse(read, FoldOptions.GENERIC), r.engine().folds());
      assertEquals(FoldOptions.GENERIC, r.engine().options());
    }
  }

  @Test
  void aFailingReadStopsTheFoldThreadAndSaysWhy() {
    Path missing = dir.resolve("gone.pc");
    assertThrows(NoSuchFileException.class, () -> FoldingRead.read(missing, 100, 10, () -> FoldOptions.GENERIC));
    List<Thread> left = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) if (t.getName().equals("nvimpam-fold-while-reading")) left.add(t);
    for (Thread t : left) {
      try {
        t.join(5000);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
      assertEquals(false, t.isAlive(), "the fold thread ended");
    }
  }
}
