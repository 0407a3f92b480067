package org.nvimpam.nvim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.msgpack.core.MessagePacker;
import org.nvimpam.deck.Lines;
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
  /** Lines per request of {@link #bufGetAllLines}: about 8 MB of a typical deck. */
  private static final int LINES_PER_CHUNK = 1 << 17;

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
   * Every line of a buffer, as one snapshot; blocks. Big buffers come in pipelined chunks, so
   * that Neovim encodes one while we decode the one before: for 1M lines (59 MB) that took
   * 350–460 ms instead of 820–860 ms as one request. The changedtick is read before the first
   * chunk and after the last, all in one pipeline; if an edit slipped in between, it starts over.
   */
  public Lines bufGetAllLines(Buffer b) {
    while (true) {
      CompletableFuture<Long> before = bufChangedtick(b);
      int count = Math.toIntExact(bufLineCount(b).join());
      List<CompletableFuture<Lines>> chunks = new ArrayList<>();
      for (int start = 0; start < count || chunks.isEmpty(); start += LINES_PER_CHUNK) {
        chunks.add(bufGetLines(b, start, Math.min(count, start + LINES_PER_CHUNK), false));
      }
      CompletableFuture<Long> after = bufChangedtick(b);
      List<Lines> parts = new ArrayList<>(chunks.size());
      for (CompletableFuture<Lines> c : chunks) {
        parts.add(c.join());
      }
      if (before.join().equals(after.join())) {
        return Lines.concat(parts);
      }
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
   * Attaches {@code l} to {@code b}'s updates. With {@code sendBuffer} the whole buffer arrives
   * first, as one {@code onLines} with {@code lastline == -1}, handled before this future
   * completes (on the dispatcher thread: do not wait for it there).
   * Completes with false (and forgets {@code l}) if Neovim refused.
   */
  public CompletableFuture<Boolean> bufAttach(Buffer b, boolean sendBuffer, BufferListener l) {
    bufferEvents.put(b, l); // before the call: the initial dump precedes the reply
    return rpc.requestInOrder("nvim_buf_attach", args(b, sendBuffer, Map.of()),
            Decoders.booleanValue())
        .whenComplete((ok, e) -> {
          if (e != null || !ok) bufferEvents.remove(b);
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
