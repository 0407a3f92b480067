package org.nvimpam.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nvimpam.testutil.SharedNvimTestBase;

/**
 * lua/nvimpam/model/layout/init.lua: the table of docs/CARDS.md parsed into entries, looked up by header
 * line and version, dumped canonically, and malformed input rejected with file:line: what.
 */
class LayoutLuaIT extends SharedNvimTestBase {
  private static int tables = 0;

  /** A table of one file, a.cards, holding {@code text}; returns its directory. */
  private static Path table(String text) throws IOException {
    Path d = dir.resolve("t" + tables++);
    Files.createDirectories(d);
    Files.writeString(d.resolve("INDEX"), "a.cards\n");
    Files.writeString(d.resolve("a.cards"), text);
    return d;
  }

  private static Object lua(String code, Object... args) {
    return CellsLua.lua(nvim, code, args);
  }

  private static String loadError(Path d) {
    CompletionException e = assertThrows(CompletionException.class,
        () -> lua("require('nvimpam.model.layout').load(...)", d.toString()));
    String m = e.getCause().getMessage();
    // Neovim's "Error executing lua: <message>" and a traceback around the message.
    int at = m.indexOf(d.toString());
    return m.substring(at + d.toString().length() + 1).split("\n")[0].trim();
  }

  @Test
  void theDumpExpandsFragmentsAddsImplicitFieldsAndResolvesAlignment() throws IOException {
    Path d = table("""
        # a comment line
        fragment HEAD
        row label=HEADER
          1-8     kw     PART                | Keyword
          9-16    int    IDPRT  def=part     | Part id
          17-24   choice ATYPE  values=SHELL,BEAM | Element type
        row name

        card PART Part 2011 select=17-24 | Part:  the base entry
        use HEAD
        end END_PART
        card PART:SHELL Part 2023 | Shell part
        use HEAD
        row if=IDPRT:0 label=RMAT
          1-10    str    RMAT   align=right  | Material name
        row repeat=IDPRT
          1-10    float  H      default=1.   | Thickness
        ges NODES
        block META END_META
        """);
    String want = String.join("\n",
        "card PART Part 2011 17-24|Part:  the base entry",
        "row row - HEADER",
        "field 1 8 kw PART - - - - left|Keyword",
        "field 9 16 int IDPRT - part - - right|Part id",
        "field 17 24 choice ATYPE - - - SHELL,BEAM right|Element type",
        "row name - -",
        "field 1 4 fixed NAME - - - - left|Fixed text NAME",
        "field 5 80 str TITLE - - - - left|Title",
        "row end END_PART -",
        "field 1 8 fixed END_PART - - - - left|Fixed text END_PART",
        "card PART:SHELL Part 2023 -|Shell part",
        "row row - HEADER",
        "field 1 8 kw PART - - - - left|Keyword",
        "field 9 16 int IDPRT - part - - right|Part id",
        "field 17 24 choice ATYPE - - - SHELL,BEAM right|Element type",
        "row name - -",
        "field 1 4 fixed NAME - - - - left|Fixed text NAME",
        "field 5 80 str TITLE - - - - left|Title",
        "row if IDPRT:0 RMAT",
        "field 1 10 str RMAT - - - - right|Material name",
        "row repeat IDPRT -",
        "field 1 10 float H 1. - - - right|Thickness",
        "row ges NODES -",
        "row block META,END_META -");
    assertEquals(want, lua("return require('nvimpam.model.layout').dump(...)", d.toString()));
  }

  @Test
  void lookupPicksTheVariantByItsColumnsAndTheGreatestVersionNotAboveTheDecks() {
    String code = "local l = require('nvimpam.model.layout') l.use(...) local out = {} "
        + "for _, c in ipairs({ {'PART  /        1   SHELL       1', 2015}, {'PART  /        1   SHELL       1', 2023}, "
        + "{'PART  /        1 SHELL         1', nil}, {'PART  /        1   FLUID       1', 2011}, "
        + "{'SHELL /        1', 2011}, {'SHELL /        1', 2022} }) do "
        + "local e = l.lookup(c[1], c[2]) out[#out + 1] = e.key .. '@' .. e.version end "
        + "l.use(nil) return out";
    assertEquals(List.of("PART:SHELL@2011", "PART:SHELL@2023", "PART:SHELL@2023", "PART@2011", "SHELL@2011", "SHELL@2020"),
        lua(code, CellsLua.testTable()));
  }

  @Test
  void aDeckOlderThanEveryLayoutGetsTheOldestAndIsToldSo() {
    assertEquals(List.of("SHELL", 2011L, true), lua("local l = require('nvimpam.model.layout') l.use(...) "
        + "local e, older = l.lookup('SHELL /        1', 1990) l.use(nil) return { e.key, e.version, older }",
        CellsLua.testTable()));
  }

