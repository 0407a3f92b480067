package org.nvimpam.writing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.testutil.EmbeddedNvim;

/** :NvimpamAlign and gq: values into their columns, never a value changed or cut. */
class AlignTest extends WritingTestBase {

  private static final String NODE_1 = "NODE  /        1              0.              0.              0.";

  // For every row line of a deck file: aligned as it is, and with every number moved to the left
  // of its field, the line must read the same numbers (as doubles) and the same texts in every
  // field, and aligning again must change nothing. The reading here is the test's own.
  private static final String EVERY_LINE = String.join("\n",
      "local path = ...",
      "local rows, layout, align = require('nvimpam.model.rows'), require('nvimpam.model.layout'), require('nvimpam.edit.align.line')",
      "local problems = require('nvimpam.model.problems')",
      "local function num(s)",
      "  local t = s:gsub('[dD]', 'e')",
      "  if not t:find('[eE]') then t = t:gsub('(%d)([+-]%d+)$', '%1e%2') end",
      "  if t:sub(1, 1) == '.' then t = '0' .. t end",
      "  t = t:gsub('^([+-])%.', '%10.'):gsub('%.([eE])', '.0%1'):gsub('%.$', '.0')",
      "  return tonumber(t)",
      "end",
      "local NUM = { [layout.INT] = true, [layout.INT_OR_BLANK] = true, [layout.FLOAT] = true }",
      "local function reads(line, row)",
      "  local out = {}",
      "  for j, f in ipairs(row.fields) do",
      "    local v = line:sub(f.from, f.to):match('^%s*(.-)%s*$')",
      "    out[j] = NUM[f.code] and num(v) or v",
      "  end",
      "  return out",
      "end",
      "local function same(a, b)",
      "  for j = 1, math.max(#a, #b) do if a[j] ~= b[j] then return false, j end end",
      "  return true",
      "end",
      "local L = vim.fn.readfile(path)",
      "local v = require('nvimpam.model.version').of_lines(L)",
      "local kind, ent, rowi = rows.classify(L, v)",
      "local bad, checked, moved = {}, 0, 0",
      "for i, line in ipairs(L) do",
      "  if kind[i] == rows.ROW and #bad < 20 then",
      "    local row = ent[i].rows[rowi[i]]",
      "    if row.n > 0 then",
      "      checked = checked + 1",
      "      local shifted = line",
      "      for _, f in ipairs(row.fields) do",
      "        if NUM[f.code] then",
      "          local val = shifted:sub(f.from, f.to):match('^%s*(.-)%s*$')",
      "          local before = shifted:sub(f.from - 1, f.from - 1)",
      "          if val ~= '' and not val:find(' ') and #shifted >= f.to and (before == ' ' or before == '') then",
      "            local cell = val .. string.rep(' ', f.to - f.from + 1 - #val)",
      "            shifted = shifted:sub(1, f.from - 1) .. cell .. shifted:sub(f.to + 1)",
      "          end",
      "        end",
      "      end",
      "      for _, input in ipairs({ line, shifted }) do",
      "        local out, field, msg = align.align_line(input, row)",
      "        if not out then",
      "          -- Refusing is right for a line with a field error of its own (a number that is none).",
      "          if #problems.line_diagnostics(line, ent[i], rowi[i], 0) == 0 then",
      "            bad[#bad + 1] = i .. ': refused ' .. tostring(field) .. ' ' .. tostring(msg) .. ': ' .. input",
      "          end",
      "        else",
      "          if out ~= input then moved = moved + 1 end",
      "          local ok, j = same(reads(line, row), reads(out, row))",
      "          if not ok then bad[#bad + 1] = i .. ': field ' .. row.fields[j].name .. ' changed: ' .. out end",
      "          if align.align_line(out, row) ~= out then bad[#bad + 1] = i .. ': not idempotent: ' .. out end",
      "        end",
      "      end",
      "    end",
      "  end",
      "end",
      "if checked < 1000 or moved < 1000 then bad[#bad + 1] = 'only ' .. checked .. ' rows, ' .. moved .. ' moved' end",
      "return bad");

  @SuppressWarnings("unchecked")
  private List<String> everyLine(Path deck) {
    return (List<String>) lua(EVERY_LINE, deck.toString());
  }

  @Test
  void everyRowOfTheBundledDeckKeepsItsValuesAndAligningTwiceChangesNothing() {
    assertEquals(List.of(), everyLine(EmbeddedNvim.root().resolve("src/main/resources/decks/example.pc")));
  }

  @Test
  void everyRowOfTheSecondSampleDeckKeepsItsValuesAndAligningTwiceChangesNothing() {
    assertEquals(List.of(), everyLine(EmbeddedNvim.root().resolve("src/test/resources/decks/example2.pc")));
  }

