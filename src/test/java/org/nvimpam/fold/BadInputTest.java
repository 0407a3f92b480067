package org.nvimpam.fold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nvimpam.lines.Lines;

/** D12: lines are bytes; no content makes parsing fail, and folds stay correct. */
class BadInputTest {
  private static final FoldOptions GENERIC = FoldOptions.GENERIC;

  private static List<Fold> folds(String... lines) {
    return FoldParser.parse(Lines.ofLatin1(lines), GENERIC).toList();
  }

  private static Fold l1(int s, int e, String name) {
    return new Fold(s, e, 1, " " + (e - s + 1) + " lines: " + name + " ");
  }

  @Test
  void nulBytesAreOrdinaryBytes() {
    assertEquals(List.of(l1(1, 2, "Node")), folds("NODE  / \0\0", "NODE  / \0", "\0"));
  }

  @Test
  void invalidUtf8IsKeptAsBytes() {
    assertEquals(List.of(l1(1, 3, "MATER")), folds("MATER / \u00ff\u00fe", "\u00c3(", "\u00e9\r", " \r"));
  }

  @Test
  void aTabIsNotASpaceInAHeader() {
    assertEquals(List.of(), folds("NODE\t / 1", "NODE  /\t1", "\tNODE  / 1"));
  }

  @Test
  void crlfLineEndsFoldLikeLfLineEnds() {
    String lf = "RBODY /        1               0    1000\n" + "NAME r\n" + "        PART 12\n"
        + "        END   \n" + "MATER /\n" + "  x\n" + "\n";
    String crlf = lf.replace("\n", "\r\n");
    List<Fold> expected = FoldParser.parse(Lines.split(lf.getBytes(StandardCharsets.ISO_8859_1)), GENERIC).toList();
    assertEquals(List.of(l1(1, 4, "Rbody0"), l1(5, 6, "MATER")), expected);
    assertEquals(expected, FoldParser.parse(Lines.split(crlf.getBytes(StandardCharsets.ISO_8859_1)), GENERIC).toList());
  }

  @Test
  void aOneMegabyteLineIsClassifiedByItsFirstBytes() {
    String big = "NODE  / " + "9".repeat(1 << 20);
    String blank = " ".repeat(1 << 20);
    assertEquals(List.of(l1(1, 3, "MATER"), l1(5, 6, "Node")), folds("MATER / 1", blank, "x" + blank, "$" + big, big, big));
  }

  @Test
  void anEmptyBufferHasNoFolds() {
    assertEquals(List.of(), FoldParser.parse(Lines.empty(), GENERIC).toList());
    assertEquals(List.of(), folds(""));
  }

  @Test
  void onlyCommentsHaveNoFolds() {
    assertEquals(List.of(), folds("$ a", "# b", "$NODE  / 1", "#MATER / 2"));
  }

  @Test
  void aBinaryBlobNeverFailsAndEditsOnItEqualAFullParse() {
    Random r = new Random(99);
    for (int round = 0; round < 50; round++) {
      byte[] blob = new byte[20_000];
      r.nextBytes(blob);
      // Sprinkle header bytes so that some lines look like cards.
      for (int i = 0; i + 8 < blob.length; i += 97 + r.nextInt(50)) {
        System.arraycopy((r.nextBoolean() ? "\nNODE  / " : "\nMATER / ").getBytes(StandardCharsets.ISO_8859_1), 0, blob, i, 9);
      }
      Lines lines = Lines.split(blob);
      for (FoldOptions o : List.of(FoldOptions.GENERIC, FoldOptions.COMPATIBLE)) {
        FoldEngine engine = new FoldEngine(o);
        FoldSet set = engine.reset(lines);
        assertWellFormed(set, lines.count());
        for (int e = 0; e < 20; e++) {
          int n = engine.deck().lineCount();
          int first = r.nextInt(n + 1);
          int last = Math.min(n, first + r.nextInt(3));
          byte[] junk = new byte[r.nextInt(40)];
          r.nextBytes(junk);
          FoldSet after = engine.apply(first, last, Lines.split(junk));
          assertEquals(FoldParser.parse(engine.deck(), o), after);
          assertWellFormed(after, engine.deck().lineCount());
        }
      }
    }
  }

  /** FOLDS.md §7: level-1 folds are ordered, disjoint and inside the buffer. */
  private static void assertWellFormed(FoldSet set, int lines) {
    int prevEnd = -1;
    for (int i = 0; i < set.level1Count(); i++) {
      assertTrue(set.level1Start(i) > prevEnd && set.level1End(i) >= set.level1Start(i) && set.level1End(i) < lines);
      prevEnd = set.level1End(i);
    }
  }
}
