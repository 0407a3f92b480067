package org.nvimpam.gen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeckGeneratorTest {
  private static final int DECK_LINES = 60_000;

  @Test
  void sameSeedGivesSameBytes() {
    assertArrayEquals(new DeckGenerator(42).generate(DECK_LINES), new DeckGenerator(42).generate(DECK_LINES));
  }

  @Test
  void differentSeedsGiveDifferentDecks() {
    assertFalse(Arrays.equals(new DeckGenerator(1).generate(5_000), new DeckGenerator(2).generate(5_000)));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7, 24, 25, 26, 100, 999, 12_345, DECK_LINES})
  void writesExactlyTheLinesAskedFor(int lines) {
    byte[] deck = new DeckGenerator(3).generate(lines);
    assertEquals(lines, lines(deck).size());
    assertTrue(deck.length == 0 || deck[deck.length - 1] == '\n', "last line LF-terminated");
  }

  @Test
  void everyLineIsLfTerminatedPrintableAsciiOfAtMost80Bytes() {
    byte[] deck = new DeckGenerator(5).generate(DECK_LINES);
    int start = 0;
    for (int i = 0; i < deck.length; i++) {
      if (deck[i] == '\n') {
        assertTrue(i - start <= 80, "line of " + (i - start) + " bytes at offset " + start);
        start = i + 1;
      } else {
        assertTrue(deck[i] >= ' ' && deck[i] < 127, "byte " + deck[i] + " at offset " + i);
      }
    }
    assertEquals(deck.length, start, "the deck ends with LF");
  }

  @Test
  void streamsALargeDeckThroughASmallBuffer() throws Exception {
    CountingStream out = new CountingStream();
    new DeckGenerator(9).write(out, 2_000_000);
    assertEquals(2_000_000, out.lines);
    assertTrue(out.bytes > 100_000_000L, "about 60 bytes a line, got " + out.bytes);
    // Never more than one buffer at a time: the deck is not held in memory.
    assertTrue(out.largestWrite <= 1 << 16, "largest write " + out.largestWrite);
  }

  @Test
  void containsEveryCardFamily() {
    List<String> lines = lines(new DeckGenerator(11).generate(DECK_LINES));
    Set<String> prefixes = Set.of(
        "INPUTVERSION 2011", "ANALYSIS ", "UNIT ", "TITLE / ", "RUNEND/ ", "END_RUNEND",
        "OCTRL / ", "END_OCTRL", "NODE  / ", "SHELL / ", "MEMBR / ", "TSHEL / ", "SOLID / ",
        "BSHEL / ", "TETR4 / ", "BEAM  / ", "BAR   / ", "SPRING/ ", "JOINT / ", "PLINK / ",
        "ELINK / ", "PART  / ", "END_PART", "RBODY / ", "GROUP / ", "META", "END_META", "MASS  / ",
        "NSMAS / ", "MATER / ", "CNTAC / ", "BOUNC / ", "NAME ", "        PART ",
        "        PART>NOD ", "        NOD ", "        END", "$----", "$#");
    for (String prefix : prefixes) {
      assertTrue(lines.stream().anyMatch(l -> l.startsWith(prefix)), "no line starts with " + prefix);
    }
    assertTrue(lines.contains(""), "blank lines");
    for (int type = 0; type <= 3; type++) {
      String rbodyType = String.format("%8d", type);
      assertTrue(lines.stream().anyMatch(l -> l.startsWith("RBODY / ") && l.substring(24, 32).equals(rbodyType)),
          "RBODY type " + type);
    }
  }

  /** Non-comment lines after the header of each PART type (FOLDS.md §4 and §5.5), END_PART included. */
  private static final Map<String, Integer> TYPE_LINES = Map.ofEntries(
      Map.entry("SHELL", 2), Map.entry("MEMBR", 2), Map.entry("TSHEL", 1), Map.entry("SOLID", 2),
      Map.entry("TETRA", 2), Map.entry("BSHEL", 1), Map.entry("BEAM", 5), Map.entry("SPRING", 1),
      Map.entry("BAR", 1), Map.entry("JOINT", 1), Map.entry("PLINK", 1), Map.entry("ELINK", 1));

  @Test
  void partCardsHaveTheCountedLinesOfTheirTypeBeforeEndPart() {
    List<String> lines = lines(new DeckGenerator(13).generate(DECK_LINES));
    Set<String> seen = new TreeSet<>();
    for (int i = 0; i < lines.size(); i++) {
      String header = lines.get(i);
      if (!header.startsWith("PART  / ")) continue;
      String atype = header.substring(16, 24).trim();
      seen.add(atype);
      assertTrue(header.substring(24, 32).trim().matches("[1-9][0-9]*"), "IDMAT not 0: " + header);
      int counted = 0;
      int j = i + 1;
      while (!lines.get(j).startsWith("END_PART")) {
        if (!lines.get(j).startsWith("$")) counted++;
        j++;
      }
      // NAME, the DTELIM row and the TCONT row come before the type-specific lines.
      assertEquals(3 + TYPE_LINES.get(atype), counted, "card at line " + (i + 1));
    }
    assertEquals(TYPE_LINES.keySet(), seen);
  }

  @Test
  void everyGesEndsWithAnEndLine() {
    List<String> lines = lines(new DeckGenerator(17).generate(DECK_LINES));
    for (int i = 0; i < lines.size(); i++) {
      if (isSelection(lines.get(i))) {
        String next = lines.get(i + 1);
        assertTrue(isSelection(next) || next.equals("        END"),
            "selection line " + (i + 1) + " followed by " + next);
      }
    }
  }

  private static boolean isSelection(String line) {
    return line.startsWith("        PART ") || line.startsWith("        PART>NOD ")
        || line.startsWith("        NOD ");
  }

  static List<String> lines(byte[] deck) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < deck.length; i++) {
      if (deck[i] == '\n') {
        lines.add(new String(deck, start, i - start, StandardCharsets.ISO_8859_1));
        start = i + 1;
      }
    }
    if (start < deck.length) lines.add(new String(deck, start, deck.length - start, StandardCharsets.ISO_8859_1));
    return lines;
  }

  private static final class CountingStream extends OutputStream {
    long bytes;
    long lines;
    int largestWrite;

    @Override
    public void write(int b) {
      bytes++;
      if (b == '\n') lines++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      largestWrite = Math.max(largestWrite, len);
      bytes += len;
      for (int i = off; i < off + len; i++) {
        if (b[i] == '\n') lines++;
      }
    }
  }
}
