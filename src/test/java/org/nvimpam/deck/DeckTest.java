package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nvimpam.lines.Lines;

class DeckTest {
  private static void assertSameLines(List<byte[]> model, Deck deck) {
    assertEquals(model.size(), deck.lineCount());
    for (int i = 0; i < model.size(); i++) {
      assertArrayEquals(model.get(i), deck.line(i), "line " + i);
      byte[] a = deck.bytes(i);
      byte[] viaSegment = java.util.Arrays.copyOfRange(a, deck.start(i), deck.start(i) + deck.length(i));
      assertArrayEquals(model.get(i), viaSegment, "segment bytes of line " + i);
    }
  }

  @Test
  void loadingSizesTheArenaAndIndexExactly() {
    Deck d = Deck.of(Lines.ofLatin1("abc", "", "de\r"));
    assertEquals(3, d.lineCount());
    assertEquals(6, d.byteSize());
    assertEquals(6 + 2 * 3 * 4, d.heapBytes());
  }

  @Test
  void replaceFollowsBufLinesEventSemantics() {
    Deck d = Deck.of(Lines.ofLatin1("a", "b", "c", "d"));
    d.replace(1, 3, Lines.ofLatin1("x", "y", "z")); // lines 1 and 2 become three lines
    assertSameLines(List.of("a".getBytes(), "x".getBytes(), "y".getBytes(), "z".getBytes(), "d".getBytes()), d);
    d.replace(5, 5, Lines.ofLatin1("end"));
    d.replace(0, 1, Lines.empty());
    assertSameLines(List.of("x".getBytes(), "y".getBytes(), "z".getBytes(), "d".getBytes(), "end".getBytes()), d);
  }

  @Test
  void deletingEverythingLeavesNoLines() {
    Deck d = Deck.of(Lines.ofLatin1("a", "b"));
    d.replace(0, 2, Lines.empty());
    assertEquals(0, d.lineCount());
    assertEquals(0, d.byteSize());
  }

  @Test
  void replaceOutsideTheDeckIsRejected() {
    Deck d = Deck.of(Lines.ofLatin1("a", "b"));
    assertThrows(IndexOutOfBoundsException.class, () -> d.replace(1, 3, Lines.empty()));
    assertThrows(IndexOutOfBoundsException.class, () -> d.replace(2, 1, Lines.empty()));
    assertThrows(IndexOutOfBoundsException.class, () -> d.replace(-1, 0, Lines.empty()));
  }

  @Test
  void randomEditsMatchAListModelAndCompactionKeepsTheLines() {
    Random r = new Random(42);
    List<byte[]> model = new ArrayList<>();
    for (int i = 0; i < 2000; i++) model.add(randomLine(r));
    Deck d = Deck.of(lines(model));
    for (int step = 0; step < 3000; step++) {
      int first = r.nextInt(model.size() + 1);
      int last = Math.min(model.size(), first + r.nextInt(5));
      List<byte[]> repl = new ArrayList<>();
      int k = r.nextInt(step % 500 == 0 ? 400 : 5); // now and then a big paste, to force growth
      for (int i = 0; i < k; i++) repl.add(randomLine(r));
      model.subList(first, last).clear();
      model.addAll(first, repl);
      d.replace(first, last, lines(repl));
      long live = model.stream().mapToLong(b -> b.length).sum();
      assertEquals(live, d.byteSize());
    }
    assertSameLines(model, d);
  }

  /**
   * A snapshot is read on a worker thread while the buffer's events go on changing the deck: its
   * lines stay those of its moment through edits, growth of the edit segment, freed segments and
   * compaction.
   */
  @Test
  void aSnapshotKeepsItsLinesWhileTheDeckChanges() {
    Random r = new Random(7);
    List<byte[]> model = new ArrayList<>();
    for (int i = 0; i < 2000; i++) model.add(randomLine(r));
    Deck d = Deck.of(lines(model));
    List<List<byte[]>> taken = new ArrayList<>();
    List<org.nvimpam.lines.LineSource> snaps = new ArrayList<>();
    for (int step = 0; step < 3000; step++) {
      if (step % 250 == 0) {
        taken.add(new ArrayList<>(model));
        snaps.add(d.snapshot());
      }
      int first = r.nextInt(model.size() + 1);
      int last = Math.min(model.size(), first + r.nextInt(40)); // deletions free segments, garbage compacts
      List<byte[]> repl = new ArrayList<>();
      int k = r.nextInt(step % 500 == 0 ? 400 : 30);
      for (int i = 0; i < k; i++) repl.add(randomLine(r));
      model.subList(first, last).clear();
      model.addAll(first, repl);
      d.replace(first, last, lines(repl));
    }
    for (int s = 0; s < snaps.size(); s++) {
      List<byte[]> want = taken.get(s);
      org.nvimpam.lines.LineSource got = snaps.get(s);
      assertEquals(want.size(), got.lineCount(), "snapshot " + s);
      for (int i = 0; i < want.size(); i++) {
        assertArrayEquals(want.get(i), Arrays.copyOfRange(got.bytes(i), got.start(i), got.start(i) + got.length(i)),
            "snapshot " + s + " line " + i);
      }
    }
    assertSameLines(model, d);
  }

