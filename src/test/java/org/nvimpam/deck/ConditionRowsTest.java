package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.lines.LineSource;
import org.nvimpam.lines.Lines;

/**
 * {@code if} rows with several values ({@code FIELD:V1,V2}: any of them) and negated ones
 * ({@code FIELD!V1,V2}: none of them), and the MATER rows that SIGMAY selects with them.
 */
class ConditionRowsTest {
  private static final CardLayouts TABLE = CardLayouts.bundled();

  /** The label (or line kind) of each line of a 2011 deck. */
  static List<String> labels(CardLayouts t, String... lines) {
    LineSource src = Lines.ofLatin1(lines);
    List<String> out = new ArrayList<>();
    RowWalker w = new RowWalker(t);
    int i = 0;
    while (i < src.lineCount()) {
      int g = w.groupAt(src, i);
      if (g < 0) {
        out.add("none");
        i++;
        continue;
      }
      int e = t.pick(g, 2011);
      CardLayout c = t.entry(e);
      i = w.walkCard(src, i, e, (line, code) -> out.add(code >= 0
          ? (c.rows().get(code).label() != null ? c.rows().get(code).label() : "#" + (code + 1))
          : code == RowWalker.EXTRA ? "extra" : "other"));
    }
    return out;
  }

  private static final CardLayouts MINI = CardLayouts.parse("mini.cards", String.join("\n",
      "card CARD Other 2011 | a card",
      "row",
      "  1-8 kw CARD | k",
      "  9-16 int N | n",
      "  17-24 str W | w",
      "row if=N:1,2 label=ONE_OR_TWO",
      "  1-10 float A | a",
      "row if=N!1,2 label=NEITHER",
      "  1-10 float B | b",
      "row if=W:X,Y label=X_OR_Y",
      "  1-10 float C | c",
      "row if=W!X label=NOT_X",
      "  1-10 float D | d",
      ""));

  @Test
  void anIfRowWithSeveralValuesHoldsForAnyOfThemAndANegatedOneForNone() {
    assertEquals(List.of("#1", "ONE_OR_TWO", "X_OR_Y"), labels(MINI, "CARD  / " + "       2" + "       X", "1.", "2."));
    assertEquals(List.of("#1", "NEITHER", "X_OR_Y", "NOT_X"), labels(MINI, "CARD  / " + "       3" + "       Y", "1.", "2.", "3."));
    // a blank int field has no number: equal to none, so the negated row holds
    assertEquals(List.of("#1", "NEITHER", "NOT_X"), labels(MINI, "CARD  / ", "1.", "2."));
  }

  @Test
  void malformedConditionsAreErrorsOfTheTable() {
    for (String bad : new String[] {"if=N:", "if=N!", "if=:1", "if=N:1,", "if=N:1,,2", "if=N:1!2", "if=N"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CardLayouts.parse("bad.cards",
          "card CARD Other 2011 | c\nrow\n  1-8 kw CARD | k\n  9-16 int N | n\nrow " + bad + "\n  1-10 float A | a\n"), bad);
      assertTrue(e.getMessage().contains("bad.cards:5"), e.getMessage());
    }
  }

  private static final String MATER_103 = "MATER /        1     103              0.";

  private static List<String> mater(String head, String sigmay, String... rest) {
    List<String> lines = new ArrayList<>(List.of(head, "", "NAME m", String.format("%10s%-10s", "210.", sigmay)));
    lines.addAll(List.of(rest));
    lines.add("NODE  /        1");
    return labels(TABLE, lines.toArray(String[]::new));
  }

  @Test
  void materialTypes102And103TakeTheRowsOfTheirHardeningLaw() {
    List<String> head = List.of("#1", "QVM", "#3", "E");
    String[] six = {"1", "2", "3", "4", "5", "6"};
    assertEquals(concat(head, "LC", "ERATE", "EPSIPMAX", "STRAT3", "KEYWORD", "extra", "#1"), mater(MATER_103, "CURVE", six));
    assertEquals(concat(head, "E1", "BLANK", "EPSIPMAX", "STRAT3", "KEYWORD", "extra", "#1"),
        mater(MATER_103, "0.2", six));
    assertEquals(concat(head, "LAW", "BLANK", "EPSIPMAX", "STRAT3", "KEYWORD", "extra", "#1"), mater(MATER_103, "KRUPK", six));
    assertEquals(concat(head, "LC", "BLANK", "BLANK", "KSI", "BLANK", "extra", "#1"), mater(MATER_103, "ECURV", six));
    assertEquals(concat(head, "LAW", "BLANK", "EPSIPMAX", "STRAT3", "KEYWORD", "extra", "#1"),
        mater(MATER_103.replace(" 103 ", " 102 "), "POWER", six));
  }

