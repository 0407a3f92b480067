package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;

/**
 * The plugin works without setup(): plugin/nvimpam.vim starts it with `vim.g.nvimpam` (or the
 * defaults), and a deck that opens gets its folds, mappings and diagnostics; setup() later only
 * changes options.
 */
class NoSetupIT extends PluginTestBase {
  private void loadPlugin(String gOptions) {
    lua("vim.g.nvimpam = { jar = '" + EmbeddedNvim.jar() + "'" + gOptions + " }");
    nvim.command("filetype on").join();
    nvim.command("runtime plugin/nvimpam.vim").join(); // as Neovim's start-up sources it
  }

  @Test
  void aDeckOpenedWithoutSetupGetsItsFoldsAndMappings() throws IOException {
    loadPlugin("");
    EmbeddedNvim.edit(nvim, example(), dir);
    assertEquals(true, lua("return vim.wait(15000, function() return vim.fn.foldlevel(29) > 0 end, 20)"),
        "folds without setup(); notes " + lua("return _G.notes"));
    assertEquals(1L, lua("return vim.fn.maparg('<Tab>', 'n', false, true).buffer"));
    assertEquals(2L, lua("return vim.fn.exists(':NvimpamCheck')"));
  }

  @Test
  void theFiletypePluginMakesDollarLinesComments() throws IOException {
    nvim.command("filetype plugin on").join();
    EmbeddedNvim.edit(nvim, example(), dir);
    assertEquals("$ %s", lua("return vim.bo.commentstring"));
    assertEquals(":$,:#", lua("return vim.bo.comments"));
  }

  @Test
  void optionsInVimGNvimpamApplyWithoutSetup() throws IOException {
    loadPlugin(", auto_attach = false");
    EmbeddedNvim.edit(nvim, example(), dir);
    lua("vim.wait(500)");
    assertEquals(0L, lua("return vim.fn.foldlevel(29)"));
    assertEquals(false, lua("return require('nvimpam.host').running()"));
  }

  @Test
  void setupAfterThePluginStartedOnlyChangesOptions() throws IOException {
    loadPlugin(", auto_attach = false");
    lua("require('nvimpam').setup({ jar = '" + EmbeddedNvim.jar() + "' })");
    EmbeddedNvim.edit(nvim, example(), dir);
    assertEquals(true, lua("return vim.wait(15000, function() return vim.fn.foldlevel(29) > 0 end, 20)"));
    assertTrue(((Number) lua("return #vim.api.nvim_get_autocmds({ group = 'nvimpam', event = 'FileType' })"))
        .longValue() == 1, "one FileType handler, not one per start");
  }
}
