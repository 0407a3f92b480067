package org.nvimpam.rpc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;

/**
 * One msgpack-RPC session over a {@link Transport}.
 *
 * <p>Threads: ONE reader thread frames incoming bytes ({@link FrameScanner}) and routes them —
 * responses are decoded there and complete their futures; notifications go to ONE dispatcher
 * thread and run in arrival order; requests run on a pool of worker threads and always get a
 * response. Writers pack each message into one reusable buffer under one lock and write it with
 * a single write and flush, so messages never interleave and a failing {@link Encoder} leaves
 * nothing on the wire; a message of more than 64 KB goes out in pieces while it is packed (the
 * peer reads the first while the JVM packs the rest), and its encoder failing after a piece went
 * out closes the connection.
 *
 * <p>On end of stream, a protocol error or an I/O failure the connection closes: every pending
 * call fails with a {@link ConnectionClosedException} that says why, later calls fail at once,
 * and {@link #closed()} completes (exceptionally unless the peer simply hung up).
 */
public final class RpcConnection implements AutoCloseable {
  private static final Log LOG = Log.of(RpcConnection.class);
  private static final int KEPT_ERROR_EVENTS = 100;
  private static final long MSGID_MASK = 0xFFFF_FFFFL;

  private record Pending(String method, Decoder<?> decoder, RpcFuture<?> future) {}

  private final Transport transport;
  private final RpcLimits limits;
  private final OutputStream out;
  private final Thread reader;
  private final ExecutorService dispatcher;
  private final ExecutorService workers;
  private final Map<Integer, Pending> pending = new ConcurrentHashMap<>();
  private final Map<String, NotificationHandler> notificationHandlers = new ConcurrentHashMap<>();
  private final Map<String, RequestHandler> requestHandlers = new ConcurrentHashMap<>();
  private volatile FallbackRequestHandler fallback;
  private volatile FallbackNotificationHandler otherNotifications;
  private final List<Consumer<NvimErrorEvent>> errorListeners = new CopyOnWriteArrayList<>();
  private final ArrayDeque<NvimErrorEvent> errorEvents = new ArrayDeque<>();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private final CountDownLatch incoming; // open once handlers may see the peer's messages

  private final Object closeLock = new Object();
  private final Object writeLock = new Object();
  private final MessageSink sink; // guarded by writeLock
  private MessagePacker packer; // guarded by writeLock
  private long nextMsgId; // guarded by writeLock; unsigned 32-bit
  private volatile long bytesWritten;
  private volatile ConnectionClosedException closeCause;

  private RpcConnection(Transport transport, RpcLimits limits, long firstMsgId, boolean paused) {
    this.incoming = new CountDownLatch(paused ? 1 : 0);
    this.transport = transport;
    this.limits = limits;
    this.out = transport.output();
    this.sink = new MessageSink(out);
    this.packer = MessagePack.newDefaultPacker(sink);
    this.nextMsgId = firstMsgId & MSGID_MASK;
    this.reader = new Thread(this::readLoop, "nvimpam-rpc-reader");
    this.reader.setDaemon(true);
    this.dispatcher = Executors.newSingleThreadExecutor(daemons("nvimpam-rpc-dispatch"));
    this.workers = Executors.newCachedThreadPool(daemons("nvimpam-rpc-worker-"));
  }

  /** Starts reading from the transport; the connection owns (and will close) it. */
  public static RpcConnection start(Transport transport, RpcLimits limits) {
    return start(transport, limits, 0, false);
  }

  /**
   * As {@link #start}, but the peer's requests and notifications wait (in order) until {@link
   * #acceptIncoming()}, so that handlers can be registered after calls that need the connection:
   * a peer that sends a request at once finds its handler.
   */
  public static RpcConnection startPaused(Transport transport, RpcLimits limits) {
    return start(transport, limits, 0, true);
  }

