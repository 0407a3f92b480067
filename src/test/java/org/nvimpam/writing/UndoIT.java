package org.nvimpam.writing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.PluginTestBase;

/**
 * Every nvimpam command that changes a buffer is one undo step of its own, never joined to the
 * user's change before it, and a command that changes nothing leaves no undo step: read from
 * {@code undotree()} of a deck opened with the JVM attached. The user's change is made twice: typed
 * (Neovim closes the undo block at typed keys) and through the API, as a script, a mapping or
 * another plugin makes it (nothing closes the block then).
 */
class UndoIT extends PluginTestBase {

  private static final String NODE_1 = "NODE  /        1              0.              0.              0.";
  private static final String NODE_2 = "NODE  /        2              1.              0.              0.";
  private static final String SHELL = "SHELL /      100      12       1       2       1       2";
  private static final String PART = "PART  /       12   SHELL       3       0       0       0";
  private static final String[] DECK = {
    "INPUTVERSION 2011", "MATER /        3     103         7.85E-6       0       0       0       0", "NAME Steel",
    PART, "NAME Door", "END_PART", NODE_1, NODE_2, SHELL,
  };
  /** The line the user adds, below NODE 2 (line 9): a NODE card to align. */
  private static final String USER = "NODE  /        3  2.";

  @BeforeEach
  void openDeck() throws IOException {
    setup("");
    nvim.command("filetype on").join();
    Path f = dir.resolve("main.pc");
    Files.write(f, (String.join("\n", DECK) + "\n").getBytes(StandardCharsets.ISO_8859_1));
    nvim.command("edit " + f).join();
    lua("vim.wait(15000, function() return require('nvimpam.ids').last[vim.api.nvim_get_current_buf()] ~= nil end, 20)");
  }

  @SuppressWarnings("unchecked")
  private List<String> lines() {
    return (List<String>) lua("return vim.api.nvim_buf_get_lines(0, 0, -1, true)");
  }

  /** { seq_cur, seq_last } of undotree(). */
  @SuppressWarnings("unchecked")
  private List<Long> seq() {
    return (List<Long>) lua("local u = vim.fn.undotree() return { u.seq_cur, u.seq_last }");
  }

  /** Lua that puts the cursor on line {@code line}, column {@code col} (both 1-based). */
  private static String cursor(int line, int col) {
    return "vim.api.nvim_win_set_cursor(0, { " + line + ", " + (col - 1) + " }) ";
  }

  /** Lua that types {@code keys} (with <> notation) as the user would, to the end. */
  private static String keys(String keys) {
    return "vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('" + keys + "', true, false, true), 'xt', false) ";
  }

  private static String command(String command) {
    return "vim.cmd('" + command + "') ";
  }

  /**
   * The user's change (a NODE line added below line 8), then {@code command} (Lua): the command is
   * one undo step after the user's, {@code u} gives back exactly the lines after the user's change,
   * a second {@code u} the lines before it, and redo both changes. The user's change is typed, or
   * made through the API in the same Lua chunk as the command, so that nothing Neovim does between
   * two requests (a refold that runs a Normal-mode command) closes the undo block in between.
   */
  private void oneStepAfterTheUsersChange(String command, String expectedLine, int at) {
    oneStepAfterTheUsersChange(command, Pattern.compile(Pattern.quote(expectedLine)), at);
  }

