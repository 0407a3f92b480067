package org.nvimpam.nvim;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.deck.Deck;
import org.nvimpam.lines.Lines;
import org.nvimpam.rpc.ChildProcessTransport;
import org.nvimpam.rpc.ErrorType;
import org.nvimpam.rpc.NvimErrorEvent;
import org.nvimpam.rpc.NvimErrorException;
import org.nvimpam.rpc.RpcConnection;
import org.nvimpam.rpc.RpcLimits;
import org.nvimpam.testutil.EmbeddedNvim;

/** Round trips against a real headless Neovim. */
class NvimTest {
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

  private static Throwable failure(CompletableFuture<?> f) {
    return assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS)).getCause();
  }

  @Test
  void apiInfoNamesTheVersionAndTheExtTypes() {
    ApiInfo info = nvim.apiInfo();
    assertTrue(info.atLeast(0, 7), info.version());
    assertTrue(info.channelId() > 0);
    assertEquals(ExtTypes.STANDARD, info.extTypes());
  }

  /** serve's connection: handle types from Lua, the API metadata only when something asks. */
  @Test
  void aConnectionFromKnownExtTypesAsksForTheApiInfoWhenFirstUsed() throws Exception {
    RpcConnection rpc = RpcConnection.start(ChildProcessTransport.start(EmbeddedNvim.argv()), RpcLimits.defaults());
    try (Nvim known = Nvim.connect(rpc, ExtTypes.STANDARD)) {
      Buffer b = get(known.currentBuffer());
      assertEquals(1, b.id(), "handles go both ways with the given codes");
      get(known.execLua("vim.api.nvim_buf_set_lines(..., 0, -1, true, {'a'})", known.args(b)));
      assertEquals("a", get(known.eval("getline(1)")), "a Buffer sent with the given code");
      ApiInfo info = known.apiInfo();
      assertTrue(info.channelId() > 0);
      assertTrue(info.atLeast(0, 7), info.version());
      assertSame(info, known.apiInfo(), "asked once");
      assertEquals(nvim.apiInfo().version(), info.version());
    }
  }

  @Test
  void evalReturnsPlainJavaObjects() throws Exception {
    assertEquals(3L, get(nvim.eval("1 + 2")));
    assertEquals("ab", get(nvim.eval("'a' . 'b'")));
    assertEquals(List.of(1L, "x", List.of()), get(nvim.eval("[1, 'x', []]")));
    assertEquals(Map.of("k", 1.5), get(nvim.eval("{'k': 1.5}")));
    assertEquals(true, get(nvim.eval("v:true")));
    assertNull(get(nvim.eval("v:null")));
  }

  @Test
  void commandChangesStateThatEvalSees() throws Exception {
    get(nvim.command("let g:nvimpam_test = 42"));
    assertEquals(42L, get(nvim.eval("g:nvimpam_test")));
  }

  @Test
  void buffersAndWindowsRoundTripAsExtTypes() throws Exception {
    Buffer b = get(nvim.currentBuffer());
    Window w = get(nvim.currentWindow());
    assertEquals(b, get(nvim.call("nvim_win_get_buf", nvim.args(w), Decoders.buffer(nvim.apiInfo().extTypes()))));
    assertEquals(b.id(), get(nvim.eval("bufnr('%')")));
    assertEquals(w.id(), get(nvim.callFunction("win_getid", Encoders.none())));
    assertEquals(List.of(w), get(nvim.call("nvim_list_wins", Encoders.none(),
        Decoders.list(Decoders.window(nvim.apiInfo().extTypes())))));
    get(nvim.command("new"));
    Buffer other = get(nvim.currentBuffer());
    assertNotEquals(b, other);
    assertEquals(1L, get(nvim.bufLineCount(other)));
  }

  @Test
  void bufGetLinesKeepsInvalidUtf8Bytes() throws Exception {
    Buffer b = get(nvim.currentBuffer());
    byte[] bad = {'a', (byte) 0xff, (byte) 0xfe, 'z'};
    get(nvim.call("nvim_buf_set_lines",
        nvim.args(b, 0, -1, true, List.of("NODE  /", bad, "")), Decoders.nil()));
    Lines lines = get(nvim.bufGetLines(b, 0, -1, true));
    assertEquals(3, lines.count());
    assertArrayEquals("NODE  /".getBytes(StandardCharsets.US_ASCII), lines.line(0));
    assertArrayEquals(bad, lines.line(1));
    assertEquals(0, lines.length(2));
  }

  @Test
  void execLuaPassesArgumentsAsOneArray() throws Exception {
    Object sum = get(nvim.execLua("local a = ... ; local s = 0 ;"
        + " for _, x in ipairs(a) do s = s + x end ; return s", nvim.args(new int[] {1, 2, 3, 4})));
    assertEquals(Long.valueOf(10), sum);
  }

  @Test
  void neovimErrorsCarryTypeMessageAndMethod() {
    Throwable t = failure(nvim.command("nvimpamNoSuchCommand"));
    NvimErrorException e = assertInstanceOf(NvimErrorException.class, t);
    assertEquals(ErrorType.EXCEPTION, e.type());
    assertEquals("nvim_command", e.method());
    assertEquals("Vim:E492: Not an editor command: nvimpamNoSuchCommand", e.nvimMessage());
    assertEquals("nvim_command: Vim:E492: Not an editor command: nvimpamNoSuchCommand",
        e.getMessage());

    NvimErrorException v = assertInstanceOf(NvimErrorException.class,
        failure(nvim.bufLineCount(new Buffer(9999))));
    assertEquals(ErrorType.VALIDATION, v.type());
    assertEquals("nvim_buf_line_count", v.method());
    assertTrue(v.nvimMessage().contains("Invalid buffer id"), v.nvimMessage());
  }

  @Test
  void aFailedNotificationArrivesAsAnErrorEvent() throws Exception {
    LinkedBlockingQueue<NvimErrorEvent> events = new LinkedBlockingQueue<>();
    nvim.rpc().onErrorEvent(events::add);
    nvim.rpc().notify("nvim_command", Encoders.args("nvimpamNoSuchCommand"));
    NvimErrorEvent e = events.poll(10, TimeUnit.SECONDS);
    assertNotNull(e);
    assertEquals(ErrorType.EXCEPTION, e.type());
    assertTrue(e.message().contains("E492"), e.message());
    assertEquals(List.of(e), nvim.rpc().errorEvents());
  }

  @Test
  void hundredThousandPipelinedRequestsAreAnsweredInKind() throws Exception {
    int n = 100_000;
    List<CompletableFuture<Object>> calls = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int x = i;
      calls.add(nvim.call("nvim_eval", out -> out.packArrayHeader(1).packString(x + "*3"),
          Decoders.object()));
    }
    // all sent before the first wait
    for (int i = 0; i < n; i++) {
      assertEquals(3L * i, calls.get(i).get(30, TimeUnit.SECONDS), "request " + i);
    }
  }

  @Test
  void bufferEventsArriveInOrderAsRawLines() throws Exception {
    Buffer b = get(nvim.currentBuffer());
    get(nvim.call("nvim_buf_set_lines", nvim.args(b, 0, -1, true, List.of("a", "b", "c")),
        Decoders.nil()));
    LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
    BufferListener l = new BufferListener() {
      @Override
      public void onLines(Buffer buf, long tick, int first, int last, Lines data, boolean more) {
        StringBuilder sb = new StringBuilder(first + ".." + last + ":");
        for (int i = 0; i < data.count(); i++) {
          sb.append(new String(data.line(i), StandardCharsets.ISO_8859_1)).append('|');
        }
        seen.add(sb.toString());
      }

      @Override
      public void onDetach(Buffer buf) {
        seen.add("detach");
      }
    };
    assertTrue(get(nvim.bufAttach(b, l)));
    assertEquals(null, seen.poll(), "no initial dump: lines are fetched in chunks (BufferLoad)");
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      nvim.call("nvim_buf_set_lines", nvim.args(b, 1, 2, true, List.of("x" + i, "y" + i)),
          Decoders.nil());
      expected.add("1..2:x" + i + "|y" + i + "|");
    }
    get(nvim.bufLineCount(b)); // a barrier: every event above was sent before this reply
    for (String e : expected) assertEquals(e, seen.poll(5, TimeUnit.SECONDS));
    assertTrue(get(nvim.bufDetach(b)));
    assertEquals("detach", seen.poll(5, TimeUnit.SECONDS));
  }

  @Test
  void aNeovimRequestIsServedWhileItsHandlerCallsNeovim() throws Exception {
    nvim.rpc().onRequest("nvimpam_double_line_count", params -> {
      params.skipValue();
      Buffer b = nvim.currentBuffer().get(5, TimeUnit.SECONDS);
      long n = nvim.bufLineCount(b).get(5, TimeUnit.SECONDS);
      return out -> out.packLong(2 * n);
    });
    long chan = nvim.apiInfo().channelId();
    assertEquals(2L, get(nvim.eval("rpcrequest(" + chan + ", 'nvimpam_double_line_count')")));
  }

  @Test
  void aThrowingHandlerStillAnswersWithItsMessage() {
    nvim.rpc().onRequest("nvimpam_fail", params -> {
      throw new IllegalStateException("deck not parsed yet");
    });
    long chan = nvim.apiInfo().channelId();
    NvimErrorException e = assertInstanceOf(NvimErrorException.class,
        failure(nvim.eval("rpcrequest(" + chan + ", 'nvimpam_fail')")));
    assertTrue(e.nvimMessage().contains("deck not parsed yet"), e.nvimMessage());
    NvimErrorException unknown = assertInstanceOf(NvimErrorException.class,
        failure(nvim.eval("rpcrequest(" + chan + ", 'nvimpam_nobody_home')")));
    assertTrue(unknown.nvimMessage().contains("no handler for request 'nvimpam_nobody_home'"),
        unknown.nvimMessage());
  }
}
