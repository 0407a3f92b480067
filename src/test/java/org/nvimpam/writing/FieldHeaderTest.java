package org.nvimpam.writing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;

/** :NvimpamHeader: `$#` lines naming a row's fields, each name ending in its field's last column. */
class FieldHeaderTest extends WritingTestBase {

  private static final String HEADER = "$#         IDNOD               X               Y               Z";
  private static final String NODE_1 = "NODE  /        1              0.              0.              0.";
  private static final String NODE_2 = "NODE  /        2              1.              0.              0.";

  @Test
  void theRowUnderTheCursorGetsItsHeaderAbove() {
    open("INPUTVERSION 2011", NODE_1, NODE_2);
    cursor(3, 1);
    nvim.command("NvimpamHeader").join();
    assertEquals(List.of("INPUTVERSION 2011", NODE_1, HEADER, NODE_2), lines());
  }

  @Test
  void aRunOfOneLineCardsGetsOneHeaderAboveIt() {
    open("INPUTVERSION 2011", NODE_1, NODE_2, "$ end");
    cursor(3, 1);
    nvim.command("NvimpamHeader!").join();
    assertEquals(List.of("INPUTVERSION 2011", HEADER, NODE_1, NODE_2, "$ end"), lines());
  }

  @Test
  void aRangeGetsOneHeaderAboveEachRowLayoutThatLacksOne() {
    open("INPUTVERSION 2011",
        "MASS  /        7       0",
        "NAME mass",
        "              1.              1.              1.",
        "              2.              2.              2.",
        "        END",
        NODE_1);
    nvim.command("%NvimpamHeader").join();
    assertEquals(List.of("INPUTVERSION 2011",
        "$#         IDNOD    IFRA   BLANK            DISr            DISs            DISt",
        "MASS  /        7       0",
        "$#                                                                         TITLE",
        "NAME mass",
        "$# BLANK              Mx              My              Mz",
        "              1.              1.              1.",
        "$# BLANK              Ix              Iy              Iz                   BLANK",
        "              2.              2.              2.",
        "        END",
        HEADER,
        NODE_1), lines());
  }

  @Test
  void aStaleHeaderIsReplaced() {
    open("INPUTVERSION 2011", "$#   IDNOD   X   Y   Z", NODE_1);
    cursor(3, 1);
    nvim.command("NvimpamHeader").join();
    assertEquals(List.of("INPUTVERSION 2011", HEADER, NODE_1), lines());
  }

  @Test
  void aHeaderWhoseNamesEndInTheFieldsColumnsIsKept() {
    String own = "$#            ID          X-COOR          Y-COOR          Z-COOR";
    open("INPUTVERSION 2011", own, NODE_1);
    cursor(3, 1);
    nvim.command("NvimpamHeader").join();
    assertEquals(List.of("INPUTVERSION 2011", own, NODE_1), lines());
  }

  @Test
  void aHeaderNamingColumnsNoFieldHoldsIsKept() {
    String own = HEADER + "            NINT";
    open("INPUTVERSION 2011", own, NODE_1);
    cursor(3, 1);
    nvim.command("NvimpamHeader").join();
    assertEquals(List.of("INPUTVERSION 2011", own, NODE_1), lines());
  }

  @Test
  void theHeadersOfTheBundledDeckAreKeptAndOnlyItsTitleCardGetsOne() {
    Object added = lua("local path = ... "
        + "local before = vim.fn.readfile(path) "
        + "vim.api.nvim_buf_set_lines(0, 0, -1, false, before) "
        + "vim.cmd('%NvimpamHeader') "
        + "local after = vim.api.nvim_buf_get_lines(0, 0, -1, false) "
        + "local out, j = {}, 1 "
        + "for i = 1, #after do "
        + "  if after[i] == before[j] then j = j + 1 else out[#out + 1] = i .. ': ' .. after[i] end "
        + "end "
        + "if j <= #before then out[#out + 1] = 'lines lost from ' .. j end "
        + "return out",
        EmbeddedNvim.root().resolve("src/main/resources/decks/example.pc").toString());
    assertEquals(List.of("11: $#" + " ".repeat(73) + "TITLE"), added);
  }

  @Test
  void undoRemovesEveryHeaderOfTheCommandAtOnce() {
    open("INPUTVERSION 2011", "MASS  /        7       0", "NAME mass", "        END");
    nvim.command("%NvimpamHeader").join();
    nvim.command("undo").join();
    assertEquals(List.of("INPUTVERSION 2011", "MASS  /        7       0", "NAME mass", "        END"), lines());
  }
}
