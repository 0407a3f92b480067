package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;

/** A live load that runs out of heap, in a real Neovim with the built jar and a small -Xmx. */
class OutOfMemoryIT extends PluginTestBase {
  private static final long WAIT_MS = 60_000;
  private static final long BIG_LINES = 2_000_000; // about 118 MB: twice what a 64 MB heap holds


  private String notesText() {
    return String.valueOf(lua("return _G.notes"));
  }

  @Test
  void aDeckTooBigForTheHeapIsDroppedWithTheHeapToGiveAndTheOtherBufferKeepsFolding() throws Exception {
    String jar = EmbeddedNvim.jar();
    lua("vim.cmd('filetype on') require('nvimpam').setup({ jar = '" + jar + "', jvm_args = { '-Xmx64m' } })");
    Path small = dir.resolve("small.pc");
    Files.write(small, EmbeddedNvim.exampleDeck());
    Path big = dir.resolve("big.pc");
    try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(big), 1 << 16)) {
      new DeckGenerator(1).write(out, BIG_LINES);
    }
    nvim.command("edit " + small).join();
    awaitFolded();
    nvim.command("split " + big).join();

    long end = System.currentTimeMillis() + WAIT_MS;
    while (!notesText().contains("ran out of memory") && System.currentTimeMillis() < end) Thread.sleep(50);

    String notes = notesText();
    assertTrue(notes.contains("ran out of memory") && notes.contains("2,000,000 lines"), notes);
    String mb = Math.round(Files.size(big) / 1e6) + " MB";
    assertTrue(notes.contains("a " + mb + " deck"), "names the deck's size (" + mb + "): " + notes);
    long suggested = heap(notes);
    assertTrue(suggested * (1 << 20) >= 1.5 * Files.size(big), "room for the deck: " + notes);

    // The small deck is still folded live by the same JVM: an edit there is refolded.
    nvim.command("wincmd j").join();
    assertEquals(small.toString(), lua("return vim.api.nvim_buf_get_name(0)"));
    long pid = ((Number) lua("return require('nvimpam.host').pid()")).longValue();
    lua("vim.api.nvim_buf_set_lines(0, 0, 0, true, { 'NODE  /        1', 'NODE  /        2' })");
    awaitFolded();
    assertEquals(1L, nvim.eval("foldclosed(1)").join(), notesText());
    assertEquals(pid, ((Number) lua("return require('nvimpam.host').pid()")).longValue(), "the same JVM");
  }

  /**
   * A model command plans its change beside the decks it read: a 592 MB deck's offset of every
   * node id peaked at 1.6 GB live. Its message asks for 4x the decks, where a load asks for 1.5x.
   */
  @Test
  void aModelCommandOutOfHeapAsksForFourTimesTheDecksALoadForOneAndAHalf() {
    lua("local line = string.rep('x', 99999) local t = {} for i = 1, 600 do t[i] = line end"
        + " vim.api.nvim_buf_set_lines(0, 0, -1, true, t)"); // 60 MB
    String ask = "return require('nvimpam.host.errors').out_of_memory_message({ 'nvimpam: the JVM ran out of memory during %s"
        + " (java.lang.OutOfMemoryError: Java heap space)' }, { [vim.api.nvim_get_current_buf()] = true })";
    long bytes = 600L * 100_000;
    long model = heap(String.valueOf(lua(ask.formatted("renumber"))));
    long load = heap(String.valueOf(lua(ask.formatted("fold"))));
    assertTrue(model * 1_000_000 >= 4 * bytes && model * 1_000_000 < 4 * bytes + 200_000_000, model + " MB for the renumber");
    assertTrue(load * 1_000_000 >= 1.5 * bytes && load < model, load + " MB for the load");
  }

  private static long heap(String message) {
    return Long.parseLong(message.replaceAll("(?s).*jvm_args = \\{ '-Xmx(\\d+)m' \\}.*", "$1"));
  }

  private void awaitFolded() throws Exception {
    String done = "return require('nvimpam.fold').applied_tick(0) == vim.b.changedtick";
    long end = System.currentTimeMillis() + WAIT_MS;
    while (!Boolean.TRUE.equals(lua(done)) && System.currentTimeMillis() < end) Thread.sleep(20);
    assertEquals(true, lua(done), "folded at the current changedtick; notes: " + notesText());
  }
}
