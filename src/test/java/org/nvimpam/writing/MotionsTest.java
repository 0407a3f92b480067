package org.nvimpam.writing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Field and card motions, the field and card text objects, <Tab> in Insert and Replace mode. */
class MotionsTest extends WritingTestBase {

  private static final String NODE_1 = "NODE  /        1              0.              0.              0.";
  private static final String NODE_2 = "NODE  /        2             1.5              0.              0.";

  // For every row of every entry of the table: a card of that entry in which the row appears (the
  // conditions of its `if` row and of the `if` rows before it set, one line per `repeat` row),
  // the row's line padded to column 81. `each` is called with the buffer holding that card, and
  // gets the row's line number (1-based), the row and the line.
  private static final String EVERY_ROW = String.join("\n",
      "local layout, rows, templates = require('nvimpam.model.layout'), require('nvimpam.model.rows'), require('nvimpam.edit.templates.build')",
      "local function every_row(each)",
      "  local bad, count = {}, 0",
      "  for _, e in ipairs(layout.get().entries) do",
      "    if layout.pick(layout.all(e.key), e.version) == e then",
      "      for r, row in ipairs(e.rows) do",
      "        -- a key row's values have no columns: its lines have the stops of a line of no row",
      "        if row.n > 0 and row.kind ~= layout.END and row.kind ~= layout.KEY then",
      "          local values = {}",
      "          for _, o in ipairs(e.rows) do",
      "            if o.kind == layout.REPEAT then values[o.count_field] = '1' end",
      "          end",
      "          if row.kind == layout.WHEN then values[row.word] = row.word end",
      "          for k = r, 1, -1 do",
      "            local o = e.rows[k]",
      "            if o.kind == layout.IF and values[o.cond_field] == nil then",
      "              local v = o.cond_values[1]",
      "              if o.cond_negated then",
      "                local taken = {}",
      "                for _, x in ipairs(o.cond_values) do taken[x] = true end",
      "                v = taken['9'] and '8' or '9'",
      "              end",
      "              values[o.cond_field] = v",
      "            end",
      "          end",
      "          local deck = { 'INPUTVERSION ' .. e.version }",
      "          for _, l in ipairs(templates.lines(e, { values = values, headers = false })) do deck[#deck + 1] = l end",
      "          local c = rows.classify_lines(deck, e.version)",
      "          local at",
      "          for i, k in ipairs(c) do if k == e.key .. '@' .. e.version .. '#' .. r then at = i break end end",
      "          if not at then",
      "            bad[#bad + 1] = e.key .. ' ' .. e.version .. ' row ' .. r .. ': no card with this row'",
      "          else",
      "            deck[at] = deck[at] .. string.rep(' ', 81 - #deck[at])",
      "            vim.api.nvim_buf_set_lines(0, 0, -1, false, deck)",
      "            count = count + 1",
      "            local why = each(at, row, deck[at])",
      "            if why then bad[#bad + 1] = e.key .. ' ' .. e.version .. ' row ' .. r .. ': ' .. why end",
      "          end",
      "        end",
      "      end",
      "    end",
      "  end",
      "  if count < 400 then bad[#bad + 1] = 'only ' .. count .. ' rows' end",
      "  return bad",
      "end",
      "local function press(keys)",
      "  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'mx', false)",
      "end");

  @SuppressWarnings("unchecked")
  private List<String> everyRow(String body) {
    return (List<String>) lua(EVERY_ROW + "\nreturn every_row(function(at, row, line)\n" + body + "\nend)");
  }

  @Test
  void tabLandsOnEveryFieldStartOfEveryRowOfTheTableAndShiftTabComesBack() {
    open("INPUTVERSION 2011");
    List<String> bad = everyRow(String.join("\n",
        "vim.api.nvim_win_set_cursor(0, { at, 0 })",
        "local want, got = {}, {}",
        "for j = 1, row.n do if row.from[j] > 1 then want[#want + 1] = row.from[j] end end",
        "for _ = 1, #want do press('<Tab>') local c = vim.api.nvim_win_get_cursor(0) got[#got + 1] = c[1] == at and c[2] + 1 or -c[1] end",
        "for k = row.n - 1, 1, -1 do want[#want + 1] = row.from[k] end",
        "for _ = 1, row.n - 1 do press('<S-Tab>') local c = vim.api.nvim_win_get_cursor(0) got[#got + 1] = c[1] == at and c[2] + 1 or -c[1] end",
        "if table.concat(want, ',') ~= table.concat(got, ',') then",
        "  return 'want ' .. table.concat(want, ',') .. ' got ' .. table.concat(got, ',')",
        "end"));
    assertEquals(List.of(), bad);
  }