  /** As above, with the line the command makes matching {@code expected}. */
  private void oneStepAfterTheUsersChange(String command, Pattern expected, int at) {
    for (boolean typed : new boolean[] {true, false}) {
      List<String> before = lines();
      long seqBefore = seq().get(1);
      if (typed) {
        lua(cursor(8, 1) + keys("o" + USER + "<Esc>"));
        assertEquals(seqBefore + 1, seq().get(1), "the user's change is an undo step");
        lua(command);
      } else {
        lua("vim.api.nvim_buf_set_lines(0, 8, 8, true, { '" + USER + "' }) " + command);
      }
      List<String> afterCommand = lines();
      String how = " (the user's change " + (typed ? "typed)" : "made through the API)");
      assertTrue(expected.matcher(afterCommand.get(at - 1)).matches(), afterCommand + how);
      assertEquals(List.of(seqBefore + 2, seqBefore + 2), seq(), "two undo steps: the user's and the command's" + how);
      nvim.command("undo").join();
      List<String> afterUser = new ArrayList<>(before);
      afterUser.add(8, USER);
      assertEquals(afterUser, lines(), "u after the command" + how);
      assertEquals(seqBefore + 1, seq().get(0));
      nvim.command("undo").join();
      assertEquals(before, lines(), "the second u undoes the user's change" + how);
      nvim.command("redo").join();
      nvim.command("redo").join();
      assertEquals(afterCommand, lines(), "redo gives back the command's change" + how);
      nvim.command("undo").join();
      nvim.command("undo").join();
      assertEquals(before, lines());
    }
  }

  /** {@code command} (Lua) changes nothing: no undo step, the lines as they were. */
  private void noStep(String command) {
    List<String> before = lines();
    List<Long> seq = seq();
    lua(command);
    assertEquals(before, lines());
    assertEquals(seq, seq(), "a command that changes nothing leaves no undo step");
  }

  private static final String ALIGNED = "NODE  /        3              2.";

  @Test
  void alignIsOneUndoStepOfItsOwn() {
    oneStepAfterTheUsersChange(cursor(9, 1) + command("NvimpamAlign"), ALIGNED, 9);
    oneStepAfterTheUsersChange(cursor(9, 1) + command("NvimpamAlign!"), ALIGNED, 9);
    oneStepAfterTheUsersChange(command("%NvimpamAlign"), ALIGNED, 9);
    noStep(cursor(7, 1) + command("NvimpamAlign"));
    noStep(command("%NvimpamAlign"));
    // A buffer with an 'undolevels' of its own (setting the global one closes no block there).
    lua("vim.bo.undolevels = 500");
    oneStepAfterTheUsersChange(cursor(9, 1) + command("NvimpamAlign"), ALIGNED, 9);
    assertEquals(500L, lua("return vim.api.nvim_get_option_value('undolevels', { scope = 'local' })"));
  }

  @Test
  void gqIsOneUndoStepOfItsOwn() {
    oneStepAfterTheUsersChange(cursor(9, 1) + keys("gqq"), ALIGNED, 9);
    noStep(cursor(7, 1) + keys("gqj"));
  }

  @Test
  void headerIsOneUndoStepOfItsOwn() {
    oneStepAfterTheUsersChange(cursor(9, 1) + command("NvimpamHeader"), USER, 10);
    lua(cursor(9, 1) + command("NvimpamHeader"));
    noStep(cursor(10, 1) + command("NvimpamHeader"));
    noStep(cursor(10, 1) + command("NvimpamHeader!"));
  }

  @Test
  void cardIsOneUndoStepOfItsOwn() {
    // Below the run of NODE cards: its $# header line, then the card (its id the next free one,
    // or blank when the JVM is slow to tell).
    oneStepAfterTheUsersChange(cursor(9, 1) + command("NvimpamCard NODE"),
        Pattern.compile("NODE  /        [4 ]              0\\.              0\\.              0\\."), 11);
    // A card without an id of its own: no wait for the JVM's next free id.
    oneStepAfterTheUsersChange(cursor(9, 1) + command("NvimpamCard RUNEND"), "RUNEND/", 10);
    noStep(command("NvimpamCard NOSUCHCARD"));
  }

  @Test
  void dafAndCafAreOneUndoStepOfTheirOwn() {
    oneStepAfterTheUsersChange(cursor(9, 10) + keys("daf"), "NODE  /           2.", 9);
    oneStepAfterTheUsersChange(cursor(9, 10) + keys("caf7<Esc>"), "NODE  / 7         2.", 9);
  }

  @Test
  void renameIsOneUndoStepOfItsOwn() {
    oneStepAfterTheUsersChange(cursor(4, 14) + command("NvimpamRename 4567"),
        "PART  /     4567   SHELL       3       0       0       0", 4);
  }
}
