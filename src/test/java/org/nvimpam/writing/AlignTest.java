package org.nvimpam.writing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
      "local rows, layout, align = require('nvimpam.rows'), require('nvimpam.layout'), require('nvimpam.align')",
      "local fields = require('nvimpam.fields')",
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
      "local v = rows.deck_version(L)",
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
      "          if #fields.line_diagnostics(line, ent[i], rowi[i], 0) == 0 then",
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

  @Test
  void aNumberRunningIntoTheNextFieldMovesBackIntoItsOwn() {
    // X (17-32) holds "1.25" in columns 31-34, over its end into Y (33-48), whose last column is blank.
    open("INPUTVERSION 2011", "NODE  /        1" + " ".repeat(14) + "1.25" + " ".repeat(28) + "3.");
    cursor(2, 1);
    nvim.command("NvimpamAlign").join();
    assertEquals("NODE  /        1" + " ".repeat(12) + "1.25" + " ".repeat(30) + "3.", line(2));
  }

  @Test
  void aRealIsWrittenShorterOnlyWhenBothFormsReadAsTheSameDouble() {
    // PLANE, axis row: OFFSET is a real in columns 17-24; "10000000." takes columns 18-26.
    open("INPUTVERSION 2011", "PLANE /        1       0", "NAME plane", "               X 10000000.");
    cursor(4, 1);
    nvim.command("NvimpamAlign").join();
    assertEquals("               X    1.E7", line(4));
    assertEquals(true, lua("local a = require('nvimpam.align') return a.to_double('1.E7') == a.to_double('10000000.')"));
  }

  @Test
  void aValueThatDoesNotFitLeavesItsLineAndTheMessageNamesLineAndField() {
    String bad = "NODE  /        1 1234567890123456789.              0.";
    open("INPUTVERSION 2011", NODE_1, bad);
    nvim.command("%NvimpamAlign").join();
    assertEquals(List.of("INPUTVERSION 2011", NODE_1, bad), lines());
    assertTrue(notes().stream().anyMatch(n -> n.contains("line 3: NODE / X:") && n.contains("does not fit")),
        notes().toString());
  }

  @Test
  void theCheckRefusesALineInWhichANumberWouldReadAsAnotherDouble() {
    Object r = lua("local a, layout = require('nvimpam.align'), require('nvimpam.layout') "
        + "local row = layout.get().by_key.NODE[1].rows[1] "
        + "return { a.check('NODE  /        1  1.5', 'NODE  /        1             1.5', row), "
        + "a.check('NODE  /        1  1.5', 'NODE  /        1             1.6', row), "
        + "a.check('NODE  /        1  1000000.', 'NODE  /        1            1.E6', row), "
        + "(a.check('NODE  /        1  1000000.', 'NODE  /        1            1.E5', row)) }");
    assertEquals(List.of(true, false, true, false), r);
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
