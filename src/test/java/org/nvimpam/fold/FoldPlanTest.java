package org.nvimpam.fold;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.lines.Lines;

/** FOLDS.md §10: which folds are sent and in which order. */
class FoldPlanTest {
  // Level 1: 1 TITLE (one line), 2-3 Shell, 5 Shell (one line), 6-7 Node; level 2: 2-5 Shells.
  private static final FoldSet SET = FoldParser.parse(Lines.ofLatin1(
      "TITLE / x",
      "SHELL /        1       1       1       2       3       4",
      "SHELL /        2       1       1       2       3       4",
      "junk",
      "SHELL /        3       1       1       2       3       4",
      "NODE  /        1              0.              0.              0.",
      "NODE  /        2              0.              0.              0."), FoldOptions.GENERIC);

  private static List<String> rows(FoldPlan p) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < p.size(); i++) {
      out.add(p.start(i) + "-" + p.end(i) + " L" + p.level(i) + " " + p.names()[p.nameIndex(i)]
          + " " + p.count(i) + " |" + text(p, i) + "|");
    }
    return out;
  }

  /** The fold text Neovim shows for fold {@code i} (FOLDS.md §9). */
  private static String text(FoldPlan p, int i) {
    String name = p.names()[p.nameIndex(i)];
    return p.level(i) == 1
        ? FoldSet.level1Text(p.end(i) - p.start(i) + 1, name)
        : FoldSet.level2Text(p.count(i), name);
  }

  @Test
  void childrenComeBeforeTheirParentEvenTheFirstOne() {
    assertEquals(List.of(
        "1-1 L1 TITLE 0 | 1 lines: TITLE |",
        "2-3 L1 Shell 0 | 2 lines: Shell |",
        "5-5 L1 Shell 0 | 1 lines: Shell |",
        "2-5 L2 Shell 2 | 2 Shells |",
        "6-7 L1 Node 0 | 2 lines: Node |"), rows(SET.plan(true)));
  }

  @Test
  void oneLineLevel1FoldsAreLeftOutByDefaultButLevel2FoldsStay() {
    assertEquals(List.of(
        "2-3 L1 Shell 0 | 2 lines: Shell |",
        "2-5 L2 Shell 2 | 2 Shells |",
        "6-7 L1 Node 0 | 2 lines: Node |"), rows(SET.plan(false)));
  }

  @Test
  void planOrderIsEndAscendingThenStartDescending() {
    FoldPlan p = FoldParser.parse(Lines.split(org.nvimpam.testutil.Vectors.resource("/decks/example.pc")),
        FoldOptions.GENERIC).plan(true);
    for (int i = 1; i < p.size(); i++) {
      boolean ordered = p.end(i - 1) < p.end(i) || (p.end(i - 1) == p.end(i) && p.start(i - 1) > p.start(i));
      assertEquals(true, ordered, "folds " + (i - 1) + " and " + i);
    }
    assertEquals(24, p.size()); // FOLDS.md §12: 20 level-1 and 4 level-2 folds in generic mode
    assertEquals(23, FoldParser.parse(Lines.split(org.nvimpam.testutil.Vectors.resource("/decks/example.pc")),
        FoldOptions.GENERIC).plan(false).size());
  }

  @Test
  void flatHoldsFiveIntsPerFold() {
    FoldPlan p = SET.plan(false);
    assertEquals(p.size() * FoldPlan.STRIDE, p.flat().length);
    assertEquals(2, p.flat()[FoldPlan.STRIDE]); // second fold's start
  }
}
