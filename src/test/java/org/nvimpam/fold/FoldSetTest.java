package org.nvimpam.fold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.lines.Lines;

class FoldSetTest {
  private static FoldSet parse(FoldOptions o, String... lines) {
    return FoldParser.parse(Lines.ofLatin1(lines), o);
  }

  @Test
  void textsFollowSection9WithoutSingularForms() {
    FoldSet s = parse(FoldOptions.GENERIC, "MATER / 1", "MATER / 2", "  x");
    assertEquals(" 1 lines: MATER ", s.level1Text(0));
    assertEquals(" 2 lines: MATER ", s.level1Text(1));
    assertEquals(" 2 MATERs ", s.level2Text(0));
    assertEquals(2, s.level2Members(0));
  }

  @Test
  void toListPutsALevel2FoldBeforeItsFirstMember() {
    FoldSet s = parse(FoldOptions.GENERIC, "MATER / 1", "MATER / 2", "  x");
    assertEquals(List.of(new Fold(1, 3, 2, " 2 MATERs "), new Fold(1, 1, 1, " 1 lines: MATER "),
        new Fold(2, 3, 1, " 2 lines: MATER ")), s.toList());
  }

  @Test
  void namesDifferingOnlyInCaseDoNotGroup() {
    FoldSet s = parse(FoldOptions.GENERIC, "NODE  /", "NODE  / 1");
    assertEquals(2, s.level1Count());
    assertEquals(0, s.level2Count()); // NODE (generic) then Node (keyword)
  }

  @Test
  void equalityIsByContentAcrossNameTables() {
    FoldSet a = parse(FoldOptions.GENERIC, "TITLE / a", "MATER / 1");
    FoldSet b = parse(FoldOptions.GENERIC, "TITLE / b", "MATER / 2");
    FoldSet c = parse(FoldOptions.GENERIC, "MATER / b", "TITLE / 2");
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a, c);
  }
}
