package org.nvimpam.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;

/** require('nvimpam').cell() and :NvimpamCellInfo: the field under the cursor, without the JVM. */
class CellHintIT extends PluginTestBase {
  private static final String DECK = """
      INPUTVERSION 2011
      $#         IDNOD               X               Y               Z
      NODE  /        1              0.            50.5              0.
      PART  /        1   SHELL       1
      NAME Box section
      $#  DTELIM    TSCALF
              0.
      $#   TCONT
              0.
      $#       H NINT
              1.    3
              0.
      END_PART
      GROUP / left
              PART 1
              END
      NODE  /        2              0.            50.5              0.    text
      """;

  @BeforeEach
  void open() throws IOException {
    setup("auto_attach = false");
    CellsLua.useTestTable(nvim);
    EmbeddedNvim.edit(nvim, DECK.getBytes(), dir);
    nvim.command("setlocal filetype=pamcrash").join();
  }

  /** cell() with the cursor on line {@code lnum} (1-based), byte column {@code col} (1-based). */
  private Object cellAt(int lnum, int col) {
    return lua("vim.api.nvim_win_set_cursor(0, { " + lnum + ", " + (col - 1) + " }) return require('nvimpam').cell()");
  }

  @Test
  void aNodesXFieldWithItsDescriptionColumnsAndValue() {
    assertEquals(Map.ofEntries(Map.entry("card", "NODE"), Map.entry("keyword", "NODE"), Map.entry("version", 2011L),
        Map.entry("row", 1L), Map.entry("row_label", "IDNOD"), Map.entry("field", "X"),
        Map.entry("description", "X coordinate"), Map.entry("type", "float"), Map.entry("default", "0."), Map.entry("from", 17L),
        Map.entry("to", 32L), Map.entry("value", "0.")), cellAt(3, 20));
  }

  @Test
  void anIdFieldSaysWhatKindOfIdItDefines() {
    Map<?, ?> c = (Map<?, ?>) cellAt(3, 16);
    assertEquals(List.of("IDNOD", "1", "def", "node"), List.of(c.get("field"), c.get("value"), c.get("id"), c.get("kind")));
  }

  @Test
  void aRowDeepInAPartIsFoundByTheWalkBackToItsHeader() {
    Map<?, ?> c = (Map<?, ?>) cellAt(11, 14);
    assertEquals(List.of("PART:SHELL", "PART", 6L, "SHELL1", "NINT", "3", 11L, 15L), List.of(c.get("card"),
        c.get("keyword"), c.get("row"), c.get("row_label"), c.get("field"), c.get("value"), c.get("from"), c.get("to")));
  }

  @Test
  void theKeywordFieldOfAHeaderLine() {
    Map<?, ?> c = (Map<?, ?>) cellAt(4, 3);
    assertEquals(List.of("PART", "kw", 1L, 8L), List.of(c.get("field"), c.get("type"), c.get("from"), c.get("to")));
  }

  @Test
  void noFieldOnACommentAGesLineOrPastTheLastField() {
    assertNull(cellAt(2, 5), "comment");
    assertNull(cellAt(15, 10), "GES line");
    assertNull(cellAt(17, 70), "past Z");
    assertNull(cellAt(1, 3), "control section");
  }

  @Test
  void anEditThatChangesARowsMeaningShowsAtOnce() {
    assertEquals("NAME", ((Map<?, ?>) cellAt(5, 2)).get("field"));
    // IDMAT 0: the line after the header is the RMAT row now.
    lua("vim.api.nvim_buf_set_lines(0, 3, 4, false, { 'PART  /        1   SHELL       0' })");
    Map<?, ?> c = (Map<?, ?>) cellAt(5, 2);
    assertEquals(List.of("RMAT", "RMAT"), List.of(c.get("field"), c.get("row_label")));
  }

  @Test
  void itCostsWellUnderAMillisecondDeepInACard() {
    Object ms = lua("vim.api.nvim_win_set_cursor(0, { 12, 4 }) local cell = require('nvimpam').cell cell() "
        + "local uv = vim.uv or vim.loop local t = uv.hrtime() for _ = 1, 200 do cell() end "
        + "return (uv.hrtime() - t) / 200 / 1e6");
    assertTrue(((Number) ms).doubleValue() < 0.5, "ms per call: " + ms);
  }

  @Test
  void cellInfoShowsTheFieldInAFloatThatClosesWhenTheCursorMoves() throws InterruptedException {
    lua("vim.api.nvim_win_set_cursor(0, { 3, 19 })");
    nvim.command("NvimpamCellInfo").join();
    Object text = lua("for _, w in ipairs(vim.api.nvim_list_wins()) do "
        + "if vim.api.nvim_win_get_config(w).relative ~= '' then "
        + "return vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false) end end");
    assertEquals(List.of("NODE / X  (columns 17-32, float, default 0.)", "X coordinate", "value: \"0.\"",
        "card NODE 2011, row 1 (IDNOD)"), text);
    nvim.command("normal! j").join();
    nvim.command("doautocmd CursorMoved").join();
    assertEquals(1L, lua("return #vim.api.nvim_list_wins()"));
  }

  private Object floatText() {
    return lua("for _, w in ipairs(vim.api.nvim_list_wins()) do "
        + "if vim.api.nvim_win_get_config(w).relative ~= '' then "
        + "return vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(w), 0, -1, false) end end");
  }

  private void press(String keys) {
    lua("vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('" + keys + "', true, false, true), 'xt', false)");
  }

  @Test
  void kShowsTheDocOfTheFieldUnderTheCursorWithItsIdKind() {
    lua("vim.api.nvim_win_set_cursor(0, { 4, 27 })"); // PART's IDMAT
    press("K");
    assertEquals(List.of("PART / IDMAT  (columns 25-32, int)", "Material id", "value: \"1\"", "card PART:SHELL 2011, row 1 (HEADER)",
        "references a material id"), floatText());
    press("j");
    assertEquals(1L, lua("return #vim.api.nvim_list_wins()"));
    lua("vim.api.nvim_win_set_cursor(0, { 3, 19 })");
    press("K");
    assertEquals("NODE / X  (columns 17-32, float, default 0.)", ((List<?>) floatText()).get(0));
  }

  @Test
  void kIsABufferLocalMappingSetupCanTurnOff() {
    assertTrue(String.valueOf(lua("return vim.fn.maparg('K', 'n', false, true).buffer")).equals("1"));
    lua("require('nvimpam').setup({ mappings = { field_doc = false } }) vim.cmd('doautocmd FileType')");
    assertEquals("", lua("return vim.fn.maparg('K', 'n')"));
  }

  @Test
  void cellInfoOffAFieldSaysSo() {
    lua("vim.api.nvim_win_set_cursor(0, { 2, 0 })");
    nvim.command("NvimpamCellInfo").join();
    assertEquals(List.of(List.of("nvimpam: the cursor is on no field of a known card row", 2L)), lua("return _G.notes"));
    assertEquals(1L, lua("return #vim.api.nvim_list_wins()"));
  }
}
