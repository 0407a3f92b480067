package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.testutil.Json;

class CheckCommandTest {
  static final String V = "INPUTVERSION 2011";
  static final String N1 = node("1", "0.");

  @TempDir Path dir;

  static CliRun run(String... args) {
    return CliRun.of(args);
  }

  static String node(String id, String x) {
    return String.format("NODE  / %8s%16s%16s%16s", id, x, "0.", "0.");
  }

  static String mtoco(String blank, String flags, String choice) {
    return String.format("MTOCO / %8d%8d%2s%6s%8d%8d%8d%8s%8s", 5, 1, blank, flags, 0, 0, 0, "0.", choice);
  }

  Path write(String name, String... lines) throws Exception {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, String.join("\n", lines) + "\n", StandardCharsets.ISO_8859_1);
    return p;
  }

  /** A deck with one problem of a code, where it is (1-based line and column) and its message. */
  static Stream<Arguments> oneOfEach() {
    return Stream.of(
        Arguments.of(ProblemCode.FIELD_INT, List.of(V, N1, node("2x", "0.")), 3, 9, "NODE / IDNOD: \"2x\" is not an integer"),
        Arguments.of(ProblemCode.FIELD_FLOAT, List.of(V, N1, node("2", "abc")), 3, 17, "NODE / X: \"abc\" is not a number"),
        Arguments.of(ProblemCode.FIELD_FLAGS, List.of(V, N1, mtoco("", "11a111", "ALL"), "NAME x"), 3, 27,
            "MTOCO / XYZUVW: \"11a111\" is not a string of 0 and 1"),
        Arguments.of(ProblemCode.FIELD_CHOICE, List.of(V, N1, mtoco("", "111111", "BOTH"), "NAME x"), 3, 65,
            "MTOCO / DOFTYP: \"BOTH\" is not one of STRUCT, THERM, ALL"),
        Arguments.of(ProblemCode.FIELD_CONT, List.of(V, String.format("%-80sx", "TITLE /  box")), 2, 81,
            "TITLE / CONT: \"x\" is not a continuation mark (& or -)"),
        Arguments.of(ProblemCode.FIELD_RUNS_INTO, List.of(V, N1, String.format("NODE  / %8d%16s%-16s%16s", 2, "1234567890123456", "7.", "0.")),
            3, 17, "NODE / X: \"1234567890123456\" runs into Y"),
        Arguments.of(ProblemCode.FIELD_BLANK, List.of(V, N1, mtoco("xx", "111111", "ALL"), "NAME x"), 3, 25,
            "MTOCO / BLANK: \"xx\" in columns 25-26, which this layout leaves blank"),
        Arguments.of(ProblemCode.TAB, List.of(V, N1, node("2", "0.") + "\t"), 3, 65, "NODE: tab in column 65"),
        Arguments.of(ProblemCode.PAST_80, List.of(V, N1, String.format("%-80sxyz", node("2", "0."))), 3, 81,
            "NODE: text past column 80: \"xyz\""),
        Arguments.of(ProblemCode.HEADER, List.of(V, N1, "NODE   /       2              0."), 3, 1,
            "NODE header: \"/\" must be in column 7, a blank after it: \"NODE  / \""),
        Arguments.of(ProblemCode.HEADER_UNKNOWN, List.of(V, N1, "FOO   /x"), 3, 1,
            "FOO: not a card header: \"/\" must be in column 7, a blank after it"),
        Arguments.of(ProblemCode.ID_UNDEFINED, List.of(V, N1, "SHELL /      100      12       1       1       1       1"), 3, 23,
            "SHELL / IDPRT: part 12 is not defined"),
        Arguments.of(ProblemCode.ID_DUPLICATE, List.of(V, N1, node("2", "0."), N1), 2, 16, "NODE: node 1 is defined 2 times"),
        Arguments.of(ProblemCode.INCLUDE_MISSING, List.of(V, N1, "INCLU / gone.inc"), 3, 9, "include file gone.inc not found (looked in DIR)"),
        Arguments.of(ProblemCode.INCLUDE_UNREADABLE, List.of(V, N1, "INCLU / sub"), 3, 9, "include file sub is a folder, not a file"),
        Arguments.of(ProblemCode.INCLUDE_BINARY, List.of(V, N1, "INCLU / core.inc"), 3, 9, "include file core.inc is a binary file, not a deck"),
        Arguments.of(ProblemCode.INCLUDE_CYCLE, List.of(V, N1, "INCLU / loop.inc"), 1, 9, "include cycle: deck.pc -> loop.inc -> deck.pc"));
  }

  private void files() throws Exception {
    Files.createDirectories(dir.resolve("sub"));
    Files.write(dir.resolve("core.inc"), new byte[] {'N', 0, 1, 2});
    write("loop.inc", "INCLU / deck.pc");
  }

  @ParameterizedTest
  @MethodSource("oneOfEach")
  void eachCodeIsFoundWhereItIs(ProblemCode code, List<String> lines, int line, int col, String message) throws Exception {
    files();
    write("deck.pc", lines.toArray(String[]::new));
    CliRun r = run("check", "--format", "json", dir.resolve("deck.pc").toString());
    List<?> all = (List<?>) Json.parse(r.out());
    Map<?, ?> first = (Map<?, ?>) all.get(0);
    assertEquals(code.code(), first.get("code"), r.out());
    assertEquals((long) line, first.get("line"));
    assertEquals((long) col, first.get("col"));
    assertEquals(message.replace("DIR", dir.toString()), first.get("message"));
    for (Object o : all) assertEquals(code.code(), ((Map<?, ?>) o).get("code"), "one kind of problem only: " + r.out());
    String file = code == ProblemCode.INCLUDE_CYCLE ? dir.resolve("loop.inc").toString() : dir.resolve("deck.pc").toString();
    assertEquals(file, first.get("file"));
    // a hint (header-unknown) is info: no error, no warning
    boolean warning = code == ProblemCode.FIELD_BLANK || code == ProblemCode.HEADER;
    boolean info = code == ProblemCode.HEADER_UNKNOWN;
    assertEquals(info ? "info" : warning ? "warning" : "error", first.get("severity"));
    assertEquals(warning || info ? 0 : 1, r.code(), r.err());
  }

  @Test
  void everyCodeHasADeckThatShowsIt() {
    Set<ProblemCode> shown = EnumSet.noneOf(ProblemCode.class);
    oneOfEach().forEach(a -> shown.add((ProblemCode) a.get()[0]));
    assertEquals(EnumSet.allOf(ProblemCode.class), shown);
  }

  @Test
  void textIsOneLinePerProblemWithTheFileAsGivenAndTheIncludesRelativeToIt() throws Exception {
    write("m/deck.pc", V, N1, node("2x", "0."), "INCLU / inc/part.inc");
    write("m/inc/part.inc", node("1", "0."), "INCLU / gone.inc");
    CliRun r = run("check", dir.resolve("m/deck.pc").toString());
    String d = dir.resolve("m").toString();
    assertEquals(d + "/deck.pc:2:16: error: NODE: node 1 is defined 2 times [id-duplicate]\n"
        + d + "/deck.pc:3:9: error: NODE / IDNOD: \"2x\" is not an integer [field-int]\n"
        + d + "/inc/part.inc:1:16: error: NODE: node 1 is defined 2 times [id-duplicate]\n"
        + d + "/inc/part.inc:2:9: error: include file gone.inc not found (looked in " + d + "/inc and " + d + ") [include-missing]\n",
        r.out());
    assertEquals(d + "/deck.pc: 4 errors, 0 warnings in 2 files (6 lines)\n", r.err());
    assertEquals(1, r.code());
  }

  @Test
  void aRelativeDeckGivesRelativeNames() throws Exception {
    write("m/deck.pc", V, "INCLU / inc/part.inc");
    write("m/inc/part.inc", node("1x", "0."));
    assertEquals("deck.pc", CheckCommand.display(Path.of("deck.pc"), dir.resolve("m/deck.pc"), dir.resolve("m/deck.pc")));
    assertEquals("inc/part.inc", CheckCommand.display(Path.of("deck.pc"), dir.resolve("m/deck.pc"), dir.resolve("m/inc/part.inc")));
    assertEquals("m/inc/part.inc", CheckCommand.display(Path.of("m/deck.pc"), dir.resolve("m/deck.pc"), dir.resolve("m/inc/part.inc")));
    assertEquals("m/../x.inc", CheckCommand.display(Path.of("m/deck.pc"), dir.resolve("m/deck.pc"), dir.resolve("x.inc")));
  }

  @Test
  void sarifIsALogWithOneRulePerCodeAndTheResults() throws Exception {
    write("deck.pc", V, N1, node("2x", "0."), N1);
    CliRun r = run("check", "--format", "sarif", dir.resolve("deck.pc").toString());
    Map<?, ?> log = (Map<?, ?>) Json.parse(r.out());
    assertEquals("2.1.0", log.get("version"));
    Map<?, ?> run = (Map<?, ?>) ((List<?>) log.get("runs")).get(0);
    Map<?, ?> driver = (Map<?, ?>) ((Map<?, ?>) run.get("tool")).get("driver");
    List<?> rules = (List<?>) driver.get("rules");
    assertEquals(ProblemCode.values().length, rules.size());
    for (ProblemCode c : ProblemCode.values()) {
      Map<?, ?> rule = (Map<?, ?>) rules.get(c.ordinal());
      assertEquals(c.code(), rule.get("id"));
      assertEquals(c.description(), ((Map<?, ?>) rule.get("shortDescription")).get("text"));
      assertEquals(c.help(), ((Map<?, ?>) rule.get("help")).get("text"));
    }
    List<?> results = (List<?>) run.get("results");
    assertEquals(3, results.size());
    Map<?, ?> second = (Map<?, ?>) results.get(1);
    assertEquals("field-int", second.get("ruleId"));
    assertEquals((long) ProblemCode.FIELD_INT.ordinal(), second.get("ruleIndex"));
    assertEquals("error", second.get("level"));
    assertEquals("NODE / IDNOD: \"2x\" is not an integer", ((Map<?, ?>) second.get("message")).get("text"));
    Map<?, ?> loc = (Map<?, ?>) ((Map<?, ?>) ((List<?>) second.get("locations")).get(0)).get("physicalLocation");
    assertEquals(dir.resolve("deck.pc").toString(), ((Map<?, ?>) loc.get("artifactLocation")).get("uri"));
    Map<?, ?> region = (Map<?, ?>) loc.get("region");
    assertEquals(3L, region.get("startLine"));
    assertEquals(9L, region.get("startColumn"));
    assertEquals(17L, region.get("endColumn"));
  }

  @Test
  void jsonHasEveryFieldAndEscapesTheMessage() throws Exception {
    write("deck.pc", V, N1, node("\"\\x", "0."));
    CliRun r = run("check", "--format", "json", dir.resolve("deck.pc").toString());
    List<?> all = (List<?>) Json.parse(r.out());
    assertEquals(1, all.size());
    Map<?, ?> p = (Map<?, ?>) all.get(0);
    assertEquals(List.of("file", "line", "col", "end_col", "severity", "code", "message"), new ArrayList<>(p.keySet()));
    assertEquals("NODE / IDNOD: \"\"\\x\" is not an integer", p.get("message"));
    assertEquals(17L, p.get("end_col"));
  }

  @Test
  void noProblemIsAnEmptyDocumentAndExitZero() throws Exception {
    write("deck.pc", V, N1);
    CliRun json = run("check", "--format", "json", dir.resolve("deck.pc").toString());
    assertEquals(List.of(), Json.parse(json.out()));
    assertEquals(0, json.code());
    CliRun sarif = run("check", "--format", "sarif", dir.resolve("deck.pc").toString());
    Map<?, ?> run = (Map<?, ?>) ((List<?>) ((Map<?, ?>) Json.parse(sarif.out())).get("runs")).get(0);
    assertEquals(List.of(), run.get("results"));
    CliRun text = run("check", dir.resolve("deck.pc").toString());
    assertEquals("", text.out());
    assertEquals(0, text.code());
  }

  @Test
  void maxCapsWhatIsPrintedAndTheSummaryCountsAll() throws Exception {
    write("deck.pc", V, N1, node("2x", "0."), node("3x", "0."), node("4x", "0."));
    CliRun r = run("check", "--max", "2", dir.resolve("deck.pc").toString());
    assertEquals(2, r.out().lines().count());
    assertTrue(r.err().contains(": 3 errors, 0 warnings in 1 file (5 lines); 2 shown"), r.err());
    CliRun q = run("check", "--quiet", "--format", "json", dir.resolve("deck.pc").toString());
    assertEquals(List.of(), Json.parse(q.out()));
    assertTrue(q.err().contains(": 3 errors"), q.err());
    assertEquals(1, q.code());
  }

  @Test
  void warningsAsErrorsExitsWithOneOnAWarning() throws Exception {
    write("deck.pc", V, N1, mtoco("xx", "111111", "ALL"), "NAME x");
    assertEquals(0, run("check", dir.resolve("deck.pc").toString()).code());
    assertEquals(1, run("check", "--warnings-as-errors", dir.resolve("deck.pc").toString()).code());
  }

  @Test
  void aHintIsInfoInEveryFormatAndNoWarning() throws Exception {
    write("deck.pc", V, N1, "FOO   /x");
    Path deck = dir.resolve("deck.pc");
    CliRun text = run("check", "--warnings-as-errors", deck.toString());
    assertEquals(0, text.code(), text.err());
    assertTrue(text.out().contains(":3:1: info: FOO: not a card header"), text.out());
    assertTrue(text.err().contains(": 0 errors, 0 warnings in 1 file (3 lines); 1 info"), text.err());
    Map<?, ?> sarif = (Map<?, ?>) Json.parse(run("check", "--format", "sarif", deck.toString()).out());
    Map<?, ?> result = (Map<?, ?>) ((List<?>) ((Map<?, ?>) ((List<?>) sarif.get("runs")).get(0)).get("results")).get(0);
    assertEquals("note", result.get("level"));
  }

  @Test
  void aFragmentCountsItsUndefinedReferencesUnlessTop() throws Exception {
    write("frag.inc", node("1", "0."), "SHELL /      100      12       1       2       3       1", node("1", "0."));
    CliRun r = run("check", "--format", "json", dir.resolve("frag.inc").toString());
    List<?> all = (List<?>) Json.parse(r.out());
    assertEquals(List.of("id-duplicate", "id-duplicate"), all.stream().map(o -> ((Map<?, ?>) o).get("code")).toList());
    assertTrue(r.err().contains("an include fragment (no INPUTVERSION, no RUNEND): 3 ids referenced and defined elsewhere"), r.err());
    CliRun top = run("check", "--top", "--format", "json", dir.resolve("frag.inc").toString());
    List<?> topAll = (List<?>) Json.parse(top.out());
    assertEquals(5, topAll.size());
    assertEquals(3, topAll.stream().filter(o -> "id-undefined".equals(((Map<?, ?>) o).get("code"))).count());
    write("run.inc", "RUNEND/  ", "END_RUNEND", "SHELL /      100      12       1       1       1       1");
    CliRun whole = run("check", dir.resolve("run.inc").toString());
    assertEquals(5, whole.out().lines().filter(l -> l.endsWith("[id-undefined]")).count(), "RUNEND makes a whole deck: " + whole.out());
  }

  @Test
  void inputVersionChecksAsThatVersion() throws Exception {
    // MTOCO's POSTYP (73-80) is a field from 2025 on; before, the columns are past every field.
    write("deck.pc", V, N1, mtoco("", "111111", "ALL") + "    AUTO", "NAME x");
    assertEquals(0, run("check", dir.resolve("deck.pc").toString()).code());
    CliRun r = run("check", "--input-version", "2025", "--format", "json", dir.resolve("deck.pc").toString());
    assertEquals(0, r.code(), r.out());
    write("bad.pc", V, N1, mtoco("", "111111", "ALL") + "    SOME", "NAME x");
    assertEquals(0, run("check", dir.resolve("bad.pc").toString()).code());
    CliRun bad = run("check", "--input-version", "2025", "--format", "json", dir.resolve("bad.pc").toString());
    assertEquals(1, bad.code(), bad.out());
    assertEquals("field-choice", ((Map<?, ?>) ((List<?>) Json.parse(bad.out())).get(0)).get("code"));
  }

  @Test
  void aMissingFileADirectoryAndABinaryFileGiveTwoAndNameTheFile() throws Exception {
    Files.createDirectories(dir.resolve("sub"));
    Files.write(dir.resolve("core.pc"), new byte[] {'N', 0, 1});
    for (String[] c : new String[][] {{"gone.pc", "not found"}, {"sub", "is a folder, not a file"},
        {"core.pc", "is a binary file, not a deck"}}) {
      String f = dir.resolve(c[0]).toString();
      CliRun r = run("check", f);
      assertEquals(2, r.code(), r.err());
      assertEquals("", r.out());
      assertEquals("nvimpam check: " + f + " " + c[1] + "\n", r.err());
    }
  }

  @Test
  void aBadDeckAmongGoodOnesStillChecksTheOthers() throws Exception {
    write("deck.pc", V, N1, node("2x", "0."));
    CliRun r = run("check", dir.resolve("gone.pc").toString(), dir.resolve("deck.pc").toString());
    assertEquals(2, r.code());
    assertEquals(1, r.out().lines().count());
    assertTrue(r.err().startsWith("nvimpam check: " + dir.resolve("gone.pc") + " not found\n"), r.err());
  }

  @Test
  void anIncludeCycleGivenAsDeckIsReportedOnceAndExitsOne() throws Exception {
    write("a.pc", V, "INCLU / b.inc");
    write("b.inc", "INCLU / a.pc");
    CliRun r = run("check", dir.resolve("a.pc").toString());
    assertEquals(dir.resolve("b.inc") + ":1:9: error: include cycle: a.pc -> b.inc -> a.pc [include-cycle]\n", r.out());
    assertEquals(1, r.code());
  }

  @Test
  void badUsageExitsTwo() {
    assertEquals(2, run("check").code());
    assertEquals(2, run("check", "--format", "xml", "deck.pc").code());
    assertEquals(2, run("check", "--max", "-1", "deck.pc").code());
    assertEquals(2, run("check", "--bogus", "deck.pc").code());
    CliRun r = run("check", "--input-version", "0", "deck.pc");
    assertEquals(2, r.code());
    assertFalse(r.err().contains("Exception"), r.err());
  }

  @Test
  void listCodesNamesEveryCode() {
    CliRun r = run("check", "--list-codes");
    assertEquals(0, r.code());
    for (ProblemCode c : ProblemCode.values()) {
      assertTrue(r.out().lines().anyMatch(l -> l.matches(c.code() + " +" + java.util.regex.Pattern.quote(c.description()))), c.code());
      assertTrue(r.out().contains(c.help()), c.code());
    }
  }

  @Test
  void helpCheckDescribesTheFormatAndTheExitStatus() {
    CliRun r = run("help", "check");
    assertTrue(r.out().contains("FILE:LINE:COL: SEVERITY: MESSAGE [CODE]"), r.out());
    assertTrue(r.out().contains("Exit status: 0 no error; 1 errors found"), r.out());
  }

  /** A deck cut in pieces gives what it gives whole: problems on both sides of every cut, ids across them. */
  @Test
  void aGenDeckChecksCleanAndItsFirstVersionDoesNot() throws Exception {
    Path p = dir.resolve("gen.pc");
    Files.write(p, new DeckGenerator(5).generate(20_000));
    CliRun clean = run("check", "--format", "json", p.toString());
    assertEquals(List.of(), Json.parse(clean.out()), clean.err());
    assertEquals(0, clean.code());
    Files.write(p, new DeckGenerator(5, 1).generate(20_000));
    assertEquals(1, run("check", "--quiet", p.toString()).code());
  }

  @Test
  void eachIdKindIsItsOwnNumberingUpToTheLastKindOfTheTable() throws Exception {
    // a MATER and a THMAT may share a number; two VECTORs (a kind coded past 63) may not
    write("deck.pc", V, "MATER /     1050     100", "", "NAME m", "THMAT /     1050", "NAME t", "VECTOR/        7       0",
        "NAME v", "VECTOR/        7       0", "NAME v");
    List<?> all = (List<?>) Json.parse(run("check", "--format", "json", dir.resolve("deck.pc").toString()).out());
    assertEquals(2, all.size(), all.toString());
    for (Object o : all) {
      assertEquals("id-duplicate", ((Map<?, ?>) o).get("code"));
      assertTrue(String.valueOf(((Map<?, ?>) o).get("message")).contains("vector 7"), o.toString());
    }
  }

  @Test
  void piecesAndThreadsGiveTheSameProblems() throws Exception {
    byte[] deck = new DeckGenerator(7).generate(300_000);
    // a duplicate far from its twin, an undefined reference far from the definitions
    StringBuilder sb = new StringBuilder(new String(deck, StandardCharsets.ISO_8859_1));
    sb.append(node("5", "0.")).append('\n');
    sb.append(String.format("SHELL / %8d%8d%8d%8d%8d%8d%n", 99999998, 1, 77777777, 5, 5, 5));
    Path p = dir.resolve("big.pc");
    Files.writeString(p, sb, StandardCharsets.ISO_8859_1);
    CliRun one = run("check", "--threads", "1", "--format", "json", p.toString());
    CliRun two = run("check", "--threads", "2", "--format", "json", p.toString());
    CliRun three = run("check", "--threads", "3", "--format", "json", p.toString());
    assertEquals(one.out(), two.out());
    assertEquals(one.out(), three.out());
    List<?> all = (List<?>) Json.parse(one.out());
    assertTrue(all.stream().anyMatch(o -> "id-duplicate".equals(((Map<?, ?>) o).get("code"))), one.err());
    assertTrue(all.stream().anyMatch(o -> "id-undefined".equals(((Map<?, ?>) o).get("code"))), one.err());
    assertTrue(Files.size(p) > 3 * (4 << 20), "several pieces");
  }
}
