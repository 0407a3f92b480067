package org.nvimpam.fold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.lines.Lines;

/** Incremental updates (FOLDS.md §11) on the cases that the restart and resync rules are about. */
class FoldEngineTest {
  private static final String NODE = "NODE  /        1              0.              0.              0.";
  private static final String SHELL = "SHELL /        1       1       1       2       3       4";

  private static FoldEngine engine(FoldOptions o, String... lines) {
    FoldEngine e = new FoldEngine(o);
    e.reset(Lines.ofLatin1(lines));
    return e;
  }

  @Test
  void aJunkLineInsertedIntoALongRunSplitsIt() {
    String[] deck = new String[10_000];
    java.util.Arrays.fill(deck, NODE);
    FoldEngine e = engine(FoldOptions.GENERIC, deck);
    FoldSet s = e.apply(5000, 5000, Lines.ofLatin1("junk"));
    assertEquals(List.of(new Fold(1, 10001, 2, " 2 Nodes "), new Fold(1, 5000, 1, " 5000 lines: Node "),
        new Fold(5002, 10001, 1, " 5000 lines: Node ")), s.toList());
    s = e.apply(5000, 5001, Lines.empty());
    assertEquals(List.of(new Fold(1, 10000, 1, " 10000 lines: Node ")), s.toList());
  }

  @Test
  void anEndPartInsertedAfterAGenericCardReachesBackToTheCountedPartCard() {
    FoldEngine e = engine(FoldOptions.GENERIC,
        "PART  /        1   SHELL       1       0       0       0", "NAME p", "a", "b", "c", "d", "e",
        "MATER /        3", "  data", NODE);
    assertEquals(" 2 lines: MATER ", e.folds().level1Text(1));
    FoldSet s = e.apply(9, 9, Lines.ofLatin1("END_PART"));
    assertEquals(List.of(new Fold(1, 10, 1, " 10 lines: PartShell "), new Fold(11, 11, 1, " 1 lines: Node ")), s.toList());
  }

  @Test
  void anEditAfterARunCanLengthenItsLastCard() {
    FoldEngine e = engine(FoldOptions.COMPATIBLE, "PLINK /        1", "PLINK /        2", "junk");
    FoldSet s = e.apply(2, 3, Lines.ofLatin1("        PART 1"));
    assertEquals(List.of(new Fold(1, 3, 1, " 3 lines: Plink ")), s.toList());
  }

  @Test
  void deletingEverythingLeavesNoFolds() {
    FoldEngine e = engine(FoldOptions.GENERIC, NODE, SHELL, "MATER / 1");
    assertEquals(List.of(), e.apply(0, 3, Lines.ofLatin1("")).toList());
    assertEquals(1, e.deck().lineCount());
  }

  @Test
  void anEditThatChangesNothingKeepsAnEqualFoldSet() {
    FoldEngine e = engine(FoldOptions.GENERIC, NODE, NODE, SHELL, SHELL, "MATER / 1", "  x");
    FoldSet before = e.folds();
    FoldSet after = e.apply(1, 2, Lines.ofLatin1(NODE + "\r"));
    assertEquals(before, after);
  }

  /** A value changed in a long run (as an offset of every node does, 100 lines at a time) copies no fold. */
  @Test
  void aValueEditKeepsTheFoldSetItself() {
    String[] deck = new String[1_000];
    java.util.Arrays.fill(deck, NODE);
    deck[500] = SHELL;
    FoldEngine e = engine(FoldOptions.GENERIC, deck);
    FoldSet before = e.folds();
    assertSame(before, e.apply(100, 200, Lines.ofLatin1(java.util.Collections.nCopies(100, NODE.replace(" 1 ", " 7 ")).toArray(new String[0]))));
    assertSame(before, e.apply(500, 501, Lines.ofLatin1(SHELL.replace("  4", "  9"))));
    assertNotSame(before, e.apply(500, 501, Lines.ofLatin1(NODE))); // a card of another kind: the run goes on
  }
}
