package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.Deck;
import org.nvimpam.lines.LineSource;
import org.nvimpam.lines.Lines;

/** The id index kept across edits equals the index of the edited deck read anew. */
class IdIndexTest {
  private static final CardLayouts TABLE = CardLayouts.bundled();

  private static String node(int id) {
    return String.format("NODE  / %8d              0.              0.              0.", id);
  }

  private static String shell(int id, int part, int a, int b) {
    return String.format("SHELL / %8d%8d%8d%8d%8d%8d", id, part, a, b, a, b);
  }

  private static final String[] PART = {"PART  /       %d   SHELL       0", "NAME p", "END_PART"};

  private static String randomLine(SplittableRandom r) {
    return switch (r.nextInt(8)) {
      case 0, 1 -> node(1 + r.nextInt(30));
      case 2, 3 -> shell(1 + r.nextInt(30), 1 + r.nextInt(5), 1 + r.nextInt(30), 1 + r.nextInt(30));
      case 4 -> String.format("PART  / %8d   SHELL", 1 + r.nextInt(5));
      case 5 -> "GROUP / g " + r.nextInt(4); // a GES follows: the selection lines below are its
      case 6 -> "        GRP 'g " + r.nextInt(4) + "' PART " + (1 + r.nextInt(5));
      default -> r.nextBoolean() ? "$ comment" : "        PART " + (1 + r.nextInt(5)) + " " + (1 + r.nextInt(5));
    };
  }

  private static String defs(DefTable t) {
    StringBuilder sb = new StringBuilder();
    for (int d = 0; d < t.size(); d++) sb.append(t.line(d)).append(':').append(t.kind(d)).append(':').append(t.id(d)).append(' ');
    return sb.toString();
  }

