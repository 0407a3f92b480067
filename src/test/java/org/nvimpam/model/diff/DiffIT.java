package org.nvimpam.model.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.PluginTestBase;

/**
 * :NvimpamDiff in a real Neovim: the buffer as edited (not saved) against the deck file, its
 * differences in the quickfix list on the buffer's lines; a deck re-aligned, re-ordered and split
 * into includes gives an empty list.
 */
class DiffIT extends PluginTestBase {
  @BeforeEach
  void detectFiletypes() {
    nvim.command("filetype on").join();
    nvim.command("cd " + dir).join(); // {file} is relative to the current directory, as :edit's
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> diffList(String args) {
    lua("vim.fn.setqflist({}, ' ', { title = 'before' })");
    nvim.command("NvimpamDiff " + args).join();
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      Map<String, Object> qf = (Map<String, Object>) lua("return vim.fn.getqflist({ items = 1, title = 1 })");
      if (String.valueOf(qf.get("title")).startsWith("nvimpam diff")) return qf;
      lua("vim.wait(100)");
    }
    throw new AssertionError("no diff in the quickfix list within 60 s");
  }

  private static String line(List<String> deck, String prefix, int nth) {
    int k = 0;
    for (String l : deck) {
      if (l.startsWith(prefix) && k++ == nth) return l;
    }
    throw new AssertionError("no " + prefix);
  }

  @Test
  @SuppressWarnings("unchecked")
  void theEditedBufferAgainstTheFileListsExactlyItsThreeChangesOnItsLines() throws Exception {
    List<String> deck = DeckDiffTest.generated(3, 2000);
    Path old = dir.resolve("old.pc");
    Files.writeString(old, String.join("\n", deck) + "\n", StandardCharsets.ISO_8859_1);
    Path now = dir.resolve("now.pc");
    Files.copy(old, now);
    setup("");
    nvim.command("edit " + now).join();
    // a node moved, a material's density changed, an element removed: in the buffer, not saved
    String node = line(deck, "NODE  / ", 40);
    int nodeAt = deck.indexOf(node);
    String x = node.substring(16, 32).trim();
    String movedNode = node.substring(0, 16) + String.format("%16s", "1234.5") + node.substring(32);
    String mater = String.format("%-80s", line(deck, "MATER / ", 0));
    int materAt = deck.indexOf(mater.stripTrailing());
    String rho = mater.substring(24, 40).trim();
    String denser = (mater.substring(0, 24) + String.format("%16s", "8.5E-6") + mater.substring(40)).stripTrailing();
    int shellAt = -1;
    for (int i = deck.size() - 1; i > 0 && shellAt < 0; i--) {
      if (deck.get(i).startsWith("SHELL / ") && deck.get(i - 1).startsWith("SHELL / ")) shellAt = i;
    }
    String shellId = deck.get(shellAt).substring(8, 16).trim();
    assertTrue(nodeAt < shellAt && materAt < shellAt, "the edits above the removed line keep their places");
    lua("local b = 0 "
        + "vim.api.nvim_buf_set_lines(b, " + nodeAt + ", " + (nodeAt + 1) + ", true, { '" + movedNode + "' }) "
        + "vim.api.nvim_buf_set_lines(b, " + materAt + ", " + (materAt + 1) + ", true, { '" + denser + "' }) "
        + "vim.api.nvim_buf_set_lines(b, " + shellAt + ", " + (shellAt + 1) + ", true, {})");
    assertEquals(true, lua("return vim.bo.modified"), "the edits are not saved");

    long buf = ((Number) lua("return vim.api.nvim_get_current_buf()")).longValue();
    Map<String, Object> qf = diffList("old.pc");
    List<Map<String, Object>> items = (List<Map<String, Object>>) qf.get("items");
    List<String> got = new ArrayList<>();
    for (Map<String, Object> it : items) {
      assertEquals(buf, ((Number) it.get("bufnr")).longValue(), "on the current buffer: " + it);
      got.add(it.get("lnum") + " " + it.get("text"));
    }
    String nodeId = node.substring(8, 16).trim();
    String matId = mater.substring(8, 16).trim();
    List<String> want = new ArrayList<>(List.of(
        (nodeAt + 1) + " changed NODE " + nodeId + " X: " + x + " -> 1234.5 (was old.pc:" + (nodeAt + 1) + ")",
        (materAt + 1) + " changed MATER " + matId + " RHO: " + rho + " -> 8.5E-6 (was old.pc:" + (materAt + 1) + ")"));
    want.sort(java.util.Comparator.comparingInt(s -> Integer.parseInt(s.substring(0, s.indexOf(' ')))));
    // the removed element sits on the card before the place it had
    want.add(shellAt + " removed SHELL " + shellId + " (was old.pc:" + (shellAt + 1) + ")");
    assertEquals(want, got);
    assertEquals("nvimpam diff with old.pc: 2 changed (2 fields), 0 added, 1 removed", qf.get("title"));
    assertEquals(true, lua("return vim.bo[" + buf + "].modified"), "nothing was written");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aDeckRealignedReorderedAndSplitGivesAnEmptyList() throws Exception {
    List<String> deck = DeckDiffTest.generated(4, 1500);
    Path old = dir.resolve("old.pc");
    Files.writeString(old, String.join("\n", deck) + "\n", StandardCharsets.ISO_8859_1);
    DeckDiffTest helper = new DeckDiffTest();
    helper.dir = dir;
    java.util.Random rnd = new java.util.Random(4);
    Path now = helper.scatter("now", DeckDiffTest.realign(deck, rnd), 3, rnd);
    setup("");
    nvim.command("edit " + now).join();
    Map<String, Object> qf = diffList("old.pc");
    assertEquals(List.of(), qf.get("items"));
    assertTrue(String.valueOf(qf.get("title")).matches("nvimpam diff with old\\.pc: 0 changed \\(0 fields\\), 0 added, 0 removed, "
        + "\\d+ moved between files"), String.valueOf(qf.get("title")));
  }

  @Test
  void aFileThatCannotBeReadIsAnErrorNamingIt() throws Exception {
    Path now = dir.resolve("now.pc");
    Files.writeString(now, "INPUTVERSION 2011\n", StandardCharsets.ISO_8859_1);
    setup("");
    nvim.command("edit " + now).join();
    lua("_G.notes = {} vim.notify = function(m) table.insert(_G.notes, m) end");
    nvim.command("NvimpamDiff gone.pc").join();
    long deadline = System.nanoTime() + 60_000_000_000L;
    Object notes = null;
    while (System.nanoTime() < deadline) {
      notes = lua("return _G.notes");
      if (!((List<?>) notes).isEmpty()) break;
      lua("vim.wait(100)");
    }
    assertEquals(List.of("nvimpam: " + dir.resolve("gone.pc") + " not found"), notes);
  }
}
