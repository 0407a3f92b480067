package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.testutil.FoldTree;
import org.nvimpam.testutil.PluginTestBase;

/**
 * The early read: a *.pc deck announced at BufReadPre is read and folded by the JVM while Neovim
 * reads it, and the attach uses that read only when the buffer is provably the file's text.
 * Every test checks the folds against a parse of the buffer's own lines, and where the lines came
 * from as :NvimpamFoldInfo says it.
 */
class EarlyReadIT extends PluginTestBase {
  private static final long WAIT_MS = 20_000;

  private void startPlugin() {
    nvim.command("filetype on").join();
    setup("");
  }

  private Path deckFile(byte[] bytes) throws IOException {
    Path f = dir.resolve("deck.pc");
    Files.write(f, bytes);
    return f;
  }

  /** Runs {@code cmd} (an :edit) and waits until the folds are in place at the buffer's changedtick. */
  private Buffer open(String cmd) throws Exception {
    nvim.command(cmd).join();
    awaitFolds();
    return nvim.currentBuffer().join();
  }

  /** Waits until the folds in place are those of the buffer's changedtick. */
  private void awaitFolds() throws InterruptedException {
    String done = "return require('nvimpam.fold').applied_tick(0) == vim.b.changedtick";
    long end = System.currentTimeMillis() + WAIT_MS;
    while (!Boolean.TRUE.equals(lua(done)) && System.currentTimeMillis() < end) Thread.sleep(5);
    assertEquals(true, lua(done), () -> "folds in place; notes " + lua("return _G.notes"));
  }

  /** A file with the example deck, whose text becomes another deck when {@code event} runs the write. */
  private Path changingFile(String event, String before) throws IOException {
    Path f = deckFile(example());
    String other = f.resolveSibling("other.pc").toString();
    Files.write(Path.of(other), otherDeck());
    nvim.command("autocmd " + event + " *.pc " + before + "call writefile(readfile('" + other + "', 'b'),"
        + " expand('<afile>'), 'b')").join();
    return f;
  }

  /** Where buffer {@code b}'s lines came from: the end of its :NvimpamFoldInfo line. */
  private String source(Buffer b) {
    List<?> lines = (List<?>) lua("return require('nvimpam').info_lines()");
    String prefix = "  buffer " + b.id() + ": ";
    for (Object l : lines) {
      String s = String.valueOf(l);
      if (s.startsWith(prefix)) return s.substring(s.indexOf(" from ") + 6);
    }
    throw new AssertionError("no info line for buffer " + b.id() + " in " + lines);
  }

  private void assertFoldsAreTheBuffers(Buffer b) throws IOException {
    Lines lines = nvim.bufGetLines(b, 0, -1, false).join();
    FoldTree want = FoldTree.of(FoldParser.parse(lines, new FoldOptions(true)).plan(false));
    assertEquals(want, FoldTree.read(nvim), "the folds are those of the buffer's text");
  }

  /** A deck other than example.pc, with other folds. */
  private static byte[] otherDeck() throws IOException {
    try (var in = EarlyReadIT.class.getResourceAsStream("/decks/example2.pc")) {
      String ex2 = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
      int cut = ex2.indexOf('\n', ex2.length() / 3) + 1; // a third of it: another line count
      return ex2.substring(0, cut).getBytes(StandardCharsets.ISO_8859_1);
    }
  }

