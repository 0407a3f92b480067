package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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
 * {@link Unused} on a three-file include tree with GES ranges: what it lists is referenced only
 * from lines it removes, what nothing references is listed, a node used only through a GES range
 * of a card that stays is not; the removal checks as clean as before, leaves nothing unused to
 * remove, and changes no byte outside the removed lines; each refusal writes nothing.
 */
class UnusedTest {
  @TempDir Path dir;

  private static final int NODE = IdKinds.NODE;

  /** A gen deck over three files; the last include file gets a MASS and a GROUP that select nodes by GES ranges. */
  private Path tree(String extra) throws Exception {
    Path in = Files.createDirectories(dir.resolve("in"));
    Path main = in.resolve("main.pc");
    assertEquals(0, Main.run("gen", "--lines", "3000", "--includes", "2", "--out", main.toString()));
    Path inc = lastInclude(in);
    Files.writeString(inc, Files.readString(inc, StandardCharsets.ISO_8859_1) + extra, StandardCharsets.ISO_8859_1);
    return main;
  }

  private static Path lastInclude(Path in) throws Exception {
    Path inc = null;
    try (Stream<Path> s = Files.list(in)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (p.toString().endsWith(".inc") && (inc == null || p.compareTo(inc) > 0)) inc = p;
      }
    }
    return inc;
  }

  private static String checked(Path deck) throws Exception {
    TreeCheck.Result r = new TreeCheck(new TreeCheck.Options(-1, false, Integer.MAX_VALUE, 1), null).check(deck);
    StringBuilder s = new StringBuilder(r.errors() + " errors, " + r.warnings() + " warnings, " + r.infos() + " infos;");
    for (TreeCheck.Problem p : r.problems()) s.append(' ').append(p.code().code());
    return s.toString();
  }

  private static Lines lines(Path f) throws Exception {
    return Lines.ofLatin1(Files.readString(f, StandardCharsets.ISO_8859_1).split("\n", -1));
  }

  /** Runs of three consecutive node ids the bare gen tree leaves unused, the first {@code n}. */
  private static List<Integer> unusedRuns(Unused.Result r, int n) {
    TreeSet<Integer> ids = new TreeSet<>();
    for (Unused.Item it : r.items()) {
      if (it.kind() == NODE) ids.add(it.id());
    }
    List<Integer> out = new ArrayList<>();
    for (int id : ids) {
      if (out.size() < n && ids.contains(id + 1) && ids.contains(id + 2) && (out.isEmpty() || id > out.get(out.size() - 1) + 2)) out.add(id);
    }
    return out;
  }

  private static String mass(int lo) {
    return "MASS  /        0       0\nNAME ranged mass\n              1.              1.              1.\n"
        + "              0.              0.              0.\n        NOD " + lo + ":" + (lo + 2) + "\n        END\n";
  }

  private static String group(int lo) {
    return "GROUP / lonely\r\n        NOD " + lo + ":" + (lo + 2) + "\n        END\n";
  }

  /** Per key, where it is referenced (file, line), GES ranges given to every id they span. */
  private static Map<Long, List<long[]>> references(List<Path> files) throws Exception {
    Map<Long, List<long[]>> out = new HashMap<>();
    IdScanner sc = new IdScanner(CardLayouts.bundled());
    for (int f = 0; f < files.size(); f++) {
      int file = f;
      Lines l = lines(files.get(f));
      sc.scan(l, 0, l.lineCount(), 2011, true, (line, a, b, kind, lo, hi, def) -> {
        if (def) return;
        for (long id = lo; id <= hi; id++) out.computeIfAbsent(IdKinds.key(kind, (int) id), k -> new ArrayList<>()).add(new long[] {file, line});
      });
    }
    return out;
  }

  private static Map<Long, long[]> definitions(List<Path> files) throws Exception {
    Map<Long, long[]> out = new HashMap<>();
    IdScanner sc = new IdScanner(CardLayouts.bundled());
    for (int f = 0; f < files.size(); f++) {
      int file = f;
      Lines l = lines(files.get(f));
      sc.scan(l, 0, l.lineCount(), 2011, false, (line, a, b, kind, lo, hi, def) -> out.put(IdKinds.key(kind, lo), new long[] {file, line}));
    }
    return out;
  }

  private static boolean removed(long[][] runs, long[] at) {
    long[] r = runs[(int) at[0]];
    for (int i = 0; i < r.length; i += 2) {
      if (at[1] >= r[i] && at[1] < r[i + 1]) return true;
    }
    return false;
  }

  @Test
  void whatIsListedIsNamedOnlyFromRemovedLinesAndTheRemovalChecksAsCleanAsBefore() throws Exception {
    Path main = tree("");
    List<Integer> runs = unusedRuns(Unused.find(main, null), 2);
    assertEquals(2, runs.size());
    Files.delete(dir.resolve("in").resolve("main_1.inc")); // gen again, with the ranges
    Files.delete(dir.resolve("in").resolve("main_2.inc"));
    main = tree(mass(runs.get(0)) + group(runs.get(1)));
    Unused.Result r = Unused.find(main, null);
    assertEquals(List.of(), r.warnings());
    assertEquals(3, r.files().size());
    Set<String> listed = new HashSet<>();
    for (Unused.Item it : r.items()) listed.add(IdKinds.name(it.kind()) + " " + it.name());
    // a node used only through a GES range of a card that stays is used; one of an unused group is not
    for (int k = 0; k < 3; k++) {
      assertFalse(listed.contains("node " + (runs.get(0) + k)), "node " + (runs.get(0) + k));
      assertTrue(listed.contains("node " + (runs.get(1) + k)), "node " + (runs.get(1) + k));
    }
    assertTrue(listed.contains("group lonely"), listed.toString());
    Set<String> kinds = new TreeSet<>();
    for (Unused.Item it : r.items()) kinds.add(IdKinds.name(it.kind()));
    assertEquals(Set.of("group", "material", "node", "part"), kinds);

    long[][] runsOf = Unused.runs(r);
    Map<Long, List<long[]>> refs = references(r.files());
    // sound: a definition that goes is named only from lines that go with it
    for (Unused.Item it : r.removable()) {
      for (long[] at : refs.getOrDefault(it.key(), List.of())) {
        assertTrue(removed(runsOf, at), it.message() + " is named at " + r.files().get((int) at[0]).getFileName() + ":" + (at[1] + 1));
      }
    }
    // complete: every definition of a numbered kind (not a part) that nothing names is listed
    for (Map.Entry<Long, long[]> d : definitions(r.files()).entrySet()) {
      int kind = IdKinds.kindOf(d.getKey());
      if (kind == IdKinds.PART || !Unused.KIND_NAMES.contains(IdKinds.name(kind)) || refs.containsKey(d.getKey())) continue;
      assertTrue(r.items().stream().anyMatch(it -> it.key() == d.getKey()), IdKinds.describe(d.getKey()));
    }

    // the command line's JSON: one object per definition listed, parsed back
    java.io.ByteArrayOutputStream json = new java.io.ByteArrayOutputStream();
    java.io.PrintStream stdout = System.out;
    int code;
    try {
      System.setOut(new java.io.PrintStream(json, true, StandardCharsets.UTF_8));
      code = Main.run("unused", main.toString(), "--format", "json");
    } finally {
      System.setOut(stdout);
    }
    assertEquals(1, code);
    List<?> parsed = (List<?>) org.nvimpam.testutil.Json.parse(json.toString(StandardCharsets.UTF_8));
    assertEquals(r.items().size(), parsed.size());
    for (int i = 0; i < parsed.size(); i++) {
      Map<?, ?> o = (Map<?, ?>) parsed.get(i);
      Unused.Item it = r.items().get(i);
      assertEquals(IdKinds.name(it.kind()), o.get("kind"));
      assertEquals(it.line() + 1, ((Number) o.get("line")).intValue());
      assertEquals(it.message(), o.get("message"));
      assertTrue(String.valueOf(o.get("file")).endsWith(r.files().get(it.file()).getFileName().toString()));
    }

    String before = checked(main);
    Path out = dir.resolve("out");
    Unused.Removal x = Unused.remove(r, out, false);
    assertEquals(List.of(), x.refusals());
    assertEquals(3, x.written().size());
    assertEquals(before, checked(out.resolve("main.pc")));
    Unused.Result again = Unused.find(out.resolve("main.pc"), null);
    assertEquals(List.of(), again.removable(), "nothing left to remove");
    // every byte outside the removed lines as it was (the CRLF line of the group gone whole)
    for (int f = 0; f < 3; f++) {
      byte[] a = Files.readAllBytes(r.files().get(f));
      StringBuilder want = new StringBuilder();
      String[] ls = new String(a, StandardCharsets.ISO_8859_1).split("(?<=\n)");
      long total = 0;
      for (int i = 0; i < ls.length; i++) {
        if (!removed(runsOf, new long[] {f, i})) want.append(ls[i]);
        else total++;
      }
      assertTrue(total > 0 || f == 0);
      assertEquals(want.toString(), Files.readString(x.written().get(f), StandardCharsets.ISO_8859_1), r.files().get(f).getFileName().toString());
    }
    assertFalse(Files.readString(x.written().get(2), StandardCharsets.ISO_8859_1).contains("lonely"));
    assertTrue(Files.readString(x.written().get(2), StandardCharsets.ISO_8859_1).contains("NAME ranged mass"));
  }

  @Test
  void aRowTheTableDoesNotDescribeNamingAnUnusedIdRefusesAndWritesNothing() throws Exception {
    Path main = tree("");
    int node = unusedRuns(Unused.find(main, null), 1).get(0);
    Files.writeString(lastInclude(dir.resolve("in")), "NOSUCH/ " + String.format("%8d", node) + "\n", StandardCharsets.ISO_8859_1,
        java.nio.file.StandardOpenOption.APPEND);
    Unused.Result r = Unused.find(main, null);
    assertEquals(1, r.warnings().size(), r.warnings().toString());
    Unused.Warning w = r.warnings().get(0);
    assertEquals(2, w.file());
    assertTrue(w.message().contains(node + ", which may name unused node " + node), w.message());
    Path out = dir.resolve("out");
    Unused.Removal x = Unused.remove(r, out, false);
    assertTrue(x.refused());
    assertFalse(Files.exists(out));
  }

  @Test
  void aTargetInTheTreeOrAMissingIncludeRefusesAndWritesNothing() throws Exception {
    Path main = tree("");
    Unused.Result r = Unused.find(main, null);
    List<String> before = new ArrayList<>();
    for (Path f : r.files()) before.add(Files.readString(f, StandardCharsets.ISO_8859_1));
    Unused.Removal x = Unused.remove(r, dir.resolve("in"), false); // over its own files, without --in-place
    assertEquals(3, x.refusals().size(), x.refusals().toString());
    assertTrue(x.refusals().get(0).message().contains("--in-place is needed"), x.refusals().toString());
    for (int f = 0; f < 3; f++) assertEquals(before.get(f), Files.readString(r.files().get(f), StandardCharsets.ISO_8859_1));

    Files.delete(r.files().get(2));
    Unused.Result missing = Unused.find(main, null);
    assertEquals(1, missing.warnings().size(), missing.warnings().toString());
    assertTrue(missing.warnings().get(0).message().endsWith("the ids it references are not known"), missing.warnings().toString());
    Path out = dir.resolve("out");
    assertTrue(Unused.remove(missing, out, false).refused());
    assertFalse(Files.exists(out));
  }

  /**
   * The header line of {@code c}: its word (and variant), {@code value} in field {@code field}, 7 in
   * each field that defines an id, blanks elsewhere.
   */
  private static String header(CardLayout c, FieldLayout field, int value) {
    char[] l = new char[80];
    java.util.Arrays.fill(l, ' ');
    for (FieldLayout f : c.rows().get(0).fields()) {
      boolean number = f.type() == FieldType.INT || f.type() == FieldType.INT_OR_BLANK;
      String v = f == field ? Integer.toString(value) : f.defines() != null && number ? "7" : "";
      for (int i = 0; i < v.length(); i++) l[f.to() - v.length() + i] = v.charAt(i);
    }
    String kw = (c.word() + "      ").substring(0, 6) + "/ ";
    for (int i = 0; i < 8; i++) l[i] = kw.charAt(i);
    if (c.key().contains(":")) {
      for (CardLayout b : CardLayouts.bundled().entries()) {
        if (!b.key().equals(c.word()) || b.selectFrom() <= 0) continue;
        String variant = c.key().substring(c.key().indexOf(':') + 1);
        for (int i = b.selectFrom() - 1; i < b.selectTo(); i++) l[i] = ' ';
        for (int i = 0; i < variant.length(); i++) l[b.selectFrom() - 1 + i] = variant.charAt(i);
      }
    }
    return new String(l).replaceAll("\\s+$", "");
  }

  /**
   * Every header row field of the table that references a numbered kind found unused, in a card
   * of its own with the definition it names: the definition is unused exactly when the card
   * naming it goes too (a part: exactly when that card is no element).
   */
  @Test
  void everyHeaderReferenceOfTheTableKeepsItsDefinitionWhileItsCardStays() throws Exception {
    CardLayouts table = CardLayouts.bundled();
    TreeSet<Integer> versions = new TreeSet<>();
    for (CardLayout c : table.entries()) versions.add(c.version());
    int checked = 0;
    List<String> wrong = new ArrayList<>();
    for (int v : versions) {
      int[] picked = table.picks(v);
      // the definition of each kind: the header of the first card whose header defines it
      Map<Integer, String> defining = new HashMap<>();
      for (int g = 0; g < picked.length; g++) {
        if (picked[g] < 0) continue;
        CardLayout c = table.entry(picked[g]);
        for (FieldLayout f : c.rows().get(0).fields()) {
          int kind = IdKinds.code(f.defines());
          if (kind != 0 && !IdKinds.named(kind) && !c.key().contains(":")) defining.putIfAbsent(kind, header(c, f, 5));
        }
      }
      for (int g = 0; g < picked.length; g++) {
        if (picked[g] < 0) continue;
        CardLayout c = table.entry(picked[g]);
        if (c.version() != v) continue;
        boolean element = false;
        for (FieldLayout f : c.rows().get(0).fields()) element |= IdKinds.code(f.defines()) == IdKinds.ELEMENT;
        for (FieldLayout f : c.rows().get(0).fields()) {
          int kind = IdKinds.code(f.references());
          boolean number = f.type() == FieldType.INT || f.type() == FieldType.INT_OR_BLANK;
          if (kind == 0 || IdKinds.named(kind) || !number || !Unused.KIND_NAMES.contains(IdKinds.name(kind)) || !defining.containsKey(kind)) {
            continue;
          }
          Path deck = dir.resolve("t" + checked + ".pc");
          String text = "INPUTVERSION " + v + "\n" + header(c, f, 5) + "\n" + defining.get(kind) + "\n";
          Files.writeString(deck, text, StandardCharsets.ISO_8859_1);
          Unused.Result r = Unused.find(deck, null);
          boolean listed = r.items().stream().anyMatch(it -> it.key() == IdKinds.key(kind, 5) && it.line() == 2);
          boolean goes = r.items().stream().anyMatch(it -> it.line() == 1 && it.removable());
          boolean want = kind == IdKinds.PART ? !element : goes;
          if (listed != want) wrong.add(c.key() + "@" + v + " / " + f.name() + ": " + IdKinds.name(kind) + " 5 " + (listed ? "listed" : "not listed"));
          checked++;
        }
      }
    }
    assertEquals(List.of(), wrong);
    assertTrue(checked > 100, checked + " fields");
  }
}
