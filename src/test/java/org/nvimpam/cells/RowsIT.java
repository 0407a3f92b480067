package org.nvimpam.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.SharedNvimTestBase;

/** lua/nvimpam/model/rows.lua: the row walk of docs/CARDS.md on the test table, and its on-screen form. */
class RowsIT extends SharedNvimTestBase {
  @BeforeAll
  static void table() {
    CellsLua.useTestTable(nvim);
  }

  private static Object classify(String deck, Integer version) {
    return CellsLua.lua(nvim, "local lines, v = ... return require('nvimpam.model.rows').classify_lines(lines, v)",
        List.of(deck.split("\n", -1)), version);
  }

  @Test
  void nodeAndShellLinesAreEachTheHeaderRowOfTheirCard() {
    assertEquals(List.of("none", "comment", "NODE@2011#1", "NODE@2011#1", "SHELL@2011#1"), classify("""
        INPUTVERSION 2011
        $#         IDNOD               X
        NODE  /        1              0.            50.5              0.
        NODE  /        2              0.            50.5             10.
        SHELL /        1       1       1       2       3       4""", 2011));
  }

  @Test
  void theNewestLayoutWithoutAVersion() {
    assertEquals(List.of("SHELL@2020#1"), classify("SHELL /        1       1       1       2       3       4", null));
  }

  @Test
  void partRowsFollowIdmatAndTheNameRowWithCommentsBetween() {
    assertEquals(List.of("PART:SHELL@2011#1", "PART:SHELL@2011#2", "comment", "PART:SHELL@2011#3", "PART:SHELL@2011#4",
        "PART:SHELL@2011#5", "PART:SHELL@2011#6", "PART:SHELL@2011#7", "PART:SHELL@2011#8", "extra"), classify("""
        PART  /        1   SHELL       0
        RMAT steel
        $# TITLE
        NAME part one
               0.1
               0.2
               1.0    3
               0.0
        END_PART
        junk after the card""", 2011));
  }

  @Test
  void withoutIdmatZeroThereIsNoRmatRow() {
    assertEquals(List.of("PART:SHELL@2023#1", "PART:SHELL@2023#3", "PART:SHELL@2023#4"), classify("""
        PART  /        1   SHELL       5
        NAME part one
               0.1""", 2023));
  }

  @Test
  void aBlankIdmatIsNoNumberSoNoRmatRowIsExpectedAsTheFoldEngineReadsIt() {
    assertEquals(List.of("PART:SHELL@2011#1", "PART:SHELL@2011#3", "PART:SHELL@2011#4"), classify("""
        PART  /        1   SHELL
        NAME part one
                0.""", 2011));
  }

  @Test
  void anIdmatOfZeroExpectsTheRmatRow() {
    assertEquals(List.of("PART:SHELL@2011#1", "PART:SHELL@2011#2", "PART:SHELL@2011#3"), classify("""
        PART  /        1   SHELL       0
        RMAT steel
        NAME part one""", 2011));
  }

  @Test
  void endPartEndsTheCardWhereverTheWalkIs() {
    assertEquals(List.of("PART:SHELL@2011#1", "PART:SHELL@2011#3", "PART:SHELL@2011#4", "PART:SHELL@2011#8", "extra"),
        classify("""
            PART  /        1   SHELL       1
            NAME short part
                   0.1
            END_PART
                   1.0""", 2011));
  }

  @Test
  void aRepeatRowTakesAsManyLinesAsItsFieldSays() {
    assertEquals(List.of("PART:BEAM@2011#1", "PART:BEAM@2011#3", "PART:BEAM@2011#4", "PART:BEAM@2011#5",
        "PART:BEAM@2011#6", "PART:BEAM@2011#7", "PART:BEAM@2011#7", "PART:BEAM@2011#8"), classify("""
        PART  /        2    BEAM       1
        NAME beam


        SECT      2
          1.
          2.
        END_PART""", 2011));
  }

  @Test
  void anUnknownVariantUsesTheBaseEntry() {
    assertEquals(List.of("PART@2011#1", "PART@2011#3", "PART@2011#4"),
        classify("PART  /        3   SOLID       1\nNAME solid\n       0.1", 2011));
  }

  @Test
  void massTakesItsContinuedRowOnlyAfterAnAmpersandThenItsGes() {
    String row = CellsLua.pad("        1.              1.              1.", 80);
    assertEquals(List.of("MASS@2011#1", "MASS@2011#2", "MASS@2011#3", "MASS@2011#4", "ges", "comment", "ges", "ges_end",
        "extra"), classify("MASS  /        1       0\nNAME m\n" + row + "&\n        2.\n        NOD 1 2 3\n$ c\n"
            + "        GRP 4\n        END   \nafter", 2011));
    assertEquals(List.of("MASS@2011#1", "MASS@2011#2", "MASS@2011#3", "ges_end"),
        classify("MASS  /        1       0\nNAME m\n" + row + "\n        END", 2011));
  }

  @Test
  void aGroupsMetaBlockRunsToItsEndWordThenItsGes() {
    assertEquals(List.of("GROUP@2011#1", "GROUP@2011#2", "GROUP@2011#2", "GROUP@2011#2", "ges", "ges_end"), classify("""
        GROUP / left side
        META
          owner = crash team
        END_META
                PART 1
                END""", 2011));
  }