  private static byte[] crlf(byte[] lf) {
    return new String(lf, StandardCharsets.ISO_8859_1).replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1);
  }

  @Test
  void aDeckIsReadAndFoldedWhileNeovimReadsIt() throws Exception {
    startPlugin();
    Path f = deckFile(example());
    Buffer b = open("edit " + f);
    assertTrue(source(b).startsWith("disk, read early"), source(b));
    assertFoldsAreTheBuffers(b);
    // and the deck is live: an edit refolds from the lines read early
    nvim.command("29delete").join();
    awaitFolds();
    assertFoldsAreTheBuffers(b);
  }

  /** Over 16 MiB: a second thread folds the file while it is read. */
  @Test
  void aBigDeckIsFoldedWhileItIsRead() throws Exception {
    startPlugin();
    byte[] one = example();
    java.io.ByteArrayOutputStream big = new java.io.ByteArrayOutputStream();
    while (big.size() < (17 << 20)) big.write(one);
    Path f = deckFile(big.toByteArray());
    Buffer b = open("edit " + f);
    assertTrue(source(b).startsWith("disk, read early"), source(b));
    assertFoldsAreTheBuffers(b);
    nvim.command("12345delete").join();
    awaitFolds();
    assertFoldsAreTheBuffers(b);
  }

  @Test
  void aReloadReadsEarlyAgain() throws Exception {
    startPlugin();
    Path f = deckFile(example());
    open("edit " + f);
    byte[] shorter = new String(example(), StandardCharsets.ISO_8859_1).replaceFirst("(?s)\nNODE  /.*?\n", "\n")
        .getBytes(StandardCharsets.ISO_8859_1);
    Files.write(f, shorter);
    Buffer b = open("edit!");
    assertTrue(source(b).startsWith("disk, read early"), source(b));
    assertFoldsAreTheBuffers(b);
  }

  @Test
  void aBufReadPostAutocmdThatEditsTheBufferDiscardsTheRead() throws Exception {
    startPlugin();
    nvim.command("autocmd BufReadPost *.pc 20,40delete").join();
    Buffer b = open("edit " + deckFile(example()));
    assertEquals("rpc (changed after it was read)", source(b));
    assertFoldsAreTheBuffers(b);
  }

  @Test
  void anEditThatResetsModifiedBeforeOurAutocmdIsCaughtByTheChangedtick() throws Exception {
    nvim.command("filetype on").join();
    // defined before setup(): it runs before nvimpam's BufReadPost, and hides its edit
    nvim.command("autocmd BufReadPost *.pc 20,40delete | setlocal nomodified").join();
    setup("");
    Buffer b = open("edit " + deckFile(example()));
    assertEquals("rpc (an autocmd changed it after the read)", source(b));
    assertFoldsAreTheBuffers(b);
  }

  @Test
  void aCrlfDeckIsServedFromDiskWithoutItsCrs() throws Exception {
    startPlugin();
    Buffer b = open("edit " + deckFile(crlf(example())));
    assertEquals("dos", lua("return vim.bo.fileformat"));
    assertTrue(source(b).startsWith("disk, read early"), source(b));
    assertFoldsAreTheBuffers(b);
    // the deck holds the buffer's lines, without CRs: an edit that joins two lines refolds equal
    nvim.command("29join").join();
    awaitFolds();
    assertFoldsAreTheBuffers(b);
  }

  @Test
  void plusPlusFfDosOnAnLfDeckIsServedFromDiskToo() throws Exception {
    startPlugin();
    Buffer b = open("edit ++ff=dos " + deckFile(example()));
    assertEquals("dos", lua("return vim.bo.fileformat"));
    assertTrue(source(b).startsWith("disk, read early"), source(b));
    assertFoldsAreTheBuffers(b);
  }

  @Test
  void aCrlfDeckReadAsUnixKeepsItsCrs() throws Exception {
    startPlugin();
    Buffer b = open("edit ++ff=unix " + deckFile(crlf(example())));
    assertEquals("unix", lua("return vim.bo.fileformat"));
    assertTrue(source(b).startsWith("disk, read early"), source(b));
    assertFoldsAreTheBuffers(b);
  }

  @Test
  void anotherEncodingFallsBackToRpc() throws Exception {
    startPlugin();
    byte[] deck = new String(example(), StandardCharsets.ISO_8859_1).replaceFirst("\\$", "\\$ caf\u00e9 ")
        .getBytes(StandardCharsets.ISO_8859_1); // é as one Latin-1 byte: the buffer holds its UTF-8
    Buffer b = open("edit ++enc=latin1 " + deckFile(deck));
    assertEquals("rpc (fileencoding=latin1)", source(b));
    assertFoldsAreTheBuffers(b);
  }

  @Test
  void aFileChangedOnDiskAfterNeovimReadItFallsBackToRpc() throws Exception {
    startPlugin();
    // after nvimpam's BufReadPost: the file becomes another deck once Neovim has read it
    Buffer b = open("edit " + changingFile("BufReadPost", ""));
    assertEquals("rpc (file changed since it was read)", source(b));
    assertFoldsAreTheBuffers(b);
  }

  @Test
  void aFileChangedOnDiskWhileNeovimReadItFallsBackToRpc() throws Exception {
    startPlugin();
    // after nvimpam's BufReadPre (the early read is on its way): the file changes before Neovim reads it
    Buffer b = open("edit " + changingFile("BufReadPre", "sleep 300m | "));
    assertEquals("rpc (the file changed while Neovim read it)", source(b));
    assertFoldsAreTheBuffers(b);
    assertEquals((long) Lines.split(otherDeck()).count(), lua("return vim.api.nvim_buf_line_count(0)"),
        "Neovim read the changed file");
  }

  @Test
  void aBufReadCmdPluginsTextIsNeverTakenFromTheFile() throws Exception {
    startPlugin();
    Path f = deckFile(example());
    // a plugin that reads the file itself (the first 3000 lines) and fires BufReadPost as :edit would
    nvim.command("autocmd BufReadCmd *.pc call setline(1, readfile(expand('<afile>'))[0:2999]) | setlocal nomodified"
        + " | doautocmd BufReadPost " + f).join();
    Buffer b = open("edit " + f);
    assertEquals(3000L, lua("return vim.api.nvim_buf_line_count(0)"));
    assertEquals("rpc (a BufReadCmd autocmd read it)", source(b));
    assertFoldsAreTheBuffers(b);
  }
}
