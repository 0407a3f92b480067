package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.DeckProblems;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.lines.Lines;

/**
 * The id scan told the rows of the field check's walk ({@link IdScanner#rows}: the headless
 * check's one pass) reports exactly the ids of its own walk ({@link IdScanner#scan}); and the
 * 8-bytes-at-once integer read agrees with a byte loop.
 */
class IdScannerTest {
  private static final CardLayouts TABLE = CardLayouts.bundled();

  private static List<String> ownWalk(Lines deck, int version) {
    List<String> out = new ArrayList<>();
    new IdScanner(TABLE).scan(deck, 0, deck.lineCount(), version, true, record(out));
    return out;
  }

  private static List<String> checkWalk(Lines deck, int version) {
    List<String> out = new ArrayList<>();
    new DeckProblems(TABLE).checkAll(deck, version, new IdScanner(TABLE).rows(record(out)));
    return out;
  }

  private static IdScanner.Sink record(List<String> out) {
    return (line, from, to, kind, lo, hi, def) -> out.add(line + ":" + from + "-" + to + " " + IdKinds.NAMES.get(kind)
        + " " + lo + ":" + hi + (def ? " def" : " ref"));
  }

  /** A gen deck with random breakage: digits made letters, lines commented out, cut, doubled, tabs. */
  private static Lines mutated(long seed, int lines, int genVersion) {
    String[] l = new String(new DeckGenerator(seed, genVersion).generate(lines), StandardCharsets.ISO_8859_1).split("\n", -1);
    Random rnd = new Random(seed);
    List<String> out = new ArrayList<>();
    for (String s : l) {
      int r = rnd.nextInt(200);
      if (r == 0 && s.length() > 20) out.add(s.substring(0, 12) + "x" + s.substring(13));
      else if (r == 1) out.add("$" + s);
      else if (r == 2 && s.length() > 30) out.add(s.substring(0, rnd.nextInt(30)));
      else if (r == 3) {
        out.add(s);
        out.add(s);
      } else if (r == 4 && s.length() > 10) out.add(s.substring(0, 9) + "\t" + s.substring(10));
      else if (r == 5 && s.length() > 20) out.add(s.substring(0, 10) + "+" + s.substring(11));
      else out.add(s);
    }
    return Lines.ofLatin1(out.toArray(String[]::new));
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 5, 90001})
  void theCheckWalkFindsTheIdsOfTheOwnWalk(long seed) {
    for (int genVersion : new int[] {1, DeckGenerator.VERSION}) {
      Lines deck = mutated(seed, 20_000, genVersion);
      // the newest layouts, and a version older than every layout: each card walked leniently
      for (int version : new int[] {TABLE.newestVersion(), 1990}) {
        List<String> own = ownWalk(deck, version);
        assertTrue(own.size() > 1000, "the deck has ids");
        assertEquals(own, checkWalk(deck, version), "gen " + genVersion + " seed " + seed + " as " + version);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"/decks/example.pc", "/decks/example2.pc"})
  void theCheckWalkFindsTheIdsOfTheOwnWalkOnTheSampleDecks(String name) throws Exception {
    byte[] bytes;
    try (InputStream in = IdScannerTest.class.getResourceAsStream(name)) {
      bytes = in.readAllBytes();
    }
    Lines deck = Lines.split(bytes);
    for (int version : new int[] {TABLE.newestVersion(), 2011, 1990}) {
      List<String> own = ownWalk(deck, version);
      assertTrue(!own.isEmpty(), name + " has ids");
      assertEquals(own, checkWalk(deck, version), name + " as " + version);
    }
  }

  private static int slowPositive(byte[] a, int s, int e) {
    if (s < e && a[s] == '+') s++;
    if (s >= e) return 0;
    long v = 0;
    for (int i = s; i < e; i++) {
      if (a[i] < '0' || a[i] > '9') return 0;
      v = v * 10 + (a[i] - '0');
      if (v > Integer.MAX_VALUE) return 0;
    }
    return (int) v;
  }

  @Test
  void positiveReadsAsAByteLoopDoes() {
    Random rnd = new Random(7);
    byte[] alphabet = "0123456789012345678901234567890123456789+- .:/Ee\t".getBytes(StandardCharsets.ISO_8859_1);
    byte[] a = new byte[40];
    int nonZero = 0;
    for (int n = 0; n < 500_000; n++) {
      for (int i = 0; i < a.length; i++) a[i] = alphabet[rnd.nextInt(rnd.nextBoolean() ? 10 : alphabet.length)];
      int s = rnd.nextInt(a.length);
      int e = s + rnd.nextInt(Math.min(13, a.length - s + 1));
      int want = slowPositive(a, s, e);
      assertEquals(want, IdScanner.positive(a, s, e), new String(a, s, e - s, StandardCharsets.ISO_8859_1));
      if (want > 0) nonZero++;
    }
    assertTrue(nonZero > 50_000, "enough numbers read: " + nonZero);
    byte[] big = "x99999999 +12345678 00000001 4294967296".getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(99_999_999, IdScanner.positive(big, 1, 9));
    assertEquals(12_345_678, IdScanner.positive(big, 10, 19));
    assertEquals(1, IdScanner.positive(big, 20, 28));
    assertEquals(0, IdScanner.positive(big, 29, 39), "past an int");
  }
}
