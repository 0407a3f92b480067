package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.cli.Main;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdScanner;
import org.nvimpam.lines.Lines;

/**
 * {@link Merge} of three-file include trees with GES ranges: the merged model checks as clean as
 * its decks, every definition and reference of each deck names the same entity through its offsets
 * and renames, every byte outside the changed values stays; group titles that collide, control
 * sections left out, include files outside a deck's folder; and each refusal, with nothing written.
 */
class MergeTest {
  @TempDir Path dir;

  /** A gen deck over three files, with a GROUP of GES ranges in an include file (one line in CRLF). */
  private Path tree(String name, int lines) throws Exception {
    Path in = Files.createDirectories(dir.resolve(name));
    Path main = in.resolve(name + ".pc");
    assertEquals(0, Main.run("gen", "--lines", Integer.toString(lines), "--includes", "2", "--out", main.toString()));
    Path inc = in.resolve(name + "_2.inc");
    String ranges = "GROUP / ranged\r\n"
        + "        NOD 3:9 12 20:25\n"
        + "$ a comment between\n"
        + "        ELE 1:4   PART 1:2\n"
        + "        END\n"
        + "GROUP / refers\n"
        + "        GRP 'ranged'   NOD 1\n"
        + "        END\n";
    Files.writeString(inc, Files.readString(inc, StandardCharsets.ISO_8859_1) + ranges, StandardCharsets.ISO_8859_1);
    return main;
  }

  private Merge.Result merge(Path out, Map<Integer, Long> steps, Path... decks) throws Exception {
    return new Merge(new Merge.Options(List.of(decks), out, steps, 2), null).run();
  }

  private static String checked(Path deck) throws Exception {
    TreeCheck.Result r = new TreeCheck(new TreeCheck.Options(-1, false, Integer.MAX_VALUE, 1), null).check(deck);
    StringBuilder s = new StringBuilder(r.errors() + " errors, " + r.warnings() + " warnings, " + r.infos() + " infos;");
    for (TreeCheck.Problem p : r.problems()) s.append(' ').append(p.code().code()).append(' ').append(p.message());
    return s.toString();
  }

  /** The files of a deck's tree, in include order, as check walks it. */
  private static List<Path> files(Path deck) throws Exception {
    return new TreeCheck(new TreeCheck.Options(-1, false, 0, 1), null).check(deck).files();
  }

  /** Per kind the ids defined in {@code files}, each as often as it is defined. */
  private static Map<Integer, List<Integer>> definitions(List<Path> files) throws Exception {
    Map<Integer, List<Integer>> d = new HashMap<>();
    IdScanner sc = new IdScanner(CardLayouts.bundled());
    for (Path f : files) {
      Lines l = lines(f);
      sc.scan(l, 0, l.lineCount(), 2011, false, (line, a, b, kind, lo, hi, def) -> {
        if (!IdKinds.named(kind)) d.computeIfAbsent(kind, k -> new ArrayList<>()).add(lo);
      });
    }
    return d;
  }

  private static Lines lines(Path f) throws Exception {
    return Lines.split(Files.readAllBytes(f));
  }

  @Test
  void aDeckMergedWithItselfChecksCleanWithTwiceTheElementsAndNoDuplicate() throws Exception {
    Path main = tree("car", 3000);
    String before = checked(main);
    assertTrue(before.startsWith("0 errors, 0 warnings"), before);
    Path out = dir.resolve("out");
    Merge.Result r = merge(out, Map.of(), main, main);
    assertEquals(List.of(), r.refusals());
    assertEquals(before, checked(out.resolve(Merge.MASTER)), "no duplicate, no undefined id");
    Map<Integer, List<Integer>> one = definitions(files(main));
    Map<Integer, List<Integer>> two = definitions(files(out.resolve(Merge.MASTER)));
    assertEquals(2 * one.get(IdKinds.ELEMENT).size(), two.get(IdKinds.ELEMENT).size(), "twice the elements");
    for (Map.Entry<Integer, List<Integer>> e : two.entrySet()) {
      assertEquals(2 * one.get(e.getKey()).size(), e.getValue().size(), IdKinds.name(e.getKey()));
      assertEquals(e.getValue().size(), new TreeSet<>(e.getValue()).size(), IdKinds.name(e.getKey()) + " defined twice");
    }
    // the second deck's group titles, all of which collide, renamed with every reference
    List<String> renamed = new ArrayList<>();
    for (Merge.Renamed x : r.renamed()) renamed.add(x.from() + " -> " + x.to());
    assertTrue(renamed.contains("ranged -> ranged_2"), renamed.toString());
    String inc = Files.readString(out.resolve("car_2/car_2.inc"), StandardCharsets.ISO_8859_1);
    assertTrue(inc.contains("GROUP / ranged_2\r\n") && inc.contains("        GRP 'ranged_2'   NOD "), inc);
  }

