package org.nvimpam.nvim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.msgpack.core.MessagePacker;
import org.nvimpam.lines.Lines;
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
  private volatile ApiInfo info; // null until first asked for, on a connection started from known ext types

  private final ExtTypes ext;
  private final BufferEvents bufferEvents;

  private Nvim(RpcConnection rpc, ApiInfo info, ExtTypes ext) {
    this.rpc = rpc;
    this.info = info;
    this.ext = ext;
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
      info = requestApiInfo(rpc);
    } catch (IOException e) {
      rpc.close();
      throw e;
    }
    return announced(new Nvim(rpc, info, info.extTypes()));
  }

  /**
   * As {@link #connect(RpcConnection)} when the peer's handle types are known already (the
   * plugin's Lua passes them to {@code serve}): no round trip before the first call, and no
   * reading of the API metadata (tens of KB, a good part of a cold start). {@link #apiInfo()}
   * asks for it when first needed.
   */
  public static Nvim connect(RpcConnection rpc, ExtTypes ext) {
    return announced(new Nvim(rpc, null, ext));
  }

  private static Nvim announced(Nvim nvim) {
    nvim.rpc.notify("nvim_set_client_info",
        Encoders.args("nvimpam", Map.of(), "remote", Map.of(), Map.of()));
    return nvim;
  }

  /** {@code nvim_get_api_info}, waiting up to 10 s. */
  private static ApiInfo requestApiInfo(RpcConnection rpc) throws IOException {
    try {
      return rpc.request("nvim_get_api_info", Encoders.none(), ApiInfo.DECODER)
          .get(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IOException("nvim_get_api_info on " + rpc.describe() + " failed: "
          + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IOException(rpc.describe() + " did not answer nvim_get_api_info within "
          + CONNECT_TIMEOUT_SECONDS + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while asking " + rpc.describe() + " for its API", e);
    }
  }

  /**
   * Routes {@code b}'s buffer events to {@code l} from now on, without asking Neovim to attach:
   * for a load that sends its own {@code nvim_buf_attach} (events may follow its reply at once).
   */
  public void listen(Buffer b, BufferListener l) {
    bufferEvents.put(b, l);
  }

  /** Stops routing {@code b}'s events to {@code l}, if it is still the one listening. */
  public void unlisten(Buffer b, BufferListener l) {
    bufferEvents.remove(b, l);
  }

  public RpcConnection rpc() {
    return rpc;
  }

  /**
   * What {@code nvim_get_api_info} says. On a connection started from known ext types it is asked
   * for at the first use (waiting up to 10 s), so never call this on the RPC reader thread.
   *
   * @throws UncheckedIOException when Neovim did not answer
   */
  public ApiInfo apiInfo() {
    ApiInfo i = info;
    if (i != null) return i;
    synchronized (this) {
      if (info == null) {
        try {
          info = requestApiInfo(rpc);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return info;
    }
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

  /** {@code nvim_buf_set_var} as a notification: nothing waits for it. */
  public void bufSetVar(Buffer b, String name, Object value) {
    rpc.notify("nvim_buf_set_var", args(b, name, value));
  }

  public CompletableFuture<Long> bufLineCount(Buffer b) {
    return call("nvim_buf_line_count", args(b), Decoders.longValue());
  }

  public CompletableFuture<Long> bufChangedtick(Buffer b) {
    return call("nvim_buf_get_changedtick", args(b), Decoders.longValue());
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
   * 10M lines). The plugin's buffer load fetches the lines in chunks instead. Completes with false (and
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
