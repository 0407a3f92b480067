package org.nvimpam.cells;

import java.nio.file.Path;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.testutil.EmbeddedNvim;

/** What the tests of the Lua side of the cells share: the small test table, Lua with arguments. */
final class CellsLua {
  private CellsLua() {}

  /** src/test/resources/cards/good: NODE, SHELL (2011, 2020), MASS, GROUP, FLAGS, PART and its variants. */
  static String testTable() {
    return EmbeddedNvim.root().resolve(Path.of("src", "test", "resources", "cards", "good")).toString();
  }

  /** Runs {@code code} with {@code args} as its {@code ...} and returns its result. */
  static Object lua(Nvim nvim, String code, Object... args) {
    return nvim.execLua(code, nvim.args(args)).join();
  }

  /**
   * Points nvimpam.model.layout (and so rows, fields, cells and the hint) at the test table, loaded now: the
   * first redraw shows cells (a table the cells load themselves comes a few slices later).
   */
  static void useTestTable(Nvim nvim) {
    lua(nvim, "require('nvimpam.model.layout').use(...) require('nvimpam.model.layout').get() require('nvimpam.view.cells').reload()",
        testTable());
  }

  /** A line of exactly {@code width} bytes: {@code text} padded with blanks. */
  static String pad(String text, int width) {
    StringBuilder b = new StringBuilder(text);
    while (b.length() < width) b.append(' ');
    return b.toString();
  }
}