  /** As {@link #start(Transport, RpcLimits)}, numbering requests from {@code firstMsgId}. */
  static RpcConnection start(Transport transport, RpcLimits limits, long firstMsgId,
      boolean paused) {
    RpcConnection c = new RpcConnection(transport, limits, firstMsgId, paused);
    c.onNotification("nvim_error_event", c::errorEvent);
    c.reader.start();
    return c;
  }

  public String describe() {
    return transport.describe();
  }

  /**
   * Sends a request; the future completes with the result read by {@code result}, or fails with
   * {@link NvimErrorException}, {@link DecodeException}, {@link ConnectionClosedException}, or the
   * exception {@code params} threw (then nothing was sent). Any number of requests may be in
   * flight.
   */
  public <T> CompletableFuture<T> request(String method, Encoder params, Decoder<T> result) {
    RpcFuture<T> future = new RpcFuture<>(reader);
    try {
      synchronized (writeLock) {
        int id = takeMsgId();
        pending.put(id, new Pending(method, result, future));
        try {
          write(p -> {
            p.packArrayHeader(4).packInt(0).packLong(id & MSGID_MASK).packString(method);
            params.write(p);
          });
        } catch (IOException | RuntimeException e) {
          pending.remove(id);
          throw e;
        }
      }
    } catch (IOException | RuntimeException e) {
      future.completeExceptionally(e);
    }
    if (closeCause != null) failPending(); // closed after the sweep saw the pending calls
    return future;
  }

  /**
   * As {@link #request}, but the future completes on the dispatcher thread once every
   * notification that arrived before the response has been handled — e.g. {@code nvim_buf_attach},
   * whose initial buffer dump precedes its reply. Do not wait for it on the dispatcher thread.
   */
  public <T> CompletableFuture<T> requestInOrder(String method, Encoder params, Decoder<T> result) {
    return requestInOrder(method, params, result, (v, e) -> {});
  }

  /**
   * As {@link #requestInOrder(String, Encoder, Decoder)}, with {@code onReply} registered before
   * the request is sent, so that it always runs on the dispatcher thread, in wire order with the
   * notifications, whichever thread sends the request.
   */
  public <T> CompletableFuture<T> requestInOrder(String method, Encoder params, Decoder<T> result,
      java.util.function.BiConsumer<? super T, ? super Throwable> onReply) {
    RpcFuture<T> ordered = new RpcFuture<>(reader);
    ordered.whenComplete(onReply);
    request(method, params, result).whenComplete((v, e) -> {
      Runnable settle = () -> {
        if (e != null) ordered.completeExceptionally(e);
        else ordered.complete(v);
      };
      try {
        dispatcher.execute(settle);
      } catch (RejectedExecutionException closing) {
        settle.run();
      }
    });
    return ordered;
  }

  /**
   * Sends a notification. Failures inside Neovim come back as {@code nvim_error_event}; a closed
   * connection throws {@link ConnectionClosedException}; a failing encoder throws its exception
   * (an {@link IOException} wrapped as {@link UncheckedIOException}) and sends nothing.
   */
  public void notify(String method, Encoder params) {
    try {
      write(p -> {
        p.packArrayHeader(3).packInt(2).packString(method);
        params.write(p);
      });
    } catch (IOException e) {
      throw new UncheckedIOException("encoding params of " + method + " failed", e);
    }
  }

  /** Lets handlers see the peer's requests and notifications; see {@link #startPaused}. */
  public void acceptIncoming() {
    incoming.countDown();
  }

  /** Routes notifications named {@code method} to {@code h}, replacing any previous handler. */
  public void onNotification(String method, NotificationHandler h) {
    notificationHandlers.put(method, h);
  }

  /** Answers requests named {@code method} with {@code h}, replacing any previous handler. */
  public void onRequest(String method, RequestHandler h) {
    requestHandlers.put(method, h);
  }

  /**
   * Answers requests that no {@link #onRequest} handler names, e.g. the rplugin manifest's
   * {@code <path>:command:<Name>} methods whose path is only known when they arrive.
   */
  public void onOtherRequest(FallbackRequestHandler h) {
    fallback = h;
  }

