package org.nvimpam.writing;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.nvimpam.testutil.PluginTestBase;

/**
 * What the tests of the writing side share: a Neovim with nvimpam set up (no JVM: nothing here
 * needs it), a pamcrash buffer with given lines and no undo history, keys typed through the
 * mappings, and the buffer read back.
 */
abstract class WritingTestBase extends PluginTestBase {

  @BeforeEach
  void setUpPlugin() {
    setup("auto_attach = false");
  }

  /** Runs Lua code with string arguments (the chunk's {@code ...}). */
  protected Object lua(String code, String... args) {
    return nvim.execLua(code, out -> {
      out.packArrayHeader(args.length);
      for (String a : args) {
        out.packString(a);
      }
    }).join();
  }

  /** A new pamcrash buffer holding {@code lines}, with no undo history, the cursor on line 1. */
  protected void open(String... lines) {
    lua("vim.cmd('enew!') vim.bo.swapfile = false "
        + "local lines = { ... } vim.bo.undolevels = -1 vim.api.nvim_buf_set_lines(0, 0, -1, false, lines) "
        + "vim.bo.undolevels = 1000 vim.bo.filetype = 'pamcrash' vim.api.nvim_win_set_cursor(0, { 1, 0 })", lines);
  }

  /** The current buffer's lines. */
  @SuppressWarnings("unchecked")
  protected List<String> lines() {
    return (List<String>) lua("return vim.api.nvim_buf_get_lines(0, 0, -1, false)");
  }

  protected String line(int lnum) {
    return lines().get(lnum - 1);
  }

  /** Puts the cursor on line {@code lnum} (1-based), column {@code col} (1-based). */
  protected void cursor(int lnum, int col) {
    lua("vim.api.nvim_win_set_cursor(0, { tonumber((...)), tonumber(select(2, ...)) - 1 })", "" + lnum, "" + col);
  }

  /** The cursor as { line, column }, both 1-based. */
  protected List<Long> cursor() {
    @SuppressWarnings("unchecked")
    List<Long> c = (List<Long>) lua("local c = vim.api.nvim_win_get_cursor(0) return { c[1], c[2] + 1 }");
    return c;
  }

  /** Types {@code keys} (with key notation: {@code <Tab>}) through the mappings, to the end. */
  protected void type(String keys) {
    lua("vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes((...), true, false, true), 'mx', false)", keys);
  }

  /** The notifications since the start, one string each. */
  @SuppressWarnings("unchecked")
  protected List<String> notes() {
    return (List<String>) lua("local out = {} for _, n in ipairs(_G.notes) do out[#out + 1] = n[1] end return out");
  }

  protected String register() {
    return (String) lua("return vim.fn.getreg('\"')");
  }
}
