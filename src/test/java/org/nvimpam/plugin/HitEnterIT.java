package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;
import org.nvimpam.testutil.Screen;

/**
 * No nvimpam command that says one thing leaves a hit-enter prompt: typed on an attached UI, each
 * one ends with Neovim back in Normal mode and no "Press ENTER" on the screen. Neovim's own
 * vim.notify shows the messages (the collecting one of the other tests would hide them).
 */
@org.junit.jupiter.api.Timeout(value = 120, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
class HitEnterIT extends PluginTestBase {
  private static final List<String> COMMANDS = List.of("NvimpamCells", "NvimpamCells off", "NvimpamCells on",
      "NvimpamCells toggle", "NvimpamFoldStrategy", "NvimpamFoldStrategy lua", "NvimpamFold", "NvimpamFoldDetach",
      "NvimpamFoldAttach", "NvimpamCheck", "cclose", "NvimpamCellInfo", "NvimpamGoto", "NvimpamRefs", "NvimpamOutline!",
      "lclose", "NvimpamAlign", "NvimpamHeader", "NvimpamCard NODE", "NvimpamRename 77",
      // reports longer than the command line open in a float, which :close closes
      "NvimpamFoldInfo", "close", "NvimpamFoldBench", "close",
      // on a comment line: no FUNCT; an id with no FUNCT
      "NvimpamPlot", "NvimpamPlot 99",
      // the deck against itself: no difference; the parts table opens in a split, closed again
      "NvimpamDiff car.pc", "cclose", "NvimpamParts", "close",
      // the model commands: a real change each (one of them refused), lists closed again
      "NvimpamOffset node 1000", "NvimpamRenumber node 1", "NvimpamUnused", "cclose", "NvimpamTransform translate 0 0 1",
      "cclose", "NvimpamExtract part1.inc part=1", "cclose",
      // the deck (and its new include file, written first) merged with itself into new buffers
      "silent wall", "NvimpamMerge merged car.pc", "cclose");

  /** The last :NvimpamOffset or :NvimpamRenumber is over. */
  private static final String RENUMBERED = "return (require('nvimpam.deck.renumber').last or {}).done == true";

  /** The last :NvimpamTransform is over. */
  private static final String TRANSFORMED = "return (require('nvimpam.deck.transform').last or {}).done == true";

  /** The last :NvimpamExtract is over. */
  private static final String EXTRACTED = "return (require('nvimpam.deck.extract').last or {}).done == true";

  /** The last :NvimpamMerge is over. */
  private static final String MERGED = "return (require('nvimpam.deck.merge').last or {}).done == true";

  /** No call to the JVM awaits its answer. */
  private static final String ANSWERED = "return not require('nvimpam.host').busy()";

  /** What a command must have done before the next one is typed (commands that finish later). */
  private static final Map<String, String> DONE = Map.of("NvimpamParts", "return vim.bo.filetype == 'nvimpamparts'",
      "NvimpamOffset node 1000", RENUMBERED, "NvimpamRenumber node 1", RENUMBERED,
      "NvimpamUnused", ANSWERED, "NvimpamTransform translate 0 0 1", TRANSFORMED, "NvimpamExtract part1.inc part=1", EXTRACTED,
      "NvimpamMerge merged car.pc", MERGED);

  /** nvim_get_mode: answered at once, also while a prompt waits for a key (exec_lua is not). */
  private String mode() {
    Object m = nvim.call("nvim_get_mode", out -> out.packArrayHeader(0), org.nvimpam.nvim.Decoders.object()).join();
    return String.valueOf(((java.util.Map<?, ?>) m).get("mode"));
  }

  /** The screen when typed() saw it settle. */
  private String shown;

  private String typed(Screen screen, String c) throws Exception {
    return typed(screen, c, null);
  }

  /**
   * Types {@code :c<CR>} and waits until Neovim settles (back in Normal mode and, when given, Lua
   * {@code done} returns true; or a prompt waits); returns its mode and whether "Press ENTER" shows.
   */
  private String typed(Screen screen, String c, String done) throws Exception {
    nvim.call("nvim_input", nvim.args(":" + c + "<CR>"), in -> in.unpackLong()).join();
    long end = System.currentTimeMillis() + 10_000;
    String mode = mode();
    while (!mode.startsWith("r") && !(mode.equals("n") && (done == null || Boolean.TRUE.equals(lua(done))))
        && System.currentTimeMillis() < end) {
      Thread.sleep(20);
      mode = mode();
    }
    Thread.sleep(150); // a scheduled message
    mode = mode();
    shown = screen.current().dump();
    boolean prompt = shown.contains("Press ENTER");
    if (prompt || !mode.equals("n")) nvim.call("nvim_input", nvim.args("<CR>"), in -> in.unpackLong()).join();
    return mode + " " + prompt;
  }

  private void startWithUi() throws IOException {
    nvim.close();
    nvim = EmbeddedNvim.start(); // Neovim's own vim.notify
    EmbeddedNvim.setupPlugin(nvim, "");
    nvim.command("filetype on").join();
  }

  @Test
  void noCommandLeavesAHitEnterPrompt() throws Exception {
    startWithUi();
    Screen screen = Screen.attach(nvim, 100, 20);
    Path deck = dir.resolve("car.pc");
    Files.write(deck, List.of("INPUTVERSION 2011", "$", "NODE  /        1              0.              0.              0.",
        "NODE  /        2              0.              0.              0."));
    nvim.command("edit " + deck).join();
    lua("vim.wait(10000, function() return require('nvimpam.fold').applied_tick(0) ~= nil end, 10)");
    for (String c : COMMANDS) {
      lua("vim.api.nvim_win_set_cursor(0, { 2, 0 })"); // a comment line: no field, no id
      assertEquals("n false", typed(screen, c, DONE.get(c)), () -> ":" + c + " left " + shown);
      if (c.startsWith("NvimpamFoldInfo") || c.startsWith("NvimpamFoldBench")) {
        // the bench runs every strategy first; polled from here: a vim.wait() inside the command's
        // own wait for the JVM would hold it up
        long until = System.currentTimeMillis() + 20_000;
        boolean floated = false;
        while (!(floated = (Boolean) lua("return vim.api.nvim_win_get_config(0).relative ~= ''"))
            && System.currentTimeMillis() < until) {
          Thread.sleep(50);
        }
        assertEquals(true, floated, ":" + c + " shows a float: " + shown);
        String now = screen.current().dump();
        assertEquals(false, now.contains("Press ENTER"), ":" + c + " left " + now);
      }
    }
  }

  /** Every command nvimpam defines is typed above: a new one cannot skip this test. */
  @Test
  void everyCommandIsTyped() {
    setup("");
    Set<String> typed = new TreeSet<>();
    for (String c : COMMANDS) typed.add(c.split("[ !]")[0]);
    Set<String> defined = new TreeSet<>();
    // the names only: a command's callback is a Lua function, which does not cross the RPC
    for (Object name : (List<?>) lua("return vim.tbl_keys(vim.api.nvim_get_commands({}))")) {
      if (String.valueOf(name).startsWith("Nvimpam")) defined.add(String.valueOf(name));
    }
    defined.removeAll(typed);
    assertEquals(Set.of(), defined, "commands that noCommandLeavesAHitEnterPrompt does not type");
  }

  private static String node(int id) {
    return String.format("NODE  / %8d              0.              0.              0.", id);
  }

  private static String shell(int id, int... nodes) {
    StringBuilder sb = new StringBuilder(String.format("SHELL / %8d%8d", id, 12));
    for (int n : nodes) sb.append(String.format("%8d", n));
    return sb.toString();
  }

  /**
   * :NvimpamRename across a three-file include tree with long file names on a narrow screen: the
   * message is one line, and the quickfix list names every file changed (at its first change) and
   * the include file not searched. A refusal with reasons wider than the command line alike.
   */
  @Test
  void renameAcrossIncludeFilesLeavesNoHitEnterPromptAndListsEveryFile() throws Exception {
    startWithUi();
    Screen screen = Screen.attach(nvim, 60, 20);
    String stem = "front_body_structure_left_door_inner_panel_";
    Path main = dir.resolve(stem + "assembly.pc");
    Path a = dir.resolve(stem + "nodes_and_shells.inc");
    Path b = dir.resolve(stem + "reinforcement_shells.inc");
    Files.write(main, List.of("INPUTVERSION 2011", "INCLU / " + a.getFileName(), "INCLU / " + stem + "cluster_only.inc",
        "PART  /       12   SHELL       3       0       0       0", "NAME Door inner", "END_PART",
        shell(100, 77, 78, 79, 80), "GROUP / doors", "        NOD 70:80 PART 12", "        END"));
    Files.write(a, List.of("$ the nodes", "INCLU / " + b.getFileName(), node(77), node(78), node(79), node(80), node(81),
        shell(200, 81, 80, 79, 77)));
    Files.write(b, List.of(shell(300, 77, 77, 78, 79), "$ end"));
    nvim.command("edit " + main).join();
    lua("vim.wait(15000, function() return require('nvimpam.ids').last[vim.api.nvim_get_current_buf()] ~= nil end, 20)");
    lua("vim.api.nvim_win_set_cursor(0, { 7, 29 })"); // SHELL 100, IDNOD1 = 77
    String listed = "return vim.fn.getqflist({ id = 0 }).id ~= " + lua("return vim.fn.getqflist({ id = 0 }).id");
    assertEquals("n false", typed(screen, "NvimpamRename 9077", listed), () -> "the rename left " + shown);
    String message = String.valueOf(lua("return vim.trim(vim.fn.execute('1messages'))"));
    assertEquals(true, message.contains("3 files") && message.contains(":wall"), message);
    List<?> qf = (List<?>) lua("local out = {} for _, it in ipairs(vim.fn.getqflist()) do"
        + " out[#out + 1] = (it.bufnr > 0 and vim.fn.fnamemodify(vim.fn.bufname(it.bufnr), ':t') .. ':' .. it.lnum .. ': ' or '')"
        + " .. it.text end return out");
    assertEquals(List.of(main.getFileName() + ":7: node 77 -> 9077: 2 lines changed",
        a.getFileName() + ":3: node 77 -> 9077: 2 lines changed",
        b.getFileName() + ":1: node 77 -> 9077: 1 line changed",
        "not searched (not found): " + stem + "cluster_only.inc (" + main.getFileName() + " line 3)"), qf);

    // refused: 81 is defined already, and b's buffer may not change
    lua("vim.bo[vim.fn.bufnr('" + b + "')].modifiable = false");
    lua("vim.api.nvim_win_set_cursor(0, { 7, 29 })");
    String relisted = "return vim.fn.getqflist({ id = 0 }).id ~= " + lua("return vim.fn.getqflist({ id = 0 }).id");
    assertEquals("n false", typed(screen, "NvimpamRename 81", relisted), () -> "the refusal left " + shown);
    List<?> reasons = (List<?>) lua("local out = {} for _, it in ipairs(vim.fn.getqflist()) do out[#out + 1] = it.text end"
        + " return out");
    String refusal = String.valueOf(lua("return vim.trim(vim.fn.execute('1messages'))"));
    assertEquals(2, reasons.size(), () -> refusal + ": " + reasons);
    assertEquals(true, String.valueOf(reasons).contains("'nomodifiable'"), reasons::toString);
  }
}