  /**
   * Handles notifications that no {@link #onNotification} handler names (on the dispatcher
   * thread, in order), e.g. the rplugin manifest's asynchronous {@code <path>:command:<Name>}.
   */
  public void onOtherNotification(FallbackNotificationHandler h) {
    otherNotifications = h;
  }

  /**
   * Calls {@code listener} on the dispatcher thread for every {@code nvim_error_event} (each is
   * also logged as a warning and kept for {@link #errorEvents()}).
   */
  public void onErrorEvent(Consumer<NvimErrorEvent> listener) {
    errorListeners.add(listener);
  }

  /** The most recent {@code nvim_error_event}s (up to 100), oldest first. */
  public List<NvimErrorEvent> errorEvents() {
    synchronized (errorEvents) {
      return List.copyOf(errorEvents);
    }
  }

  /**
   * Completes when the connection ends: normally on end of stream at a message boundary or on
   * {@link #close()}; exceptionally with the {@link ConnectionClosedException} otherwise.
   */
  public CompletableFuture<Void> closed() {
    return closed.copy();
  }

  public boolean isClosed() {
    return closeCause != null;
  }

  /** Total bytes sent so far. */
  public long bytesWritten() {
    return bytesWritten;
  }

  @Override
  public void close() {
    shutdown(null, "connection closed by this client");
  }

  // ---- writing ---------------------------------------------------------------------------------

  private int takeMsgId() {
    int id;
    do {
      id = (int) nextMsgId;
      nextMsgId = (nextMsgId + 1) & MSGID_MASK;
    } while (pending.containsKey(id)); // only after 2^32 calls with one still unanswered
    return id;
  }

  /**
   * Packs {@code message}, one whole msgpack value, into the reusable buffer and sends it with one
   * write and flush; a message of more than {@link MessageSink#STREAM_ABOVE} bytes goes out in
   * pieces as it is packed. An encoder failure propagates and sends nothing, or, once pieces went
   * out, also closes the connection. A closed connection or a failed write throws {@link
   * ConnectionClosedException}.
   */
  private void write(Encoder message) throws IOException {
    Exception failure;
    boolean encoderFailed = false;
    String reason;
    synchronized (writeLock) {
      ConnectionClosedException c = closeCause;
      if (c != null) throw c;
      try {
        message.write(packer);
        packer.flush(); // commits the packer's last window into the sink
        sink.finish();
        bytesWritten += sink.sent();
        sink.reset();
        return;
      } catch (MessageSink.WriteFailure e) {
        failure = (IOException) e.getCause();
        reason = "write failed: " + failure.getMessage();
      } catch (IOException | RuntimeException e) {
        if (sink.sent() == 0) {
          resetPacker();
          throw e;
        }
        failure = e;
        encoderFailed = true;
        reason = "a message failed to encode after part of it was sent: " + errorText(e);
      }
      bytesWritten += sink.sent();
      resetPacker();
    }
    shutdown(failure, reason);
    if (!encoderFailed) throw closeCause;
    if (failure instanceof RuntimeException e) throw e;
    throw (IOException) failure;
  }

  /** After a failed message: the packer may point into dropped bytes. */
  private void resetPacker() {
    sink.reset();
    packer = MessagePack.newDefaultPacker(sink);
  }

