package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nvimpam.lines.Lines;

/**
 * {@code key} rows (docs/CARDS.md): THMAT's free-format body of keyword lines, each followed by its
 * value line, in any order, each optional, up to END_THMAT.
 */
class KeyRowsTest {
  private static final CardLayouts TABLE = CardLayouts.bundled();

  // Each keyword line with a valid value line for it, as the public templates and decks write them.
  private static final String[][] BODIES = {
      {"MASS_DENSITY CONSTANT", "   7.85E-9"},
      {"CONDUCTIVITY ISOTROPIC CONSTANT", "  45.0"},
      {"CONDUCTANCE", "  1.0  2.0"},
      {"SPECIFIC_HEAT CONSTANT", "  4.6E8  0."},
      {"LATENT_HEAT", "  2.7E11  1400.  1450."},
      {"ENTHALPY CURVE", "  12"},
      {"CONDUCTIVITY ANISOTROPIC CONSTANT", "  45.0  40.  35.  <K4>"},
  };

  private static List<String> problems(List<String> lines) {
    return DeckProblemsTest.problems(TABLE, Lines.ofLatin1(lines.toArray(String[]::new)), 2011);
  }

  private static List<String> card(List<String[]> body) {
    List<String> lines = new ArrayList<>(List.of("INPUTVERSION 2011", "THMAT /     1050", "NAME steel"));
    for (String[] kv : body) {
      lines.add(kv[0]);
      lines.add(kv[1]);
    }
    lines.add("END_THMAT");
    lines.add("NODE  /        1              0.              0.              0.");
    return lines;
  }

  /** The line kinds the walk tells of, as RowWalkerTest names them. */
  private static List<String> classify(List<String> lines) {
    return RowWalkerTest.Rows.classify(TABLE, Lines.ofLatin1(lines.toArray(String[]::new)), 2011);
  }

  @Test
  void validBodiesInAnyOrderWithAnyKeywordsLeftOutHaveNoProblem() {
    Random rnd = new Random(34);
    for (int n = 0; n < 300; n++) {
      List<String[]> body = new ArrayList<>(List.of(BODIES));
      Collections.shuffle(body, rnd);
      body = body.subList(0, rnd.nextInt(body.size() + 1));
      List<String> lines = card(body);
      assertEquals(List.of(), problems(lines), String.join("\n", lines));
      List<String> kinds = classify(lines);
      for (int i = 0; i < body.size(); i++) {
        assertTrue(kinds.get(3 + 2 * i).startsWith("keyword#"), kinds.toString());
        assertTrue(kinds.get(4 + 2 * i).startsWith("values#"), kinds.toString());
      }
      assertEquals("THMAT@2011#9", kinds.get(kinds.size() - 2), "END_THMAT is the card's end row");
      assertTrue(kinds.get(kinds.size() - 1).startsWith("NODE"), "the next card follows");
    }
  }

  @Test
  void aBadValueIsFlaggedInItsOwnColumnsWithItsFieldName() {
    List<String> lines = card(List.of(new String[] {"SPECIFIC_HEAT", "  4.6E8  0.x  junk"},
        new String[] {"  MASS_DENSITY", "7,85"}, new String[] {"ENTHALPY", "  1.5"}));
    assertEquals(List.of("4:9-12 1 THMAT / HREF: \"0.x\" is not a number",
        "6:0-4 1 THMAT / RHO: \"7,85\" is not a number",
        "8:2-5 1 THMAT / IFUNHT: \"1.5\" is not an integer"), problems(lines));
  }

  @Test
  void valuesPastTheRowsFieldsAndParametersPassAndTabsAndTextPast80AreFlagged() {
    List<String> lines = card(List.of(new String[] {"LATENT_HEAT", "  1. <TMIN>  2.  anything else"},
        new String[] {"MASS_DENSITY \tX", " 1. \t"}, new String[] {"CONDUCTIVITY", " 1." + " ".repeat(80) + "x"}));
    assertEquals(List.of("5:13-14 1 THMAT: tab in column 14", "6:4-5 1 THMAT: tab in column 5",
        "8:83-84 1 THMAT: text past column 80: \"x\""),
        problems(lines));
  }

  @Test
  void aKeywordLineRightAfterAKeywordLineIsOneTooAndEndThmatEndsTheBody() {
    List<String> lines = List.of("THMAT /     1050", "NAME steel", "MASS_DENSITY", "SPECIFIC_HEAT", "  1.  2.",
        "END_THMAT", "MASS_DENSITY", "  x");
    assertEquals(List.of("THMAT@2011#1", "THMAT@2011#2", "keyword#3", "keyword#6", "values#6", "THMAT@2011#9",
        "extra", "extra"), classify(lines));
    assertEquals(List.of(), problems(lines));
  }

  @Test
  void anUnknownKeywordEndsTheKeyRowsAndTheRestIsUnchecked() {
    List<String> lines = List.of("THMAT /     1050", "NAME steel", "MASS_DENSITY", "  1.", "EMISSIVITY", "  x y",
        "SPECIFIC_HEAT", "  z", "END_THMAT");
    assertEquals(List.of("THMAT@2011#1", "THMAT@2011#2", "keyword#3", "values#3", "extra", "extra", "extra", "extra",
        "THMAT@2011#9"), classify(lines));
    assertEquals(List.of(), problems(lines));
  }

  @Test
  void aCardHeaderEndsTheBodyBeforeAValueLine() {
    List<String> lines = List.of("THMAT /     1050", "NAME steel", "MASS_DENSITY",
        "NODE  /        1              0.              0.              0.");
    assertEquals(List.of("THMAT@2011#1", "THMAT@2011#2", "keyword#3", "NODE@2011#1"), classify(lines));
  }

  @Test
  void aKeyRowsFieldsArePlacedValuesOfIntOrFloat() {
    String head = "card X Other 2011 | x\nrow\n  1-8 kw X | k\nrow key=A\n";
    assertEquals(1, CardLayouts.parse("t.cards", head + "  1 float V | v\n  2 int W | w\n").entries().size());
    assertThrows(IllegalArgumentException.class, () -> CardLayouts.parse("t.cards", head + "  2 float V | v\n"));
    assertThrows(IllegalArgumentException.class, () -> CardLayouts.parse("t.cards", head + "  1 str V | v\n"));
    assertThrows(IllegalArgumentException.class, () -> CardLayouts.parse("t.cards", head + "  1 int V ref=function | v\n"));
    assertThrows(IllegalArgumentException.class, () -> CardLayouts.parse("t.cards", "card X Other 2011 | x\nrow\n"
        + "  1-8 kw X | k\nrow key=a\n"));
  }
}
