package org.nvimpam.nvim;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.msgpack.core.MessagePacker;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckChunk;
import org.nvimpam.deck.Lines;
import org.nvimpam.deck.SegmentWriter;
import org.nvimpam.rpc.ChildProcessTransport;
import org.nvimpam.rpc.Decoder;
import org.nvimpam.rpc.Encoder;
import org.nvimpam.rpc.RpcConnection;
import org.nvimpam.rpc.RpcLimits;
import org.nvimpam.rpc.SocketTransport;
import org.nvimpam.rpc.StreamTransport;
import org.nvimpam.rpc.Transport;

/**
 * The typed subset of the Neovim API that nvimpam uses, over one {@link RpcConnection}. Every
 * call returns a future at once; any number may be in flight.
 */
public final class Nvim implements AutoCloseable {
  private static final long CONNECT_TIMEOUT_SECONDS = 10;

  private final RpcConnection rpc;
  private final ApiInfo info;

  private final ExtTypes ext;
  private final BufferEvents bufferEvents;

  private Nvim(RpcConnection rpc, ApiInfo info) {
    this.rpc = rpc;
    this.info = info;
    this.ext = info.extTypes();
    this.bufferEvents = new BufferEvents(ext);
    bufferEvents.install(rpc);
  }

  /** Starts {@code nvim --embed --headless -u NONE -i NONE -n} as a child process. */
  public static Nvim embed() throws IOException {
    return embed(ChildProcessTransport.DEFAULT_NVIM);
  }

  /** Starts {@code argv} (which must include {@code --embed}) as a child process. */
  public static Nvim embed(List<String> argv) throws IOException {
    return open(ChildProcessTransport.start(argv));
  }

  /** Talks to the Neovim that started this process, over stdin and stdout. */
  public static Nvim stdio() throws IOException {
    return open(StreamTransport.stdio());
  }

  /** Connects to a Unix socket path or {@code host:port}, e.g. {@code $NVIM}. */
  public static Nvim socket(String address) throws IOException {
    return open(SocketTransport.connect(address));
  }

  private static Nvim open(Transport t) throws IOException {
    return connect(RpcConnection.start(t, RpcLimits.defaults()));
  }

