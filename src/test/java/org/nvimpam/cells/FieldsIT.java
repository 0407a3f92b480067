package org.nvimpam.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nvimpam.testutil.SharedNvimTestBase;

/** lua/nvimpam/model/fields.lua and problems.lua: the checks of docs/CARDS.md "What is an error", on the test table. */
class FieldsIT extends SharedNvimTestBase {
  @BeforeAll
  static void table() {
    CellsLua.useTestTable(nvim);
  }

  /** Each problem as "lnum:col-end_col severity message". */
  private static Object check(String deck, Integer version) {
    return CellsLua.lua(nvim, "local lines, v = ... local out = {} "
        + "for _, d in ipairs(require('nvimpam.model.problems').check_lines(lines, v)) do "
        + "out[#out + 1] = string.format('%d:%d-%d %d %s', d.lnum, d.col, d.end_col, d.severity, d.message) end "
        + "return out", List.of(deck.split("\n", -1)), version);
  }

  /** A NODE line with {@code x} right-aligned in its X field (columns 17-32). */
  private static String nodeX(String x) {
    return "NODE  /        1" + String.format("%16s", x) + "            50.5              0.";
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "1.", ".5", "-1.5E-3", "1e5", "+.5e+2", "0.", "1.5D-3", "1.5d3", "1.5-3", "2.+4", ".", "-",
      "1e", "<LENGTH>", "[LENGTH]", "{LENGTH}", "  12.5   "})
  void aFloatFormIsNoProblem(String x) {
    assertEquals(List.of(), check(nodeX(x), 2011));
  }

  @Test
  void aLetterInAFloatIsNotANumber() {
    assertEquals(List.of("0:16-32 1 NODE / X: \"-1263.9S\" is not a number"), check(nodeX("-1263.9S"), 2011));
  }

  @ParameterizedTest
  @ValueSource(strings = {"1..5", "1 5", "1,5", "1.5-", "-+3", "1.5E-3x", "<A", "0x10", "1.5e-3.2"})
  void otherFormsAreNotNumbers(String x) {
    assertEquals(List.of("0:16-32 1 NODE / X: \"" + x + "\" is not a number"), check(nodeX(x), 2011));
  }

  @Test
  void anIntegerIsAnOptionalSignAndDigitsOrAParameter() {
    assertEquals(List.of("0:8-16 1 NODE / IDNOD: \"3a\" is not an integer", "1:8-16 1 NODE / IDNOD: \"1.\" is not an integer"),
        check("NODE  /       3a\nNODE  /       1.\nNODE  /      +12\nNODE  /      <N>", 2011));
  }

  @Test
  void aTabIsAnErrorInTheFieldThatHoldsIt() {
    assertEquals(List.of("0:16-23 1 NODE / X: \"1.\t\" is not a number", "0:22-23 1 NODE / X: tab in column 23"),
        check("NODE  /        1    1.\t", 2011));
  }

  @Test
  void aTabOutsideEveryFieldNamesTheCardOnly() {
    assertEquals(List.of("0:69-70 1 NODE: tab in column 70"), check(CellsLua.pad(nodeX("1."), 69) + "\t", 2011));
  }

  @Test
  void textPastColumn80IsAnErrorShownUpTo20Bytes() {
    String line = CellsLua.pad(nodeX("1."), 80) + "this text is much longer than twenty bytes";
    assertEquals(List.of("0:80-122 1 NODE: text past column 80: \"this text is much lo...\""), check(line, 2011));
  }

  @Test
  void anAmpersandInColumn81IsFineWhereTheRowHasAContinuationField() {
    String row = CellsLua.pad("        1.              1.              1.", 80);
    assertEquals(List.of(), check("MASS  /        1       0\nNAME m\n" + row + "&", 2011));
    assertEquals(List.of("2:80-81 1 MASS / CONT: \"x\" is not a continuation mark (& or -)"),
        check("MASS  /        1       0\nNAME m\n" + row + "x", 2011));
    assertEquals(List.of("0:80-81 1 NODE: text past column 80: \"&\""), check(CellsLua.pad(nodeX("1."), 80) + "&", 2011));
  }

  @Test
  void aNumberThatRunsIntoTheNextFieldIsAnError() {
    // X fills columns 17-32 and Y's "5" is in column 33, far from Y's last column.
    String line = "NODE  /        1" + "1234567890123456" + CellsLua.pad("5", 16) + "              0.";
    assertEquals(List.of("0:16-32 1 NODE / X: \"1234567890123456\" runs into Y"), check(line, 2011));
  }

  @Test
  void aNumberFillingItsFieldBesideAFullNextFieldDoesNotRunIntoIt() {
    assertEquals(List.of(), check("NODE  /        11234567890.12345" + "1234567890.12345" + "              0.", 2011));
  }

  @Test
  void choiceFlagsAndIntOrBlankFields() {
    String ok = "FLAGS / " + "  110111" + "     TWO" + "        " + "free txt" + "       3";
    String bad = "FLAGS /    1101x    FOUR      x1";
    assertEquals(List.of(), check(ok, 2011));
    assertEquals(List.of("0:8-16 1 FLAGS / DOF: \"1101x\" is not a string of 0 and 1",
        "0:16-24 1 FLAGS / KIND: \"FOUR\" is not one of ONE, TWO, THREE",
        "0:24-32 1 FLAGS / IOPT: \"x1\" is not an integer"), check(bad, 2011));
  }

  @Test
  void textInABlankFieldIsAWarning() {
    String shell = "SHELL /        1       1       1       2       3       4       5";
    assertEquals(List.of("0:56-64 2 SHELL / BLANK: \"5\" in columns 57-64, which this layout leaves blank"),
        check(shell, 2020));
    assertEquals(List.of(), check(shell, 2011));
  }

  @Test
  void aDeckOlderThanEveryLayoutIsFlaggedOnlyWhereAllLayoutsAgree() {
    String nint = "SHELL /        1       1       1       2       3       4       5";
    String letter = "SHELL /       1x       1       1       2       3       4       5";
    assertEquals(List.of(), check(nint, 1990));
    assertEquals(List.of("0:8-16 1 SHELL / IDEL: \"1x\" is not an integer"), check(letter, 1990));
  }

  @Test
  void rowsOfAPartAreCheckedByTheirOwnLayout() {
    assertEquals(List.of("4:15-24 1 PART / HMIN: \"abc\" is not a number",
        "5:0-10 1 PART / OFFSET: \"1.0x\" is not a number"), check("""
        PART  /        1   SHELL       1
        NAME p
               0.1
               0.2
               1.0    3      abc
              1.0x
        END_PART""", 2023));
  }

  @Test
  void linesOfCardsWithoutAnEntryAndExtraLinesAreCheckedForTabsOnly() {
    // their text is in no field; a tab would shift what the solver reads, wherever it is
    assertEquals(List.of("1:5-6 1 tab in column 6", "10:4-5 1 PART: tab in column 5"),
        check("MATER /        1\n  abc\t\nNODE  /        1\nPART  /        1   SHELL       1\nNAME p\n"
        + "\n\n\n\nEND_PART\n  1x\t", 2011));
    assertEquals(List.of(), check("MATER /        1\n  abc\nNODE  /        1\nPART  /        1   SHELL       1\nNAME p\n"
        + "\n\n\n\nEND_PART\n  1x", 2011));
  }
}