  private void respond(int msgid, String method, Encoder result) {
    try {
      write(p -> {
        p.packArrayHeader(4).packInt(1).packLong(msgid & MSGID_MASK).packNil();
        result.write(p);
      });
    } catch (ConnectionClosedException e) {
      LOG.fine(() -> "no response to " + method + ": " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      LOG.warning("encoding the result of " + method + " failed", e);
      respondError(msgid, method, errorText(e));
    }
  }

  private void respondError(int msgid, String method, String error) {
    try {
      write(p -> p.packArrayHeader(4).packInt(1).packLong(msgid & MSGID_MASK)
          .packString(error).packNil());
    } catch (ConnectionClosedException e) {
      LOG.fine(() -> "no error response to " + method + ": " + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException("packing a string failed", e);
    }
  }

  private static String errorText(Throwable e) {
    return e.getMessage() != null ? e.getMessage() : e.toString();
  }

  // ---- reading ---------------------------------------------------------------------------------

  private void readLoop() {
    FrameScanner frames = new FrameScanner(limits);
    InputStream in = transport.input();
    try {
      while (true) {
        while (frames.next()) {
          route(frames.buffer(), frames.frameOffset(), frames.frameLength());
        }
        if (frames.fill(in) < 0) {
          int partial = frames.partialFrameBytes();
          if (partial > 0) {
            throw new ProtocolException(
                "truncated message: end of stream after " + partial + " bytes of it");
          }
          shutdown(null, "end of stream (the peer closed the connection)");
          return;
        }
      }
    } catch (ProtocolException e) {
      shutdown(e, "protocol error: " + e.getMessage());
    } catch (IOException e) {
      shutdown(e, "read failed: " + e.getMessage());
    } catch (RuntimeException | Error e) {
      shutdown(e, "reader thread failed: " + e);
    }
  }

  /** Parses the envelope of one frame and hands the message on; never runs handler code. */
  private void route(byte[] buf, int off, int len) throws ProtocolException {
    MessageUnpacker u = MessagePack.newDefaultUnpacker(buf, off, len);
    try {
      int size = u.unpackArrayHeader();
      int type = size > 0 ? u.unpackInt() : -1;
      if (type == 1 && size == 4) {
        response(u, msgid(u), len);
      } else if (type == 0 && size == 4) {
        int msgid = msgid(u);
        String method = u.unpackString();
        byte[] params = rest(u, buf, off, len);
        submit(workers, () -> request(msgid, method, params), method);
      } else if (type == 2 && size == 3) {
        String method = u.unpackString();
        byte[] params = rest(u, buf, off, len);
        submit(dispatcher, () -> notification(method, params), method);
      } else {
        throw new ProtocolException("not a msgpack-RPC message: array of " + size
            + " elements with type " + type);
      }
    } catch (ProtocolException e) {
      throw e;
    } catch (IOException | MessagePackException e) {
      throw new ProtocolException("malformed message envelope: " + e.getMessage(), e);
    }
  }

  private static int msgid(MessageUnpacker u) throws IOException {
    long id = u.unpackLong();
    if (id < 0 || id > MSGID_MASK) throw new ProtocolException("msgid out of range: " + id);
    return (int) id;
  }

  /** A copy of the frame's remaining bytes, for a handler on another thread. */
  private static byte[] rest(MessageUnpacker u, byte[] buf, int off, int len) {
    int read = (int) u.getTotalReadBytes();
    return Arrays.copyOfRange(buf, off + read, off + len);
  }

  private void submit(ExecutorService executor, Runnable task, String method) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      LOG.fine(() -> "dropped " + method + ": connection closing");
    }
  }

