package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nvimpam.ids.IdsIT.END;
import static org.nvimpam.ids.IdsIT.NAME;
import static org.nvimpam.ids.IdsIT.PART;
import static org.nvimpam.testutil.IncludeTree.deck;
import static org.nvimpam.ids.IdsIT.node;
import static org.nvimpam.ids.IdsIT.part;
import static org.nvimpam.ids.IdsIT.shell;

import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.PluginTestBase;

/**
 * Jumps show their target: after gd, an outline pick, a quickfix entry of :NvimpamRefs or
 * :NvimpamCheck and a diagnostic jump, the line the cursor lands on is in no closed fold, in the
 * deck and in an include file (opened by the jump, its folds still to come, or already folded).
 * Every jump starts with every fold closed ('foldlevel' 0, zM).
 */
class JumpFoldsIT extends PluginTestBase {
  private static final long WAIT_MS = 15_000;

  @BeforeEach
  void detectFiletypes() {
    nvim.command("filetype plugin on").join(); // *.pc and *.inc decks become pamcrash buffers, folded live
  }

  /**
   * main.pc: parts 12 and 13 (three-line cards), nodes 1-4, shells of part 12 (folded runs), and an
   * include file of nodes 5-8 and one of more shells of part 12.
   */
  private void openDeck() throws Exception {
    Files.write(dir.resolve("nodes.inc"), deck("$ more nodes", node(5), node(6), node(7), node(8)));
    Files.write(dir.resolve("shells.inc"), deck("$ more shells", shell(200, 12, 5, 6, 7, 8),
        shell(201, 12, 5, 6, 7, 8), shell(202, 12, 5, 6, 7, 8)));
    setup("debounce_ms = 0");
    Files.write(dir.resolve("main.pc"), deck("INPUTVERSION 2011", "INCLU / nodes.inc", "INCLU / shells.inc", PART,
        NAME, END, part(13, "Roof"), node(1), node(2), node(3), node(4), shell(100, 12, 1, 2, 3, 4),
        shell(101, 12, 1, 2, 3, 7), shell(102, 12, 1, 2, 3, 4)));
    nvim.command("edit " + dir.resolve("main.pc")).join();
    nvim.command("setlocal foldlevel=0").join();
    awaitFolds();
  }

  /** Waits until the current buffer's folds are in place at its changedtick. */
  private void awaitFolds() throws InterruptedException {
    String done = "return require('nvimpam.fold').applied_tick(0) == vim.b.changedtick";
    long end = System.currentTimeMillis() + WAIT_MS;
    while (!Boolean.TRUE.equals(lua(done)) && System.currentTimeMillis() < end) {
      Thread.sleep(5);
    }
    assertEquals(true, lua(done), () -> "folds of " + lua("return vim.api.nvim_buf_get_name(0)") + "; notes "
        + lua("return _G.notes"));
  }

  private void cursor(int line, int col) {
    lua("vim.api.nvim_win_set_cursor(0, { " + line + ", " + (col - 1) + " })");
  }

  /** Types {@code keys} as the user would ('foldopen' acts on typed commands only). */
  private void keys(String keys) {
    lua("vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('" + keys + "', true, false, true), 'xt', false)");
  }

  private void closeAll() {
    nvim.command("normal! zM").join();
  }

  /** The cursor is on {@code file}'s line {@code line} (any, for 0), inside a fold, and that fold is open. */
  private void landedVisible(String what, String file, long line) throws InterruptedException {
    awaitFolds();
    assertTrue(String.valueOf(lua("return vim.api.nvim_buf_get_name(0)")).endsWith(file),
        what + ": in " + file + ", not " + lua("return vim.api.nvim_buf_get_name(0)"));
    if (line > 0) {
      assertEquals(line, ((Number) lua("return vim.fn.line('.')")).longValue(), what + ": the line");
    }
    assertTrue(((Number) lua("return vim.fn.foldlevel('.')")).longValue() > 0, what + ": the line is in a fold");
    assertEquals(-1L, ((Number) lua("return vim.fn.foldclosed('.')")).longValue(), what + ": its fold is open");
  }

  @Test
  void gotoInTheDeckOpensTheFoldOfTheDefinition() throws Exception {
    openDeck();
    closeAll();
    cursor(14, 20); // shell 100's part: PART 12, line 4
    nvim.command("NvimpamGoto").join();
    landedVisible("gd", "main.pc", 4);
  }

  @Test
  void gotoIntoAnIncludeFileShowsTheDefinitionWhenItsFoldsCome() throws Exception {
    openDeck();
    closeAll();
    cursor(15, 55); // shell 101's fourth node: 7, line 4 of nodes.inc, not open yet
    nvim.command("NvimpamGoto").join();
    landedVisible("gd into a new buffer", "nodes.inc", 4);
  }

  @Test
  void gotoIntoAnIncludeFileAlreadyFoldedOpensTheFold() throws Exception {
    openDeck();
    nvim.command("edit " + dir.resolve("nodes.inc")).join();
    nvim.command("setlocal foldlevel=0").join();
    awaitFolds();
    nvim.command("buffer main.pc").join();
    awaitFolds();
    closeAll();
    cursor(15, 55);
    nvim.command("NvimpamGoto").join();
    landedVisible("gd into a folded buffer", "nodes.inc", 4);
  }

  @Test
  void anOutlinePickOpensTheFoldOfTheCard() throws Exception {
    openDeck();
    closeAll();
    lua("vim.ui.select = function(items, opts, cb) for _, it in ipairs(items) do"
        + " if it.text:find('PART 13', 1, true) then return cb(it) end end end");
    nvim.command("NvimpamOutline").join();
    landedVisible("outline", "main.pc", 7);
  }

  @Test
  void aReferenceInTheQuickfixListOpensTheFoldThere() throws Exception {
    openDeck();
    cursor(4, 16); // PART 12's id
    nvim.command("NvimpamRefs").join();
    nvim.command("wincmd p").join();
    closeAll();
    keys(":cfirst<CR>");
    landedVisible("the first reference", "main.pc", 14);
    keys(":clast<CR>");
    landedVisible("a reference in an include file", "shells.inc", 4);
  }

  @Test
  void aProblemOfTheCheckListAndADiagnosticJumpOpenTheFoldThere() throws Exception {
    openDeck();
    // A node id that is no number, in the third shell.
    lua("vim.api.nvim_buf_set_lines(0, 15, 16, false, { '" + shell(102, 12, 1, 2, 3, 4).replace("       4", "      x4")
        + "' })");
    awaitFolds();
    nvim.command("NvimpamCheck").join();
    nvim.command("cclose").join();
    closeAll();
    Object nr = lua("for i, it in ipairs(vim.fn.getqflist()) do if it.text:find('x4', 1, true) then return i end end");
    keys(":cc " + nr + "<CR>"); // the list holds the id problems too (material 3 is not defined)
    landedVisible("the check list", "main.pc", 16);
    closeAll();
    cursor(1, 1);
    lua("if vim.diagnostic.jump then vim.diagnostic.jump({ count = 1, float = false })"
        + " else vim.diagnostic.goto_next({ float = false }) end");
    // Wherever the first diagnostic is (the include files' ids may still be on their way).
    landedVisible("the next diagnostic", "main.pc", 0);
    assertTrue(((Number) lua("return #vim.diagnostic.get(0, { lnum = vim.fn.line('.') - 1 })")).longValue() > 0,
        "a diagnostic on the line landed on");
  }
}