  @Test
  void everyRowOfAGeneratedDeckKeepsItsValuesAndAligningTwiceChangesNothing() throws IOException {
    Path deck = dir.resolve("generated.pc");
    Files.write(deck, new DeckGenerator(7).generate(20000));
    assertEquals(List.of(), everyLine(deck));
  }

  @Test
  void numbersAreRightJustifiedInTheirFields() {
    open("INPUTVERSION 2011", "NODE  / 12      1.5             2.              -3");
    cursor(2, 1);
    nvim.command("NvimpamAlign").join();
    assertEquals("NODE  /       12             1.5              2.              -3", line(2));
  }

  // Every row of every layout (all versions): random values in their fields, some blank, and the
  // same lines shifted by blanks inserted and deleted; see the script for what is checked.
  @SuppressWarnings("unchecked")
  private List<Object> property(String seed, String cases, String mode) {
    String script = EmbeddedNvim.root().resolve("src/test/resources/lua/align_property.lua").toString();
    return (List<Object>) lua("return assert(loadfile((...)))(select(2, ...))", script, seed, cases, mode);
  }

  @Test
  void everyRowOfEveryLayoutKeepsItsValuesInOrderInTheFieldsTheLineGivesThem() {
    for (String seed : List.of("1", "2", "3")) {
      List<Object> r = property(seed, "4", "");
      @SuppressWarnings("unchecked")
      Map<String, Long> counts = (Map<String, Long>) r.get(1);
      assertEquals(List.of(), r.get(0), "seed " + seed + ", " + counts);
      // Every row, and each outcome many times: aligned in place, moved, re-split, refused.
      assertTrue(counts.get("rows") >= 1500 && counts.get("moved") > 3000 && counts.get("resplit") > 500
          && counts.get("refused") > 500 && counts.get("shifted") > 10000, counts.toString());
    }
  }

  @Test
  void onEveryRowOfEveryLayoutTheCommandWritesWhatTheLineAlignsToOrNamesLineAndField() {
    open("INPUTVERSION 2011");
    List<Object> r = property("4", "1", "buffer");
    @SuppressWarnings("unchecked")
    Map<String, Long> counts = (Map<String, Long>) r.get(1);
    assertEquals(List.of(), r.get(0), counts.toString());
    assertTrue(counts.get("rows") >= 400 && counts.get("aligned") > 100 && counts.get("refused") > 20, counts.toString());
  }

  @Test
  void aLineShiftedByTypingInInsertModeIsSplitBackIntoItsFields() {
    // Typed in Insert mode over a SHELL template: every field from IDEL on moved two columns right.
    open("INPUTVERSION 2011", "SHELL /   4000801       101    1001    1002    1003    1004");
    cursor(2, 1);
    type("gqq");
    assertEquals("SHELL /  4000801     101    1001    1002    1003    1004", line(2));
    assertEquals(List.of(), notes());
  }

  @Test
  void aShiftedLineWhoseLastValueMovedIntoTheNextFieldIsLeftWithAMessage() {
    // "4" moved from IDNOD4 (49-56) into NINT (57-64): 6 values for 7 fields, which may be blank.
    String shifted = "SHELL /   4000801       101       1       2       3       4";
    open("INPUTVERSION 2011", shifted);
    cursor(2, 1);
    type("gqq");
    assertEquals(shifted, line(2));
    assertEquals(List.of("nvimpam: line 2: SHELL / IDEL: \"4000801\" runs from IDEL into IDPRT; 6 values for the 7 "
        + "fields up to the last one; the line is left as it is"), notes());
  }

  @Test
  void aValueOverAFieldBoundaryIsNeverSplitInTwo() {
    open("INPUTVERSION 2011", "SHELL /      87677     101", "SHELL /   87677");
    nvim.command("%NvimpamAlign").join();
    assertEquals(List.of("INPUTVERSION 2011", "SHELL /    87677     101", "SHELL /    87677"), lines());
  }

  @Test
  void aShiftedFlagsFieldIsSplitBackWhenItsValuesFillTheFieldsAndElseLeftWithAMessage() {
    String fills = "MTOCO /        1       2    111111";
    String more = "MTOCO /        1       2    111111        0";
    open("INPUTVERSION 2011", fills, more);
    nvim.command("%NvimpamAlign").join();
    assertEquals(List.of("INPUTVERSION 2011", "MTOCO /        1       2  111111", more), lines());
    assertEquals(List.of("nvimpam: line 3: MTOCO / XYZUVW: \"111111\" runs from XYZUVW into IFRA1; 4 values for the 5 "
        + "fields up to the last one; the line is left as it is"), notes());
  }