  private void response(MessageUnpacker u, int msgid, int len) throws IOException {
    Pending p = pending.remove(msgid);
    if (p == null) {
      throw new ProtocolException("response to unknown msgid " + (msgid & MSGID_MASK));
    }
    // The frame is well-formed msgpack; a value that does not fit fails this call only.
    String part = "error";
    try {
      if (!u.tryUnpackNil()) {
        p.future.completeExceptionally(nvimError(u, p.method));
        return;
      }
      part = "result";
      Object value = p.decoder.read(u);
      if (u.getTotalReadBytes() != len) {
        throw new IOException("the decoder left " + (len - u.getTotalReadBytes()) + " bytes unread");
      }
      complete(p.future, value);
    } catch (IOException | RuntimeException e) {
      p.future.completeExceptionally(new DecodeException(
          "cannot decode the " + part + " of " + p.method + ": " + e.getMessage(), e));
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> void complete(RpcFuture<T> f, Object value) {
    f.complete((T) value);
  }

  /** Neovim's error is {@code [type, message]}; anything else is reported as it is. */
  private static NvimErrorException nvimError(MessageUnpacker u, String method) throws IOException {
    var v = u.unpackValue();
    if (v.isArrayValue()) {
      var a = v.asArrayValue();
      if (a.size() == 2 && a.get(0).isIntegerValue() && a.get(1).isStringValue()) {
        return new NvimErrorException(
            ErrorType.of(a.get(0).asIntegerValue().toLong()), method, a.get(1).toString());
      }
    }
    return new NvimErrorException(ErrorType.UNKNOWN, method, v.toJson());
  }

  // ---- handlers (dispatcher and worker threads) --------------------------------------------------

  /** Waits until handlers may run; false if the thread was interrupted (the pool shut down). */
  private boolean awaitAccepting() {
    try {
      incoming.await();
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void request(int msgid, String method, byte[] params) {
    if (!awaitAccepting()) return;
    RequestHandler named = requestHandlers.get(method);
    FallbackRequestHandler other = fallback;
    if (named == null && other == null) {
      respondError(msgid, method, "no handler for request '" + method + "'");
      return;
    }
    RequestHandler h = named != null ? named : p -> other.handle(method, p);
    Encoder result;
    try {
      result = h.handle(MessagePack.newDefaultUnpacker(params));
    } catch (Exception e) {
      LOG.warning("handler for request " + method + " failed", e);
      respondError(msgid, method, errorText(e));
      return;
    }
    respond(msgid, method, result);
  }

  private void notification(String method, byte[] params) {
    if (!awaitAccepting()) return;
    NotificationHandler named = notificationHandlers.get(method);
    FallbackNotificationHandler other = otherNotifications;
    NotificationHandler h = named != null || other == null ? named : p -> other.handle(method, p);
    if (h == null) {
      LOG.fine(() -> "no handler for notification " + method);
      return;
    }
    try {
      h.handle(MessagePack.newDefaultUnpacker(params));
    } catch (Exception e) {
      LOG.warning("handler for notification " + method + " failed", e);
    }
  }

  private void errorEvent(MessageUnpacker params) throws IOException {
    int n = params.unpackArrayHeader();
    if (n < 2) throw new ProtocolException("nvim_error_event with " + n + " params");
    NvimErrorEvent e = new NvimErrorEvent(ErrorType.of(params.unpackLong()), params.unpackString());
    LOG.warning(() -> "nvim_error_event from " + transport.describe() + ": " + e.message());
    synchronized (errorEvents) {
      if (errorEvents.size() == KEPT_ERROR_EVENTS) errorEvents.removeFirst();
      errorEvents.addLast(e);
    }
    for (Consumer<NvimErrorEvent> l : errorListeners) l.accept(e);
  }

  // ---- closing ---------------------------------------------------------------------------------

  private void shutdown(Throwable failure, String reason) {
    ConnectionClosedException cause =
        new ConnectionClosedException(transport.describe() + ": " + reason, failure);
    synchronized (closeLock) {
      if (closeCause != null) return;
      closeCause = cause;
    }
    failPending();
    try {
      transport.close();
    } catch (IOException | RuntimeException e) {
      LOG.warning("closing " + transport.describe() + " failed", e);
    }
    incoming.countDown(); // queued notifications still run; responses to requests are dropped
    dispatcher.shutdown();
    workers.shutdown();
    if (failure == null) {
      closed.complete(null);
    } else {
      closed.completeExceptionally(cause);
    }
  }

  private void failPending() {
    for (Integer id : pending.keySet()) {
      Pending p = pending.remove(id);
      if (p != null) p.future.completeExceptionally(closeCause);
    }
  }

  private static java.util.concurrent.ThreadFactory daemons(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name.endsWith("-") ? name + n.incrementAndGet() : name);
      t.setDaemon(true);
      return t;
    };
  }
}
