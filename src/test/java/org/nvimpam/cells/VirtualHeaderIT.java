package org.nvimpam.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;

/** virtual_header = true: one real extmark with a virtual `$#` line above the cursor's row. */
class VirtualHeaderIT extends PluginTestBase {
  private static final String DECK = """
      INPUTVERSION 2011
      NODE  /        1              0.            50.5              0.
      $ a comment
      SHELL /        1       1       1       2       3       4
      """;

  private void open(String options) throws IOException {
    setup("auto_attach = false, " + options);
    CellsLua.useTestTable(nvim);
    EmbeddedNvim.edit(nvim, DECK.getBytes(), dir);
    nvim.command("setlocal filetype=pamcrash").join();
  }

  /** Moves the cursor as a user does (CursorMoved fires), then returns the header marks. */
  private Object moveTo(int lnum) throws InterruptedException {
    lua("vim.api.nvim_input('" + lnum + "G')");
    String marks = "local h = require('nvimpam.view.header') local out = {} "
        + "for _, m in ipairs(vim.api.nvim_buf_get_extmarks(0, h.ns, 0, -1, { details = true })) do "
        + "out[#out + 1] = { m[2], m[4].virt_lines[1][1][1], m[4].virt_lines[1][1][2], m[4].virt_lines_above } end return out";
    for (int i = 0; i < 100 && !Long.valueOf(lnum).equals(lua("return vim.fn.line('.')")); i++) Thread.sleep(10);
    Thread.sleep(30); // CursorMoved runs before Neovim waits for the next key
    return lua(marks);
  }

  @Test
  void aNodeRowGetsTheFieldNamesEndingInTheirLastColumns() throws Exception {
    open("virtual_header = true");
    assertEquals(List.of(List.of(1L, "$#         IDNOD               X               Y               Z", "NvimpamHeader", true)),
        moveTo(2));
  }

  @Test
  void theHeaderFollowsTheCursorAndLeavesOffTheCards() throws Exception {
    open("virtual_header = true");
    moveTo(2);
    assertEquals(List.of(List.of(3L, "$#          IDEL   IPART  IDNOD1  IDNOD2  IDNOD3  IDNOD4    NINT", "NvimpamHeader", true)),
        moveTo(4));
    assertEquals(List.of(), moveTo(3));
  }

  @Test
  void offByDefault() throws Exception {
    open("");
    assertEquals(List.of(), moveTo(2));
  }

  @Test
  void itScrollsSidewaysWithTheTextFrom011() throws Exception {
    open("virtual_header = true");
    moveTo(2);
    Object overflow = lua("local m = vim.api.nvim_buf_get_extmarks(0, require('nvimpam.view.header').ns, 0, -1, { details = true })[1] "
        + "return { vim.fn.has('nvim-0.11'), m[4].virt_lines_overflow or 'none' }");
    List<?> o = (List<?>) overflow;
    assertEquals(1L == (Long) o.get(0) ? "scroll" : "none", o.get(1));
  }
}
