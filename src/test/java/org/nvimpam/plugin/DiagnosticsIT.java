package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;

/**
 * The JVM checks every field of a deck it folds live and Neovim shows the problems as diagnostics
 * in the `nvimpam` namespace: after the first folds, after edits, capped with a summary, off when
 * switched off, listed by :NvimpamCheck, and checked as the version of a deck that includes them.
 */
class DiagnosticsIT extends PluginTestBase {
  private static final String GOOD = "NODE  /        1              0.            50.5              0.";
  private static final String BAD = "NODE  /        2        -1263.9S            50.5              0.";

  @org.junit.jupiter.api.BeforeEach
  void detectFiletypes() {
    nvim.command("filetype on").join();
  }

  private static byte[] deck(String... lines) {
    return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.ISO_8859_1);
  }

  /** The buffer's diagnostics in the namespace, as "lnum:col-end sev message", once they are set. */
  @SuppressWarnings("unchecked")
  private List<String> diagnostics(String until) {
    return diagnostics(d -> d.toString().contains(until), "like '" + until + "'");
  }

  private List<String> noDiagnostics() {
    return diagnostics(List::isEmpty, "none");
  }

  @SuppressWarnings("unchecked")
  private List<String> diagnostics(java.util.function.Predicate<List<String>> done, String what) {
    String get = "local ns = vim.api.nvim_create_namespace('nvimpam') local out = {} "
        + "for _, d in ipairs(vim.diagnostic.get(0, { namespace = ns })) do "
        + "out[#out + 1] = string.format('%d:%d-%d %d %s', d.lnum, d.col, d.end_col, d.severity, d.message) end "
        + "table.sort(out) return out";
    long deadline = System.nanoTime() + 15_000_000_000L;
    List<String> d;
    do {
      d = (List<String>) lua(get);
      if (done.test(d)) return d;
      lua("vim.wait(50)");
    } while (System.nanoTime() < deadline);
    throw new AssertionError("diagnostics not " + what + " within 15 s; have " + d + ", notes "
        + lua("return _G.notes"));
  }

  @Test
  void anInvalidFloatBecomesAnErrorNamingCardFieldAndValue() throws IOException {
    setup("");
    EmbeddedNvim.edit(nvim, deck("INPUTVERSION 2011", GOOD, BAD), dir);
    assertEquals(List.of("2:16-32 1 NODE / X: \"-1263.9S\" is not a number"), diagnostics("-1263.9S"));
  }

  @Test
  void fixingTheValueRemovesTheDiagnostic() throws IOException {
    setup("");
    EmbeddedNvim.edit(nvim, deck("INPUTVERSION 2011", GOOD, BAD), dir);
    diagnostics("-1263.9S");
    lua("vim.api.nvim_buf_set_lines(0, 2, 3, true, { '" + GOOD + "' })");
    assertEquals(List.of(), noDiagnostics());
  }

  @Test
  void anEditThatBreaksALineAddsItsDiagnosticWhereTheLineIsNow() throws IOException {
    setup("");
    EmbeddedNvim.edit(nvim, deck("INPUTVERSION 2011", GOOD, GOOD), dir);
    lua("vim.wait(300)");
    lua("vim.api.nvim_buf_set_lines(0, 1, 1, true, { '$ c', '$ d', '" + BAD + "' })");
    assertEquals(List.of("3:16-32 1 NODE / X: \"-1263.9S\" is not a number"), diagnostics("-1263.9S"));
  }

  @Test
  void editsMadeWhileABigDeckIsFirstCheckedAreFollowed() throws IOException {
    setup("");
    int n = 2_000_000; // its first check takes 0.3 s in 20 steps: the edits land among them
    String[] lines = new String[n];
    lines[0] = "INPUTVERSION 2011";
    for (int i = 1; i < n; i++) lines[i] = GOOD;
    lines[1] = BAD;
    lines[n - 1] = BAD;
    EmbeddedNvim.edit(nvim, deck(lines), dir);
    lua("vim.wait(60000, function() return require('nvimpam.fold').applied_tick(0) ~= nil end, 1) vim.wait(50)");
    lua("vim.api.nvim_buf_set_lines(0, 1, 2, true, { '" + GOOD + "' })" // fixed
        + " vim.api.nvim_buf_set_lines(0, 0, 0, true, { '$ a', '$ b', '$ c' })" // what follows moves down
        + " vim.api.nvim_buf_set_lines(0, 1500000, 1500001, true, { '" + BAD + "' })"); // broken
    List<String> want = List.of("1500000:16-32 1 NODE / X: \"-1263.9S\" is not a number",
        (n + 2) + ":16-32 1 NODE / X: \"-1263.9S\" is not a number");
    assertEquals(want, diagnostics(d -> d.size() == 2 && d.containsAll(want), "the two of the edited deck"));
  }

  @Test
  void manyProblemsAreCappedWithASummaryNamingTheTotal() throws IOException {
    setup("max_diagnostics = 3");
    String[] lines = new String[11];
    lines[0] = "INPUTVERSION 2011";
    for (int i = 1; i <= 10; i++) lines[i] = BAD;
    EmbeddedNvim.edit(nvim, deck(lines), dir);
    List<String> d = diagnostics("10 field problems");
    assertEquals(4, d.size(), d.toString());
    assertTrue(d.stream().anyMatch(s -> s.startsWith("0:0-0 3 ") && s.contains("10 field problems")), d.toString());
  }

  private void type(String keys) {
    lua("vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('" + keys + "', true, false, true), 'xt', false)");
  }

  @Test
  void aTabOnAnyLineIsAnErrorAtItsColumn() throws IOException {
    setup("");
    EmbeddedNvim.edit(nvim, deck("INPUTVERSION\t2011", "GROUP / doors", "        NOD 1", "\tNOD 3", "        NOD\t4",
        GOOD, "        \t"), dir);
    assertEquals(List.of("0:12-13 1 tab in column 13", "3:0-1 1 GROUP: tab in column 1",
        "4:11-12 1 GROUP: tab in column 12", "6:8-9 1 NODE: tab in column 9"), diagnostics(d -> d.size() == 4, "four tabs"));
  }

  @Test
  void pamcrashBuffersExpandTabsSoThatAutoindentOnAGesLineTypesBlanks() throws IOException {
    setup("");
    nvim.command("filetype plugin on").join(); // Neovim's default, off in the test's Neovim
    EmbeddedNvim.edit(nvim, deck("INPUTVERSION 2011", "GROUP / doors", "        NOD 1"), dir);
    assertEquals(true, lua("return vim.bo.expandtab"));
    nvim.command("setlocal autoindent | 3").join();
    type("oNOD 3<Esc>");
    assertEquals("        NOD 3", lua("return vim.api.nvim_buf_get_lines(0, 3, 4, true)[1]"));
    nvim.command("setlocal noexpandtab").join(); // what it was: the TAB is found
    type("oNOD 4<Esc>");
    assertEquals(List.of("4:0-1 1 GROUP: tab in column 1"), diagnostics("tab"));
  }

  @Test
  void aKnownKeywordThatIsNoCardHeaderIsAWarningAndAnUnknownWordAHint() throws IOException {
    setup("");
    EmbeddedNvim.edit(nvim, deck("INPUTVERSION 2011", GOOD, "NODE   /       3              0.",
        "NODE /        4              0.", "NODE           5              0.", "FOO   /x", "SHELL /x      1"), dir);
    String form = " header: \"/\" must be in column 7, a blank after it: ";
    assertEquals(List.of("2:0-8 2 NODE" + form + "\"NODE  / \"", "3:0-6 2 NODE" + form + "\"NODE  / \"",
        "4:0-8 2 NODE" + form + "\"NODE  / \"", "5:0-7 4 FOO: not a card header: \"/\" must be in column 7, a blank after it",
        "6:0-7 2 SHELL" + form + "\"SHELL / \""), diagnostics(d -> d.size() == 5, "five header problems"));
  }

  @Test
  void noDiagnosticsWhenTheChecksAreOff() throws IOException {
    setup("checks = false");
    EmbeddedNvim.edit(nvim, deck("INPUTVERSION 2011", GOOD, BAD), dir);
    nvim.command("NvimpamFold").join();
    lua("vim.wait(300)");
    assertEquals(List.of(), noDiagnostics());
  }

  @Test
  @SuppressWarnings("unchecked")
  void checkListsTheProblemsInTheQuickfixList() throws IOException {
    setup("");
    EmbeddedNvim.edit(nvim, deck("INPUTVERSION 2011", BAD, GOOD, BAD), dir);
    nvim.command("NvimpamCheck").join();
    Map<String, Object> qf = (Map<String, Object>) lua("return vim.fn.getqflist({ items = 1, title = 1 })");
    List<Map<String, Object>> items = (List<Map<String, Object>>) qf.get("items");
    // the field problems, and node 2 defined twice
    assertEquals(List.of("2 NODE: node 2 is defined 2 times", "2 NODE / X: \"-1263.9S\" is not a number",
        "4 NODE: node 2 is defined 2 times", "4 NODE / X: \"-1263.9S\" is not a number"),
        items.stream().map(i -> i.get("lnum") + " " + i.get("text")).toList());
    assertTrue(String.valueOf(qf.get("title")).startsWith("nvimpam: 4 problems in "), String.valueOf(qf.get("title")));
  }

  @Test
  void checkListsOneProblemOfEachProducerAcrossTheDeckAndItsIncludeFiles() throws IOException {
    String node = "NODE  /        1              0.              0.              0.";
    Files.write(dir.resolve("parts.inc"), deck("NODE  /        2        -1263.9S              0.",
        "NODE   /       3              0.", "NODE  /        4\t             0.", "FOO   /x", "INCLU / car.pc"));
    Files.write(dir.resolve("blob.inc"), new byte[] {'N', 0, 'x'});
    Path car = dir.resolve("car.pc");
    Files.write(car, deck("INPUTVERSION 2011", "INCLU / parts.inc", "INCLU / missing.inc", "INCLU / blob.inc", node, node,
        "SHELL /        1       7       1       2       3       4"));
    setup("");
    nvim.command("edit " + car).join();
    lua("vim.wait(10000, function() return require('nvimpam.fold').applied_tick(0) ~= nil end, 10)");
    nvim.command("NvimpamCheck").join();
    @SuppressWarnings("unchecked")
    List<String> got = (List<String>) lua("local out = {} for _, q in ipairs(vim.fn.getqflist()) do "
        + "out[#out + 1] = string.format('%s:%d:%d %s %s', vim.fn.fnamemodify(vim.api.nvim_buf_get_name(q.bufnr), ':t'), "
        + "q.lnum, q.col, q.type, q.text) end return out");
    for (String want : List.of(
        "car.pc:2:9 E parts.inc line 5: include cycle: car.pc -> parts.inc -> car.pc", // on the deck's INCLU line too
        "car.pc:3:9 E include file missing.inc not found",
        "car.pc:4:9 E include file blob.inc is a binary file, not a deck",
        "car.pc:5:16 E NODE: node 1 is defined 2 times",
        "car.pc:6:16 E NODE: node 1 is defined 2 times",
        "car.pc:7:24 E SHELL / IDPRT: part 7 is not defined",
        "parts.inc:1:17 E NODE / X: \"-1263.9S\" is not a number",
        "parts.inc:2:1 W NODE header: \"/\" must be in column 7, a blank after it: \"NODE  / \"",
        "parts.inc:3:17 E NODE / X: tab in column 17",
        "parts.inc:4:1 N FOO: not a card header: \"/\" must be in column 7, a blank after it",
        "parts.inc:5:9 E include cycle: car.pc -> parts.inc -> car.pc")) {
      assertTrue(got.stream().anyMatch(g -> g.startsWith(want.substring(0, want.indexOf(' ') + 2))
          && g.contains(want.substring(want.indexOf(' ') + 3))), want + " in " + got);
    }
    assertEquals(got.stream().sorted(java.util.Comparator.comparing((String g) -> !g.startsWith("car.pc"))
        .thenComparing(g -> Integer.parseInt(g.split(":")[1]))).toList(), got, "the deck first, each file by line");
    assertTrue(String.valueOf(lua("return vim.fn.getqflist({ title = 1 }).title"))
        .matches("nvimpam: " + got.size() + " problems in car\\.pc and 1 include files"), String.valueOf(lua(
        "return vim.fn.getqflist({ title = 1 }).title")));
  }

  @Test
  void anIncludeFileOpenedAloneTakesTheVersionOfTheDeckThatIncludesIt() throws IOException {
    // 2011 SHELL rows carry NINT in columns 57-64, which the newest layout leaves blank.
    String shell = "SHELL /        1       1       1       2       3       4       3";
    Path inc = dir.resolve("shells.pc");
    Files.write(inc, deck(shell));
    Path main = dir.resolve("main.pc");
    Files.write(main, deck("INPUTVERSION 2011", "INCLU / shells.pc"));
    setup("");
    nvim.command("edit " + inc).join();
    diagnostics("leaves blank"); // alone: the newest layout
    nvim.command("split " + main).join();
    nvim.command("wincmd j").join();
    assertEquals(List.of(), noDiagnostics());
    assertEquals(2011L, lua("return vim.b.nvimpam_inherited_version"));
  }
}
