package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
      "NvimpamPlot", "NvimpamPlot 99");

  /** nvim_get_mode: answered at once, also while a prompt waits for a key (exec_lua is not). */
  private String mode() {
    Object m = nvim.call("nvim_get_mode", out -> out.packArrayHeader(0), org.nvimpam.nvim.Decoders.object()).join();
    return String.valueOf(((java.util.Map<?, ?>) m).get("mode"));
  }

  @Test
  void noCommandLeavesAHitEnterPrompt() throws Exception {
    nvim.close();
    nvim = EmbeddedNvim.start(); // Neovim's own vim.notify
    EmbeddedNvim.setupPlugin(nvim, "");
    nvim.command("filetype on").join();
    Screen screen = Screen.attach(nvim, 100, 20);
    Path deck = dir.resolve("car.pc");
    Files.write(deck, List.of("INPUTVERSION 2011", "$", "NODE  /        1              0.              0.              0.",
        "NODE  /        2              0.              0.              0."));
    nvim.command("edit " + deck).join();
    lua("vim.wait(10000, function() return require('nvimpam.folds').applied_tick(0) ~= nil end, 10)");
    for (String c : COMMANDS) {
      lua("vim.api.nvim_win_set_cursor(0, { 2, 0 })"); // a comment line: no field, no id
      nvim.call("nvim_input", nvim.args(":" + c + "<CR>"), in -> in.unpackLong()).join();
      long end = System.currentTimeMillis() + 10_000;
      String mode = mode();
      while (!mode.equals("n") && !mode.startsWith("r") && System.currentTimeMillis() < end) {
        Thread.sleep(20);
        mode = mode();
      }
      Thread.sleep(150); // a scheduled message
      mode = mode();
      String shown = screen.current().dump();
      boolean prompt = shown.contains("Press ENTER");
      if (prompt || !mode.equals("n")) nvim.call("nvim_input", nvim.args("<CR>"), in -> in.unpackLong()).join();
      assertEquals("n false", mode + " " + prompt, ":" + c + " left " + shown);
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
}
