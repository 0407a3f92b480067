package org.nvimpam.writing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** :NvimpamCard: templates generated from the card-layout table, where they go, how they are chosen. */
class TemplatesTest extends WritingTestBase {

  private static final String NODE_1 = "NODE  /        1              0.              0.              0.";
  private static final String NODE_2 = "NODE  /        2              1.              0.              0.";
  private static final String NODE_3 = "NODE  /        3              2.              0.              0.";

  @Test
  void everyTemplateOfTheTableParsesBackAsACardOfItsKeywordWithoutFieldErrors() {
    @SuppressWarnings("unchecked")
    List<String> failures = (List<String>) lua(String.join("\n",
        "local layout, rows, problems = require('nvimpam.model.layout'), require('nvimpam.model.rows'), require('nvimpam.model.problems')",
        "local bad, count = {}, 0",
        "for _, e in ipairs(layout.get().entries) do",
        "  local list = layout.all(e.key)",
        "  if layout.pick(list, e.version) == e then",
        "    count = count + 1",
        "    local node = 'NODE  /        9              0.              0.              0.'",
        "    vim.api.nvim_buf_set_lines(0, 0, -1, false, { 'INPUTVERSION ' .. e.version, '$ cards', node })",
        "    vim.api.nvim_win_set_cursor(0, { 2, 0 })",
        "    vim.cmd('NvimpamCard ' .. e.key)",
        "    local L = vim.api.nvim_buf_get_lines(0, 0, -1, false)",
        "    local c = rows.classify_lines(L, e.version)",
        "    local own = e.key .. '@' .. e.version .. '#'",
        "    local first = nil",
        "    for i = 3, #L - 1 do",
        "      if c[i] ~= 'comment' then",
        "        first = first or c[i]",
        "        if c[i]:sub(1, #own) ~= own and c[i] ~= 'ges_end' then",
        "          bad[#bad + 1] = e.key .. ' ' .. e.version .. ': line \"' .. L[i] .. '\" reads as ' .. c[i]",
        "        end",
        "      end",
        "    end",
        "    if first ~= own .. '1' then",
        "      bad[#bad + 1] = e.key .. ' ' .. e.version .. ': the first line reads as ' .. tostring(first)",
        "    end",
        "    if L[#L] ~= node or not c[#L]:match('^NODE@') then",
        "      bad[#bad + 1] = e.key .. ' ' .. e.version .. ': the card does not end before the next one'",
        "    end",
        "    for _, d in ipairs(problems.check_lines(L, e.version)) do",
        "      bad[#bad + 1] = e.key .. ' ' .. e.version .. ': ' .. d.message",
        "    end",
        "  end",
        "end",
        "if count < #layout.keys() then bad[#bad + 1] = 'only ' .. count .. ' templates for ' .. #layout.keys() .. ' keys' end",
        "return bad"));
    assertEquals(List.of(), failures);
  }

  @Test
  void theTemplateHasAFieldHeaderAboveEachRowWithNamesEndingInTheirColumns() {
    open("INPUTVERSION 2011", "$");
    cursor(2, 1);
    nvim.command("NvimpamCard NODE").join();
    assertEquals(List.of("INPUTVERSION 2011", "$",
        "$#         IDNOD               X               Y               Z",
        "NODE  /                       0.              0.              0."), lines());
  }

  @Test
  void aGesIsAnEmptySelectionEndingInEnd() {
    open("INPUTVERSION 2011", "$");
    cursor(2, 1);
    nvim.command("NvimpamCard NSMAS").join();
    List<String> l = lines();
    assertEquals("        END", l.get(l.size() - 1));
    assertTrue(l.contains("NAME Nonstructural mass"), l.toString());
  }

  @Test
  void thePlainRigidBodyTemplateEndsItsNodeSelection() {
    open("INPUTVERSION 2011", "$");
    cursor(2, 1);
    nvim.command("NvimpamCard RBODY").join();
    List<String> l = lines();
    assertEquals("        END", l.get(l.size() - 1), l.toString());
  }

  @Test
  void aBlankFieldTooNarrowForItsNameIsLeftUnnamedNotGluedToTheNameBefore() {
    open("INPUTVERSION 2011", "$");
    cursor(2, 1);
    nvim.command("NvimpamCard BEAM").join();
    assertEquals("$#          IDEL   IDPRT  IDNOD1  IDNOD2  IDNOD3     BLANK  REL1    REL2    ITPR", lines().get(2));
  }

