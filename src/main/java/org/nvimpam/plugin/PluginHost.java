package org.nvimpam.plugin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.msgpack.core.MessageUnpacker;
import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.BufferLoad;
import org.nvimpam.nvim.Encoders;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.Encoder;
import org.nvimpam.rpc.RequestHandler;

/**
 * The plugin as Neovim sees it: the RPC methods lua/nvimpam/ calls, and the commands of the
 * rplugin manifest. One instance serves every buffer of one Neovim.
 */
public final class PluginHost {
  private static final Logger LOG = Logger.getLogger(PluginHost.class.getName());
  /** How long :NvimpamFoldAttach waits for Neovim's initial dump of the buffer. */
  private static final long ATTACH_TIMEOUT_S = 60;
  /** How long a request waits for one quick call to Neovim. */
  private static final long CALL_TIMEOUT_S = 10;

  private final Nvim nvim;
  private final AtomicReference<Settings> settings = new AtomicReference<>(Settings.DEFAULTS);
  private final Folder folder;
  private final Map<Long, LiveBuffer> live = new ConcurrentHashMap<>();
  // Insert mode, as InsertEnter/InsertLeave notifications tell it: a refresh never asks Neovim.
  private volatile boolean inserting;
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "nvimpam-live");
    t.setDaemon(true);
    return t;
  });

  private PluginHost(Nvim nvim) {
    this.nvim = nvim;
    this.folder = new Folder(nvim, settings);
  }

  /** Registers every handler on the connection; for {@code serve}. */
  public static PluginHost install(Nvim nvim) {
    Warmup.start();
    PluginHost host = new PluginHost(nvim);
    var rpc = nvim.rpc();
    rpc.onRequest("nvimpam_setup", params -> host.setup(args(params, nvim)));
    rpc.onRequest("nvimpam_fold", params -> host.fold(buffer(args(params, nvim), 0)));
    rpc.onRequest("nvimpam_attach", params -> host.attach(buffer(args(params, nvim), 0)));
    rpc.onRequest("nvimpam_detach", params -> host.detach(buffer(args(params, nvim), 0)));
    rpc.onRequest("nvimpam_info", params -> host.info());
    rpc.onRequest("nvimpam_bench", params -> host.bench(buffer(args(params, nvim), 0)));
    rpc.onRequest("specs", params -> RemotePluginSpecs.encoder());
    rpc.onNotification("nvimpam_insert_enter", params -> host.inserting = true);
    rpc.onNotification("nvimpam_insert_leave", params -> {
      host.inserting = false;
      host.withLive(args(params, nvim), LiveBuffer::insertLeft);
    });
    rpc.onNotification("nvimpam_refresh", params -> host.withLive(args(params, nvim), LiveBuffer::forceRefresh));
    rpc.onOtherRequest((method, params) -> host.manifestCommand(method, args(params, nvim)));
    rpc.closed().whenComplete((ok, e) -> host.scheduler.shutdownNow());
    return host;
  }

  private static List<Object> args(MessageUnpacker params, Nvim nvim) throws java.io.IOException {
    Object o = nvim.objects().read(params);
    if (o instanceof List<?> l) {
      return new ArrayList<>(l);
    }
    throw new IllegalArgumentException("expected an array of arguments");
  }

  private static Buffer buffer(List<Object> args, int i) {
    if (args.size() > i && args.get(i) instanceof Number n) {
      return new Buffer(n.longValue());
    }
    if (args.size() > i && args.get(i) instanceof Buffer b) {
      return b;
    }
    throw new IllegalArgumentException("expected a buffer number as argument " + (i + 1));
  }

  private Buffer resolve(Buffer b) {
    return b.id() == 0 ? nvim.currentBuffer().join() : b;
  }

  Encoder setup(List<Object> args) {
    if (args.isEmpty() || !(args.get(0) instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException("nvimpam_setup takes one table of options");
    }
    Settings next = settings.get().merge(m);
    settings.set(next);
    return out -> out.packString("ok");
  }

  /** Folds now; a live buffer's folds are already known (or loading), so only those are pushed. */
  Encoder fold(Buffer requested) throws Exception {
    Buffer b = resolve(requested);
    await(nvim.sync(), "waiting for Neovim's queued buffer events"); // the live engine has seen every earlier edit
    LiveBuffer lb = live.get(b.id());
    FoldSummary summary = null;
    if (lb != null) {
      LiveBuffer.Refresh r = lb.pushNow();
      if (r.outcome() == LiveBuffer.Outcome.LOADING) {
        try {
          lb.firstPush().get(ATTACH_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
        r = lb.pushNow();
      }
      summary = r.summary();
    }
    if (summary == null) summary = folder.fold(b);
    return summary::pack;
  }

  Encoder attach(Buffer requested) throws Exception {
    Buffer b = resolve(requested);
    await(nvim.sync(), "waiting for Neovim's queued buffer events"); // a detach from :edit! must land first
    LiveBuffer existing = live.get(b.id());
    if (existing != null) {
      existing.forceRefresh();
      return out -> out.packBoolean(true);
    }
    LiveBuffer lb = startLive(b, true);
    try {
      lb.firstPush().get(ATTACH_TIMEOUT_S, TimeUnit.SECONDS); // when :NvimpamFoldAttach returns, the folds are in place
    } catch (TimeoutException e) {
      stopLive(lb);
      throw new IllegalStateException("buffer " + b.id() + " was not loaded and folded within " + ATTACH_TIMEOUT_S + " s");
    } catch (java.util.concurrent.ExecutionException e) {
      live.remove(b.id(), lb);
      throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
    }
    return out -> out.packBoolean(true);
  }

  /**
   * Starts live folding of {@code b} and returns at once: the lines load in the background, in
   * chunks, and the first push follows ({@link LiveBuffer#firstPush()}). With {@code awaited}
   * the caller reports a failed load itself; otherwise it reaches the user as a message.
   */
  LiveBuffer startLive(Buffer b, boolean awaited) {
    Settings s = settings.get();
    LiveBuffer lb = new LiveBuffer(b, new FoldEngine(s.foldOptions()), scheduler, liveHost(awaited), this::reportLiveError);
    live.put(b.id(), lb);
    lb.startLoading(nvim, BufferLoad.Options.DEFAULT);
    return lb;
  }

  private void stopLive(LiveBuffer lb) {
    live.remove(lb.buffer().id(), lb);
    lb.close();
    nvim.bufDetach(lb.buffer());
  }

  /** The result of a call this request needs, or a message that says which call did not come back. */
  private static <T> T await(java.util.concurrent.CompletableFuture<T> f, String what) throws Exception {
    try {
      return f.get(CALL_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException(what + ": no answer within " + CALL_TIMEOUT_S + " s", e);
    }
  }

  Encoder detach(Buffer requested) {
    Buffer b = resolve(requested);
    LiveBuffer lb = live.remove(b.id());
    if (lb != null) {
      lb.close();
      nvim.bufDetach(b);
    }
    return out -> out.packBoolean(lb != null);
  }

  private void withLive(List<Object> args, java.util.function.Consumer<LiveBuffer> action) {
    LiveBuffer lb = live.get(buffer(args, 0).id());
    if (lb != null) {
      action.accept(lb);
    }
  }

  Encoder info() {
    List<String> lines = infoLines();
    return out -> Encoders.writeValue(out, Map.of("lines", lines), null);
  }

  /** What :NvimpamFoldInfo shows. */
  List<String> infoLines() {
    List<String> lines = new ArrayList<>();
    lines.add("nvimpam " + Version.current() + " on Java " + Runtime.version());
    lines.add("  JVM pid: " + ProcessHandle.current().pid());
    lines.add("  strategy: " + settings.get().strategy());
    lines.add("  attached buffers: " + (live.isEmpty() ? "none" : live.keySet().toString()));
    for (LiveBuffer lb : live.values()) {
      var st = lb.loadStats();
      if (st != null) {
        lines.add(String.format(java.util.Locale.ROOT, "  buffer %d: %s lines loaded in %.0f ms from %s", lb.buffer().id(),
            Messages.grouped(st.lines()), st.ms(), st.source()));
      }
    }
    lines.add(HeapAdvice.heapLine());
    FoldSummary last = folder.last();
    if (last != null) {
      lines.add(String.format(java.util.Locale.ROOT,
          "  last fold: buffer %d, %s lines, %s folds, get lines %.1f ms, parse %.1f ms, push %.1f ms (%s)",
          last.buf(), Messages.grouped(last.lines()), Messages.grouped(last.folds()), last.getMs(), last.parseMs(),
          last.pushMs(), last.strategy()));
    }
    return lines;
  }

  Encoder bench(Buffer b) {
    List<Map<String, Object>> rows = benchRows(b);
    return out -> Encoders.writeValue(out, Map.of("rows", rows, "lines", InBufferBench.table(rows)), null);
  }

  List<Map<String, Object>> benchRows(Buffer b) {
    Buffer buffer = resolve(b);
    return folder.exclusively(() -> new InBufferBench(nvim, settings.get()).run(buffer));
  }

  /** A command from the rplugin manifest: {@code <path>:command:<Name>}. */
  Encoder manifestCommand(String method, List<Object> args) throws Exception {
    int at = method.lastIndexOf(":command:");
    if (at < 0) {
      throw new IllegalArgumentException("unknown method " + method);
    }
    return RemotePluginSpecs.run(this, method.substring(at + ":command:".length()), args);
  }

  Nvim nvim() {
    return nvim;
  }

  Settings settings() {
    return settings.get();
  }

  void setSettings(Settings s) {
    settings.set(s);
  }

  private LiveBuffer.Host liveHost(boolean awaited) {
    return new LiveBuffer.Host() {
      @Override
      public long debounceMs() {
        return settings.get().debounceMs();
      }

      @Override
      public boolean oneLineFolds() {
        return settings.get().oneLineFolds();
      }

      @Override
      public boolean userIsTyping() {
        return inserting;
      }

      @Override
      public FoldSummary push(Buffer buffer, int lines, FoldPlan plan, double parseMs) {
        return folder.push(buffer, lines, plan, parseMs);
      }

      @Override
      public void detached(LiveBuffer lb) {
        live.remove(lb.buffer().id(), lb);
      }

      @Override
      public Throwable lost(LiveBuffer lb, Throwable cause) {
        live.remove(lb.buffer().id(), lb);
        nvim.bufDetach(lb.buffer()); // not awaited: we may be on the thread that would complete it
        RuntimeException reported;
        if (cause instanceof OutOfMemoryError) {
          reported = new IllegalStateException(HeapAdvice.message(lb.buffer().id(), lb.failedDeckLines(), lb.failedDeckBytes(),
              heldByOthers(lb), Runtime.getRuntime().maxMemory()), cause);
        } else if (lb.loadStats() == null) {
          reported = new IllegalStateException("nvimpam: could not load buffer " + lb.buffer().id() + ": "
              + cause.getMessage(), cause);
        } else {
          reported = new IllegalStateException("lost track of buffer " + lb.buffer().id() + " ("
              + cause.getMessage() + "); live folding stopped, :NvimpamFoldAttach starts it again", cause);
        }
        if (!awaited) reportLiveError(reported);
        return reported;
      }
    };
  }

  /** Heap the other live buffers' decks hold, for the advice after an OutOfMemoryError. */
  private long heldByOthers(LiveBuffer except) {
    long b = 0;
    for (LiveBuffer o : live.values()) {
      if (o != except) b += o.heldBytes();
    }
    return b;
  }

  /** Live folding runs in the background: its failures reach the user as notifications. */
  private void reportLiveError(Throwable e) {
    LOG.log(Level.WARNING, "live folding failed", e);
    Messages.error(nvim, "nvimpam (live folding): " + e.getMessage());
  }
}
