package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.DeckText;
import org.nvimpam.testutil.PluginTestBase;
import org.nvimpam.testutil.Screen;

/**
 * :NvimpamParts as a user sees it: the table buffer on the screen, one line per PART and the
 * total last; {@code s} sorting by the column under the cursor, {@code <CR>} on the PART card, and
 * the table made again on :e of the deck (after the file changed), never by typing in it.
 */
class PartsIT extends PluginTestBase {
  private static final long WAIT_MS = 60_000;
  private Screen screen;

  /** Part 1: a 10 x 10 plate, t 1, rho 1 (mass 100); part 2: 2 x 2, t 1, rho 1 (4); part 3 5 x 5 (25). */
  private static String deck(double rho2) {
    DeckText d = new DeckText(2011);
    d.mater(1, 103, 1, "one");
    d.mater(2, 103, rho2, "two");
    d.shellPart(1, 1, 1, "big");
    d.shellPart(2, 2, 1, "small");
    d.shellPart(3, 1, 1, "middle");
    double[] size = {10, 2, 5};
    for (int p = 0; p < 3; p++) {
      double a = size[p], z = 10 * p;
      d.shell(p + 1, d.node(0, 0, z), d.node(a, 0, z), d.node(a, a, z), d.node(0, a, z), Double.NaN);
    }
    return d.text();
  }

  private Path open(String text) throws Exception {
    lua("vim.o.hidden = true vim.o.ruler = false vim.o.showmode = false");
    setup("");
    Path file = dir.resolve("model.pc");
    Files.writeString(file, text, StandardCharsets.ISO_8859_1);
    screen = Screen.attach(nvim, 200, 30);
    nvim.command("edit " + file).join();
    return file;
  }

  private static int row(Screen.Snapshot s, String prefix) {
    for (int r = 0; r < s.height(); r++) {
      if (s.trimmed(r).stripLeading().startsWith(prefix)) return r;
    }
    return -1;
  }

  /** The part ids in the order the screen shows them. */
  private static List<String> ids(Screen.Snapshot s) {
    List<String> out = new ArrayList<>();
    int h = row(s, "ID  NAME");
    for (int r = h + 1; r < s.height(); r++) {
      String t = s.trimmed(r).stripLeading();
      if (t.isEmpty() || !Character.isDigit(t.charAt(0))) break;
      out.add(t.split("\\s+")[0]);
    }
    return out;
  }

  private Screen.Snapshot table() {
    nvim.command("NvimpamParts").join();
    return screen.expect(s -> row(s, "TOTAL") >= 0, "the parts table with its total", WAIT_MS);
  }

  @Test
  void theTableShowsEveryPartAndTheTotalLast() throws Exception {
    open(deck(1));
    Screen.Snapshot s = table();
    assertEquals("nvimpamparts", lua("return vim.bo.filetype"));
    assertEquals(List.of("1", "2", "3"), ids(s), s.dump());
    String big = s.trimmed(row(s, "1  big"));
    assertTrue(big.contains("  100  "), big);
    String total = s.trimmed(row(s, "TOTAL"));
    assertTrue(total.contains("129"), total);
    assertEquals("TOTAL", ((String) lua("return vim.api.nvim_buf_get_lines(0, -2, -1, true)[1]")).substring(0, 5));
    assertEquals(false, lua("return vim.bo.modifiable"));
  }

  @Test
  void sortByTheColumnUnderTheCursorAndJumpToThePart() throws Exception {
    Path file = open(deck(1));
    table();
    // the cursor on the MASS column of the header
    lua("local l = vim.api.nvim_buf_get_lines(0, 0, 1, true)[1] vim.api.nvim_win_set_cursor(0, { 1, l:find('MASS') - 1 })");
    Screen.Snapshot s = screen.input("s", x -> ids(x).equals(List.of("1", "3", "2")), "sorted by mass, heaviest first");
    s = screen.input("s", x -> ids(x).equals(List.of("2", "3", "1")), "sorted by mass, lightest first");
    lua("local l = vim.api.nvim_buf_get_lines(0, 0, 1, true)[1] vim.api.nvim_win_set_cursor(0, { 1, l:find('NAME') - 1 })");
    s = screen.input("s", x -> ids(x).equals(List.of("1", "3", "2")), "sorted by name: big, middle, small");
    // <CR> on the line of part 3 (the second line of the sort): its PART card in the deck's window
    lua("vim.api.nvim_win_set_cursor(0, { 3, 0 })");
    screen.input("<CR>", x -> true, "the jump");
    assertEquals(file.toString(), lua("return vim.api.nvim_buf_get_name(0)"));
    Object line = lua("return vim.api.nvim_get_current_line()");
    assertTrue(((String) line).startsWith("PART  /        3"), String.valueOf(line));
  }

  @Test
  void editingTheDeckAgainRefreshesTheTable() throws Exception {
    Path file = open(deck(1));
    Screen.Snapshot s = table();
    assertTrue(s.trimmed(row(s, "TOTAL")).contains("129"));
    // typing in the deck changes nothing: the table is of the saved file, made on :e or R
    nvim.command("wincmd p").join();
    nvim.command("normal! ggO$ a comment").join();
    s = screen.flushAfter("vim.cmd('redraw!')");
    assertTrue(s.trimmed(row(s, "TOTAL")).contains("129"), s.dump());
    nvim.command("edit!").join(); // the file as saved: the comment is gone, the table made again
    Files.writeString(file, deck(26), StandardCharsets.ISO_8859_1); // part 2: 4 * 26 = 104
    nvim.command("edit!").join();
    s = screen.expect(x -> row(x, "TOTAL") >= 0 && x.trimmed(row(x, "TOTAL")).contains("229"), "the table of the new file", WAIT_MS);
    assertEquals(List.of("1", "2", "3"), ids(s));
  }
}
