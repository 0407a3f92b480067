package org.nvimpam.nvim;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.msgpack.core.MessageUnpacker;
import org.nvimpam.lines.Lines;
import org.nvimpam.rpc.ProtocolException;
import org.nvimpam.rpc.RpcConnection;

/** Routes {@code nvim_buf_*_event} notifications to the listener attached to each buffer. */
final class BufferEvents {
  private final ExtTypes ext;
  private final Map<Long, BufferListener> listeners = new ConcurrentHashMap<>();

  BufferEvents(ExtTypes ext) {
    this.ext = ext;
  }

  void install(RpcConnection rpc) {
    rpc.onNotification("nvim_buf_lines_event", this::lines);
    rpc.onNotification("nvim_buf_changedtick_event", this::changedTick);
    rpc.onNotification("nvim_buf_detach_event", this::detach);
  }

  void put(Buffer b, BufferListener l) {
    listeners.put(b.id(), l);
  }

  void remove(Buffer b) {
    listeners.remove(b.id());
  }

  /** Removes {@code l} if it is still the one attached to {@code b}. */
  void remove(Buffer b, BufferListener l) {
    listeners.remove(b.id(), l);
  }

  private void lines(MessageUnpacker in) throws IOException {
    params(in, 6, "nvim_buf_lines_event");
    Buffer buf = Decoders.buffer(ext).read(in);
    long tick = in.tryUnpackNil() ? -1 : in.unpackLong();
    int first = in.unpackInt();
    int last = in.unpackInt();
    BufferListener l = listeners.get(buf.id());
    if (l == null) return; // detached while the event was on its way
    Lines data = Decoders.readLines(in);
    l.onLines(buf, tick, first, last, data, in.unpackBoolean());
  }

  private void changedTick(MessageUnpacker in) throws IOException {
    params(in, 2, "nvim_buf_changedtick_event");
    Buffer buf = Decoders.buffer(ext).read(in);
    long tick = in.unpackLong();
    BufferListener l = listeners.get(buf.id());
    if (l != null) l.onChangedTick(buf, tick);
  }

  private void detach(MessageUnpacker in) throws IOException {
    params(in, 1, "nvim_buf_detach_event");
    Buffer buf = Decoders.buffer(ext).read(in);
    BufferListener l = listeners.remove(buf.id());
    if (l != null) l.onDetach(buf);
  }

  private static void params(MessageUnpacker in, int n, String event) throws IOException {
    int got = in.unpackArrayHeader();
    if (got != n) throw new ProtocolException(event + " with " + got + " params, not " + n);
  }
}