  /**
   * An empty line holds no bytes, but it sat in a segment: when its neighbours went, the segment was
   * freed, and when the empty line went too, freed a second time. Two later segments then got the
   * same slot, and the lines of the first read the bytes of the second (a live buffer edited in
   * Replace mode showed it: the JVM's copy turned to garbage, and its folds with it).
   */
  @Test
  void anEmptyLineNeverFreesItsSegmentTwice() {
    Deck d = Deck.of(Lines.ofLatin1("a", "", "b"));
    d.replace(0, 1, Lines.ofLatin1("c"));
    d.replace(2, 3, Lines.ofLatin1("d")); // the loaded segment now holds only the empty line
    d.replace(1, 2, Lines.ofLatin1("e")); // and loses it
    byte[] x = new byte[Deck.SEGMENT_BYTES + 1];
    byte[] y = new byte[Deck.SEGMENT_BYTES + 1];
    java.util.Arrays.fill(x, (byte) 'x');
    java.util.Arrays.fill(y, (byte) 'y');
    d.replace(0, 1, lines(List.of(x))); // each longer than a segment: a new slot each
    d.replace(2, 3, lines(List.of(y)));
    assertSameLines(List.of(x, "e".getBytes(), y), d);
  }

  @Test
  void garbageIsCompactedAway() {
    List<byte[]> model = new ArrayList<>();
    byte[] line = new byte[1000];
    for (int i = 0; i < 1000; i++) model.add(line);
    Deck d = Deck.of(lines(model));
    for (int i = 0; i < 500; i++) d.replace(i, i + 1, lines(List.of(line)));
    // 500 kB of replaced lines would be garbage without compaction.
    assertEquals(1_000_000, d.byteSize());
    assertEquals(true, d.heapBytes() < 1_300_000, "heap " + d.heapBytes());
  }

  private static byte[] randomLine(Random r) {
    byte[] b = new byte[r.nextInt(90)];
    r.nextBytes(b);
    for (int i = 0; i < b.length; i++) if (b[i] == '\n') b[i] = 'x';
    return b;
  }

  private static Lines lines(List<byte[]> l) {
    Lines.Builder b = new Lines.Builder(l.size(), 64);
    for (byte[] x : l) b.add(x, 0, x.length);
    return b.build();
  }

  @Test
  void chunksWrittenAcrossSegmentsAreAppendedWithoutCopiesAndEditsStayCorrect() {
    // About 12 MB of lines: three segments, chunks that end inside one and continue in the next.
    Random r = new Random(7);
    List<byte[]> model = new ArrayList<>();
    SegmentWriter w = new SegmentWriter(-1);
    Deck d = Deck.withCapacity(0);
    for (int chunk = 0; chunk < 40; chunk++) {
      w.begin(16);
      for (int i = 0; i < 5000; i++) {
        byte[] line = new byte[20 + r.nextInt(80)];
        r.nextBytes(line);
        model.add(line);
        w.add(line, 0, line.length);
      }
      DeckChunk c = w.end();
      if (chunk % 7 == 3) { // a chunk dropped (overtaken by an edit): its bytes are garbage
        model.subList(model.size() - c.count(), model.size()).clear();
        continue;
      }
      d.append(c);
    }
    assertSameLines(model, d);
    for (int step = 0; step < 2000; step++) {
      int first = r.nextInt(model.size());
      int last = Math.min(model.size(), first + r.nextInt(3));
      List<byte[]> repl = List.of(randomLine(r), randomLine(r));
      model.subList(first, last).clear();
      model.addAll(first, repl);
      d.replace(first, last, lines(repl));
    }
    assertSameLines(model, d);
  }

  @Test
  void aLineLongerThanASegmentGetsOneOfItsOwn() {
    byte[] big = new byte[Deck.SEGMENT_BYTES + 123];
    java.util.Arrays.fill(big, (byte) 'x');
    List<byte[]> model = new ArrayList<>(List.of("a".getBytes(), big, "b".getBytes()));
    Deck d = Deck.of(lines(model));
    assertSameLines(model, d);
    d.replace(1, 2, lines(List.of(big, big)));
    model.set(1, big);
    model.add(2, big);
    assertSameLines(model, d);
  }

  @Test
  void compactionCopiesAFewSegmentsNotTheWholeArena() {
    // 12 MB of 100-byte lines, then every line of the first segment's worth replaced twice.
    int n = 120_000;
    List<byte[]> model = new ArrayList<>();
    for (int i = 0; i < n; i++) model.add(new byte[100]);
    Deck d = Deck.of(lines(model));
    long loaded = d.heapBytes();
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 40_000; i++) d.replace(i, i + 1, lines(List.of(new byte[100])));
    }
    assertEquals(12_000_000, d.byteSize());
    // Garbage stays under an eighth of the live bytes (plus an edit segment and a slack).
    assertTrue(d.heapBytes() < loaded + 12_000_000 / 8 + 2 * Deck.SEGMENT_BYTES, d.heapBytes() + " vs " + loaded);
    assertSameLines(model, d);
  }
}
