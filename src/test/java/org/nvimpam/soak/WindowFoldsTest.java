package org.nvimpam.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.lines.Lines;
import org.nvimpam.testutil.FoldTree;
import org.nvimpam.testutil.RandomDecks;

class WindowFoldsTest {
  private static Lines lines(List<byte[]> deck) {
    Lines.Builder b = new Lines.Builder(deck.size(), 64 * deck.size());
    for (byte[] l : deck) b.add(l, 0, l.length);
    return b.build();
  }

  @Test
  void aFullParseGivesTheTreeTheTestsExpectForRandomDecks() {
    for (int seed = 0; seed < 200; seed++) {
      Lines lines = lines(new RandomDecks(seed).deck(60));
      FoldTree want = FoldTree.of(FoldParser.parse(lines, FoldOptions.GENERIC).plan(false));

      WindowFolds got = WindowFolds.parse(lines, FoldOptions.GENERIC);

      int[] flat = want.folds().stream().flatMap(List::stream).mapToInt(Integer::intValue).toArray();
      assertEquals(new WindowFolds(flat), got, "seed " + seed);
    }
  }

  @Test
  void aDifferenceNamesTheCountsAndTheFirstFoldThatDiffers() {
    WindowFolds want = new WindowFolds(new int[] {1, 10, 1, 2, 5, 2, 20, 30, 1});
    WindowFolds got = new WindowFolds(new int[] {1, 10, 1, 2, 6, 2});

    assertEquals("2 folds instead of 3; first difference at fold 2: lines 2-6 at depth 2 instead of lines 2-5 at depth 2",
        want.difference(got));
    assertNull(want.difference(new WindowFolds(want.triples().clone())));
  }
}
