package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.lines.LineSource;
import org.nvimpam.lines.Lines;

/** The row walk of docs/CARDS.md on the small test table. */
class RowWalkerTest {
  static CardLayouts mini() {
    try (InputStream in = RowWalkerTest.class.getResourceAsStream("/cards/mini.cards")) {
      return CardLayouts.parse("mini.cards", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static List<String> classify(String... lines) {
    return Rows.classify(mini(), Lines.ofLatin1(lines), 2011);
  }

  @Test
  void aRunOfNodesIsOneHeaderRowEach() {
    assertEquals(List.of("NODE@2011#1", "comment", "NODE@2011#1"),
        classify("NODE  /        1              0.", "$ x", "NODE  /        2"));
  }

  @Test
  void linesBeforeTheFirstCardAndInUnknownCardsAreNoRows() {
    assertEquals(List.of("none", "none", "none", "NODE@2011#1"),
        classify("INPUTVERSION 2011", "MATER /        3", "       1.", "NODE  /        1"));
  }

  @Test
  void aPartWithoutMaterialTakesTheRmatRowAndEndsAtEndPart() {
    assertEquals(List.of("PART:SHELL@2011#1", "PART:SHELL@2011#2", "PART:SHELL@2011#3", "PART:SHELL@2011#4",
        "PART:SHELL@2011#5", "PART:SHELL@2011#6", "PART:SHELL@2011#6", "PART:SHELL@2011#7", "extra"),
        classify("PART  /        1   SHELL       0", "RMATsteel", "NAME p", "        0.", "        1.    2", "  0.5",
            "  0.5", "END_PART", "junk"));
  }

  @Test
  void aPartWithAMaterialHasNoRmatRowAndEndPartComesEarlyWhereItStands() {
    assertEquals(List.of("PART:SHELL@2011#1", "PART:SHELL@2011#3", "PART:SHELL@2011#4", "PART:SHELL@2011#7"),
        classify("PART  /        1   SHELL       3", "NAME p", "        0.", "END_PART"));
  }

  @Test
  void anUnknownAtypeUsesTheBaseEntry() {
    assertEquals(List.of("PART@2011#1", "PART@2011#3", "PART@2011#4", "extra", "PART@2011#5"),
        classify("PART  /        1   FLUID       3", "NAME p", "        0.", "x", "END_PART"));
  }

  /** Runs of one word are looked up once: a word with variants is looked up on each card. */
  @Test
  void cardsOfOneWordTakeTheirOwnVariantsInARun() {
    assertEquals(List.of("PART:SHELL@2011#1", "PART:SHELL@2011#3", "PART:SHELL@2011#4", "PART:SHELL@2011#7",
        "PART@2011#1", "PART@2011#3", "PART@2011#4", "PART@2011#5", "PART:SHELL@2011#1", "NODE@2011#1", "NODE@2011#1"),
        classify("PART  /        1   SHELL       3", "NAME p", "        0.", "END_PART",
            "PART  /        2   FLUID       3", "NAME q", "        0.", "END_PART",
            "PART  /        3   SHELL       3", "NODE  /        1", "NODE  /        2"));
  }

  @Test
  void massTakesItsConditionalRowOnlyAfterAContinuationMark() {
    String row3 = String.format("%-80s&", "             1.");
    assertEquals(List.of("MASS@2011#1", "MASS@2011#2", "MASS@2011#3", "MASS@2011#4", "ges", "ges_end", "extra"),
        classify("MASS  /        1", "NAME m", row3, "             2.", "        NOD 1", "        END", "x"));
    assertEquals(List.of("MASS@2011#1", "MASS@2011#2", "MASS@2011#3", "ges", "ges_end"),
        classify("MASS  /        1", "NAME m", "             1.", "        NOD 1", "        END"));
  }

  @Test
  void aGroupTakesItsMetaBlockThenItsSelection() {
    assertEquals(List.of("GROUP@2011#1", "GROUP@2011#2", "GROUP@2011#2", "GROUP@2011#2", "ges", "ges_end"),
        classify("GROUP / g", "META", "  owner = x", "END_META", "        PART 1", "        END"));
    assertEquals(List.of("GROUP@2011#1", "ges", "ges_end"), classify("GROUP / g", "        PART 1", "        END"));
  }

  @Test
  void aCardHeaderLineEndsACardAnywhere() {
    assertEquals(List.of("PART:SHELL@2011#1", "PART:SHELL@2011#3", "NODE@2011#1"),
        classify("PART  /        1   SHELL       3", "NAME p", "NODE  /        1"));
  }

  @Test
  void theVersionPicksTheGreatestLayoutAtOrBelowIt() {
    CardLayouts t = mini();
    Lines l = Lines.ofLatin1("SHELL /        1");
    assertEquals(List.of("SHELL@2011#1"), Rows.classify(t, l, 2019));
    assertEquals(List.of("SHELL@2020#1"), Rows.classify(t, l, 2020));
    assertEquals(List.of("SHELL@2011#1"), Rows.classify(t, l, 2000)); // older than all: the oldest's rows
  }

  @Test
  void skippingACardGoesToTheNextCardHeaderPastCommentsAndExtraLinesAndKnowsItsGroup() {
    CardLayouts t = mini();
    LineSource d = Lines.ofLatin1("NODE  /        1", "$ x", "junk", "PART  /        1   SHELL       3", "NAME p");
    RowWalker w = new RowWalker(t);
    assertEquals(3, w.skipCard(d, 0));
    int g = w.groupAtStop(d, 3);
    assertEquals(w.groupAt(d, 3), g);
    assertEquals("PART:SHELL", t.entry(t.group(g)[0]).key());
    assertEquals(5, w.skipCard(d, 3));
    assertEquals(-1, w.groupAtStop(d, 5));
  }

  /** The classification strings of the contract test, for lists of lines. */
  static final class Rows {
    static List<String> classify(CardLayouts t, LineSource src, int version) {
      List<String> out = new ArrayList<>();
      RowWalker w = new RowWalker(t);
      int i = 0;
      int n = src.lineCount();
      while (i < n) {
        int g = w.groupAt(src, i);
        if (g < 0) {
          out.add(RowWalker.isComment(src, i) ? "comment" : "none");
          i++;
          continue;
        }
        int e = t.pick(g, version);
        CardLayout c = t.entry(e < 0 ? t.group(g)[0] : e);
        int entry = e < 0 ? t.group(g)[0] : e;
        i = w.walkCard(src, i, entry, (line, code) -> out.add(switch (code) {
          case RowWalker.COMMENT -> "comment";
          case RowWalker.EXTRA -> "extra";
          case RowWalker.GES -> "ges";
          case RowWalker.GES_END -> "ges_end";
          case RowWalker.KEYWORD -> "keyword#" + (w.keyRow() + 1);
          case RowWalker.VALUES -> "values#" + (w.keyRow() + 1);
          default -> c.key() + "@" + c.version() + "#" + (code + 1);
        }));
      }
      return out;
    }
  }
}