  @Test
  void linesThatAreNoCardHeaderOrHaveNoEntryHaveNoEntry() {
    assertEquals(true, lua("local l = require('nvimpam.model.layout') l.use(...) "
        + "local r = l.lookup('MATER /        1') == nil and l.lookup('NODE  /x') == nil "
        + "and l.lookup(' NODE  / 1') == nil and l.lookup('$NODE  / 1') == nil and l.lookup('NODE  /') ~= nil "
        + "l.use(nil) return r", CellsLua.testTable()));
  }

  @Test
  void versionsAreAscendingAndKeysInTableOrder() {
    assertEquals(List.of(List.of(2011L, 2020L), List.of("NODE", "SHELL", "MASS", "GROUP", "FLAGS", "PART", "PART:SHELL",
        "PART:BEAM")), lua("local l = require('nvimpam.model.layout') l.use(...) "
        + "local r = { l.versions('SHELL'), l.keys() } l.use(nil) return r", CellsLua.testTable()));
  }

  @Test
  void theEntryIsCompiledIntoArraysOfColumnsAndTypeCodes() {
    assertEquals(List.of(List.of(1L, 9L, 17L, 33L, 49L), List.of(8L, 16L, 32L, 48L, 64L), List.of(1L, 3L, 5L, 5L, 5L)),
        lua("local l = require('nvimpam.model.layout') l.use(...) local r = l.lookup('NODE  /        1').rows[1] "
            + "l.use(nil) return { r.from, r.to, r.type }", CellsLua.testTable()));
  }

  @Test
  void theBundledTableLoads() {
    Object n = lua("local ok, t = pcall(require('nvimpam.model.layout').load) return ok and #t.entries or t");
    assertTrue(n instanceof Long && (Long) n > 0, "the bundled table: " + n);
  }

