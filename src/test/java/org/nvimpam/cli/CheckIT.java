package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.Json;
import org.nvimpam.testutil.PluginTestBase;

/**
 * {@code check} against the plugin in a real Neovim: both list the same problems on the sample
 * decks and on a mutated {@code gen} deck; Neovim's default 'errorformat' reads the text format
 * (:cexpr), and {@code :compiler pamcrash | make} fills the quickfix list with errors and warnings.
 */
class CheckIT extends PluginTestBase {
  @BeforeEach
  void detectFiletypes() {
    nvim.command("filetype on").join();
  }

  /** What {@code check --format json} says of {@code deck}, as "lnum:col-end severity message [code]" (0-based, as vim.diagnostic). */
  private static List<String> check(Path deck) {
    CliRun r = CheckCommandTest.run("check", "--format", "json", deck.toString());
    assertTrue(r.code() < 2, r.err());
    List<String> out = new ArrayList<>();
    for (Object o : (List<?>) Json.parse(r.out())) {
      Map<?, ?> p = (Map<?, ?>) o;
      assertEquals(deck.toString(), p.get("file"), "a deck without includes");
      out.add(String.format("%d:%d-%d %d %s [%s]", (Long) p.get("line") - 1, (Long) p.get("col") - 1, (Long) p.get("end_col") - 1,
          "error".equals(p.get("severity")) ? 1 : 2, p.get("message"), p.get("code")));
    }
    out.sort(null);
    return out;
  }

  /** The plugin's diagnostics of the current buffer, fields and ids, with their codes, once they equal {@code want} (or after 60 s). */
  @SuppressWarnings("unchecked")
  private List<String> diagnostics(List<String> want) {
    String get = "local out = {} for _, name in ipairs({ 'nvimpam', 'nvimpam.refs' }) do "
        + "local ns = vim.api.nvim_create_namespace(name) "
        + "for _, d in ipairs(vim.diagnostic.get(0, { namespace = ns })) do "
        + "out[#out + 1] = string.format('%d:%d-%d %d %s [%s]', d.lnum, d.col, d.end_col, d.severity, d.message, tostring(d.code)) end end "
        + "table.sort(out) return out";
    long deadline = System.nanoTime() + 60_000_000_000L;
    List<String> d;
    do {
      d = (List<String>) lua(get);
      if (d.equals(want)) return d;
      lua("vim.wait(100)");
    } while (System.nanoTime() < deadline);
    return d;
  }

  private void assertSameProblems(Path deck) {
    List<String> want = check(deck);
    setup("max_diagnostics = 1000000");
    nvim.command("edit " + deck).join();
    List<String> have = diagnostics(want);
    if (!have.equals(want)) {
      List<String> onlyCheck = want.stream().filter(x -> !have.contains(x)).limit(20).collect(Collectors.toList());
      List<String> onlyPlugin = have.stream().filter(x -> !want.contains(x)).limit(20).collect(Collectors.toList());
      throw new AssertionError(deck.getFileName() + ": check " + want.size() + ", plugin " + have.size()
          + "; only check: " + onlyCheck + "; only the plugin: " + onlyPlugin);
    }
  }

  @Test
  void theSampleDecksGetTheSameProblems() throws IOException {
    Path sample = dir.resolve("example2.pc");
    try (var in = CheckIT.class.getResourceAsStream("/decks/example2.pc")) {
      Files.copy(in, sample);
    }
    assertTrue(check(sample).size() > 5, "a sample with problems of fields and ids");
    assertSameProblems(sample);
    Path example = dir.resolve("example.pc");
    Files.write(example, EmbeddedNvim.exampleDeck());
    assertSameProblems(example);
  }