  @Test
  void everyReferenceNamesTheSameEntityAndEveryOtherByteStays() throws Exception {
    Path car = tree("car", 3000);
    Path seat = tree("seat", 2000);
    Path out = dir.resolve("out");
    Merge.Result r = merge(out, Map.of(), car, seat);
    assertEquals(List.of(), r.refusals());
    assertEquals(checked(car), checked(out.resolve(Merge.MASTER)));
    long[] none = new long[IdKinds.NAMES.size()];
    assertEquals(none.length, r.members().get(0).offsets().length);
    assertTrue(java.util.Arrays.equals(none, r.members().get(0).offsets()), "the first deck keeps its ids");
    long[] off = r.members().get(1).offsets();
    List<Integer> carNodes = definitions(files(car)).get(IdKinds.NODE);
    long most = new TreeSet<>(carNodes).last();
    assertEquals(Merge.roundAbove(most), off[IdKinds.NODE], "the next round number above the car's nodes");
    assertTrue(off[IdKinds.NODE] > most && off[IdKinds.NODE] % 1000 == 0, off[IdKinds.NODE] + " above " + most);
    Map<String, String> titles = new HashMap<>();
    for (Merge.Renamed x : r.renamed()) titles.put(x.from(), x.to());
    for (int d = 0; d < 2; d++) {
      Path deck = d == 0 ? car : seat;
      long[] o = d == 0 ? none : off;
      List<Path> before = files(deck);
      Path folder = r.members().get(d).folder();
      for (Path f : before) {
        Path g = folder.resolve(deck.getParent().relativize(f));
        assertEquals(ids(f, before, o, d == 0 ? Map.of() : titles), ids(g, files(out.resolve(Merge.MASTER)), new long[o.length], Map.of()), g.toString());
        sameOutsideValues(f, g, f.equals(deck));
      }
    }
    // the seat's control cards: listed, and gone from its file
    List<String> left = new ArrayList<>();
    for (Merge.LeftOut x : r.leftOut()) left.add(x.file().getFileName() + ":" + (x.line() + 1) + " " + x.text());
    assertEquals(List.of("seat.pc:1 INPUTVERSION 2011", "seat.pc:2 ANALYSIS EXPLICIT", "seat.pc:3 SOLVER    CRASH",
        "seat.pc:8 UNIT       MM       KG       MS   KELVIN", "seat.pc:9 SIGNAL      YES", "seat.pc:11 TITLE /  Synthetic vehicle model (nvimpam gen)",
        "seat.pc:12 RUNEND/", "seat.pc:16 OCTRL /"), left);
    String master = Files.readString(out.resolve(Merge.MASTER));
    String carTop = Files.readString(car);
    assertEquals(carTop.substring(0, carTop.indexOf("END_OCTRL\n") + 10) + "INCLU / car/car.pc\nINCLU / seat/seat.pc\n", master);
  }

  /**
   * Each line's ids, in order: {@code kind def|ref id} (ranges expanded to the ids the tree
   * defines, group titles by name), each id moved by its kind's offset and each title renamed.
   */
  private static List<String> ids(Path f, List<Path> tree, long[] offsets, Map<String, String> titles) throws Exception {
    Map<Integer, List<Integer>> defs = definitions(tree);
    Map<Integer, TreeSet<Integer>> defined = new HashMap<>();
    for (Map.Entry<Integer, List<Integer>> e : defs.entrySet()) defined.put(e.getKey(), new TreeSet<>(e.getValue()));
    List<String> out = new ArrayList<>();
    IdScanner sc = new IdScanner(CardLayouts.bundled());
    Lines l = lines(f);
    sc.scan(l, 0, l.lineCount(), 2011, true, (line, a, b, kind, lo, hi, def) -> {
      String what = IdKinds.name(kind) + (def ? " def " : " ref ");
      if (IdKinds.named(kind)) {
        String t = new String(l.bytes(line), l.start(line) + a, b - a, StandardCharsets.ISO_8859_1);
        out.add(what + titles.getOrDefault(t, t));
        return;
      }
      if (lo == hi) out.add(what + (lo + offsets[kind]));
      else for (int id : defined.getOrDefault(kind, new TreeSet<>()).subSet(lo, true, hi, true)) out.add(what + (id + offsets[kind]));
    });
    out.sort(null);
    return out;
  }

