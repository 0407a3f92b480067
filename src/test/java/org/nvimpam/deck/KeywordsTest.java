package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.nvimpam.lines.LineSource;

/** Line classes of FOLDS.md §3 and keyword recognition of §4. */
class KeywordsTest {
  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String keyword(String line) {
    byte[] a = b(line);
    int id = Keywords.of(a, 0, LineSource.contentLength(a, 0, a.length));
    return id < 0 ? null : Keywords.name(id);
  }

  private static String headerWord(String line) {
    byte[] a = b(line);
    long k = LineBytes.headerWord(a, 0, LineSource.contentLength(a, 0, a.length));
    return k == 0 ? null : LineBytes.wordOf(k);
  }

  @Test
  void thereAre63DistinctKeywords() {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < Keywords.COUNT; i++) names.add(Keywords.name(i));
    assertEquals(63, Keywords.COUNT);
    assertEquals(63, names.size());
  }

  @Test
  void everyKeywordIsRecognisedFromItsOwnRow() {
    for (int id = 0; id < Keywords.COUNT; id++) {
      Keyword k = Keywords.get(id);
      StringBuilder line = new StringBuilder(k.header() + "/        1");
      while (line.length() < 32) line.append(' ');
      if (k.header().equals("PART  ")) line.replace(24 - k.type().length(), 24, k.type());
      if (k.header().equals("RBODY ")) line.replace(31, 32, k.type());
      assertEquals(k.name(), keyword(line.toString()), line.toString());
      assertEquals(id, Keywords.of(b(line.toString()), 0, line.length()));
    }
  }

  @Test
  void theSection3TableClassifiesAsSpecified() {
    assertEquals("Node", keyword("NODE  /        1"));
    assertEquals("NODE", headerWord("NODE  /        1"));
    assertEquals("Nsmas2", keyword("NSMAS2/ 1"));
    assertEquals(null, keyword("MATER /        3"));
    assertEquals("MATER", headerWord("MATER /        3"));
    assertEquals("RUNEND", headerWord("RUNEND/  "));
    assertEquals("RUNEND", headerWord("RUNEND/"));
    assertEquals("RUNEND", headerWord("RUNEND/\r"));
    assertEquals(null, keyword("PART  /        7   FLUID       1"));
    assertEquals("PART", headerWord("PART  /        7   FLUID       1"));
    assertEquals(null, keyword("NODE  /"));
    assertEquals("NODE", headerWord("NODE  /"));
    for (String no : new String[] {"TITLE/  x", "mater / 1", "1ATER / ", "_MATER/ ", "MAT ER/ ",
        "MATER /x", " MATER / ", "MATER  /  1", "SOLPLOT     ALL", "END_PART", "MATER\t/ ", "NODE  /\t1"}) {
      assertEquals(null, keyword(no), no);
      assertEquals(null, headerWord(no), no);
    }
  }

  @Test
  void partTypeIsOneAtypeWordPaddedWithSpacesInColumns17To24() {
    assertEquals("PartShell", keyword("PART  /        1   SHELL       1"));
    assertEquals("PartShell", keyword("PART  /        1SHELL          1"));
    assertEquals("PartShell", keyword("PART  /        1 SHELL        1"));
    assertEquals("PartCos3d", keyword("PART  /        1   COS3D       1"));
    assertEquals("PartMtojnt", keyword("PART  /        1  MTOJNT       1"));
    assertEquals("PartShell", keyword("PART  /        1   SHELL"), "exactly 24 bytes");
    assertEquals(null, keyword("PART  /        1  SHELL"), "shorter than 24 bytes");
    assertEquals(null, keyword("PART  /        1  XSHELL       1"));
    assertEquals(null, keyword("PART  /        1   SHE L       1"));
  }

  @Test
  void rbodyTypeIsOneDigit0To3InColumns25To32() {
    assertEquals("Rbody0", keyword("RBODY /        1               0"));
    assertEquals("Rbody3", keyword("RBODY /        1        3       "));
    assertEquals(null, keyword("RBODY /        1               4"));
    assertEquals(null, keyword("RBODY /        1              10"));
    assertEquals(null, keyword("RBODY /        1               "), "shorter than 32 bytes");
  }

  @Test
  void commentsAndBlankLines() {
    assertTrue(LineBytes.isComment(b("$x"), 0, 2));
    assertTrue(LineBytes.isComment(b("#"), 0, 1));
    assertFalse(LineBytes.isComment(b("   $x"), 0, 5));
    assertTrue(LineBytes.isBlank(b(" \t\r "), 0, 4));
    assertTrue(LineBytes.isBlank(b(""), 0, 0));
    assertFalse(LineBytes.isBlank(b(" x"), 0, 2));
  }

  @Test
  void gesEndLineToleratesTrailingBlanksTabsAndCr() {
    for (String yes : new String[] {"        END", "        END   ", "        END\t", "        END \r"}) {
      assertTrue(LineBytes.isGesEnd(b(yes), 0, yes.length()), yes);
    }
    for (String no : new String[] {"         END", "        ENDE", "        END\0", "\t       END"}) {
      assertFalse(LineBytes.isGesEnd(b(no), 0, no.length()), no);
    }
  }

  @Test
  void gesSelectionWordsNeedTheirFollowingSpace() {
    assertTrue(LineBytes.isGesSelection(b("        SEG 13"), 0, 14));
    assertTrue(LineBytes.isGesSelection(b("        END_MOD"), 0, 15));
    assertTrue(LineBytes.isGesSelection(b("        DELPART>NOD 1"), 0, 21));
    assertFalse(LineBytes.isGesSelection(b("        PART1"), 0, 13));
    assertFalse(LineBytes.isGesSelection(b("         PART 1"), 0, 15));
  }

  @Test
  void numbersReadTheFirstDigitsInTheCell() {
    assertEquals(1, LineBytes.number(b("   -1"), 0, 5, 0, 5));
    assertEquals(1, LineBytes.number(b("  1.5"), 0, 5, 0, 5));
    assertEquals(-1, LineBytes.number(b("  abc"), 0, 5, 0, 5));
    assertEquals(-1, LineBytes.number(b("12"), 0, 2, 3, 8), "line shorter than the cell");
    assertEquals(12, LineBytes.number(b("xx12345"), 0, 7, 2, 4), "digits stop at the cell end");
  }
}