  @Test
  void insideAMultiLineCardTheNewCardGoesBelowIt() {
    open("INPUTVERSION 2011",
        "NSMAS /        1              1.",
        "NAME mass",
        "        ELE 1:10",
        "        END",
        NODE_1);
    cursor(3, 3);
    nvim.command("NvimpamCard NODE").join();
    List<String> l = lines();
    assertEquals("        END", l.get(4));
    assertEquals("$#         IDNOD               X               Y               Z", l.get(5));
    assertEquals(NODE_1, l.get(7));
    assertEquals(List.of(7L, 1L), cursor());
  }

  @Test
  void inARunOfOneLineCardsTheNewCardGoesBelowTheRun() {
    open("INPUTVERSION 2011", NODE_1, NODE_2, NODE_3, "$ end");
    cursor(2, 1);
    nvim.command("NvimpamCard SHELL").join();
    List<String> l = lines();
    assertEquals(List.of("INPUTVERSION 2011", NODE_1, NODE_2, NODE_3), l.subList(0, 4));
    assertTrue(l.get(4).startsWith("$#"), l.toString());
    assertTrue(l.get(5).startsWith("SHELL / "), l.toString());
    assertEquals("$ end", l.get(6));
  }

  @Test
  void betweenCardsTheNewCardGoesBelowTheCursorLine() {
    open("INPUTVERSION 2011", NODE_1, "$ here", "$ and here", NODE_2);
    cursor(3, 1);
    nvim.command("NvimpamCard SHELL").join();
    List<String> l = lines();
    assertEquals("$ here", l.get(2));
    assertTrue(l.get(4).startsWith("SHELL / "), l.toString());
    assertEquals("$ and here", l.get(5));
  }

  @Test
  void theDecksVersionPicksTheLayout() {
    open("INPUTVERSION 2011", "$");
    cursor(2, 1);
    nvim.command("NvimpamCard SHELL").join();
    assertTrue(line(3).contains("NINT"), line(3));
    open("INPUTVERSION 2025", "$");
    cursor(2, 1);
    nvim.command("NvimpamCard SHELL").join();
    assertTrue(!line(3).contains("NINT"), line(3));
  }

  @Test
  void keywordNamesComplete() {
    Object c = lua("return vim.fn.getcompletion('NvimpamCard PART:SH', 'cmdline')");
    assertEquals(List.of("PART:SHELL"), c);
  }

  @Test
  void withoutAKeywordThePickerListsCategoryKeywordAndDescription() {
    open("INPUTVERSION 2011", "$");
    cursor(2, 1);
    Object shown = lua("local shown "
        + "vim.ui.select = function(items, opts, on_choice) "
        + "  for _, it in ipairs(items) do "
        + "    local text = opts.format_item(it) "
        + "    if it.key == 'SHELL' then shown = text on_choice(it) return end "
        + "  end "
        + "end "
        + "vim.cmd('NvimpamCard') return shown");
    assertTrue(((String) shown).matches("Element +SHELL /  .+"), (String) shown);
    assertTrue(line(4).startsWith("SHELL / "), lines().toString());
  }

  @Test
  void theUsersOwnTemplateTakesPrecedence() throws IOException {
    Files.write(dir.resolve("PART_SHELL.inc"), List.of("$ my shell part", "PART  /        1   SHELL"));
    setup("auto_attach = false, templates_dir = '" + dir + "'");
    open("INPUTVERSION 2011", "$");
    cursor(2, 1);
    nvim.command("NvimpamCard PART:SHELL").join();
    assertEquals(List.of("INPUTVERSION 2011", "$", "$ my shell part", "PART  /        1   SHELL"), lines());
  }

  @Test
  void anUnknownKeywordIsAMessageAndTheBufferStays() {
    open("INPUTVERSION 2011", "$");
    nvim.command("NvimpamCard NOSUCH").join();
    assertEquals(List.of("INPUTVERSION 2011", "$"), lines());
    assertTrue(notes().stream().anyMatch(n -> n.contains("no card template \"NOSUCH\"")), notes().toString());
  }

  @Test
  void undoRemovesTheWholeCard() {
    open("INPUTVERSION 2011", "$");
    cursor(2, 1);
    nvim.command("NvimpamCard MASS").join();
    nvim.command("undo").join();
    assertEquals(List.of("INPUTVERSION 2011", "$"), lines());
  }
}
