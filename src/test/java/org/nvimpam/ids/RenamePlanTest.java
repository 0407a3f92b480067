package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.Lines;

/** The edits of a rename, and where an include name resolves. */
class RenamePlanTest {
  @TempDir Path dir;

  private static RenamePlan plan(String digits, String... lines) {
    return RenamePlan.make(Lines.ofLatin1(lines), 2011, new IdScanner(CardLayouts.bundled()),
        IdKinds.key(IdKinds.PART, 12), digits);
  }

  private static String text(RenamePlan p, int i) {
    return new String(p.texts()[i], StandardCharsets.ISO_8859_1) + "@" + p.at()[3 * i] + ":" + p.at()[3 * i + 1] + "-" + p.at()[3 * i + 2];
  }

  @Test
  void aFieldGetsTheNewDigitsRightAlignedInItsOwnColumns() {
    RenamePlan p = plan("4567", "SHELL /      100      12       1       2       3       4");
    assertNull(p.refusal());
    assertEquals("    4567@0:16-24", text(p, 0));
  }

  @Test
  void aLeftAlignedValueStaysLeftAligned() {
    RenamePlan p = plan("4567", "SHELL /      100" + "12      " + "       1       2       3       4");
    assertEquals("4567    @0:16-24", text(p, 0));
  }

  @Test
  void aGesItemGetsTheDigitsInItsPlaceAndARangeIsLeftAlone() {
    RenamePlan p = plan("99", "GROUP /        1 g", "        PART 7 12 10:20", "        END");
    assertEquals(1, p.count());
    assertEquals("99@1:15-17", text(p, 0));
    assertEquals(1, p.ranges());
  }

  @Test
  void aGesLineThatWouldPassColumn80IsRefused() {
    String items = "        PART" + " 1234567".repeat(8) + " 12"; // 79 columns
    RenamePlan p = plan("123456", "GROUP /        1 g", items, "        END");
    assertEquals("line 2 would pass column 80 with 123456", p.refusal());
  }

  @Test
  void digitsWiderThanTheFieldAreRefused() {
    RenamePlan p = plan("123456789", "SHELL /      100      12       1       2       3       4");
    assertEquals("123456789 does not fit the 8 columns of SHELL / IDPRT (line 1)", p.refusal());
  }

  private static RenamePlan retitle(String title, String... lines) {
    return RenamePlan.make(Lines.ofLatin1(lines), 2011, new IdScanner(CardLayouts.bundled()),
        IdKinds.key(IdKinds.GROUP, IdNames.intern("doors")), title);
  }

  @Test
  void aGroupGetsTheNewTitleOnItsCardAndInsideTheQuotesOfEverySelection() {
    RenamePlan p = retitle("front doors", "GROUP /  doors", "        PART 1 GRP 'doors' OGRP ' doors '", "        END",
        "GROUP / all", "        DELGRP 'doors'", "        END");
    assertNull(p.refusal());
    assertEquals(4, p.count());
    assertEquals("front doors@0:9-14", text(p, 0)); // where the old title began
    assertEquals("front doors@1:20-25", text(p, 1));
    assertEquals("front doors@1:34-39", text(p, 2));
    assertEquals("front doors@4:16-21", text(p, 3));
    assertEquals(3, p.lines());
  }

  @Test
  void aTitleWiderThanTheTitleFieldIsRefused() {
    String wide = "x".repeat(73);
    RenamePlan p = retitle(wide, "GROUP / doors", "        END");
    assertEquals("'" + wide + "' does not fit the 72 columns of GROUP / TITLE (line 1)", p.refusal());
    assertNull(retitle("x".repeat(72), "GROUP /    doors", "        END").refusal()); // from column 9, then
  }

  @Test
  void aSelectionLineThatWouldPassColumn80WithTheNewTitleIsRefused() {
    String title = "y".repeat(60);
    RenamePlan p = retitle(title, "GROUP / all", "        PART 12 GRP 'doors'", "        END");
    assertEquals("line 2 would pass column 80 with '" + title + "'", p.refusal());
  }

  @Test
  void aRelativeIncludeNameResolvesBesideItsFileThenBesideTheTopDeck() throws Exception {
    Path top = Files.createDirectories(dir.resolve("top"));
    Path sub = Files.createDirectories(top.resolve("sub"));
    Files.writeString(top.resolve("nodes.inc"), "");
    Files.writeString(sub.resolve("own.inc"), "");
    assertEquals(sub.resolve("own.inc"), IncludeWalk.resolve("own.inc", sub, top));
    assertEquals(top.resolve("nodes.inc"), IncludeWalk.resolve("nodes.inc", sub, top));
    assertNull(IncludeWalk.resolve("none.inc", sub, top));
  }
}
