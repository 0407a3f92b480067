package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntUnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.cli.Main;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.FieldType;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdScanner;
import org.nvimpam.lines.Lines;

/**
 * {@link Renumber} on a three-file include tree with GES ranges, and on one header line of every
 * card of the table: the result checks as clean as before, every definition and reference names
 * the same entity through the old-to-new map, every byte outside the changed values stays; and
 * each refusal writes nothing.
 */
class RenumberTest {
  @TempDir Path dir;

  private static final int NODE = IdKinds.NODE;
  private static final int ELEMENT = IdKinds.ELEMENT;
  private static final int PART = IdKinds.PART;

  /** A gen deck over three files, with a GROUP of GES ranges in an include file (one line in CRLF). */
  private Path tree() throws Exception {
    Path in = Files.createDirectories(dir.resolve("in"));
    Path main = in.resolve("main.pc");
    assertEquals(0, Main.run("gen", "--lines", "3000", "--includes", "2", "--out", main.toString()));
    Path inc = null;
    try (Stream<Path> s = Files.list(in)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (p.toString().endsWith(".inc") && (inc == null || p.compareTo(inc) > 0)) inc = p;
      }
    }
    String ranges = "GROUP / ranged\r\n"
        + "        NOD 3:9 12 20:25\n"
        + "$ a comment between\n"
        + "        ELE 1:4   PART 1:2\n"
        + "        END\n";
    Files.writeString(inc, Files.readString(inc, StandardCharsets.ISO_8859_1) + ranges, StandardCharsets.ISO_8859_1);
    return main;
  }

  private static Renumber.Result run(Path deck, Path out, boolean inPlace, Renumber.Change... changes) throws Exception {
    return new Renumber(new Renumber.Options(List.of(changes), out, inPlace, 2), null).run(deck);
  }

  /** Each file's ids: per line, [kind, def, ids...] of each id or item, ranges expanded to the ids the tree defines. */
  private static Map<String, List<List<Integer>>> ids(Path root, List<Path> files, Map<Integer, TreeSet<Integer>> defined) throws Exception {
    Map<String, List<List<Integer>>> out = new LinkedHashMap<>();
    IdScanner sc = new IdScanner(CardLayouts.bundled());
    for (Path f : files) {
      Lines l = Lines.ofLatin1(Files.readString(f, StandardCharsets.ISO_8859_1).split("\n", -1));
      List<List<Integer>> items = new ArrayList<>();
      sc.scan(l, 0, l.lineCount(), 2011, true, (line, a, b, kind, lo, hi, def) -> {
        if (IdKinds.named(kind)) return;
        List<Integer> x = new ArrayList<>(List.of(kind, def ? 1 : 0));
        if (lo == hi) x.add(lo);
        else x.addAll(defined.getOrDefault(kind, new TreeSet<>()).subSet(lo, true, hi, true));
        items.add(x);
      });
      out.put(root.getParent().relativize(f).toString(), items);
    }
    return out;
  }

  private static Map<Integer, TreeSet<Integer>> defined(List<Path> files) throws Exception {
    Map<Integer, TreeSet<Integer>> d = new HashMap<>();
    IdScanner sc = new IdScanner(CardLayouts.bundled());
    for (Path f : files) {
      Lines l = Lines.ofLatin1(Files.readString(f, StandardCharsets.ISO_8859_1).split("\n", -1));
      sc.scan(l, 0, l.lineCount(), 2011, false, (line, a, b, kind, lo, hi, def) -> d.computeIfAbsent(kind, k -> new TreeSet<>()).add(lo));
    }
    return d;
  }

  /** The ids of each line, items of a range split over new lines merged, through {@code map} per kind. */
  private static List<String> flat(List<List<Integer>> items, Map<Integer, IntUnaryOperator> map) {
    List<String> out = new ArrayList<>();
    for (List<Integer> x : items) {
      IntUnaryOperator m = map.getOrDefault(x.get(0), IntUnaryOperator.identity());
      for (int i = 2; i < x.size(); i++) out.add(IdKinds.name(x.get(0)) + (x.get(1) == 1 ? " def " : " ref ") + m.applyAsInt(x.get(i)));
    }
    out.sort(null); // a range split over new lines: its ids in another order
    return out;
  }

  private static String checked(Path deck) throws Exception {
    TreeCheck.Result r = new TreeCheck(new TreeCheck.Options(-1, false, Integer.MAX_VALUE, 1), null).check(deck);
    StringBuilder s = new StringBuilder(r.errors() + " errors, " + r.warnings() + " warnings, " + r.infos() + " infos;");
    for (TreeCheck.Problem p : r.problems()) s.append(' ').append(p.code().code());
    return s.toString();
  }

  private void sameEntities(Path main, Renumber.Result r, Map<Integer, IntUnaryOperator> map) throws Exception {
    Map<Integer, TreeSet<Integer>> before = defined(r.files());
    Map<Integer, TreeSet<Integer>> after = defined(r.written());
    Map<String, List<List<Integer>>> old = ids(main, r.files(), before);
    Map<String, List<List<Integer>>> neu = ids(r.written().get(0), r.written(), after);
    assertEquals(old.keySet(), neu.keySet());
    for (String f : old.keySet()) {
      List<String> want = flat(old.get(f), map);
      List<String> got = flat(neu.get(f), Map.of());
      assertEquals(want, got, f);
    }
  }

  @Test
  void anOffsetMovesEveryIdOfItsKindsAndNothingElse() throws Exception {
    Path main = tree();
    String before = checked(main);
    Path out = dir.resolve("out");
    Renumber.Result r = run(main, out, false, Renumber.change("node", 1_000_000, false), Renumber.change("part", 500, false));
    assertEquals(List.of(), r.refusals());
    assertEquals(3, r.written().size());
    assertEquals(before, checked(out.resolve("main.pc")));
    sameEntities(main, r, Map.of(NODE, id -> id + 1_000_000, PART, id -> id + 500));
    // the range line: moved as ranges; the CRLF line and the comment kept
    String inc = Files.readString(r.written().get(2), StandardCharsets.ISO_8859_1);
    assertTrue(inc.endsWith("GROUP / ranged\r\n        NOD 1000003:1000009 1000012 1000020:1000025\n$ a comment between\n"
        + "        ELE 1:4   PART 501:502\n        END\n"), inc.substring(Math.max(0, inc.length() - 200)));
    bytesOutsideValues(r);
  }

  /** The files of {@code r} with the hunks of {@link Renumber#plan} on their bytes put in. */
  private static List<byte[]> planned(Renumber.Result r, Renumber.Change change, Renumber.Scope scope) throws Exception {
    List<Renumber.Source> sources = new ArrayList<>();
    for (Path f : r.files()) sources.add(new Renumber.Source(f, Lines.split(Files.readAllBytes(f)), 2011));
    Renumber.Plan plan = new Renumber(new Renumber.Options(List.of(change), null, false, 2), null).plan(sources, scope);
    assertEquals(List.of(), plan.refusals());
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < sources.size(); i++) {
      Lines l = (Lines) sources.get(i).lines();
      List<byte[]> lines = new ArrayList<>();
      for (int k = 0; k < l.lineCount(); k++) lines.add(l.line(k));
      List<Renumber.Hunk> hs = plan.hunks().get(i);
      for (int h = hs.size() - 1; h >= 0; h--) {
        Renumber.Hunk x = hs.get(h);
        lines.subList(x.first(), x.last()).clear();
        for (int k = x.count() - 1; k >= 0; k--) lines.add(x.first(), x.lines().line(k));
      }
      java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
      for (byte[] x : lines) {
        b.write(x);
        b.write('\n');
      }
      out.add(b.toByteArray());
    }
    return out;
  }

  @Test
  void aStreamedOffsetOfFilesOfManyPiecesWritesTheBytesThePlanGives() throws Exception {
    Path in = Files.createDirectories(dir.resolve("big"));
    Path main = in.resolve("main.pc");
    assertEquals(0, Main.run("gen", "--lines", "240000", "--includes", "1", "--out", main.toString()));
    assertTrue(Files.size(main) > (1 << 22), "pieces of more than one chunk: " + Files.size(main));
    Path out = dir.resolve("out");
    Renumber.Change c = Renumber.change("node", 3_000_000, false);
    Renumber.Result r = run(main, out, false, c);
    assertEquals(List.of(), r.refusals());
    List<byte[]> want = planned(r, c, Renumber.Scope.ALL);
    for (int i = 0; i < r.files().size(); i++) {
      assertTrue(java.util.Arrays.equals(want.get(i), Files.readAllBytes(r.written().get(i))), r.written().get(i).toString());
    }
    sameEntities(main, r, Map.of(NODE, id -> id + 3_000_000));
  }

  @Test
  void aDenseRenumberNumbersInDeckOrderAndSplitsRanges() throws Exception {
    Path main = tree();
    Path moved = dir.resolve("moved");
    // first scatter the nodes, so that a dense renumber has something to do
    assertEquals(List.of(), run(main, moved, false, Renumber.change("node", 70, false)).refusals());
    String before = checked(moved.resolve("main.pc"));
    Path out = dir.resolve("out");
    Renumber.Result r = run(moved.resolve("main.pc"), out, false, Renumber.change("node", 1, true), Renumber.change("element", 5, true));
    assertEquals(List.of(), r.refusals());
    assertEquals(before, checked(out.resolve("main.pc")));
    // the map the test expects: definitions in the order the tree holds them
    Map<Integer, Map<Integer, Integer>> order = new HashMap<>();
    IdScanner sc = new IdScanner(CardLayouts.bundled());
    for (Path f : r.files()) {
      Lines l = Lines.ofLatin1(Files.readString(f, StandardCharsets.ISO_8859_1).split("\n", -1));
      sc.scan(l, 0, l.lineCount(), 2011, false, (line, a, b, kind, lo, hi, def) -> {
        if (kind != NODE && kind != ELEMENT) return;
        Map<Integer, Integer> m = order.computeIfAbsent(kind, k -> new HashMap<>());
        m.putIfAbsent(lo, (kind == NODE ? 1 : 5) + m.size());
      });
    }
    sameEntities(moved.resolve("main.pc"), r, Map.of(NODE, id -> order.get(NODE).get(id), ELEMENT, id -> order.get(ELEMENT).get(id)));
    bytesOutsideValues(r);
  }

  @Test
  void aRangeWhoseNewIdsAreNoLongerOneRunIsSplitAndContinuedOnANewLine() throws Exception {
    Path in = Files.createDirectories(dir.resolve("in"));
    StringBuilder s = new StringBuilder("INPUTVERSION 2011\n");
    int[] order = {5, 1, 4, 2, 3, 9, 7, 8, 6, 10};
    for (int id : order) s.append(String.format("NODE  / %8d              0.              0.              0.%n", id));
    s.append("GROUP / g\n        NOD 1:10     NOD 1:10     NOD 1:10     NOD 1:10\n        END\n");
    Path deck = in.resolve("d.pc");
    Files.writeString(deck, s.toString());
    Renumber.Result r = run(deck, dir.resolve("out"), false, Renumber.change("node", 1, true));
    assertEquals(List.of(), r.refusals());
    List<String> lines = Files.readAllLines(dir.resolve("out/d.pc"));
    // 5 1 4 2 3 9 7 8 6 10 become 1..10: the range 1:10 still selects all of them
    assertEquals("        NOD 1:10     NOD 1:10     NOD 1:10     NOD 1:10", lines.get(12));
    Files.writeString(deck, s.toString().replace("NOD 1:10     NOD 1:10     NOD 1:10     NOD 1:10", "NOD 1:3      NOD 1:3      NOD 4:6      NOD 7:9"));
    r = run(deck, dir.resolve("out2"), false, Renumber.change("node", 1, true));
    assertEquals(List.of(), r.refusals());
    lines = Files.readAllLines(dir.resolve("out2/d.pc"));
    // 1:3 is nodes 1 2 3, now 2 4 5; 4:6 is 4 5 6, now 3 1 9; 7:9 is 7 8 9, now 7 8 6
    assertEquals(List.of("        NOD 2 4:5      NOD 2 4:5      NOD 1 3 9      NOD 6:8", "        END"),
        lines.subList(12, lines.size()));
    String wide = "NOD 1 3 5 7 9 NOD 1 3 5 7 9 NOD 1 3 5 7 9 NOD 1 3 5 7 9 NOD 2 4 6 8";
    Files.writeString(deck, s.toString().replace("NOD 1:10     NOD 1:10     NOD 1:10     NOD 1:10", wide));
    r = run(deck, dir.resolve("out3"), false, Renumber.change("node", 100, false));
    assertEquals(List.of(), r.refusals());
    lines = Files.readAllLines(dir.resolve("out3/d.pc"));
    for (String l : lines.subList(12, lines.size() - 1)) assertTrue(l.length() <= 80 && l.startsWith("        NOD "), l);
    assertTrue(lines.size() > 14, "continued on a new selection line: " + lines);
  }

  /**
   * Line by line: outside the columns of the changed id fields, the bytes are the old ones; a GES
   * line holding ids keeps its words, in order, over the lines it was continued on.
   */
  private static void bytesOutsideValues(Renumber.Result r) throws Exception {
    IdScanner sc = new IdScanner(CardLayouts.bundled());
    for (int k = 0; k < r.files().size(); k++) {
      String[] la = Files.readString(r.files().get(k), StandardCharsets.ISO_8859_1).split("\n", -1);
      String[] lb = Files.readString(r.written().get(k), StandardCharsets.ISO_8859_1).split("\n", -1);
      Lines l = Lines.ofLatin1(la);
      boolean[][] changed = new boolean[la.length][];
      sc.scan(l, 0, l.lineCount(), 2011, true, (line, from, to, kind, lo, hi, def) -> {
        if (sc.field() < 0) return;
        FieldLayout f = sc.table().entry(sc.entry()).rows().get(sc.row()).fields().get(sc.field());
        if (changed[line] == null) changed[line] = new boolean[200];
        for (int c = f.from() - 1; c < f.to(); c++) changed[line][c] = true;
      });
      int j = 0;
      for (int i = 0; i < la.length; i++, j++) {
        String where = r.files().get(k) + " line " + (i + 1);
        if (sel(la[i])) { // a run of selection lines: its words stay, in order, over the lines it now takes
          StringBuilder wa = new StringBuilder();
          StringBuilder wb = new StringBuilder();
          for (; i < la.length && sel(la[i]); i++) wa.append(' ').append(la[i]);
          for (; j < lb.length && sel(lb[j]); j++) wb.append(' ').append(lb[j]);
          assertEquals(dedup(words(wa)), dedup(words(wb)), where);
          i--;
          j--;
          continue;
        }
        if (changed[i] == null) {
          assertEquals(la[i], lb[j], where);
          continue;
        }
        int n = Math.max(la[i].length(), lb[j].length());
        for (int c = 0; c < n; c++) {
          if (c < changed[i].length && changed[i][c]) continue;
          char x = c < la[i].length() ? la[i].charAt(c) : ' ';
          char y = c < lb[j].length() ? lb[j].charAt(c) : ' ';
          assertEquals(x, y, where + " column " + (c + 1));
        }
      }
      assertEquals(lb.length, j, r.written().get(k) + ": no line more");
    }
  }

  private static boolean sel(String l) {
    byte[] b = l.getBytes(StandardCharsets.ISO_8859_1);
    return org.nvimpam.deck.LineBytes.isGesSelection(b, 0, b.length);
  }

  private static String words(CharSequence s) {
    return s.toString().replaceAll("[^A-Za-z>' ]", " ").trim().replaceAll(" +", " ");
  }

  /** The words, a word repeated right after itself once (a continued line starts with its item's word). */
  private static List<String> dedup(String words) {
    List<String> out = new ArrayList<>();
    for (String w : words.split(" ")) {
      if (out.isEmpty() || !out.get(out.size() - 1).equals(w)) out.add(w);
    }
    return out;
  }

  // --- refusals: the full list, nothing written

  private static void nothingWritten(Path out) {
    assertFalse(Files.exists(out), out + " was written");
  }

  @Test
  void idsThatNoLongerFitTheirFieldsAreRefusedAllOfThem() throws Exception {
    Path main = tree();
    Path out = dir.resolve("out");
    Renumber.Result r = run(main, out, false, Renumber.change("node", 99_999_000, false));
    assertTrue(r.refused());
    long nodes = defined(r.files()).get(NODE).stream().filter(id -> id + 99_999_000 > 99_999_999).count();
    long fit = r.refusals().stream().filter(x -> x.message().contains("does not fit the 8 columns of NODE / IDNOD")).count();
    assertEquals(nodes, fit, "one refusal per node definition that no longer fits");
    nothingWritten(out);
  }

  @Test
  void aLineTheTableDoesNotDescribeThatHoldsAChangedIdIsRefusedAndNamed() throws Exception {
    Path in = Files.createDirectories(dir.resolve("in"));
    Path deck = in.resolve("d.pc");
    Files.writeString(deck, "INPUTVERSION 2011\n"
        + "NODE  /        1              0.              0.              0.\n"
        + "NODE  /        2              0.              0.              0.\n"
        + "WHATEV/        7\n"
        + "         1.5     2\n"
        + "NODE  /        3              0.              0.              0.\n"
        + "  stray 3\n");
    Path out = dir.resolve("out");
    Renumber.Result r = run(deck, out, false, Renumber.change("node", 10, false));
    List<String> got = new ArrayList<>();
    for (Renumber.Refusal x : r.refusals()) got.add((x.line() + 1) + ": " + x.message());
    assertEquals(List.of(
        "5: line of a card the card-layout table does not know holds 2, which may be a node id: an id there would be missed "
            + "(describe the card's rows in the table, or edit the line yourself)",
        "7: line of NODE, a line its layout does not describe holds 3, which may be a node id: an id there would be missed "
            + "(describe the card's rows in the table, or edit the line yourself)"), got);
    nothingWritten(out);
    // no changed id there: nothing to refuse
    assertEquals(List.of(), run(deck, out, false, Renumber.change("part", 10, false)).refusals());
  }

  @Test
  void aDenseRenumberRefusesReferencesToIdsDefinedNowhere() throws Exception {
    Path in = Files.createDirectories(dir.resolve("in"));
    Path deck = in.resolve("d.pc");
    Files.writeString(deck, "INPUTVERSION 2011\n"
        + "NODE  /        5              0.              0.              0.\n"
        + "GROUP / g\n        NOD 5 6 40:50\n        END\n");
    Path out = dir.resolve("out");
    Renumber.Result r = run(deck, out, false, Renumber.change("node", 1, true));
    List<String> got = new ArrayList<>();
    for (Renumber.Refusal x : r.refusals()) got.add((x.line() + 1) + ":" + (x.col() + 1) + ": " + x.message());
    assertEquals(List.of("4:15: node 6 is referenced but defined nowhere in the tree: its new id cannot be told",
        "4:17: GES range 40:50 selects no node of the tree: its new ids cannot be told"), got);
    nothingWritten(out);
  }

  @Test
  void theDecksOwnFilesNeedInPlaceAndAMissingIncludeIsRefused() throws Exception {
    Path main = tree();
    Path in = main.getParent();
    byte[] before = Files.readAllBytes(main);
    Renumber.Result r = run(main, in, false, Renumber.change("node", 1, false));
    assertEquals(3, r.refusals().size(), r.refusals().toString());
    assertTrue(r.refusals().get(0).message().endsWith("is a file of the deck's tree: --in-place is needed to overwrite it"));
    assertEquals(new String(before, StandardCharsets.ISO_8859_1), Files.readString(main, StandardCharsets.ISO_8859_1));
    Renumber.Result ok = run(main, null, true, Renumber.change("node", 1, false));
    assertEquals(List.of(), ok.refusals());
    assertFalse(new String(before, StandardCharsets.ISO_8859_1).equals(Files.readString(main, StandardCharsets.ISO_8859_1)));
    try (Stream<Path> s = Files.list(in)) {
      assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(".")), "no temporary file left");
    }
    Files.writeString(main, Files.readString(main, StandardCharsets.ISO_8859_1) + "INCLU / gone.inc\n", StandardCharsets.ISO_8859_1);
    Path out = dir.resolve("out");
    r = run(main, out, false, Renumber.change("node", 1, false));
    assertEquals(1, r.refusals().size());
    assertTrue(r.refusals().get(0).message().startsWith("include file gone.inc not found"), r.refusals().get(0).message());
    nothingWritten(out);
  }

  @Test
  void aFileInTheWayOfTheOutputIsRefused() throws Exception {
    Path main = tree();
    Path out = dir.resolve("out");
    Files.createDirectories(out.resolve("main.pc")); // a folder where a file goes
    Renumber.Result r = run(main, out, false, Renumber.change("node", 1, false));
    assertEquals(1, r.refusals().size());
    assertTrue(r.refusals().get(0).message().endsWith("cannot be written: it is a folder"));
    try (Stream<Path> s = Files.list(out)) {
      assertEquals(1, s.count());
    }
  }

  @Test
  void groupsAndUnknownKindsAreNoKindToRenumber() {
    IllegalArgumentException g = assertThrows(IllegalArgumentException.class, () -> Renumber.change("group", 1, false));
    assertEquals("groups are named by their titles, not numbered: there is nothing to renumber", g.getMessage());
    IllegalArgumentException u = assertThrows(IllegalArgumentException.class, () -> Renumber.change("nodes", 1, false));
    assertTrue(u.getMessage().startsWith("no id kind \"nodes\" (the kinds: node, element, part"));
  }

  // --- every header row of the table with an id field

  /**
   * Per version, a deck holding the header line of every entry the version picks, with random id
   * values (right-aligned, left-aligned or inside their fields) and random non-digits in the other
   * columns; every kind found is offset at once. The new values sit in their fields, aligned as
   * the old ones were, and nothing else moves; an offset whose values do not fit is refused.
   */
  @Test
  void digitsCountsTheDecimalDigitsOfEveryMagnitude() {
    Random rnd = new Random(35);
    for (long p = 1; p > 0 && p <= Long.MAX_VALUE / 10; p *= 10) {
      for (long v : new long[] {p - 1, p, p + 1, 2 * p - 1, 5 * p, 10 * p - 1}) {
        if (v >= 1) assertEquals(Long.toString(v).length(), RenumberPiece.digits(v), Long.toString(v));
      }
    }
    for (int i = 0; i < 100_000; i++) {
      long v = rnd.nextLong() >>> rnd.nextInt(64);
      if (v >= 1) assertEquals(Long.toString(v).length(), RenumberPiece.digits(v), Long.toString(v));
    }
    assertEquals(19, RenumberPiece.digits(Long.MAX_VALUE));
  }

  @Test
  void everyHeaderRowWithAnIdFieldIsRenumberedInItsOwnColumns() throws Exception {
    CardLayouts table = CardLayouts.bundled();
    TreeSet<Integer> versions = new TreeSet<>();
    for (CardLayout c : table.entries()) versions.add(c.version());
    Random rnd = new Random(35);
    int rows = 0;
    for (int v : versions) {
      int[] picked = table.picks(v);
      StringBuilder deck = new StringBuilder("INPUTVERSION " + v + "\n");
      Map<Integer, Integer> offset = new TreeMap<>();
      for (int g = 0; g < picked.length; g++) {
        if (picked[g] < 0) continue;
        CardLayout c = table.entry(picked[g]);
        if (c.version() != v) continue;
        String line = header(c, rnd, offset);
        if (line == null) continue;
        deck.append(line).append('\n');
        rows++;
      }
      Path in = Files.createDirectories(dir.resolve("v" + v));
      Path file = in.resolve("d.pc");
      Files.writeString(file, deck.toString(), StandardCharsets.ISO_8859_1);
      List<Renumber.Change> changes = new ArrayList<>();
      for (Map.Entry<Integer, Integer> e : offset.entrySet()) changes.add(new Renumber.Change(e.getKey(), false, e.getValue()));
      Path out = dir.resolve("out" + v);
      Renumber.Result r = new Renumber(new Renumber.Options(changes, out, false, 1), null).run(file);
      assertEquals(List.of(), r.refusals(), "version " + v);
      String[] a = deck.toString().split("\n");
      String[] b = Files.readString(out.resolve("d.pc"), StandardCharsets.ISO_8859_1).split("\n");
      assertEquals(a.length, b.length);
      for (int i = 1; i < a.length; i++) sameButIds(table, v, a[i], b[i], offset);
      // one more than the widest field holds: every such value refused, nothing written
      List<Renumber.Change> huge = new ArrayList<>();
      for (int k : offset.keySet()) huge.add(new Renumber.Change(k, false, 999_999_999));
      Path out2 = dir.resolve("huge" + v);
      Renumber.Result h = new Renumber(new Renumber.Options(huge, out2, false, 1), null).run(file);
      assertTrue(h.refused() || offset.isEmpty(), "version " + v);
      assertFalse(Files.exists(out2));
    }
    assertTrue(rows > 100, rows + " header rows");
  }

  /** A header line of {@code c}: its word (and variant), id fields with random values, non-digits elsewhere. */
  private static String header(CardLayout c, Random rnd, Map<Integer, Integer> offset) {
    char[] l = new char[80];
    for (int i = 0; i < 80; i++) l[i] = rnd.nextInt(3) == 0 ? (char) ('a' + rnd.nextInt(26)) : ' ';
    boolean ids = false;
    for (FieldLayout f : c.rows().get(0).fields()) {
      int w = f.to() - f.from() + 1;
      int kind = IdKinds.code(f.defines() != null ? f.defines() : f.references());
      boolean number = f.type() == FieldType.INT || f.type() == FieldType.INT_OR_BLANK;
      if (kind != 0 && !IdKinds.named(kind) && number && w >= 3) {
        String d = Integer.toString(1 + rnd.nextInt(99));
        int at = switch (rnd.nextInt(3)) {
          case 0 -> w - d.length();
          case 1 -> 0;
          default -> rnd.nextInt(w - d.length() + 1);
        };
        for (int i = 0; i < w; i++) l[f.from() - 1 + i] = ' ';
        for (int i = 0; i < d.length(); i++) l[f.from() - 1 + at + i] = d.charAt(i);
        int most = (int) Math.pow(10, Math.min(w, 9)) - 100; // 99 + most still fits
        offset.merge(kind, most, Math::min);
        ids = true;
      } else {
        for (int i = f.from() - 1; i < Math.min(80, f.to()); i++) l[i] = ' ';
      }
    }
    if (!ids) return null;
    String kw = (c.word() + "      ").substring(0, 6) + "/ ";
    for (int i = 0; i < 8; i++) l[i] = kw.charAt(i);
    String key = c.key();
    if (key.contains(":")) {
      CardLayout base = null;
      for (CardLayout b : CardLayouts.bundled().entries()) {
        if (b.key().equals(c.word()) && b.selectFrom() > 0) base = b;
      }
      String variant = key.substring(key.indexOf(':') + 1);
      for (int i = base.selectFrom() - 1; i < base.selectTo(); i++) l[i] = ' ';
      for (int i = 0; i < variant.length(); i++) l[base.selectFrom() - 1 + i] = variant.charAt(i);
    }
    return new String(l).replaceAll("\\s+$", "");
  }

  /** {@code b} is {@code a} with each id field's value moved by its kind's offset, aligned as it was. */
  private static void sameButIds(CardLayouts table, int v, String a, String b, Map<Integer, Integer> offset) {
    Lines l = Lines.ofLatin1(new String[] {a});
    IdScanner sc = new IdScanner(table);
    boolean[] in = new boolean[200];
    List<String> problems = new ArrayList<>();
    sc.scan(l, 0, 1, v, true, (line, from, to, kind, lo, hi, def) -> {
      FieldLayout f = sc.table().entry(sc.entry()).rows().get(sc.row()).fields().get(sc.field());
      int fs = f.from() - 1;
      int fe = f.to();
      for (int c = fs; c < fe; c++) in[c] = true;
      String want = Integer.toString(lo + offset.get(kind));
      String field = (b + " ".repeat(100)).substring(fs, fe);
      if (!field.trim().equals(want)) problems.add(f.name() + ": " + field + " is not " + want);
      boolean left = from == fs && to < fe;
      if (left && !field.startsWith(want)) problems.add(f.name() + " no longer left-aligned: " + field);
      if (!left && !field.endsWith(want)) problems.add(f.name() + " no longer right-aligned: " + field);
    });
    for (int c = 0; c < Math.max(a.length(), b.length()); c++) {
      if (in[c]) continue;
      char x = c < a.length() ? a.charAt(c) : ' ';
      char y = c < b.length() ? b.charAt(c) : ' ';
      if (x != y) problems.add("column " + (c + 1) + ": " + x + " became " + y);
    }
    assertEquals(List.of(), problems, a + "\n" + b);
  }
}
