package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.deck.Deck;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Encoders;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.testutil.EmbeddedNvim;

/**
 * The disk fast path of {@link BufferLoad}, for a load and for a blocking read alike: a deck is
 * read from its file only when the file is provably the buffer's text; every other case goes over
 * RPC, and says why.
 */
class DiskLoadTest {
  @TempDir Path dir;
  private Nvim nvim;

  @BeforeEach
  void start() throws Exception {
    nvim = EmbeddedNvim.start();
    nvim.execLua("require('nvimpam.host.filestate').track()", Encoders.none()).get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() {
    nvim.close();
  }

  private static byte[] deck(String eol) {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= 3000; i++) {
      sb.append(i % 100 < 60 ? String.format("NODE  / %8d       1.5       2.5", i) : String.format("SHELL / %8d       1%8d", i, i))
          .append(eol);
    }
    return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private Path write(String name, byte[] bytes) throws Exception {
    Path f = dir.resolve(name);
    Files.write(f, bytes);
    return f;
  }

  private void edit(Path f) throws Exception {
    nvim.command("edit " + f).get(10, TimeUnit.SECONDS);
  }

  /** Loads the current buffer; checks the deck equals the buffer; returns where it came from. */
  private String load() throws Exception {
    Buffer b = nvim.currentBuffer().get(10, TimeUnit.SECONDS);
    CompletableFuture<BufferLoad.Stats> stats = new CompletableFuture<>();
    Deck[] got = new Deck[1];
    BufferLoad.start(nvim, b, new BufferLoad.Target() {
      @Override
      public void onLoaded(Buffer buf, Deck deck, BufferLoad.Stats s) {
        got[0] = deck;
        stats.complete(s);
      }

      @Override
      public void onLoadFailed(Buffer buf, Throwable cause, int lines, long deckBytes) {
        stats.completeExceptionally(cause);
      }

      @Override
      public void onLines(Buffer buf, long tick, int first, int last, Lines data, boolean more) {}
    }, BufferLoad.Options.DEFAULT);
    String source = stats.get(30, TimeUnit.SECONDS).source();
    Deck want = BufferLoad.read(nvim, b, OVER_RPC).deck();
    assertSameLines(want, got[0], source);
    // The blocking read (:NvimpamFold or :NvimpamCheck on a buffer not attached) takes the same path.
    BufferLoad.Snapshot once = BufferLoad.read(nvim, b, BufferLoad.Options.DEFAULT);
    assertEquals(source, once.source());
    assertSameLines(want, once.deck(), "the blocking read, " + source);
    return source;
  }

  private static final BufferLoad.Options OVER_RPC = new BufferLoad.Options(1 << 20, 3, false);

  private static void assertSameLines(Deck want, Deck got, String what) {
    assertEquals(want.lineCount(), got.lineCount(), what);
    for (int i = 0; i < want.lineCount(); i++) assertArrayEquals(want.line(i), got.line(i), "line " + i + ", " + what);
  }

  @Test
  void anUnmodifiedDeckAsReadIsReadFromItsFile() throws Exception {
    edit(write("a.pc", deck("\n")));
    assertEquals("disk", load());
  }

  @Test
  void aDeckWithoutAFinalNewlineIsReadFromItsFileToo() throws Exception {
    byte[] d = deck("\n");
    edit(write("a.pc", java.util.Arrays.copyOf(d, d.length - 1)));
    assertEquals("disk", load());
  }

  @Test
  void aModifiedBufferGoesOverRpc() throws Exception {
    edit(write("a.pc", deck("\n")));
    nvim.command("call setline(5, 'BEAM  /        1')").get(10, TimeUnit.SECONDS);
    assertEquals("rpc (modified)", load());
  }

  @Test
  void aDosFileIsReadFromItsFileWithoutItsCrs() throws Exception {
    edit(write("a.pc", deck("\r\n")));
    assertEquals("disk", load()); // load() checks every line against the buffer's
  }

  @Test
  void aMacFileGoesOverRpc() throws Exception {
    edit(write("a.pc", deck("\r")));
    nvim.command("edit ++ff=mac").get(10, TimeUnit.SECONDS);
    assertEquals("rpc (fileformat=mac)", load());
  }

  @Test
  void aFileInAnotherEncodingGoesOverRpc() throws Exception {
    nvim.command("set fileencodings=utf-8,latin1").get(10, TimeUnit.SECONDS);
    byte[] d = deck("\n");
    d[100] = (byte) 0xE9; // not UTF-8: Neovim reads it as latin1 and converts it
    edit(write("a.pc", d));
    assertEquals("rpc (fileencoding=latin1)", load());
  }

  @Test
  void aFileWithAByteOrderMarkGoesOverRpc() throws Exception {
    byte[] d = deck("\n");
    byte[] bom = new byte[d.length + 3];
    bom[0] = (byte) 0xEF;
    bom[1] = (byte) 0xBB;
    bom[2] = (byte) 0xBF;
    System.arraycopy(d, 0, bom, 3, d.length);
    edit(write("a.pc", bom));
    assertEquals("rpc (bomb)", load());
  }

  @Test
  void aFileChangedSinceItWasReadGoesOverRpc() throws Exception {
    Path f = write("a.pc", deck("\n"));
    edit(f);
    Files.write(f, deck("\n\n")); // another size
    assertEquals("rpc (file changed since it was read)", load());
  }

  @Test
  void aFileOfTheSameSizeAndTimeButOtherTextIsCaughtOnTheSampleLines() throws Exception {
    Path f = write("a.pc", deck("\n"));
    edit(f);
    FileTime mtime = Files.getLastModifiedTime(f);
    byte[] other = deck("\n");
    for (int i = 0; i < other.length; i++) if (other[i] == 'N') other[i] = 'M'; // NODE -> MODE, same size
    Files.write(f, other);
    Files.setLastModifiedTime(f, mtime);
    assertEquals("rpc (line 1 differs from the file)", load());
  }

  @Test
  void aBufferReadFromNoFileGoesOverRpc() throws Exception {
    nvim.execLua("vim.api.nvim_buf_set_lines(0, 0, -1, false, {'NODE  /        1', 'NODE  /        2'})",
        Encoders.none()).get(10, TimeUnit.SECONDS);
    assertEquals("rpc (not read from a file)", load());
  }

  @Test
  void aReloadDuringALoadEndsItAsADetachNotAFailure() throws Exception {
    edit(write("a.pc", deck("\n")));
    Buffer b = nvim.currentBuffer().get(10, TimeUnit.SECONDS);
    CompletableFuture<String> end = new CompletableFuture<>();
    BufferLoad.start(nvim, b, new BufferLoad.Target() {
      @Override
      public void onLoaded(Buffer buf, Deck deck, BufferLoad.Stats s) {
        end.complete("loaded");
      }

      @Override
      public void onLoadFailed(Buffer buf, Throwable cause, int lines, long deckBytes) {
        end.complete("failed: " + cause);
      }

      @Override
      public void onLines(Buffer buf, long tick, int first, int last, Lines data, boolean more) {}

      @Override
      public void onDetach(Buffer buf) {
        end.complete("detached");
      }

      @Override
      public void onProgress(Buffer buf, int fetched, int count) {
        if (fetched < count) nvim.command("edit!"); // not awaited: we are on the dispatcher
      }
    }, new BufferLoad.Options(16 << 10, 1)); // over RPC, in several chunks

    assertEquals("detached", end.get(30, TimeUnit.SECONDS));
  }
}