  @Test
  void theFieldObjectsYankExactlyEachFieldOfEveryRowOfTheTable() {
    open("INPUTVERSION 2011");
    List<String> bad = everyRow(String.join("\n",
        "for j = 1, row.n do",
        "  local f = row.fields[j]",
        "  vim.api.nvim_win_set_cursor(0, { at, f.to - 1 })",
        "  press('yaf')",
        "  if vim.fn.getreg('\"') ~= line:sub(f.from, f.to) then",
        "    return f.name .. ': af yanked \"' .. vim.fn.getreg('\"') .. '\"'",
        "  end",
        "  local v = line:sub(f.from, f.to):match('^ *(.-) *$')",
        "  press('yif')",
        "  if v ~= '' and vim.fn.getreg('\"') ~= v then",
        "    return f.name .. ': if yanked \"' .. vim.fn.getreg('\"') .. '\"'",
        "  end",
        "end"));
    assertEquals(List.of(), bad);
  }

  @Test
  void pastTheLastFieldTabGoesToTheFirstFieldOfTheNextLine() {
    open("INPUTVERSION 2011", NODE_1, NODE_2);
    cursor(2, 50);
    type("<Tab>");
    assertEquals(List.of(3L, 1L), cursor());
  }

  @Test
  void aCountRepeatsTheFieldMotion() {
    open("INPUTVERSION 2011", NODE_1);
    cursor(2, 1);
    type("3<Tab>");
    assertEquals(List.of(2L, 33L), cursor());
  }

  @Test
  void insertModeTabMovesToTheNextFieldStartAddingBlanksAndNoTab() {
    open("INPUTVERSION 2011", "NODE  /        1");
    cursor(2, 16);
    type("a<Tab>2.5<Tab>3.<Esc>");
    assertEquals("NODE  /        1" + " ".repeat(16) + "2.5" + " ".repeat(13) + "3.", line(2));
    assertFalse(line(2).contains("\t"));
  }

  @Test
  void replaceModeTypesOverAFieldWithoutShiftingTheNextOnes() {
    open("INPUTVERSION 2011", NODE_1);
    cursor(2, 17);
    type("R7.25<Tab>8.5<Esc>");
    assertEquals("NODE  /        17.25" + " ".repeat(10) + "0.8.5" + " ".repeat(11) + "0." + " ".repeat(14) + "0.", line(2));
  }

  @Test
  void cardMotionsGoToTheNextAndPreviousCardARunOfOneLineCardsBeingOne() {
    open("INPUTVERSION 2011", NODE_1, NODE_2, "$ mass", "NSMAS /        1              1.", "NAME mass",
        "        END", "SHELL /        1       1       1       2       3       4");
    type("]]");
    assertEquals(2L, cursor().get(0));
    type("]]");
    assertEquals(5L, cursor().get(0));
    type("]]");
    assertEquals(8L, cursor().get(0));
    type("[[");
    assertEquals(5L, cursor().get(0));
    type("[[");
    assertEquals(2L, cursor().get(0));
  }

  @Test
  void deletingThroughTheFieldObjectBlanksItAndKeepsTheLaterFieldsInTheirColumns() {
    open("INPUTVERSION 2011", NODE_2);
    cursor(2, 20);
    type("daf");
    assertEquals("NODE  /        2" + " ".repeat(16) + "              0.              0.", line(2));
    assertEquals("             1.5", register());
  }

  @Test
  void changingThroughTheFieldObjectTypesOverTheBlankedField() {
    open("INPUTVERSION 2011", NODE_2);
    cursor(2, 31);
    type("cif2.5<Esc>");
    assertEquals("NODE  /        2             2.5              0.              0.", line(2));
  }

  @Test
  void undoRestoresTheLineAfterADeleteThroughTheFieldObject() {
    open("INPUTVERSION 2011", NODE_2);
    cursor(2, 20);
    type("daf");
    nvim.command("undo").join();
    assertEquals(NODE_2, line(2));
  }

  @Test
  void theCardObjectsSelectExactlyTheCardAndWithAcTheCommentsAboveIt() {
    open("INPUTVERSION 2011", NODE_1, "$ mass", "$#       IDNODMS", "NSMAS /        1              1.", "NAME mass",
        "        END", NODE_2);
    cursor(5, 3);
    type("yic");
    assertEquals("NSMAS /        1              1.\nNAME mass\n        END\n", register());
    type("yac");
    assertEquals("$ mass\n$#       IDNODMS\nNSMAS /        1              1.\nNAME mass\n        END\n", register());
  }

  @Test
  void theFieldObjectsSelectInVisualMode() {
    open("INPUTVERSION 2011", NODE_2);
    cursor(2, 20);
    type("vaf<Esc>");
    assertEquals(List.of(17L, 32L), lua("return { vim.fn.col(\"'<\"), vim.fn.col(\"'>\") }"));
  }
}