  private static String problems(RefProblems p) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < p.size(); i++) {
      sb.append(p.line(i)).append(':').append(p.from(i)).append('-').append(p.to(i)).append(':').append(p.key(i)).append(' ');
    }
    return sb.toString();
  }

  @Test
  void definitionsAndUndefinedReferencesAfterRandomEditsEqualAFreshRead() {
    SplittableRandom r = new SplittableRandom(7);
    for (int round = 0; round < 40; round++) {
      List<String> lines = new ArrayList<>();
      lines.add("INPUTVERSION 2011");
      for (int i = 0; i < 40; i++) lines.add(randomLine(r));
      Deck deck = Deck.of(Lines.ofLatin1(lines.toArray(String[]::new)));
      BufferIds ids = new BufferIds();
      // the first build and check in steps of a few lines, with edits between the steps
      while (!ids.buildStep(deck, 3)) {
        if (r.nextInt(4) == 0) edit(r, lines, deck, ids);
      }
      ids.tree(List.of(), List.of(), true, -1, deck);
      while (!ids.checkStep(deck, 3)) {
        if (r.nextInt(4) == 0) edit(r, lines, deck, ids);
      }
      for (int e = 0; e < 25; e++) {
        edit(r, lines, deck, ids);
        ids.check(deck);
        Deck fresh = Deck.of(Lines.ofLatin1(lines.toArray(String[]::new)));
        BufferIds want = new BufferIds();
        want.build(fresh);
        want.tree(List.of(), List.of(), true, -1, fresh);
        want.check(fresh);
        String ctx = "round " + round + " edit " + e + ": " + lines;
        assertEquals(defs(want.defs()), defs(ids.defs()), ctx);
        assertEquals(problems(want.refs()), problems(ids.refs()), ctx);
        assertEquals(want.defs().duplicated(), ids.defs().duplicated(), ctx);
        assertEquals(want.snapshot(fresh, 1000), ids.snapshot(deck, 1000), ctx + ": the problems, duplicates included");
        for (int id = 1; id <= 30; id++) {
          long key = IdKinds.key(IdKinds.NODE, id);
          assertArrayEquals(want.defs().linesOf(key, 100), ids.defs().linesOf(key, 100), ctx + " node " + id);
        }
        for (int g = 0; g < 4; g++) {
          long key = IdKinds.key(IdKinds.GROUP, IdNames.intern("g " + g));
          assertArrayEquals(want.defs().linesOf(key, 100), ids.defs().linesOf(key, 100), ctx + " group " + g);
        }
      }
    }
  }

  /** A random deck of 3 to 62 lines, into {@code lines} too. */
  private static Deck randomDeck(SplittableRandom r, List<String> lines) {
    lines.add("INPUTVERSION 2011");
    int n0 = 2 + r.nextInt(60);
    for (int i = 0; i < n0; i++) lines.add(randomLine(r));
    return Deck.of(Lines.ofLatin1(lines.toArray(String[]::new)));
  }

  /** Runs {@code step} with 1-5 lines until it is done, with random edits between; the edits made. */
  private static int stepsWithEdits(SplittableRandom r, List<String> lines, Deck deck, BufferIds ids,
      java.util.function.IntPredicate step) {
    int edits = 0;
    while (!step.test(1 + r.nextInt(5))) {
      while (r.nextInt(2) == 0) {
        edit(r, lines, deck, ids);
        edits++;
      }
    }
    return edits;
  }

  @Test
  void aFirstBuildInStepsFollowsTheEditsBetweenItsSteps() {
    SplittableRandom r = new SplittableRandom(11);
    for (int round = 0; round < 400; round++) {
      List<String> lines = new ArrayList<>();
      Deck deck = randomDeck(r, lines);
      BufferIds ids = new BufferIds();
      int edits = stepsWithEdits(r, lines, deck, ids, k -> ids.buildStep(deck, k));
      Deck fresh = Deck.of(Lines.ofLatin1(lines.toArray(String[]::new)));
      BufferIds want = new BufferIds();
      want.build(fresh);
      String ctx = "round " + round + ", " + edits + " edits: " + lines;
      assertEquals(defs(want.defs()), defs(ids.defs()), ctx);
      assertEquals(want.defs().duplicated(), ids.defs().duplicated(), ctx);
      for (int id = 1; id <= 30; id++) {
        long key = IdKinds.key(IdKinds.NODE, id);
        assertEquals(want.defs().count(key), ids.defs().count(key), ctx + " node " + id);
      }
    }
  }

  @Test
  void aWholeReferenceCheckInStepsFollowsTheEditsBetweenItsSteps() {
    SplittableRandom r = new SplittableRandom(13);
    for (int round = 0; round < 400; round++) {
      List<String> lines = new ArrayList<>();
      Deck deck = randomDeck(r, lines);
      BufferIds ids = new BufferIds();
      ids.build(deck);
      ids.tree(List.of(), List.of(), true, -1, deck);
      int edits = stepsWithEdits(r, lines, deck, ids, k -> ids.checkStep(deck, k));
      Deck fresh = Deck.of(Lines.ofLatin1(lines.toArray(String[]::new)));
      BufferIds want = new BufferIds();
      want.build(fresh);
      want.tree(List.of(), List.of(), true, -1, fresh);
      want.check(fresh);
      String ctx = "round " + round + ", " + edits + " edits: " + lines;
      assertEquals(defs(want.defs()), defs(ids.defs()), ctx);
      assertEquals(problems(want.refs()), problems(ids.refs()), ctx);
    }
  }

  @Test
  void referencesToIdsThatLostTheirDefinitionAreFoundInStepsThatFollowTheEditsBetweenThem() {
    SplittableRandom r = new SplittableRandom(19);
    int searched = 0;
    for (int round = 0; round < 400; round++) {
      List<String> lines = new ArrayList<>();
      Deck deck = randomDeck(r, lines);
      BufferIds ids = new BufferIds();
      ids.build(deck);
      ids.tree(List.of(), List.of(), true, -1, deck);
      ids.check(deck);
      for (int e = 1 + r.nextInt(3); e > 0; e--) edit(r, lines, deck, ids); // some remove the last definition of an id
      boolean search = !ids.checkStep(deck, 1 + r.nextInt(5));
      if (search) {
        searched++;
        stepsWithEdits(r, lines, deck, ids, k -> ids.checkStep(deck, k));
      }
      Deck fresh = Deck.of(Lines.ofLatin1(lines.toArray(String[]::new)));
      BufferIds want = new BufferIds();
      want.build(fresh);
      want.tree(List.of(), List.of(), true, -1, fresh);
      want.check(fresh);
      assertEquals(problems(want.refs()), problems(ids.refs()), "round " + round + ": " + lines);
    }
    assertTrue(searched > 100, "searches in steps: " + searched);
  }

  private static String includeLine(SplittableRandom r) {
    return switch (r.nextInt(5)) {
      case 0 -> "INCLU / part" + r.nextInt(9) + ".inc";
      case 1 -> String.format("%-80s&", "INCLU / long" + r.nextInt(9)); // continued on the next line
      case 2 -> "name" + r.nextInt(9) + ".inc";
      default -> node(1 + r.nextInt(30));
    };
  }

  @Test
  void aReadOfTheIncludeLinesInStepsFollowsTheEditsBetweenItsSteps() {
    SplittableRandom r = new SplittableRandom(17);
    for (int round = 0; round < 500; round++) {
      List<String> lines = new ArrayList<>();
      int n0 = 1 + r.nextInt(40);
      for (int i = 0; i < n0; i++) lines.add(includeLine(r));
      Deck deck = Deck.of(Lines.ofLatin1(lines.toArray(String[]::new)));
      BufferIds ids = new BufferIds();
      int edits = 0;
      while (!ids.includesStep(deck, 1 + r.nextInt(4))) {
        while (r.nextInt(2) == 0 && lines.size() > 1) {
          int n = lines.size();
          int first = r.nextInt(n);
          int last = Math.min(n, first + r.nextInt(3));
          int count = r.nextInt(3);
          String[] repl = new String[count];
          for (int k = 0; k < count; k++) repl[k] = includeLine(r);
          for (int k = first; k < last; k++) lines.remove(first);
          for (int k = 0; k < count; k++) lines.add(first + k, repl[k]);
          deck.replace(first, last, Lines.ofLatin1(repl));
          ids.edited(deck, first, last, count);
          edits++;
        }
      }
      Deck fresh = Deck.of(Lines.ofLatin1(lines.toArray(String[]::new)));
      assertEquals(org.nvimpam.deck.IncludeLine.of(fresh), ids.includes(deck), "round " + round + ", " + edits + " edits: " + lines);
    }
  }

  /** A random edit of a few lines, to the list, the deck and the index. */
  private static void edit(SplittableRandom r, List<String> lines, Deck deck, BufferIds ids) {
    int n = lines.size();
    int first = 1 + r.nextInt(Math.max(1, n - 1)); // after the INPUTVERSION line (at the end when it is alone)
    int last = Math.min(n, first + r.nextInt(3));
    int count = r.nextInt(3);
    String[] repl = new String[count];
    for (int k = 0; k < count; k++) repl[k] = randomLine(r);
    for (int k = first; k < last; k++) lines.remove(first);
    for (int k = 0; k < count; k++) lines.add(first + k, repl[k]);
    deck.replace(first, last, Lines.ofLatin1(repl));
    ids.edited(deck, first, last, count);
  }

  @Test
  void aShellNamesItsPartAndFourNodes() {
    assertEquals(List.of("0 element 100 def 13-16", "0 part 12 22-24", "0 node 1 31-32", "0 node 2 39-40",
        "0 node 3 47-48", "0 node 4 55-56"), scan("SHELL /      100      12       1       2       3       4"));
  }

  /** Every id the scanner reports in {@code lines}: line, the id as messages name it, range end, def, columns. */
  private static List<String> scan(String... lines) {
    LineSource d = Lines.ofLatin1(lines);
    List<String> seen = new ArrayList<>();
    new IdScanner(TABLE).scan(d, 0, d.lineCount(), 2011, true, (line, from, to, kind, lo, hi, def) ->
        seen.add(line + " " + IdKinds.describe(IdKinds.key(kind, lo)) + (hi != lo ? ":" + hi : "") + (def ? " def" : "")
            + " " + from + "-" + to));
    return seen;
  }

  @Test
  void gesItemsAndRangesAreReferencesOfTheSelectedKind() {
    assertEquals(List.of("0 group 'g' def 8-9", "1 part 7 13-14", "1 part 3:9 15-18", "2 node 5 12-13"),
        scan("GROUP / g", "        PART 7 3:9", "        NOD 5", "        END"));
  }

  @Test
  void aGroupTitleIsADefinitionAndQuotedGesItemsAfterAGroupWordAreReferences() {
    assertEquals(List.of("0 group 'front doors' def 10-21", "1 group 'front doors' 13-24", "2 group 'x' 15-16",
            "2 group 'roof' 28-32", "3 group 'all' 17-20"),
        scan("GROUP /   front doors   ", "        GRP 'front doors'", "        OGRP ' x '  DELGRP 'roof'",
            "        GRP>NOD 'all'", "        END"));
  }

  @Test
  void aWordInsideASelectionLineSelectsTheKindOfTheItemsAfterIt() {
    assertEquals(List.of("0 group 'g' def 8-9", "1 part 7 13-14", "1 group 'doors' 20-25", "1 node 5 33-34"),
        scan("GROUP / g", "        PART 7 GRP 'doors' 8 NOD 5 'n' SEG 6", "        END"));
  }

  @Test
  void aTitleWithoutItsClosingQuoteAnUnquotedOneAndAnEmptyOneAreNoReferences() {
    assertEquals(List.of("0 group 'g' def 8-9"),
        scan("GROUP / g", "        GRP doors", "        GRP ''  '  '", "        GRP 'doors", "        END"));
  }

  @Test
  void titlesAreTheSameIdWhenTheyMatchExactlyBlanksAroundThemLeftOut() {
    assertEquals(IdNames.intern("doors"), IdNames.intern("doors"));
    assertEquals(IdNames.intern(" doors  ".strip()), IdNames.intern("doors"));
    org.junit.jupiter.api.Assertions.assertNotEquals(IdNames.intern("Doors"), IdNames.intern("doors"));
    org.junit.jupiter.api.Assertions.assertNotEquals(IdNames.intern("door s"), IdNames.intern("doors"));
    for (int i = 0; i < 5000; i++) assertEquals("t" + i, IdNames.text(IdNames.intern("t" + i))); // through rehashes
  }

  @Test
  void anUndefinedGroupAndATitleDefinedTwiceAreProblemsNamedByTheirTitles() {
    Deck deck = Deck.of(Lines.ofLatin1("INPUTVERSION 2011", "GROUP / doors", "        GRP 'roof'", "        END",
        "GROUP / doors", "        GRP 'doors'", "        END"));
    BufferIds ids = new BufferIds();
    ids.build(deck);
    ids.tree(List.of(), List.of(), true, -1, deck);
    ids.check(deck);
    org.nvimpam.deck.ProblemItems s = ids.snapshot(deck, 10);
    List<String> got = new ArrayList<>();
    for (int k = 0; k < s.messages().length; k++) {
      got.add(s.at()[4 * k] + ":" + s.at()[4 * k + 1] + "-" + s.at()[4 * k + 2] + " "
          + new String(s.messages()[k], java.nio.charset.StandardCharsets.UTF_8));
    }
    assertEquals(List.of("1:8-13 GROUP: group 'doors' is defined 2 times",
        "2:13-17 GROUP: group 'roof' (in the selection) is not defined", "4:8-13 GROUP: group 'doors' is defined 2 times"), got);
  }

  /** The same edit to the list, the deck and {@code table}: up to 10 lines replaced by up to 6. */
  private interface TableEdit {
    void edited(int first, int last, int count);
  }

  private static void editTable(SplittableRandom r, List<String> lines, Deck deck, TableEdit table) {
    int n = lines.size();
    int first = 1 + r.nextInt(Math.max(1, n - 1)); // the INPUTVERSION line stays
    int last = Math.min(n, first + r.nextInt(r.nextInt(4) == 0 ? 11 : 3));
    int count = r.nextInt(r.nextInt(4) == 0 ? 7 : 3);
    String[] repl = new String[count];
    for (int k = 0; k < count; k++) repl[k] = randomLine(r);
    for (int k = first; k < last; k++) lines.remove(first);
    for (int k = 0; k < count; k++) lines.add(first + k, repl[k]);
    deck.replace(first, last, Lines.ofLatin1(repl));
    table.edited(first, last, count);
  }

  /** {@code t} holds what a fresh read of {@code lines} finds, and finds it as that read does. */
  private static void assertSameTable(DefTable t, List<String> lines, IdScanner sc, String ctx) {
    Deck fresh = Deck.of(Lines.ofLatin1(lines.toArray(String[]::new)));
    DefTable want = new DefTable();
    want.build(fresh, org.nvimpam.deck.DeckVersion.declared(fresh), sc);
    assertEquals(defs(want), defs(t), ctx);
    assertEquals(want.duplicated(), t.duplicated(), ctx);
    assertEquals(want.maxId(IdKinds.NODE), t.maxId(IdKinds.NODE), ctx);
    assertEquals(want.maxId(IdKinds.PART), t.maxId(IdKinds.PART), ctx);
    for (int line = 0; line <= lines.size() + 1; line++) {
      assertEquals(want.firstAtOrAfter(line), t.firstAtOrAfter(line), ctx + " first at or after line " + line);
    }
    for (int id = 1; id <= 30; id++) {
      long key = IdKinds.key(IdKinds.NODE, id);
      assertEquals(want.count(key), t.count(key), ctx + " node " + id);
      assertArrayEquals(want.linesOf(key, 100), t.linesOf(key, 100), ctx + " node " + id);
      assertArrayEquals(want.indicesOf(key, 1), t.indicesOf(key, 1), ctx + " node " + id);
      long shell = IdKinds.key(IdKinds.ELEMENT, id);
      assertArrayEquals(want.linesOf(shell, 100), t.linesOf(shell, 100), ctx + " element " + id);
    }
    for (int g = 0; g < 4; g++) {
      long key = IdKinds.key(IdKinds.GROUP, IdNames.intern("g " + g));
      assertArrayEquals(want.linesOf(key, 100), t.linesOf(key, 100), ctx + " group " + g);
    }
  }

  @Test
  void aTableInSegmentsOfAFewDefinitionsFollowsBuildsInStepsAndEditsAcrossTheirBounds() {
    SplittableRandom r = new SplittableRandom(17);
    IdScanner sc = new IdScanner(TABLE);
    for (int round = 0; round < 300; round++) {
      List<String> lines = new ArrayList<>();
      Deck deck = randomDeck(r, lines);
      int version = org.nvimpam.deck.DeckVersion.declared(deck);
      int segment = new int[] {1, 2, 3, 4, 8, 16}[r.nextInt(6)]; // edits cross, fill, split and empty segments
      DefTable t = new DefTable(segment);
      int edits = 0;
      while (!t.buildStep(deck, version, sc, 1 + r.nextInt(5))) {
        while (r.nextInt(2) == 0) {
          editTable(r, lines, deck, (f, l, c) -> t.buildEdited(deck, f, l, c, version, sc));
          edits++;
        }
      }
      assertSameTable(t, lines, sc, "round " + round + ", segments of " + segment + ", built with " + edits + " edits: " + lines);
      for (int e = 0; e < 20; e++) {
        editTable(r, lines, deck, (f, l, c) -> t.edit(deck, f, l, c, version, sc));
        assertSameTable(t, lines, sc, "round " + round + ", segments of " + segment + ", edit " + e + ": " + lines);
      }
    }
  }

  @Test
  void countsSurviveManyAddsAndRemovals() {
    IdCounts c = new IdCounts();
    SplittableRandom r = new SplittableRandom(3);
    int[] want = new int[500];
    for (int i = 0; i < 20_000; i++) {
      int k = r.nextInt(500);
      int d = want[k] > 0 && r.nextBoolean() ? -1 : 1;
      want[k] += d;
      c.add(IdKinds.key(1, k + 1), d);
    }
    int[] have = new int[500];
    for (int k = 0; k < 500; k++) have[k] = c.get(IdKinds.key(1, k + 1));
    assertArrayEquals(want, have);
  }
}