  /**
   * Line by line, outside the columns of id fields, GES lines and INCLU lines, the bytes of {@code
   * g} are those of {@code f}; a top file's control section (up to END_OCTRL) left out.
   */
  private static void sameOutsideValues(Path f, Path g, boolean top) throws Exception {
    String[] la = Files.readString(f, StandardCharsets.ISO_8859_1).split("\n", -1);
    String[] lb = Files.readString(g, StandardCharsets.ISO_8859_1).split("\n", -1);
    Lines l = Lines.ofLatin1(la);
    boolean[][] changed = new boolean[la.length][];
    IdScanner sc = new IdScanner(CardLayouts.bundled());
    sc.scan(l, 0, l.lineCount(), 2011, true, (line, from, to, kind, lo, hi, def) -> {
      if (sc.field() < 0) return;
      FieldLayout fl = sc.table().entry(sc.entry()).rows().get(sc.row()).fields().get(sc.field());
      if (changed[line] == null) changed[line] = new boolean[200];
      for (int c = fl.from() - 1; c < fl.to(); c++) changed[line][c] = true;
    });
    int i = 0;
    if (top) {
      while (!la[i].equals("END_OCTRL")) i++;
      i++;
    }
    assertEquals(la.length - i, lb.length, g + ": as many lines");
    for (int j = 0; i < la.length; i++, j++) {
      String where = g + " line " + (j + 1);
      byte[] b = la[i].getBytes(StandardCharsets.ISO_8859_1);
      if (LineBytes.isGesSelection(b, 0, b.length)) {
        assertEquals(la[i].replaceAll("[0-9:]+|'[^']*'", "#"), lb[j].replaceAll("[0-9:]+|'[^']*'", "#"), where);
        continue;
      }
      if (changed[i] == null) {
        assertEquals(la[i], lb[j], where);
        continue;
      }
      for (int c = 0; c < Math.max(la[i].length(), lb[j].length()); c++) {
        if (c < changed[i].length && changed[i][c]) continue;
        char x = c < la[i].length() ? la[i].charAt(c) : ' ';
        char y = c < lb[j].length() ? lb[j].charAt(c) : ' ';
        assertEquals(x, y, where + " column " + (c + 1));
      }
    }
  }

  // --- small decks

