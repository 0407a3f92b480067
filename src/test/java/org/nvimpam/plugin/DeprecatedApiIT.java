package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;

/**
 * Nothing nvimpam does shows in {@code :checkhealth vim.deprecated}, which lists the deprecated
 * Lua functions called so far with their stack. That check exists from Neovim 0.11 on: on older
 * versions the test is skipped (and says so).
 */
class DeprecatedApiIT extends PluginTestBase {
  /** Arguments for the commands that need some; every other command also runs without any. */
  private static final Map<String, List<String>> ARGS = Map.of(
      "NvimpamFoldStrategy", List.of("", "viml", "pipe", "per-command", "call-atomic", "lua"));


  @Test
  void setupAndEveryNvimpamFoldCommandCallNoDeprecatedFunction() throws IOException {
    boolean hasCheck = Boolean.TRUE.equals(
        lua("return #vim.api.nvim_get_runtime_file('lua/vim/deprecated/health.lua', false) > 0"));
    if (!hasCheck) {
      // Say so in the build log too, not only in the report files.
      System.err.println("SKIPPED DeprecatedApiIT: no :checkhealth vim.deprecated in Neovim "
          + lua("local v = vim.version() return v.major .. '.' .. v.minor .. '.' .. v.patch") + " (it exists from 0.11 on)");
    }
    assumeTrue(hasCheck, "no :checkhealth vim.deprecated in this Neovim (it exists from 0.11 on)");

    String jar = EmbeddedNvim.jar();
    nvim.command("filetype on").join();
    lua("require('nvimpam').setup({ jar = '" + jar + "', debounce_ms = 20 })");
    EmbeddedNvim.edit(nvim, EmbeddedNvim.exampleDeck(), dir);
    // auto_attach folds the buffer and follows edits: wait for the first folds, then edit once.
    assertEquals(true, lua("return vim.wait(15000, function() return vim.fn.foldlevel(30) > 0 end)"), "auto-folded");
    lua("vim.api.nvim_buf_set_lines(0, 5000, 5000, false, "
        + "{ 'NODE  /     9999              0.              0.              0.' })");
    assertEquals(true, lua("return vim.wait(15000, function() "
        + "return require('nvimpam.fold').applied_tick(0) == vim.b.changedtick end)"), "refolded live");

    List<String> ran = new ArrayList<>();
    for (String name : nvimpamFoldCommands()) {
      for (String arg : ARGS.getOrDefault(name, List.of(""))) {
        String cmd = arg.isEmpty() ? name : name + " " + arg;
        nvim.command(cmd).join();
        ran.add(cmd);
        // a report (:NvimpamFoldInfo, :NvimpamFoldBench) opens in a float: back to the deck
        lua("if vim.api.nvim_win_get_config(0).relative ~= '' then vim.api.nvim_win_close(0, true) end");
      }
    }
    assertTrue(ran.contains("NvimpamFold") && ran.contains("NvimpamFoldBench"), ran.toString());
    assertEquals(List.of(), lua("return vim.tbl_filter(function(n) return n[2] >= vim.log.levels.ERROR end, _G.notes)"),
        "errors while running " + ran);

    nvim.command("checkhealth vim.deprecated").join();
    List<String> report = lines();
    assertTrue(String.join("\n", report).contains("vim.deprecated"), String.join("\n", report));
    List<String> ours = report.stream().filter(l -> l.contains("nvimpam")).toList();
    assertEquals(List.of(), ours, "after " + ran + ":\n" + String.join("\n", report));
  }

  /** The user commands whose names start with NvimpamFold, so that a new one is covered too. */
  private List<String> nvimpamFoldCommands() {
    Object names = lua("local t = vim.tbl_keys(vim.api.nvim_get_commands({ builtin = false })) "
        + "t = vim.tbl_filter(function(n) return n:find('^NvimpamFold') ~= nil end, t) table.sort(t) return t");
    return ((List<?>) names).stream().map(String::valueOf).toList();
  }

  private List<String> lines() {
    Object l = lua("return vim.api.nvim_buf_get_lines(0, 0, -1, false)");
    return ((List<?>) l).stream().map(String::valueOf).toList();
  }
}