  @Test
  void aValueRunningIntoABlankNextFieldIsLeftWhenTheFieldsAfterItAreNotFilled() {
    // X (17-32) holds "1.25" in columns 31-34, over its end into Y (33-48), which is blank: "1.25"
    // may be X's or Y's, as 3 values for the 4 fields up to Z cannot say.
    String line = "NODE  /        1" + " ".repeat(14) + "1.25" + " ".repeat(28) + "3.";
    open("INPUTVERSION 2011", line);
    cursor(2, 1);
    nvim.command("NvimpamAlign").join();
    assertEquals(line, line(2));
    assertEquals(List.of("nvimpam: line 2: NODE / X: \"1.25\" runs from X into Y; 3 values for the 4 fields up to the "
        + "last one; the line is left as it is"), notes());
  }

  @Test
  void aValueThatDoesNotFitLeavesItsLineAndTheMessageNamesLineAndField() {
    String bad = "NODE  /        1 1234567890123456789.";
    open("INPUTVERSION 2011", NODE_1, bad);
    nvim.command("%NvimpamAlign").join();
    assertEquals(List.of("INPUTVERSION 2011", NODE_1, bad), lines());
    assertTrue(notes().stream().anyMatch(n -> n.contains("line 3: NODE / X:")
        && n.contains("\"1234567890123456789.\" does not fit X (16 columns)")), notes().toString());
  }

  @Test
  void twoValuesSideBySideStayApartAndShiftedTheyAreNotJoined() {
    // A 16-column real filling X right after IDNOD's last column, then one filling Y: three values.
    String full = "NODE  /        11.23456789012345-1.5000000000000";
    String shifted = "NODE  / " + full.substring(7);
    open("INPUTVERSION 2011", full, shifted);
    nvim.command("%NvimpamAlign").join();
    assertEquals(List.of("INPUTVERSION 2011", full, shifted), lines());
    assertEquals(List.of("nvimpam: line 3: NODE / X: \"11.23456789012345-1.5000000000000\" runs from X into Y; "
        + "1 value for the 2 fields up to the last one; the line is left as it is"), notes());
  }

  @Test
  void aTabLeavesItsLineAsItIs() {
    String tab = "NODE  /        1\t0.";
    open("INPUTVERSION 2011", tab);
    cursor(2, 1);
    nvim.command("NvimpamAlign").join();
    assertEquals(tab, line(2));
    assertTrue(notes().stream().anyMatch(n -> n.contains("line 2: NODE / X: tab in column 17")), notes().toString());
  }

  @Test
  void keywordsCommentsAndGesLinesAreUntouched() {
    List<String> deck = List.of("INPUTVERSION 2011", "$ 1 2 3", "NSMAS /        1 1.", "NAME  a title",
        "        ELE 1:10   12", "        END");
    open(deck.toArray(new String[0]));
    nvim.command("%NvimpamAlign").join();
    assertEquals(List.of("INPUTVERSION 2011", "$ 1 2 3", "NSMAS /        1              1.", "NAME  a title",
        "        ELE 1:10   12", "        END"), lines());
  }

  @Test
  void freeFormatKeywordAndValueLinesAreUntouchedByTheCommandAndByGq() {
    List<String> body = List.of("  MASS_DENSITY  CONSTANT", "7.85E-9   1", "SPECIFIC_HEAT", " 4.6E8 0.", "LATENT_HEAT",
        "1.  2.\t 3.", "END_THMAT");
    List<String> deck = new java.util.ArrayList<>(List.of("INPUTVERSION 2011", "THMAT / 1050", "NAME steel"));
    deck.addAll(body);
    List<String> want = new java.util.ArrayList<>(List.of("INPUTVERSION 2011", "THMAT /     1050", "NAME steel"));
    want.addAll(body);
    open(deck.toArray(new String[0]));
    nvim.command("%NvimpamAlign").join();
    assertEquals(want, lines());
    open(deck.toArray(new String[0]));
    cursor(1, 1);
    type("gqG");
    assertEquals(want, lines());
  }

  @Test
  void theBangAlignsTheRunOfOneLineCardsUnderTheCursor() {
    open("INPUTVERSION 2011", "NODE  / 1        0.", "NODE  / 2        1.", "SHELL /        1");
    cursor(2, 1);
    nvim.command("NvimpamAlign!").join();
    assertEquals(List.of("INPUTVERSION 2011", "NODE  /        1              0.", "NODE  /        2              1.",
        "SHELL /        1"), lines());
  }

  @Test
  void gqAlignsThroughFormatexpr() {
    open("INPUTVERSION 2011", "NODE  / 1        0.", "NODE  / 2        1.");
    cursor(2, 1);
    type("gqj");
    assertEquals(List.of("INPUTVERSION 2011", "NODE  /        1              0.", "NODE  /        2              1."),
        lines());
  }

  @Test
  void undoRestoresTheLinesOfOneAlignment() {
    open("INPUTVERSION 2011", "NODE  / 1        0.", "NODE  / 2        1.");
    nvim.command("%NvimpamAlign").join();
    assertEquals("NODE  /        1              0.", line(2));
    nvim.command("undo").join();
    assertEquals(List.of("INPUTVERSION 2011", "NODE  / 1        0.", "NODE  / 2        1."), lines());
  }
}
