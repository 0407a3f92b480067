package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.lines.Lines;

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
  void aGesItemGetsTheDigitsInItsPlaceAndARangeHoldingTheIdIsSplit() {
    RenamePlan p = plan("99", "GROUP /        1 g", "        PART 7 12 10:20", "        END");
    assertNull(p.refusal());
    assertEquals(2, p.count());
    assertEquals("99@1:15-17", text(p, 0));
    assertEquals("10:11 13:20 99@1:18-23", text(p, 1));
    assertEquals("10:20", new String(p.olds()[1], StandardCharsets.ISO_8859_1));
    assertEquals(List.of("GROUP /        1 g", "        PART 7 99 10:11 13:20 99", "        END"),
        apply(p, "GROUP /        1 g", "        PART 7 12 10:20", "        END"));
  }

  @Test
  void aRangeSplitsAroundTheIdAtItsEndsAndInARangeOfTwo() {
    assertEquals(List.of("70:76", "78:80", "9077"), List.of(RenamePlan.split(70, 80, 77, 9077)));
    assertEquals(List.of("71:80", "9077"), List.of(RenamePlan.split(70, 80, 70, 9077)));
    assertEquals(List.of("70:79", "9077"), List.of(RenamePlan.split(70, 80, 80, 9077)));
    assertEquals(List.of("78", "9077"), List.of(RenamePlan.split(77, 78, 77, 9077)));
    assertEquals(List.of("77", "9077"), List.of(RenamePlan.split(77, 78, 78, 9077)));
    assertEquals(List.of("70:76", "78:80"), List.of(RenamePlan.split(70, 80, 77, 79))); // the new id is inside
  }

  @Test
  void aGesLineThatWouldPassColumn80ContinuesOnANewSelectionLine() {
    String items = "        PART" + " 1234567".repeat(8) + " 12"; // 79 columns
    RenamePlan p = plan("123456", "GROUP /        1 g", items, "        END");
    assertNull(p.refusal());
    assertEquals(List.of("GROUP /        1 g", "        PART" + " 1234567".repeat(8), "        PART 123456", "        END"),
        apply(p, "GROUP /        1 g", items, "        END"));
  }

  @Test
  void aSplitRangeContinuesWithItsSelectionWord() {
    String line = "        NOD 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 NOD 70:80";
    RenamePlan p = node(77, 9077, "GROUP /        1 g", line, "        END");
    assertNull(p.refusal());
    assertEquals(List.of("GROUP /        1 g", "        NOD 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 NOD 70:76",
        "        NOD 78:80 9077", "        END"), apply(p, "GROUP /        1 g", line, "        END"));
  }

  @Test
  void aGesItemThatFitsNoLineOfItsOwnIsRefused() {
    String title = "t".repeat(70); // fits GROUP / TITLE, not GRP '...' on a line
    RenamePlan p = retitle(title, "GROUP / all", "        PART 12 GRP 'doors'", "        END");
    assertEquals("line 2 would pass column 80 with '" + title + "', even continued on a new line", p.refusal());
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
  void aSelectionLineThatWouldPassColumn80WithTheNewTitleContinues() {
    String title = "y".repeat(60);
    RenamePlan p = retitle(title, "GROUP / all", "        PART 12 GRP 'doors'", "        END");
    assertNull(p.refusal());
    assertEquals(List.of("GROUP / all", "        PART 12", "        GRP '" + title + "'", "        END"),
        apply(p, "GROUP / all", "        PART 12 GRP 'doors'", "        END"));
  }

  @Test
  void theEditsComeInLineOrderWhenASelectionComesBeforeTheDefinition() {
    String[] lines = {"GROUP / all", "        OGRP 'doors' PART 1", "        END", "GROUP / doors", "        END"};
    RenamePlan p = retitle("rear", lines);
    assertEquals(List.of("GROUP / all", "        OGRP 'rear' PART 1", "        END", "GROUP / rear", "        END"), apply(p, lines));
  }

  private static RenamePlan node(int old, int neu, String... lines) {
    return RenamePlan.make(Lines.ofLatin1(lines), 2011, new IdScanner(CardLayouts.bundled()),
        IdKinds.key(IdKinds.NODE, old), Integer.toString(neu));
  }

  /** The lines after the plan, applied as lua/nvimpam/ids/init.lua does: edits bottom up, then the added lines bottom up. */
  static List<String> apply(RenamePlan p, String... lines) {
    List<String> out = new ArrayList<>(List.of(lines));
    for (int i = 1; i < p.count(); i++) {
      int[] at = p.at();
      assertTrue(at[3 * i - 3] < at[3 * i] || at[3 * i - 3] == at[3 * i] && at[3 * i - 1] <= at[3 * i + 1], "edits in order");
    }
    for (int i = p.count() - 1; i >= 0; i--) {
      int l = p.at()[3 * i];
      String s = out.get(l);
      String old = new String(p.olds()[i], StandardCharsets.ISO_8859_1);
      assertEquals(old, s.substring(p.at()[3 * i + 1], p.at()[3 * i + 2]), "the bytes an edit replaces");
      out.set(l, s.substring(0, p.at()[3 * i + 1]) + new String(p.texts()[i], StandardCharsets.ISO_8859_1)
          + s.substring(p.at()[3 * i + 2]));
    }
    for (int i = p.addCount() - 1; i >= 0; i--) {
      List<String> add = new ArrayList<>();
      for (byte[] b : p.adds()[i]) add.add(new String(b, StandardCharsets.ISO_8859_1));
      out.addAll(p.addAt()[i] + 1, add);
    }
    return out;
  }

  /** The node ids the GES lines of {@code lines} select, as IdScanner reads them. */
  private static Set<Integer> selected(List<String> lines) {
    Set<Integer> ids = new TreeSet<>();
    new IdScanner(CardLayouts.bundled()).scan(Lines.ofLatin1(lines.toArray(new String[0])), 0, lines.size(), 2011, true,
        1 << IdKinds.NODE, (line, from, to, kind, lo, hi, def) -> {
          if (def || kind != IdKinds.NODE) return;
          for (int i = lo; i <= hi; i++) ids.add(i);
        });
    return ids;
  }

  @Test
  void aSplitRangeSelectsTheSameIdsWithTheNewOneInPlaceOfTheOld() {
    Random r = new Random(32);
    for (int c = 0; c < 20_000; c++) {
      int lo = 1 + r.nextInt(1000);
      int hi = lo + (r.nextInt(4) == 0 ? 1 : r.nextInt(50));
      int old = lo + r.nextInt(hi - lo + 1);
      int neu = r.nextInt(3) == 0 ? lo + r.nextInt(hi - lo + 1) : 1 + r.nextInt(100_000);
      if (neu == old) continue;
      Set<Integer> want = new TreeSet<>();
      for (int i = lo; i <= hi; i++) want.add(i);
      want.remove(old);
      want.add(neu);
      Set<Integer> got = new TreeSet<>();
      for (String s : RenamePlan.split(lo, hi, old, neu)) {
        String[] ab = s.split(":");
        int a = Integer.parseInt(ab[0]);
        int b = ab.length > 1 ? Integer.parseInt(ab[1]) : a;
        assertTrue(a < b || ab.length == 1, s);
        for (int i = a; i <= b; i++) got.add(i);
      }
      assertEquals(want, got, lo + ":" + hi + " " + old + " -> " + neu);
    }
  }

  private static final String[] WORDS = {"NOD", "DELNOD", "PART", "ELE", "GRP"};

  /**
   * Random GES blocks (ids, ranges, other kinds' items, words) with one node renamed: afterwards
   * the nodes selected are those before with the new id in place of the old, every line ends by
   * column 80 and is a selection line, and the other kinds' items are as they were, in order.
   */
  @Test
  void everyGesBlockSelectsTheSameNodesAfterARename() {
    Random r = new Random(77);
    int refused = 0;
    int wrapped = 0;
    for (int c = 0; c < 3000; c++) {
      int old = 1 + r.nextInt(60);
      int neu = r.nextInt(2) == 0 ? 1 + r.nextInt(60) : 1 + r.nextInt(10_000_000);
      if (neu == old) continue;
      List<String> lines = new ArrayList<>();
      lines.add("GROUP /        1 g");
      int n = 1 + r.nextInt(3);
      for (int l = 0; l < n; l++) {
        StringBuilder sb = new StringBuilder("        " + WORDS[r.nextInt(2)]);
        while (true) {
          String item;
          int k = r.nextInt(10);
          if (k == 0) item = WORDS[r.nextInt(WORDS.length)];
          else if (k == 1) item = "'g" + r.nextInt(9) + "'";
          else if (k < 5) {
            int lo = 1 + r.nextInt(60);
            item = lo + ":" + (lo + r.nextInt(30));
          } else item = Integer.toString(1 + r.nextInt(60));
          String gap = r.nextInt(5) == 0 ? "  " : " ";
          if (sb.length() + gap.length() + item.length() > 80) break;
          sb.append(gap).append(item);
        }
        String row = sb.toString().replaceAll("( +[A-Z]+)+$", ""); // a word ends no line: it selects the items after it
        lines.add(row.length() > 8 ? row : "        NOD 5");
      }
      lines.add("        END");
      String[] in = lines.toArray(new String[0]);
      RenamePlan p = node(old, neu, in);
      if (p.refusal() != null) {
        refused++;
        continue;
      }
      List<String> after = apply(p, in);
      if (p.addCount() > 0) wrapped++;
      Set<Integer> want = selected(lines);
      if (want.remove(old)) want.add(neu);
      assertEquals(want, selected(after), lines + " -> " + after);
      for (int i = 1; i < after.size() - 1; i++) {
        String l = after.get(i);
        assertTrue(l.length() <= 80 && LineBytes.isGesSelection(l.getBytes(StandardCharsets.ISO_8859_1), 0, l.length()), l);
      }
      assertEquals(others(lines), others(after), lines + " -> " + after);
    }
    assertEquals(0, refused);
    assertTrue(wrapped > 300, wrapped + " blocks continued on new lines");
  }

  /** The items of the lines that are no nodes (words left out): other kinds' ids and titles, in order. */
  private static List<String> others(List<String> lines) {
    List<String> out = new ArrayList<>();
    for (String l : lines.subList(1, lines.size() - 1)) {
      boolean nodes = false;
      for (String t : l.trim().split(" +")) {
        if (Character.isLetter(t.charAt(0))) nodes = t.endsWith("NOD");
        else if (!nodes) out.add(t);
      }
    }
    return out;
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