  /**
   * Asks {@code nvim_get_api_info} (waiting up to 10 s) and announces this client with {@code
   * nvim_set_client_info}. Closes {@code rpc} if that fails.
   */
  public static Nvim connect(RpcConnection rpc) throws IOException {
    ApiInfo info;
    try {
      info = rpc.request("nvim_get_api_info", Encoders.none(), ApiInfo.DECODER)
          .get(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      rpc.close();
      throw new IOException("nvim_get_api_info on " + rpc.describe() + " failed: "
          + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      rpc.close();
      throw new IOException(rpc.describe() + " did not answer nvim_get_api_info within "
          + CONNECT_TIMEOUT_SECONDS + " s", e);
    } catch (InterruptedException e) {
      rpc.close();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while connecting to " + rpc.describe(), e);
    }
    Nvim nvim = new Nvim(rpc, info);
    rpc.notify("nvim_set_client_info",
        Encoders.args("nvimpam", Map.of(), "remote", Map.of(), Map.of()));
    return nvim;
  }

  BufferEvents bufferEvents() {
    return bufferEvents;
  }

  public RpcConnection rpc() {
    return rpc;
  }

  public ApiInfo apiInfo() {
    return info;
  }

  public <T> CompletableFuture<T> call(String method, Encoder params, Decoder<T> result) {
    return rpc.request(method, params, result);
  }

  /** The params array of {@code values}, with this Neovim's ext type codes for handles. */
  public Encoder args(Object... values) {
    return Encoders.args(ext, values);
  }

  /** {@link Decoders#object(ExtTypes)} with this Neovim's ext type codes. */
  public Decoder<Object> objects() {
    return Decoders.object(ext);
  }

  public void writeBuffer(MessagePacker out, Buffer b) throws IOException {
    Encoders.writeHandle(out, ext.buffer(), b.id());
  }

  public void writeWindow(MessagePacker out, Window w) throws IOException {
    Encoders.writeHandle(out, ext.window(), w.id());
  }

  public CompletableFuture<Void> command(String cmd) {
    return call("nvim_command", Encoders.args(cmd), Decoders.nil());
  }

  public CompletableFuture<Object> eval(String expr) {
    return call("nvim_eval", Encoders.args(expr), objects());
  }

  /** {@code nvim_exec_lua(code, args)}; {@code argsArray} writes one array (the {@code ...}). */
  public CompletableFuture<Object> execLua(String code, Encoder argsArray) {
    return call("nvim_exec_lua", out -> {
      out.packArrayHeader(2).packString(code);
      argsArray.write(out);
    }, objects());
  }

  /** {@code nvim_call_function(fn, args)}; {@code argsArray} writes one array. */
  public CompletableFuture<Object> callFunction(String fn, Encoder argsArray) {
    return call("nvim_call_function", out -> {
      out.packArrayHeader(2).packString(fn);
      argsArray.write(out);
    }, objects());
  }

  public CompletableFuture<Buffer> currentBuffer() {
    return call("nvim_get_current_buf", Encoders.none(), Decoders.buffer(ext));
  }

  public CompletableFuture<Window> currentWindow() {
    return call("nvim_get_current_win", Encoders.none(), Decoders.window(ext));
  }

  /** Lines {@code [start, end)} as raw bytes (negative indexes count from the end). */
  public CompletableFuture<Lines> bufGetLines(Buffer b, int start, int end, boolean strict) {
    return call("nvim_buf_get_lines", out -> {
      out.packArrayHeader(4);
      writeBuffer(out, b);
      out.packInt(start).packInt(end).packBoolean(strict);
    }, Decoders.lines());
  }

  public CompletableFuture<Long> bufLineCount(Buffer b) {
    return call("nvim_buf_line_count", args(b), Decoders.longValue());
  }

  public CompletableFuture<Long> bufChangedtick(Buffer b) {
    return call("nvim_buf_get_changedtick", args(b), Decoders.longValue());
  }

  /**
   * Every line of a buffer, as one snapshot, in a deck; blocks, each reply waited for at most
   * {@link #READ_REPLY_TIMEOUT_S} s. The lines come in pipelined chunks of bounded bytes ({@link
   * BufferLoad.Options#DEFAULT}), decoded straight into the deck's segments, so that Neovim encodes
   * one while we decode the one before and neither side builds one message of the whole buffer.
   * The changedtick is read with the line count before the first chunk and again behind the
   * last, in the same pipeline; if an edit slipped in between, the read starts over, at most
   * {@link #READ_ATTEMPTS} times.
   */
  public Deck bufGetDeck(Buffer b) {
    for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
      Deck d = readDeckOnce(b, BufferLoad.Options.DEFAULT);
      if (d != null) return d;
    }
    throw new IllegalStateException("buffer " + b.id() + " changed during each of " + READ_ATTEMPTS
        + " reads of its lines; try again when it is idle");
  }

  private static final int READ_ATTEMPTS = 3;
  static final long READ_REPLY_TIMEOUT_S = 60;
  private static final String READ_STATE = "local b = ... local n = vim.api.nvim_buf_line_count(b) "
      + "return {vim.api.nvim_buf_get_changedtick(b), n, vim.api.nvim_buf_get_offset(b, n)}";

  /** One consistent read, or null when the buffer changed meanwhile. */
  private Deck readDeckOnce(Buffer b, BufferLoad.Options o) {
    List<Long> state = await(call("nvim_exec_lua", out -> {
      out.packArrayHeader(2).packString(READ_STATE).packArrayHeader(1);
      writeBuffer(out, b);
    }, Decoders.list(Decoders.longValue())), "reading the line count of buffer " + b.id());
    long tick = state.get(0);
    int count = Math.toIntExact(state.get(1));
    long bytes = Math.max(0, state.get(2) - count);
    double perLine = count == 0 ? 64 : Math.max(1.0, (double) bytes / count);
    int step = (int) Math.max(1, Math.min(Integer.MAX_VALUE, o.chunkBytes() / perLine));
    SegmentWriter w = new SegmentWriter(bytes); // confined to the reader thread, which decodes
    Deck deck = Deck.withCapacity(count);
    java.util.ArrayDeque<CompletableFuture<DeckChunk>> inFlight = new java.util.ArrayDeque<>();
    CompletableFuture<Long> after = null;
    int next = 0;
    while (deck.lineCount() < count || !inFlight.isEmpty()) {
      while (inFlight.size() < o.inFlight() && next < count) {
        int s = next;
        int e = (int) Math.min(count, (long) s + step);
        inFlight.add(call("nvim_buf_get_lines", out -> {
          out.packArrayHeader(4);
          writeBuffer(out, b);
          out.packInt(s).packInt(e).packBoolean(false);
        }, in -> Decoders.readLinesInto(in, w)));
        next = e;
        if (next == count) after = bufChangedtick(b); // behind the last chunk
      }
      if (inFlight.isEmpty()) break;
      deck.append(await(inFlight.poll(), "reading lines of buffer " + b.id()));
    }
    if (after == null) after = bufChangedtick(b);
    long tickAfter = await(after, "reading the changedtick of buffer " + b.id());
    return tickAfter == tick && deck.lineCount() == count ? deck : null;
  }

  /** The result of a call this thread needs, waiting at most {@link #READ_REPLY_TIMEOUT_S} s. */
  private static <T> T await(CompletableFuture<T> f, String what) {
    try {
      return f.get(READ_REPLY_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException r) throw r;
      throw new IllegalStateException(what + " failed: " + c.getMessage(), c);
    } catch (TimeoutException e) {
      throw new IllegalStateException(what + ": Neovim did not answer within " + READ_REPLY_TIMEOUT_S + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(what + " was interrupted", e);
    }
  }

  /**
   * Completes once every notification Neovim sent before answering has been handled, e.g. a
   * {@code nvim_buf_detach_event} from {@code :edit!} that must not be mistaken for one about a
   * later attach. Do not wait for it on the dispatcher thread.
   */
  public CompletableFuture<Void> sync() {
    return rpc.requestInOrder("nvim_get_api_info", Encoders.none(), Decoders.nil());
  }

  /**
   * Attaches {@code l} to {@code b}'s updates, without the initial dump: with {@code
   * send_buffer} Neovim would build the whole buffer as ONE message in its main loop (590 MB for
   * 10M lines). {@link BufferLoad} fetches the lines in chunks instead. Completes with false (and
   * forgets {@code l}) if Neovim refused.
   */
  public CompletableFuture<Boolean> bufAttach(Buffer b, BufferListener l) {
    bufferEvents.put(b, l);
    return rpc.requestInOrder("nvim_buf_attach", args(b, false, Map.of()), Decoders.booleanValue())
        .whenComplete((ok, e) -> {
          if (e != null || !ok) bufferEvents.remove(b, l);
        });
  }

  /** Detaches; the listener's {@code onDetach} has run when this completes with true. */
  public CompletableFuture<Boolean> bufDetach(Buffer b) {
    return rpc.requestInOrder("nvim_buf_detach", args(b), Decoders.booleanValue())
        .whenComplete((ok, e) -> {
          if (e == null && ok) bufferEvents.remove(b);
        });
  }

  @Override
  public void close() {
    rpc.close();
  }
}