  private Path deck(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.ISO_8859_1);
    return p;
  }

  private static String node(int id) {
    return String.format("NODE  / %8d              0.              0.              0.%n", id);
  }

  @Test
  void collidingGroupTitlesGetTheFirstFreeSuffixWithEveryReference() throws Exception {
    Path a = deck("a/a.pc", "INPUTVERSION 2011\n" + node(1) + "GROUP / clamp\n        NOD 1\n        END\nGROUP / clamp_2\n        NOD 1\n        END\n");
    Path b = deck("b/b.pc", "INPUTVERSION 2011\n" + node(1) + "GROUP / clamp\n        NOD 1\n        END\n"
        + "GROUP / both\n        GRP 'clamp'     NOD 1\n        END\n");
    Path out = dir.resolve("out");
    Merge.Result r = merge(out, Map.of(), a, b);
    assertEquals(List.of(), r.refusals());
    assertEquals(List.of(new Merge.Renamed(b.toAbsolutePath(), "clamp", "clamp_3")), r.renamed());
    assertEquals(node(3) + "GROUP / clamp_3\n        NOD 3\n        END\n"
        + "GROUP / both\n        GRP 'clamp_3'     NOD 3\n        END\n", Files.readString(out.resolve("b/b.pc")));
    assertEquals(checked(a), checked(out.resolve(Merge.MASTER)));
  }

  @Test
  void aRenameThatPassesColumn80ContinuesTheSelectionOnANewLineAndTheNextRenamesFollow() throws Exception {
    String groups = "GROUP / clamp\n        NOD 1\n        END\nGROUP / bolt\n        NOD 1\n        END\n";
    Path a = deck("a/a.pc", "INPUTVERSION 2011\n" + node(1) + groups);
    String full = "        GRP 'clamp' 'bolt'    NOD" + " 1".repeat(23);
    assertEquals(79, full.length());
    // two lines that each rename continues on new lines, then a card whose lines come after them
    Path b = deck("b/b.pc", "INPUTVERSION 2011\n" + node(1) + groups + "GROUP / both\n" + full + "\n        END\n"
        + "GROUP / again\n" + full + "\n        END\n" + "GROUP / after\n        NOD 1\n        GRP 'bolt'\n        END\n");
    Path out = dir.resolve("out");
    Merge.Result r = merge(out, Map.of(), a, b);
    assertEquals(List.of(), r.refusals());
    List<String> got = Files.readAllLines(out.resolve("b/b.pc"));
    for (String title : List.of("both", "again")) {
      int at = got.indexOf("GROUP / " + title) + 1;
      assertTrue(got.get(at).startsWith("        GRP 'clamp_2' 'bolt_2'    NOD 3 3 "), got.get(at));
      int first = at;
      int nodes = 0;
      for (; !got.get(at).equals("        END"); at++) {
        assertTrue(got.get(at).length() <= 80, got.get(at));
        assertTrue(at == first || got.get(at).startsWith("        NOD 3"), got.get(at));
        nodes += got.get(at).replaceAll("[^3]", "").length();
      }
      assertEquals(23, nodes, title);
      assertTrue(at > first + 1, "continued on a new line");
    }
    assertEquals(List.of("GROUP / after", "        NOD 3", "        GRP 'bolt_2'", "        END"), got.subList(got.size() - 4, got.size()));
    assertEquals(checked(a), checked(out.resolve(Merge.MASTER)));
  }

  @Test
  void controlCardsOfTheOtherDecksAreLeftOutAndListedTheFirstDecksGoToTheMaster() throws Exception {
    String control = "INPUTVERSION 2011\nUNIT MM KG MS KELVIN\n$ settings\nTITLE /  %s\nRUNEND/\n TIME 1.\nEND_RUNEND\n$ the model\n";
    Path a = deck("a/a.pc", String.format(control, "first") + "INCLU / a.inc\n" + node(1));
    deck("a/a.inc", node(2));
    Path b = deck("b/b.pc", String.format(control, "second") + node(1));
    Path out = dir.resolve("out");
    Merge.Result r = merge(out, Map.of(), a, b);
    assertEquals(List.of(), r.refusals());
    List<String> left = new ArrayList<>();
    for (Merge.LeftOut x : r.leftOut()) left.add(x.file().getFileName() + ":" + (x.line() + 1) + " " + x.text());
    assertEquals(List.of("b.pc:1 INPUTVERSION 2011", "b.pc:2 UNIT MM KG MS KELVIN", "b.pc:4 TITLE /  second", "b.pc:5 RUNEND/"), left);
    assertEquals("INPUTVERSION 2011\nUNIT MM KG MS KELVIN\n$ settings\nTITLE /  first\nRUNEND/\n TIME 1.\nEND_RUNEND\n"
        + "INCLU / a/a.pc\nINCLU / b/b.pc\n", Files.readString(out.resolve(Merge.MASTER)));
    assertEquals("$ the model\nINCLU / a.inc\n" + node(1), Files.readString(out.resolve("a/a.pc")));
    assertEquals("$ the model\n" + node(4), Files.readString(out.resolve("b/b.pc"))); // 2 in a: above it, 3
    assertEquals(checked(a), checked(out.resolve(Merge.MASTER)));
  }

  @Test
  void includeFilesOutsideTheDecksFolderAreCopiedAndTheirNamesRewritten() throws Exception {
    Path lib = deck("lib/mat.inc", node(5));
    deck("shared/x.inc", node(6));
    deck("b/parts/y.inc", "INCLU / z.inc\n" + node(7)); // z.inc: in the top deck's folder, which the master's is no longer
    deck("b/z.inc", node(8));
    Path a = deck("a/a.pc", "INPUTVERSION 2011\n" + node(1) + node(5) + node(6) + node(7) + node(8) + node(9));
    Path b = deck("b/b.pc", "INPUTVERSION 2011\nINCLU / " + lib.toAbsolutePath() + "\nINCLU / '../shared/x.inc'\nINCLU / parts/y.inc\n" + node(1));
    Path out = dir.resolve("out");
    Merge.Result r = merge(out, Map.of(), a, b);
    assertEquals(List.of(), r.refusals());
    List<String> copied = new ArrayList<>();
    for (Merge.Copied x : r.copied()) copied.add(dir.relativize(x.from()) + " -> " + out.relativize(x.to()));
    assertEquals(List.of("lib/mat.inc -> b/outside/mat.inc", "shared/x.inc -> b/outside/x.inc"), copied);
    assertEquals("INCLU / outside/mat.inc\nINCLU / 'outside/x.inc'\nINCLU / parts/y.inc\n" + node(11), Files.readString(out.resolve("b/b.pc")));
    assertEquals("INCLU / ../z.inc\n" + node(17), Files.readString(out.resolve("b/parts/y.inc")));
    assertEquals(node(15), Files.readString(out.resolve("b/outside/mat.inc")));
    assertEquals(node(16), Files.readString(out.resolve("b/outside/x.inc")));
    assertEquals(node(18), Files.readString(out.resolve("b/z.inc")));
    assertEquals(checked(a), checked(out.resolve(Merge.MASTER)));
    assertEquals(7, files(out.resolve(Merge.MASTER)).size());
  }

  @Test
  void aLongIncludeNameIsContinuedPastColumn80() throws Exception {
    String deep = "d".repeat(60) + "/" + "e".repeat(30);
    String name = deep + "/m.inc";
    Path lib = deck("b/" + name, node(5));
    deck("b/sub/s.inc", "INCLU / " + name.substring(0, 72) + "&\n" + name.substring(72) + "\n" + node(6)); // found in b/, the top deck's folder
    Path a = deck("a/a.pc", "INPUTVERSION 2011\n" + node(1) + node(9));
    Path b = deck("b/b.pc", "INPUTVERSION 2011\nINCLU / sub/s.inc\n" + node(1));
    Path out = dir.resolve("out");
    Merge.Result r = merge(out, Map.of(), a, b);
    assertEquals(List.of(), r.refusals());
    String up = "../" + name;
    assertEquals("INCLU / " + up.substring(0, 72) + "&\n" + up.substring(72) + "\n" + node(16), Files.readString(out.resolve("b/sub/s.inc")));
    assertEquals(checked(a), checked(out.resolve(Merge.MASTER)));
    // an absolute name over two lines: the new one takes one
    String abs = lib.toAbsolutePath().toString();
    assertTrue(abs.length() > 72);
    Path c = deck("c/c.pc", "INPUTVERSION 2011\nINCLU / " + abs.substring(0, 72) + "&\n" + abs.substring(72) + "\n" + node(1));
    Merge.Result r2 = merge(dir.resolve("out2"), Map.of(), a, c);
    assertEquals(List.of(), r2.refusals());
    assertEquals(List.of(new Merge.Copied(lib.toAbsolutePath(), dir.resolve("out2").toAbsolutePath().resolve("c/outside/m.inc"))), r2.copied());
    assertEquals("INCLU / outside/m.inc\n" + node(11), Files.readString(dir.resolve("out2/c/c.pc")));
  }

  // --- refusals: the full list, nothing written

  private void nothingWritten(Path out) throws Exception {
    assertFalse(Files.exists(out), out + " was written");
    try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      List<Path> left = s.filter(p -> p.getFileName().toString().startsWith("nvimpam-merge")).toList();
      assertEquals(List.of(), left, "no staging folder left");
    }
  }

  @Test
  void decksOfDifferentVersionsOrUnitsAreRefusedBothNamed() throws Exception {
    Path a = deck("a/a.pc", "INPUTVERSION 2011\nUNIT MM KG MS KELVIN\n" + node(1));
    Path b = deck("b/b.pc", "INPUTVERSION 2017\nUNIT  M  KG  S  KELVIN\n" + node(1));
    Path out = dir.resolve("out");
    Merge.Result r = merge(out, Map.of(), a, b);
    List<String> got = new ArrayList<>();
    for (Renumber.Refusal x : r.refusals()) got.add(x.file().getFileName() + ":" + (x.line() + 1) + ": " + x.message());
    assertEquals(List.of("b.pc:1: b.pc declares INPUTVERSION 2017, a.pc INPUTVERSION 2011: decks of different versions are not merged",
        "b.pc:2: b.pc is in units M KG S KELVIN, a.pc in MM KG MS KELVIN: decks of different units are not merged"), got);
    nothingWritten(out);
    // a deck that declares neither is read as the others
    Path c = deck("c/c.pc", node(1));
    assertEquals(List.of(), merge(out, Map.of(), a, c).refusals());
  }

  @Test
  void explicitOffsetsThatClashAndValuesThatNoLongerFitAreRefusedAllOfThem() throws Exception {
    Path a = deck("a/a.pc", "INPUTVERSION 2011\n" + node(1) + node(2) + node(3) + node(99_999_990));
    String small = "INPUTVERSION 2011\n" + node(1) + node(2) + "GROUP / g\n        NOD 1:2\n        END\n";
    Path b = deck("b/b.pc", small + node(99_999_999));
    Path out = dir.resolve("out");
    Merge.Result r = merge(out, Map.of(IdKinds.NODE, 1L), a, b);
    List<String> got = new ArrayList<>();
    for (Renumber.Refusal x : r.refusals()) got.add((x.file() == null ? "" : x.file().getFileName() + ":" + (x.line() + 1) + ": ") + x.message());
    assertEquals(List.of("2 node ids of b.pc (offset 1) are defined by a.pc (offset 0) too: 2:3 (choose another --offset node=N, or auto)",
        "b.pc:7: node 99999999 would become 100000000, which does not fit the 8 columns of NODE / IDNOD"), got);
    nothingWritten(out);
    Path b2 = deck("b2/b.pc", small);
    assertEquals(List.of(), merge(out, Map.of(IdKinds.NODE, 100L), a, b2).refusals());
    assertTrue(Files.readString(out.resolve("b/b.pc")).contains("        NOD 101:102\n"));
  }

  @Test
  void anOutputFolderThatCannotBeWrittenOrHoldsTheFilesIsRefused() throws Exception {
    Path a = deck("a/a.pc", "INPUTVERSION 2011\n" + node(1));
    Path b = deck("b/b.pc", "INPUTVERSION 2011\n" + node(1));
    Path file = deck("file", "not a folder\n");
    Merge.Result r = merge(file.resolve("out"), Map.of(), a, b);
    assertEquals(3, r.refusals().size(), r.refusals().toString());
    assertTrue(r.refusals().get(0).message().endsWith("cannot be written: " + file.toAbsolutePath() + " is a file, not a folder"), r.refusals().toString());
    assertEquals("not a folder\n", Files.readString(file));
    Path out = dir.resolve("out");
    Files.createDirectories(out.resolve("b"));
    Files.writeString(out.resolve("b/b.pc"), "mine\n");
    r = merge(out, Map.of(), a, b);
    assertEquals(1, r.refusals().size());
    assertTrue(r.refusals().get(0).message().endsWith("b.pc exists already: merge writes no file over another (choose an empty OUTDIR)"));
    assertEquals("mine\n", Files.readString(out.resolve("b/b.pc")));
    try (Stream<Path> s = Files.walk(out)) {
      assertEquals(3, s.count(), "out, b, b.pc: nothing more");
    }
    Files.writeString(b, Files.readString(b) + "INCLU / gone.inc\n");
    Path out2 = dir.resolve("out2");
    r = merge(out2, Map.of(), a, b);
    assertEquals(1, r.refusals().size());
    assertTrue(r.refusals().get(0).message().startsWith("include file gone.inc not found"), r.refusals().get(0).message());
    nothingWritten(out2);
  }

  @Test
  void roundOffsets() {
    Map<Long, Long> want = new LinkedHashMap<>();
    want.put(1L, 2L);
    want.put(9L, 10L);
    want.put(10L, 20L);
    want.put(99L, 100L);
    want.put(10626L, 20000L);
    want.put(20000L, 30000L);
    want.put(2_147_483_647L, 3_000_000_000L);
    for (Map.Entry<Long, Long> e : want.entrySet()) assertEquals(e.getValue(), Merge.roundAbove(e.getKey()), "above " + e.getKey());
  }
}
