package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.deck.Deck;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Encoders;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.testutil.EmbeddedNvim;

/** The one-off read of a buffer that is not attached ({@link BufferLoad#read}), against a real Neovim. */
class BufferReadTest {
  private Nvim nvim;

  @BeforeEach
  void start() throws Exception {
    nvim = EmbeddedNvim.start();
  }

  @AfterEach
  void stop() {
    nvim.close();
  }

  private static <T> T get(CompletableFuture<T> f) throws Exception {
    return f.get(10, TimeUnit.SECONDS);
  }

  /** A Neovim that stops answering (here SIGSTOP, as one at a prompt looks) makes a read time out. */
  @Test
  void aStalledReadIsADeadlineNotAFailure() throws Exception {
    long pid = ((Number) get(nvim.eval("getpid()"))).longValue();
    Buffer b = get(nvim.currentBuffer());
    signal("STOP", pid);
    try {
      Await.DeadlineException e = assertThrows(Await.DeadlineException.class,
          () -> BufferLoad.read(nvim, b, BufferLoad.Options.DEFAULT, java.time.Duration.ofMillis(300)));
      assertTrue(e.getMessage().contains("buffer " + b.id()) && e.getMessage().contains("no answer from Neovim"),
          e.getMessage());
    } finally {
      signal("CONT", pid);
    }
    assertEquals(1, BufferLoad.read(nvim, b, BufferLoad.Options.DEFAULT).deck().lineCount());
  }

  private static void signal(String name, long pid) throws Exception {
    Process p = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
    assertEquals(0, p.waitFor(), "kill -" + name + " " + pid);
  }

  @Test
  void deckOfFetchesABigBufferInChunksAsOneSnapshot() throws Exception {
    // 300,001 lines: several chunks and segments; every line names its number, one carries invalid UTF-8.
    get(nvim.execLua("local t = {} for i = 1, 300001 do t[i] = 'line ' .. i end "
        + "t[200000] = 'bad \\255\\254 bytes' vim.api.nvim_buf_set_lines(0, 0, -1, false, t)",
        Encoders.none()));
    Buffer b = get(nvim.currentBuffer());

    Deck lines = BufferLoad.deckOf(nvim, b);

    assertEquals(300_001, lines.lineCount());
    assertEquals("line 1", new String(lines.line(0), StandardCharsets.ISO_8859_1));
    assertEquals("line 131073", new String(lines.line(131_072), StandardCharsets.ISO_8859_1));
    assertArrayEquals(new byte[] {'b', 'a', 'd', ' ', (byte) 0xff, (byte) 0xfe, ' ', 'b', 'y', 't', 'e', 's'},
        lines.line(199_999));
    assertEquals("line 300001", new String(lines.line(300_000), StandardCharsets.ISO_8859_1));
  }
}
