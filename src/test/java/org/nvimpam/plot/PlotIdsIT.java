package org.nvimpam.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.PluginTestBase;

/**
 * :NvimpamPlot with ids: FUNCTs found by the JVM's id index (the goto path), in the deck and in
 * an include file, read from the file when it is not open and from its buffer (and redrawn on its
 * edits) when it is.
 */
class PlotIdsIT extends PluginTestBase {
  private static final List<String> INC = List.of(
      "FUNCT /        9       0",
      "NAME included",
      "                              0.              1.",
      "                              5.             -1.",
      "        END");
  private static final List<String> MAIN = List.of(
      "INPUTVERSION 2011",
      "INCLU / funcs.inc",
      "FUNCT /        7       0      2.",
      "NAME load",
      "                              0.              0.",
      "                              1.              3.",
      "        END",
      "NODE  /        1              0.              0.              0.");

  private Path main;
  private Path inc;

  @BeforeEach
  void open() throws Exception {
    nvim.command("filetype on").join();
    inc = dir.resolve("funcs.inc");
    Files.writeString(inc, String.join("\n", INC) + "\n", StandardCharsets.ISO_8859_1);
    main = dir.resolve("main.pc");
    Files.writeString(main, String.join("\n", MAIN) + "\n", StandardCharsets.ISO_8859_1);
    setup("");
    nvim.command("edit " + main).join();
  }

  @SuppressWarnings("unchecked")
  private List<String> plotLines() {
    return (List<String>) lua("local c = require('nvimpam.view.plot').current() "
        + "return c and vim.api.nvim_buf_get_lines(c.buf, 0, -1, false) or {}");
  }

  private String notes() {
    return String.valueOf(lua("return _G.notes"));
  }

  @Test
  void idsInTheDeckAndAnIncludeFile() {
    nvim.command("NvimpamPlot 7,9").join();
    List<String> l = plotLines();
    assertTrue(l.size() > 4, notes());
    assertTrue(l.get(0).endsWith("FUNCT 7  load"), l.get(0));
    assertTrue(l.get(1).endsWith("FUNCT 9  included"), l.get(1));
    // Y from -1 to 3, X from 0 (FUNCT 7 scaled by 2: 0 to 2; FUNCT 9: 0 to 5) to 5
    assertTrue(l.get(2).startsWith(" 3┤"), l.get(2));
    assertTrue(l.get(l.size() - 3).startsWith("-1┤"), l.get(l.size() - 3));
    assertTrue(l.get(l.size() - 1).matches(" +0 +5"), l.get(l.size() - 1));
    // the include file was read, not opened
    assertEquals(0L, ((Number) lua("return vim.fn.bufloaded('" + inc + "')")).longValue());
  }

  @Test
  void anUndefinedIdSaysSo() {
    nvim.command("NvimpamPlot 12").join();
    assertTrue(notes().contains("no definition of FUNCT 12"), notes());
    assertEquals(Boolean.TRUE, lua("return require('nvimpam.view.plot').current() == nil"));
    nvim.command("NvimpamPlot x7").join();
    assertTrue(notes().contains("\"x7\" is no FUNCT id"), notes());
  }

  @Test
  void aFunctInAnOpenIncludeFileRedrawsOnItsEdits() {
    nvim.command("edit " + inc).join();
    nvim.command("edit " + main).join();
    nvim.command("NvimpamPlot 9").join();
    assertTrue(plotLines().get(1).startsWith(" 1┤"), plotLines() + " " + notes());
    // back in the deck's window, the include file in a split: its first point's Y from 1 to 4
    nvim.command("wincmd p").join();
    nvim.command("split " + inc).join();
    lua("vim.api.nvim_input('3G$hr4')");
    Object ok = lua("return vim.wait(5000, function() local c = require('nvimpam.view.plot').current() "
        + "return c and vim.startswith(vim.api.nvim_buf_get_lines(c.buf, 1, 2, false)[1], ' 4┤') end, 20)");
    assertEquals(Boolean.TRUE, ok, plotLines() + " " + notes());
  }
}
