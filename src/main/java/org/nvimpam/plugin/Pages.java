package org.nvimpam.plugin;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.msgpack.core.MessagePacker;
import org.nvimpam.rpc.Encoder;

/**
 * A call's large result held under a token and served a page of lines at a time (a large answer
 * would hold Neovim's main loop while it is decoded): Lua asks for the next page while it uses the
 * last. One result per call at a time (a new one drops the earlier); dropped when Lua says it is
 * done, or unasked for {@link #IDLE_MS}.
 */
final class Pages {
  /** One file's lines, by index (0-based), packed without line ends. */
  interface Source {
    int count();

    void pack(MessagePacker out, int line) throws IOException;
  }

  /** Unasked for this long, a result is dropped (Lua stopped without saying so). */
  static final long IDLE_MS = TimeUnit.MINUTES.toMillis(10);

  private record Held(String call, List<? extends Source> files, long[] asked) {}

  private static final AtomicLong NEXT = new AtomicLong();
  private static final Map<Long, Held> HELD = new ConcurrentHashMap<>();

  private Pages() {}

  /** Holds `files` for the page call `call`; its token. */
  static long hold(String call, List<? extends Source> files) {
    long now = System.currentTimeMillis();
    HELD.values().removeIf(h -> h.call.equals(call) || now - h.asked[0] > IDLE_MS);
    long token = NEXT.incrementAndGet();
    if (!files.isEmpty()) HELD.put(token, new Held(call, files, new long[] {now}));
    return token;
  }

  /**
   * {@code args} of the page call {@code call}: the token, a file (0-based), the first line
   * (0-based) and how many: those lines. A negative count drops the result.
   */
  static Encoder lines(String call, List<Object> args) {
    if (args.size() < 4 || !(args.get(0) instanceof Number token) || !(args.get(1) instanceof Number file)
        || !(args.get(2) instanceof Number from) || !(args.get(3) instanceof Number count)) {
      throw new IllegalArgumentException(call + " takes a token, a file, the first line and a count");
    }
    if (count.intValue() < 0) {
      HELD.remove(token.longValue());
      return out -> out.packArrayHeader(0);
    }
    Held h = HELD.get(token.longValue());
    if (h == null || !h.call.equals(call)) throw new IllegalArgumentException("nvimpam: the result is no longer held (run it again)");
    h.asked[0] = System.currentTimeMillis();
    Source f = h.files.get(file.intValue());
    int a = Math.max(0, from.intValue());
    int b = Math.min(f.count(), a + count.intValue());
    return out -> {
      out.packArrayHeader(Math.max(0, b - a));
      for (int i = a; i < b; i++) f.pack(out, i);
    };
  }
}
