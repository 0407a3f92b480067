package org.nvimpam.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Counts the folds of {@link DeckGenerator#foldCountDeck} with a small walker of its own that
 * knows only the deck's vocabulary (NODE and SHELL runs, RBODY type-0 cards, comments) and fails
 * on any other line, so that FOLDS.md's full rules agree with it on these decks.
 */
class FoldCountDeckTest {
  private record Fold(String name, int start, int end) {}

  @Test
  void hasExactlyTheFoldsAskedFor() {
    for (int folds = 0; folds <= 50; folds++) assertFolds(folds);
    assertFolds(1_000);
    assertFolds(100_000);
  }

  @Test
  void theJavadocTableOfTheLastBlockHolds() {
    // r = 4 ends with a NODE run after a single RBODY card; r = 5 and 6 end with a level-2 group.
    assertEquals(List.of("Node", "Shell", "Rbody0", "Node"), names(level1(4)));
    assertEquals(List.of("Node", "Shell", "Rbody0", "Rbody0"), names(level1(5)));
    assertEquals(List.of("Node", "Shell", "Rbody0", "Rbody0", "Rbody0"), names(level1(6)));
    assertEquals(
        List.of("Node", "Shell", "Rbody0", "Rbody0", "Rbody0", "Rbody0", "Node", "Shell", "Rbody0", "Node"),
        names(level1(7 + 4)));
  }

  private static void assertFolds(int folds) {
    List<Fold> level1 = level1(folds);
    int level2 = 0;
    for (int i = 0; i < level1.size(); ) {
      int j = i;
      while (j + 1 < level1.size() && level1.get(j + 1).name().equals(level1.get(i).name())) j++;
      if (j > i) level2++;
      i = j + 1;
    }
    for (Fold f : level1) assertTrue(f.end() > f.start(), "one-line fold " + f);
    assertEquals(folds, level1.size() + level2, "folds sent for " + folds);
    assertEquals(FoldCountDeck.levelTwoFolds(folds), level2, "level-2 folds for " + folds);
  }

  private static List<Fold> level1(int folds) {
    List<String> lines = DeckGeneratorTest.lines(DeckGenerator.foldCountDeck(folds));
    List<Fold> result = new ArrayList<>();
    Fold open = null;
    boolean inRbody = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("$") || line.startsWith("#")) continue;
      assertFalse(line.length() > 6 && line.charAt(6) == '/' && !isKeyword(line),
          "card header of an unknown card, which generic mode would fold: " + line);
      String name = keyword(line);
      if (name == null) {
        assertTrue(inRbody && (line.startsWith("NAME ") || line.startsWith("        PART ")
            || line.equals("        END")), "line " + (i + 1) + " outside an RBODY card: " + line);
        open = new Fold(open.name(), open.start(), i);
        continue;
      }
      boolean gathered = !name.equals("Rbody0");
      if (open != null && gathered && open.name().equals(name) && !inRbody) {
        open = new Fold(name, open.start(), i);
      } else {
        if (open != null) result.add(open);
        open = new Fold(name, i, i);
      }
      inRbody = !gathered;
    }
    if (open != null) result.add(open);
    return result;
  }

  private static boolean isKeyword(String line) {
    return keyword(line) != null;
  }

  private static String keyword(String line) {
    if (line.startsWith("NODE  / ")) return "Node";
    if (line.startsWith("SHELL / ")) return "Shell";
    if (line.startsWith("RBODY / ") && line.substring(24, 32).trim().equals("0")) return "Rbody0";
    return null;
  }

  private static List<String> names(List<Fold> folds) {
    return folds.stream().map(Fold::name).toList();
  }
}