  static Stream<Arguments> malformed() {
    String head = "card NODE Node 2011 | Node\nrow\n  1-8 kw NODE | Keyword\n";
    return Stream.of(
        Arguments.of(head + "  9-16 integer ID | Id\n", "a.cards:4: unknown field type \"integer\""),
        Arguments.of(head + "  9-16 int ID | Id\n  12-20 int Y | Y\n", "a.cards:5: field Y (12-20) overlaps or precedes field ID (9-16)"),
        Arguments.of(head + "  9-88 str ID | Id\n", "a.cards:4: field ID ends in column 88, past 80"),
        Arguments.of(head + "  9-16 int ID\n", "a.cards:4: field ID has no description (| DESCRIPTION)"),
        Arguments.of(head + "  9-16 choice ID | Id\n", "a.cards:4: choice field ID needs values="),
        Arguments.of(head + "  9-16 int ID ref=planet | Id\n", "a.cards:4: unknown id kind \"planet\""),
        Arguments.of(head + "  9-16 int ID size=8 | Id\n", "a.cards:4: unknown attribute \"size\""),
        Arguments.of(head + "  80-81 cont C | Continued\n", "a.cards:4: a cont field is column 81 (81-81), not 80-81"),
        Arguments.of(head + "row if=Q:1\n  1-8 int A | A\n", "a.cards:4: card NODE, row 2: if= field Q is in no earlier row"),
        Arguments.of(head + "  9-16 int N | N\nrow if=N:1,,2\n  1-8 int A | A\n", "a.cards:5: \"if=N:1,,2\" is not if=FIELD:VALUE"),
        Arguments.of(head + "  9-16 int N | N\nrow if=N!\n  1-8 int A | A\n", "a.cards:5: \"if=N!\" is not if=FIELD:VALUE"),
        Arguments.of(head + "  9-16 int N | N\nrow if=N:1,\n  1-8 int A | A\n", "a.cards:5: \"if=N:1,\" is not if=FIELD:VALUE"),
        Arguments.of(head + "row until=end\n  1-8 int A | A\n", "a.cards:4: \"until=end\" is not until=WORD"),
        Arguments.of(head + "row when=\n  1-8 int A | A\n", "a.cards:4: \"when=\" is not when=WORD"),
        Arguments.of(head + "ges\n  9-16 int ID | Id\n", "a.cards:5: a ges row has no fields"),
        Arguments.of(head + "nonsense here\n", "a.cards:4: unknown line \"nonsense\""),
        Arguments.of(head + head, "a.cards:4: card NODE 2011 is defined twice (first at"),
        Arguments.of("card NODE Knot 2011 | Node\n", "a.cards:1: unknown category \"Knot\""),
        Arguments.of("card NODE Node 20x1 | Node\n", "a.cards:1: version \"20x1\" is not a year"),
        Arguments.of("card NODE Node 2011\n", "a.cards:1: card NODE has no description (| DESCRIPTION)"),
        Arguments.of("card NODE Node 2011 | Node\nrow\n  1-8 str NODE | K\n", "a.cards:1: card NODE: its first row must be its header row, with 1-8 kw first"),
        Arguments.of("card NODE Node 2011 | Node\nuse HEAD\n", "a.cards:2: use of fragment \"HEAD\", which is not defined (before this line)"),
        Arguments.of("fragment F\nrow\n  1-8 kw NODE | K\nfragment G\nuse F\n", "a.cards:5: fragment G uses another fragment (no nesting)"),
        Arguments.of("card NODE:X Node 2011 | Node\nrow\n  1-8 kw NODE | K\n", "a.cards:1: variant NODE:X: no card NODE with select=A-B"),
        Arguments.of("  1-8 kw NODE | K\n", "a.cards:1: a field outside a row"));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void malformedInputIsAnErrorNamingFileLineAndWhat(String text, String want) throws IOException {
    String got = loadError(table(text));
    assertTrue(got.startsWith(want), "got: " + got);
  }

  @Test
  void aFileTheIndexListsThatIsMissingIsAnError() throws IOException {
    Path d = table("card NODE Node 2011 | Node\nrow\n  1-8 kw NODE | K\n");
    Files.writeString(d.resolve("INDEX"), "# the files\na.cards\nb.cards\n");
    assertEquals("INDEX:3: b.cards is listed but there is no such file", loadError(d));
  }

  @Test
  void aTableWithoutItsIndexIsAnError() throws IOException {
    Path d = table("");
    Files.delete(d.resolve("INDEX"));
    assertEquals("INDEX: no such file (the list of layout files)", loadError(d));
  }

  @Test
  void getParsesOnceAndKeepsTheTable() {
    assertEquals(true, lua("local l = require('nvimpam.model.layout') l.use(...) local a = l.get() "
        + "local same = a == l.get() l.use(nil) return same", CellsLua.testTable()));
  }

  // load_soon(): the table parsed on the main loop in slices, so that no redraw waits for all of it.

  /** Loads the bundled table with load_soon() in slices of {@code sliceNs}; what happened. */
  private static List<?> loadSoon(String sliceNs, String meanwhile) {
    return (List<?>) lua("local L = require('nvimpam.model.layout') L.use(nil) L.slice_ns = " + sliceNs + " "
        + "local turns, done = 0, nil "
        + "local timer = (vim.uv or vim.loop).new_timer() timer:start(0, 1, function() turns = turns + 1 end) "
        + "L.load_soon(function(ok, err) done = { ok, err or '' } end) "
        + "local at_once = L.loaded() " + meanwhile + " "
        + "local ok = vim.wait(10000, function() return done ~= nil end, 1) "
        + "timer:stop() timer:close() L.slice_ns = 4e6 "
        + "return { at_once, ok and done[1], ok and done[2], turns, #L.get().entries }");
  }

  @Test
  void loadSoonYieldsToTheLoopBetweenSlicesAndThenCallsBack() {
    List<?> r = loadSoon("0", "");
    assertEquals(false, r.get(0), "nothing is parsed before load_soon returns");
    assertEquals(true, r.get(1), "done(true)");
    assertTrue(((Number) r.get(3)).longValue() > 10, "the loop ran between slices: " + r.get(3) + " timer turns");
    assertTrue(((Number) r.get(4)).longValue() > 300, "the whole table: " + r.get(4));
  }

  @Test
  void getFinishesALoadInSlicesAtOnce() {
    List<?> r = loadSoon("0", "local n = #L.get().entries assert(L.loaded() and n > 300, 'get() has it all')");
    assertEquals(true, r.get(1), "the callback still says done(true)");
  }

  @Test
  void aMalformedTableLoadedInSlicesCallsBackWithTheError() throws IOException {
    Path d = table("card PART Part 2011 | Part\nrow\n  x-8 kw PART | Keyword\n");
    Object r = lua("local L = require('nvimpam.model.layout') L.use(...) local done "
        + "L.load_soon(function(ok, err) done = { ok, err } end) vim.wait(10000, function() return done ~= nil end, 1) "
        + "L.use(nil) return done", d.toString());
    List<?> done = (List<?>) r;
    assertEquals(false, done.get(0));
    assertTrue(String.valueOf(done.get(1)).contains("a.cards:3:"), String.valueOf(done.get(1)));
  }

  @Test
  void switchingTablesWhileOneLoadsCallsBackWithoutIt() {
    Object r = lua("local L = require('nvimpam.model.layout') L.use(nil) local done "
        + "L.load_soon(function(ok, err) done = { ok, err } end) L.use(nil) "
        + "vim.wait(10000, function() return done ~= nil end, 1) return { done[1], done[2], L.loaded() }");
    assertEquals(List.of(false, "the table was switched while it loaded", false), r);
  }
}
