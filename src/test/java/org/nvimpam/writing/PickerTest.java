package org.nvimpam.writing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pickers (:NvimpamCard's templates, the outline) with Neovim's own vim.ui.select: a floating
 * list that keys typed by the user close (q, Esc, CTRL-C) or pick from (Enter), on every version.
 */
// Neovim's own select waits in inputlist(), serving no request: a hang, which the timeout fails.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PickerTest extends WritingTestBase {
  private void input(String keys) {
    nvim.call("nvim_input", nvim.args(keys), in -> in.unpackLong()).join();
  }

  private long windows() {
    return ((Number) lua("return #vim.api.nvim_list_wins()")).longValue();
  }

  /** Waits until Neovim has handled the typed keys (a request is served between keys). */
  private void settle() {
    lua("vim.wait(20)");
    long end = System.currentTimeMillis() + 5000;
    while (Boolean.TRUE.equals(lua("return vim.fn.getchar(1) ~= 0")) && System.currentTimeMillis() < end) {
      lua("vim.wait(10)");
    }
  }

  @Test
  void neovimsOwnSelectIsReplacedByTheFloatingList() {
    assertEquals(true, lua("return require('nvimpam.ui.picker').builtin()"));
    lua("vim.ui.select = function() end");
    assertEquals(false, lua("return require('nvimpam.ui.picker').builtin()"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"q", "<Esc>", "<C-c>"})
  void theTemplateListClosesWithoutAPick(String key) {
    open("INPUTVERSION 2011", "$");
    cursor(2, 1);
    input(":NvimpamCard<CR>");
    settle();
    assertEquals(2, windows(), "the list is open");
    assertTrue(((Number) lua("return #vim.api.nvim_buf_get_lines(0, 0, -1, false)")).intValue() > 100);
    input(key);
    settle();
    assertEquals(1, windows(), "closed by " + key);
    assertEquals(List.of("INPUTVERSION 2011", "$"), lines(), "nothing inserted");
    assertEquals("n", lua("return vim.api.nvim_get_mode().mode"));
  }

  @Test
  void enterPicksTheLineUnderTheCursor() {
    open("INPUTVERSION 2011", "$");
    cursor(2, 1);
    input(":NvimpamCard<CR>");
    settle();
    lua("vim.fn.search('SHELL /')");
    input("<CR>");
    settle();
    assertEquals(1, windows());
    assertTrue(line(4).startsWith("SHELL / "), lines().toString());
  }
}