  @Test
  void materialTypes105And212TakeTheirDataRows() {
    List<String> head = List.of("#1", "QVM", "#3", "E");
    String[] seven = {"1", "2", "3", "4", "5", "6", "7"};
    assertEquals(concat(head, "LC", "ERATE", "REL_THIN", "EPSIPMAX", "KEYWORD", "REL_HSR", "extra", "#1"),
        mater(MATER_103.replace(" 103 ", " 105 "), "CURVE", seven));
    // type 212: SIGMAY in columns 21-30, the blank line and the damping row before the law's rows
    List<String> lines = new ArrayList<>(List.of(MATER_103.replace(" 103 ", " 212 "), "", "NAME m",
        String.format("%10s%10s%-10s", "210.", "0.3", "CURVE"), "", "0.1", "1", "2", "3", "NODE  /        1"));
    assertEquals(concat(head, "BLANK", "KSIM", "EPSIPMAX", "LC", "ERATE", "#1"), labels(TABLE, lines.toArray(String[]::new)));
  }

  @Test
  void aLetterInAPowerLawParameterIsAnErrorWhereTheRowWasUnchecked() {
    List<String> p = DeckProblemsTest.problems(TABLE, Lines.ofLatin1("INPUTVERSION 2011", MATER_103, "", "NAME m",
        String.format("%10s%-10s", "210.", "POWER"), String.format("%10s%10s", "1.5", "2x"), ""), 2011);
    assertEquals(List.of("5:10-20 1 MATER / LAW2: \"2x\" is not a number"), p);
  }

  @Test
  void aFunctionsPointsRunUpToItsEndLineAfterAnOptionalDistaAngleOrRegulLine() {
    assertEquals(List.of("#1", "#2", "DISTA", "POINT", "POINT", "other", "extra", "#1"), labels(TABLE, "FUNCT /        1",
        "NAME f", "        DISTA          1       2       3", "                1.              2.", "                2.",
        "                END", "                3.", "NODE  /        1"));
    // without such a line the points start at once; ENDX is no END; no END: points to the next card
    assertEquals(List.of("#1", "#2", "POINT", "POINT", "POINT", "#1"), labels(TABLE, "FUNCT /        1", "NAME f",
        "                1.              2.", "ENDX", "                2.", "NODE  /        1"));
    List<String> p = DeckProblemsTest.problems(TABLE, Lines.ofLatin1("INPUTVERSION 2011", "FUNCT /        1", "NAME f",
        "                1.              2x", "                END", "                3x"), 2011);
    assertEquals(List.of("3:32-34 1 FUNCT / Y: \"2x\" is not a number"), p);
  }

  @Test
  void aSecureBlockIsAKnownCardWhoseEncryptedLinesAreNotChecked() {
    String[] deck = {"INPUTVERSION 2025", "SECURE/", "x7Gq\t=,./9;" + "z".repeat(20), "0.1.2.3 4 5", "END_SECURE",
        "NODE  /        1"};
    LineSource src = Lines.ofLatin1(deck);
    RowWalker w = new RowWalker(TABLE);
    int g = w.groupAt(src, 1);
    assertTrue(g >= 0, "SECURE is a card of the table");
    List<String> codes = new ArrayList<>();
    w.walkCard(src, 1, TABLE.pick(g, 2025), (line, code) -> codes.add(line + ":" + code));
    assertEquals(List.of("1:0", "2:" + RowWalker.EXTRA, "3:" + RowWalker.EXTRA, "4:1"), codes);
    assertEquals(List.of(), DeckProblemsTest.problems(TABLE, src, 2025));
  }

  private static List<String> concat(List<String> head, String... rest) {
    List<String> out = new ArrayList<>(head);
    out.addAll(List.of(rest));
    return out;
  }
}
