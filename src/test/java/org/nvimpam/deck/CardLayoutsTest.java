package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/** The card-layout table as the JVM reads it: the bundled one, and its errors on bad input. */
class CardLayoutsTest {
  @Test
  void theBundledTableLoads() {
    CardLayouts t = CardLayouts.bundled();
    assertFalse(t.entries().isEmpty());
    assertTrue(t.newestVersion() >= 2011);
  }

  @Test
  void everyFoldKeywordHasALayout() {
    CardLayouts t = CardLayouts.bundled();
    for (int id = 0; id < Keywords.COUNT; id++) {
      Keyword k = Keywords.get(id);
      String header = k.header() + "/ " + " ".repeat(32);
      byte[] line = (k.header().equals("PART  ") ? "PART  /        1" + String.format("%8s", k.type())
          : k.header().equals("RBODY ") ? "RBODY /        1" + " ".repeat(15) + k.type() : header).getBytes();
      int g = t.groupOf(line, 0, line.length);
      assertTrue(g >= 0, "no layout for " + k.name());
      String key = t.entry(t.group(g)[0]).key();
      String expected = k.header().trim() + (k.type().isEmpty() ? "" : ":" + k.type());
      assertEquals(expected, key, "the layout of " + k.name());
    }
  }

  private static final String NODE = "card NODE Node 2011 | n\nrow\n  1-8 kw NODE | k\n";

  static List<org.junit.jupiter.params.provider.Arguments> malformed() {
    String head = "card NODE Node 2011 | n\nrow\n  1-8 kw NODE | k\n";
    return List.of(
        org.junit.jupiter.params.provider.Arguments.of("card NODE Node 2011 | n\n", "card NODE has no rows"),
        org.junit.jupiter.params.provider.Arguments.of("card NODE Node 2011\n", "card NODE has no description"),
        org.junit.jupiter.params.provider.Arguments.of("card NODE Nodes 2011 | n\n", "unknown category 'Nodes'"),
        org.junit.jupiter.params.provider.Arguments.of(head + "  9-16 int X ref=nod | x\n", "unknown id kind 'nod'"),
        org.junit.jupiter.params.provider.Arguments.of(head + "  8-16 int X | x\n", "overlaps"),
        org.junit.jupiter.params.provider.Arguments.of(head + "  9-81 int X | x\n", "ends past column 80"),
        org.junit.jupiter.params.provider.Arguments.of(head + "  9-16 integer X | x\n", "unknown field type 'integer'"),
        org.junit.jupiter.params.provider.Arguments.of(head + "row if=Y:1\n  1-8 int Z | z\n", "no earlier row has a field Y"),
        org.junit.jupiter.params.provider.Arguments.of("card NODE Node 2011 | n\nuse NOPE\n", "no fragment NOPE"),
        org.junit.jupiter.params.provider.Arguments.of("card NODE Node 2011 | n\nrow\n  9-16 int X | x\n",
            "first row must be a row whose first field is kw"));
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("malformed")
  void aMalformedTableIsAnErrorNamingItsFileAndLine(String text, String message) {
    var e = assertThrows(IllegalArgumentException.class, () -> CardLayouts.parse("t.cards", text));
    assertTrue(e.getMessage().startsWith("card-layout table t.cards:"), e.getMessage());
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }

  @Test
  void aVariantWithoutABaseEntryIsAnError() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> CardLayouts.parse("t.cards", "card PART:SHELL Part 2011 | p\nrow\n  1-8 kw PART | k\n"));
    assertTrue(e.getMessage().contains("has no base entry PART with select="), e.getMessage());
  }

  @Test
  void aCardDefinedTwiceIsAnError() {
    var e = assertThrows(IllegalArgumentException.class, () -> CardLayouts.parse("t.cards", NODE + NODE));
    assertTrue(e.getMessage().contains("defined twice"), e.getMessage());
  }

  @Test
  void fragmentsAndImplicitFieldsShowInTheDump() {
    String text = "fragment H\nrow\n  1-8 kw PART | k\nrow name\ncard PART Part 2011 select=17-24 | p\nuse H\nend END_PART\n";
    assertEquals(List.of("card PART Part 2011 17-24|p", "row row - -", "field 1 8 kw PART - - - - left|k",
        "row name - -", "field 1 4 fixed NAME - - - - left|Fixed text NAME", "field 5 80 str TITLE - - - - left|Title",
        "row end END_PART -", "field 1 8 fixed END_PART - - - - left|Fixed text END_PART"),
        List.of(CardLayouts.parse("t.cards", text).dump().split("\n")));
  }
}