  @Test
  void aMutatedGenDeckGetsTheSameProblems() throws IOException {
    String[] lines = new String(new DeckGenerator(5).generate(20_000), StandardCharsets.ISO_8859_1).split("\n", -1);
    java.util.Random rnd = new java.util.Random(34);
    int nodes = 0;
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      if (!l.startsWith("NODE  /") || l.length() < 64) continue;
      switch (nodes++ % 97) {
        case 3 -> lines[i] = l.substring(0, 20) + "x" + l.substring(21); // a broken coordinate
        case 11 -> lines[i] = "$ " + l; // a node gone: its elements reference nothing
        case 29 -> lines[i] = l + "\t"; // a tab
        case 41 -> lines[i] = String.format("%-80s%s", l, "past"); // text past 80
        case 53 -> lines[i] = l + "\n" + l; // defined twice
        default -> { }
      }
      if (rnd.nextInt(1000) == 0) lines[i] = lines[i] + "\nINCLU / gone" + i + ".inc";
    }
    Path deck = dir.resolve("mutated.pc");
    Files.writeString(deck, String.join("\n", lines), StandardCharsets.ISO_8859_1);
    List<String> codes = CheckCommandTest.run("check", deck.toString()).out().lines()
        .map(l -> l.substring(l.lastIndexOf('[') + 1, l.length() - 1)).distinct().sorted().toList();
    assertTrue(codes.containsAll(List.of("field-float", "id-undefined", "id-duplicate", "tab", "past-80")), codes.toString());
    assertSameProblems(deck);
  }

  /**
   * MATER type 1's data rows are read alike by check and the plugin: each row form gets its
   * diagnostic for a value that does not fit (CURVE form, 2021 layout), a valid card (POWER form)
   * gets none.
   */
  @Test
  void materType1RowsGetTheSameProblems() throws IOException {
    Path deck = dir.resolve("mater1.pc");
    Files.writeString(deck, String.join("\n", "INPUTVERSION 2021", "FUNCT /        7       0", "NAME curve",
        String.format("%32s%16s", "0.", "0."), String.format("%32s%16s", "1.", "100."), "        END",
        String.format("MATER / %8d%8d%16s", 1, 1, "7.8E-9"), "", "NAME curve material",
        String.format("%10s%-10s%10s%10s%20s%10s%10s", "210000.", "CURVE", "0.", "0.", "", "0.", "0."),
        String.format("%10s%-10s%40s%10s%10s", "175000.", "AFCHX", "", "0.", "y"), // KEYWORD, ALPHAZ
        String.format("%10d", 7), // LC1: FUNCT 7
        String.format("%10s%10s", "0.", "1.x"), // EPSLN2
        String.format("%10s", "s7"), // STRAT7
        String.format("%60s%10s", "", "q"), // Q3
        String.format("%10s", "1.5"), // the tenth row's integer
        "", "", "", String.format("%70s%10s", "", "h"), // the fourteenth row's last real
        String.format("MATER / %8d%8d%16s", 2, 1, "7.8E-9"), "", "NAME power",
        String.format("%10s%-10s%10s%10s", "210000.", "POWER", "", "0."),
        String.format("%10s%-10s%40s%10s%10s", "175000.", "OWANG", "", "0.1", "0.2"),
        String.format("%10s%10s%10s%10s", "1.", "2.", "3.", "4."), "",
        String.format("%10s%50s%10s%10s", "1.", "", "0.", "0."),
        String.format("%10s%10s%10s%10s%10s%10s%10s", "1.", "2.", "3.", "4.", "5.", "6.", "7."), String.format("%10s", "3"), ""),
        StandardCharsets.ISO_8859_1);
    assertEquals(List.of(
        "10:10-20 1 MATER / KEYWORD: \"AFCHX\" is not one of AFCHA, OWANG [field-choice]",
        "10:70-80 1 MATER / ALPHAZ: \"y\" is not a number [field-float]",
        "12:10-20 1 MATER / EPSLN2: \"1.x\" is not a number [field-float]",
        "13:0-10 1 MATER / STRAT7: \"s7\" is not a number [field-float]",
        "14:60-70 1 MATER / Q3: \"q\" is not a number [field-float]",
        "15:0-10 1 MATER / I10: \"1.5\" is not an integer [field-int]",
        "19:70-80 1 MATER / R14H: \"h\" is not a number [field-float]"), check(deck));
    assertSameProblems(deck);
  }

  /**
   * THMAT's free-format body (key rows): keyword lines in any order, some left out, each followed by
   * its value line; a bad value is flagged in its own columns, values past the row's fields and an
   * unknown keyword's lines are not, alike by check and the plugin.
   */
  @Test
  void thmatBodiesGetTheSameProblems() throws IOException {
    Path deck = dir.resolve("thmat.pc");
    Files.writeString(deck, String.join("\n", "INPUTVERSION 2011",
        "THMAT /     1050", "NAME steel", "SPECIFIC_HEAT CONSTANT", "  4.6E8  0.x", "MASS_DENSITY", "   7.85E-9",
        "LATENT_HEAT", "  2.7E11  14o0.  1450.  extra", "ENTHALPY", "  1.5", "END_THMAT",
        "THMAT /     1051", "NAME valid", "  CONDUCTIVITY ANISOTROPIC", "  45.  40.  35.", "MASS_DENSITY", "  7.85E-9",
        "EMISSIVITY", "  not checked", "END_THMAT",
        "MATER /     1050       1          7.8E-9", "", "NAME same number as a THMAT", ""),
        StandardCharsets.ISO_8859_1);
    assertEquals(List.of(
        "10:2-5 1 THMAT / IFUNHT: \"1.5\" is not an integer [field-int]",
        "4:9-12 1 THMAT / HREF: \"0.x\" is not a number [field-float]",
        "8:10-15 1 THMAT / TMIN: \"14o0.\" is not a number [field-float]"), check(deck));
    assertSameProblems(deck);
  }

  /** MATER type 1's other hardening laws (ECURV, VOCEG, LOOKU, a blank SIGMAY, KRUPK): the rows each law takes, read alike. */
  @Test
  void materType1LawRowsGetTheSameProblems() throws IOException {
    List<String> lines = new ArrayList<>(List.of("INPUTVERSION 2021"));
    String[][] cards = {
      {"ECURV", String.format("%10s", "x"), String.format("%10s", "t"), String.format("%70s", "k"), "", ""},
      {"VOCEG", String.format("%10s%10s", "1.", "1.5"), String.format("%80s", "v"), "", "", ""},
      {"LOOKU", String.format("%10s%10s%10s", "1.", "2", "z"), "", "", "", ""},
      {"", String.format("%10s%70s", "a", "1."), String.format("%80s", "b"), "", "", ""},
      {"KRUPK", String.format("%10s%10s%10s%10s", "1.", "2.", "3.", "p"), "", "", "", ""}};
    for (int i = 0; i < cards.length; i++) {
      lines.addAll(List.of(String.format("MATER / %8d%8d%16s", i + 3, 1, "7.8E-9"), "", "NAME m" + (i + 3),
          String.format("%10s%-10s%10s%10s", "210000.", cards[i][0], "", "0."), String.format("%10s%-10s", "175000.", "")));
      lines.addAll(List.of(cards[i]).subList(1, cards[i].length));
    }
    lines.add("");
    Path deck = dir.resolve("mater1laws.pc");
    Files.writeString(deck, String.join("\n", lines), StandardCharsets.ISO_8859_1);
    assertEquals(List.of(
        "16:10-20 1 MATER / VOC2: \"1.5\" is not an integer [field-int]",
        "17:70-80 1 MATER / VOC10: \"v\" is not a number [field-float]",
        "26:20-30 1 MATER / LKU3: \"z\" is not an integer [field-int]",
        "36:0-10 1 MATER / HRD1: \"a\" is not a number [field-float]",
        "37:70-80 1 MATER / HRD16: \"b\" is not a number [field-float]",
        "46:30-40 1 MATER / LAW4: \"p\" is not a number [field-float]",
        "6:0-10 1 MATER / LC1: \"x\" is not an integer [field-int]",
        "7:0-10 2 MATER / BLANK: \"t\" in columns 1-80, which this layout leaves blank [field-blank]",
        "8:60-70 1 MATER / KSI: \"k\" is not a number [field-float]"), check(deck));
    assertSameProblems(deck);
  }

  @Test
  @SuppressWarnings("unchecked")
  void theDefaultErrorformatReadsTheTextFormat() throws IOException {
    Path deck = dir.resolve("deck.pc");
    Files.writeString(deck, String.join("\n", CheckCommandTest.V, CheckCommandTest.N1, CheckCommandTest.node("2x", "0."),
        CheckCommandTest.N1, "") , StandardCharsets.ISO_8859_1);
    nvim.command("set errorformat&").join();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    lua("vim.cmd('cexpr system(' .. vim.fn.string({ " + luaString(java) + ", '-jar', " + luaString(EmbeddedNvim.jar())
        + ", 'check', " + luaString(deck.toString()) + " }) .. ')')");
    List<Map<String, Object>> qf = (List<Map<String, Object>>) lua("return vim.tbl_filter(function(i) return i.valid == 1 end, vim.fn.getqflist())");
    assertEquals(3, qf.size());
    Map<String, Object> second = qf.get(1);
    assertEquals(1L, second.get("valid"));
    assertEquals(3L, second.get("lnum"));
    assertEquals(9L, second.get("col"));
    assertEquals(deck.toString(), lua("return vim.fn.bufname(" + second.get("bufnr") + ")"));
    assertTrue(String.valueOf(second.get("text")).contains("NODE / IDNOD: \"2x\" is not an integer [field-int]"), second.toString());
  }

  @Test
  @SuppressWarnings("unchecked")
  void compilerPamcrashMakeFillsTheQuickfixListWithErrorsAndWarnings() throws IOException {
    Path deck = dir.resolve("deck.pc");
    Files.writeString(deck, String.join("\n", CheckCommandTest.V, CheckCommandTest.N1, CheckCommandTest.node("2x", "0."),
        CheckCommandTest.mtoco("xx", "111111", "ALL"), "NAME x", ""), StandardCharsets.ISO_8859_1);
    setup("");
    nvim.command("edit " + deck).join();
    nvim.command("compiler pamcrash").join();
    assertTrue(String.valueOf(lua("return vim.bo.makeprg")).contains(" check "), String.valueOf(lua("return vim.bo.makeprg")));
    nvim.command("silent make").join();
    List<Map<String, Object>> qf = (List<Map<String, Object>>) lua("return vim.tbl_filter(function(i) return i.valid == 1 end, vim.fn.getqflist())");
    assertEquals(2, qf.size(), String.valueOf(lua("return vim.fn.getqflist()")));
    assertEquals("e", qf.get(0).get("type")); // %t keeps the letter: quickfix shows it as an error
    assertEquals(3L, qf.get(0).get("lnum"));
    assertEquals(9L, qf.get(0).get("col"));
    assertEquals("w", qf.get(1).get("type"));
    assertEquals(4L, qf.get(1).get("lnum"));
    assertEquals(25L, qf.get(1).get("col"));
    assertEquals(2L, lua("return #vim.fn.getqflist()"), "the summary on stderr is left out");
  }

  @Test
  void theJarChecksInAJvmWithC1OnlyAndKeepsOutputAndExitStatus() throws Exception {
    Path deck = dir.resolve("deck.pc");
    Files.writeString(deck, String.join("\n", CheckCommandTest.V, CheckCommandTest.node("2x", "0."), ""), StandardCharsets.ISO_8859_1);
    Path jar = Path.of(EmbeddedNvim.jar());
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString(),
        "check", "--format", "json", deck.toString()).redirectErrorStream(false).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(1, p.waitFor(), err);
    assertEquals("field-int", ((Map<?, ?>) ((List<?>) Json.parse(out)).get(0)).get("code"));
    assertTrue(err.startsWith(deck + ": 1 error"), err);
    assertEquals(null, CheckCommand.relaunch(new String[] {"folds", "x.pc"}), "only check");
  }

  private static String luaString(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\t", "\\t") + "'";
  }
}