  @Test
  void aCardHeaderLineEndsTheCardInsideABlockToo() {
    assertEquals(List.of("GROUP@2011#1", "GROUP@2011#2", "GROUP@2011#2", "NODE@2011#1"), classify("""
        GROUP / left side
        META
          owner = crash team
        NODE  /        1""", 2011));
  }

  @Test
  void theLinesOfACardWithoutAnEntryAreInNoCard() {
    assertEquals(List.of("none", "none", "comment", "NODE@2011#1"), classify("""
        MATER /        1
              1.
        # c
        NODE  /        1""", 2011));
  }

  @Test
  void theVersionIsTheFirstIntegerOnTheFirstInputversionLine() {
    assertEquals(List.of(2011L, 2023L), CellsLua.lua(nvim, "local v = require('nvimpam.model.version') "
        + "return { v.of_lines({ 'ANALYSIS', 'INPUTVERSION 2011', 'INPUTVERSION 2023' }), "
        + "v.of_lines({ 'INPUTVERSION   v2023' }) }"));
  }

  /** A deck of every kind of line, to compare the on-screen form with the whole-list one. */
  private static final String MIXED = """
      INPUTVERSION 2011
      NODE  /        1              0.            50.5              0.
      PART  /        1   SHELL       0
      RMAT steel
      $ comment
      NAME part one
             0.1
             0.2
             1.0    3
             0.0
      END_PART
      GROUP / g
      META
        x
      END_META
              PART 1
              NOD 2
              END
      extra line
      MASS  /        1       0
      NAME m
              NOD 1
              END""";

  @Test
  void everyScreenRangeGivesTheRowsOfTheWholeDeckWalk() throws IOException {
    open(MIXED.getBytes());
    Object same = CellsLua.lua(nvim, """
        local rows = require('nvimpam.model.rows')
        local lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
        local want = rows.classify_lines(lines, 2011)
        local names = { [0] = 'comment', 'none', 'extra', 'ges', 'ges_end' }
        for top = 0, #lines - 1 do
          for bot = top + 1, #lines do
            local r = rows.range(0, top, bot, 2011)
            for row = top, bot - 1 do
              local i = row - top + r.off + 1
              local got = r.kind[i] == rows.ROW and (r.ent[i].key .. '@' .. r.ent[i].version .. '#' .. r.rowi[i])
                or names[r.kind[i]]
              if got ~= want[row + 1] then
                return string.format('[%d, %d) line %d: %s, not %s', top, bot, row, got, want[row + 1])
              end
            end
          end
        end
        return true""");
    assertEquals(true, same);
  }

  @Test
  void theWalkBackStopsAtTheCardsHeaderLine() throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 5000; i++) lines.add("NODE  /" + String.format("%9d", i) + "              0.");
    lines.add("PART  /        1   SHELL       1");
    lines.add("NAME p");
    lines.add("       0.1");
    lines.add("       0.2");
    open(String.join("\n", lines).getBytes());
    assertEquals(List.of(3L, "PART:SHELL@2011#5"), CellsLua.lua(nvim, """
        local rows = require('nvimpam.model.rows')
        rows.walked = 0
        local r = rows.range(0, 5003, 5004, 2011)
        return { rows.walked, r.ent[r.off + 1].key .. '@2011#' .. r.rowi[r.off + 1] }"""));
  }

  @Test
  void aWalkBackIsCappedAndThenLinesKeepOnlyTheKindTheirShapeShows() throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("GROUP / big");
    for (int i = 0; i < 10_000; i++) lines.add("        NOD " + i);
    lines.add("        END");
    open(String.join("\n", lines).getBytes());
    Object got = CellsLua.lua(nvim, """
        local rows = require('nvimpam.model.rows')
        rows.walked = 0
        local r = rows.range(0, 9000, 9003, 2011)
        local e = rows.range(0, 10001, 10002, 2011)
        return { rows.walked <= 2 * rows.WALK_CAP, r.kind[r.off + 1] == rows.GES, e.kind[e.off + 1] == rows.GES_END }""");
    assertEquals(List.of(true, true, true), got);
  }

  @Test
  void aWalkBackReadsLinesInChunksNotOneCallPerLine() throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("GROUP / big");
    for (int i = 0; i < 2000; i++) lines.add("        NOD " + i);
    open(String.join("\n", lines).getBytes());
    Object calls = CellsLua.lua(nvim, """
        local api = vim.api
        local real, n = api.nvim_buf_get_lines, 0
        api.nvim_buf_get_lines = function(...) n = n + 1 return real(...) end
        local ok, r = pcall(require('nvimpam.model.rows').range, 0, 1990, 2000, 2011)
        api.nvim_buf_get_lines = real
        return { n, r.ent[r.off + 1].key, r.kind[r.off + 1] }""");
    List<?> c = (List<?>) calls;
    assertTrue((Long) c.get(0) <= 8, "nvim_buf_get_lines calls: " + c.get(0));
    assertEquals(List.of("GROUP", 3L), c.subList(1, 3));
  }
}
