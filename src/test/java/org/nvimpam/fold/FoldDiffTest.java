package org.nvimpam.fold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.deck.Lines;

class FoldDiffTest {
  private static final String NODE = "NODE  /        1              0.              0.              0.";

  private static FoldSet parse(String... lines) {
    return FoldParser.parse(Lines.ofLatin1(lines), FoldOptions.GENERIC);
  }

  @Test
  void equalSetsHaveAnEmptyDiff() {
    assertTrue(FoldDiff.between(parse(NODE, NODE), parse(NODE, NODE)).isEmpty());
  }

  @Test
  void aSplitRunRemovesOneFoldAndAddsTheNewOnes() {
    FoldDiff d = FoldDiff.between(parse(NODE, NODE, NODE, NODE), parse(NODE, NODE, "junk", NODE));
    assertEquals(List.of(new Fold(1, 4, 1, " 4 lines: Node ")), d.removed());
    assertEquals(List.of(new Fold(1, 4, 2, " 2 Nodes "), new Fold(1, 2, 1, " 2 lines: Node "),
        new Fold(4, 4, 1, " 1 lines: Node ")), d.added());
  }

  @Test
  void aRenamedFoldIsRemovedAndAdded() {
    FoldDiff d = FoldDiff.between(parse("MATER / 1", "  x"), parse("TITLE / 1", "  x"));
    assertEquals(List.of(new Fold(1, 2, 1, " 2 lines: MATER ")), d.removed());
    assertEquals(List.of(new Fold(1, 2, 1, " 2 lines: TITLE ")), d.added());
  }

  @Test
  void aLevel2FoldWhoseMemberCountChangesIsReplaced() {
    // 1 and 3-4 group as 2 MATERs; then line 2 becomes a third MATER card: same range, 3 members.
    FoldDiff d = FoldDiff.between(parse("MATER / 1", "  x", "MATER / 2", "  y"),
        parse("MATER / 1", "MATER / 3", "MATER / 2", "  y"));
    assertEquals(new Fold(1, 4, 2, " 2 MATERs "), d.removed().get(0));
    assertEquals(new Fold(1, 4, 2, " 3 MATERs "), d.added().get(0));
  }
}
