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
import org.nvimpam.cli.VersionProvider;
import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
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

  private final Nvim nvim;
  private final AtomicReference<Settings> settings = new AtomicReference<>(Settings.DEFAULTS);
  private final Folder folder;
  private final Map<Long, LiveBuffer> live = new ConcurrentHashMap<>();
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
    rpc.onNotification("nvimpam_insert_leave", params -> host.withLive(args(params, nvim), LiveBuffer::insertLeft));
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

  /** Folds now; a live buffer's folds are already known, so only those are pushed. */
  Encoder fold(Buffer requested) {
    Buffer b = resolve(requested);
    nvim.sync().join(); // the live engine has seen every edit made before this request
    LiveBuffer lb = live.get(b.id());
    FoldSummary summary = lb != null ? lb.pushNow() : folder.fold(b);
    return summary::pack;
  }

  Encoder attach(Buffer requested) throws Exception {
    Buffer b = resolve(requested);
    nvim.sync().join(); // a detach from :edit! still in the queue must land before we look
    LiveBuffer existing = live.get(b.id());
    if (existing != null) {
      existing.forceRefresh();
      return out -> out.packBoolean(true);
    }
    Settings s = settings.get();
    LiveBuffer lb = new LiveBuffer(b, new FoldEngine(s.foldOptions()), scheduler, liveHost(), this::reportLiveError);
    live.put(b.id(), lb);
    try {
      if (!nvim.bufAttach(b, true, lb).join()) {
        throw new IllegalStateException("Neovim refused to attach to buffer " + b.id() + " (is it loaded?)");
      }
      lb.loaded().get(ATTACH_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      live.remove(b.id());
      throw new IllegalStateException("buffer " + b.id() + " sent no lines within " + ATTACH_TIMEOUT_S + " s");
    } catch (RuntimeException e) {
      live.remove(b.id());
      throw e;
    }
    lb.cancel();
    lb.refresh(); // synchronous: when :NvimpamFoldAttach returns, the folds are in place
    return out -> out.packBoolean(true);
  }

  Encoder detach(Buffer requested) {
    Buffer b = resolve(requested);
    LiveBuffer lb = live.remove(b.id());
    if (lb != null) {
      lb.cancel();
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
    lines.add("nvimpam " + VersionProvider.version() + " on Java " + Runtime.version());
    lines.add("  JVM pid: " + ProcessHandle.current().pid());
    lines.add("  strategy: " + settings.get().strategy());
    lines.add("  attached buffers: " + (live.isEmpty() ? "none" : live.keySet().toString()));
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

  private LiveBuffer.Host liveHost() {
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
        // Not nvim_get_mode: Neovim defers that one until it waits for input, so asked while it
        // waits for one of our replies it would never answer.
        Object mode = nvim.execLua("return vim.api.nvim_get_mode()", out -> out.packArrayHeader(0)).join();
        if (mode instanceof Map<?, ?> m) {
          String name = String.valueOf(m.get("mode"));
          return Boolean.TRUE.equals(m.get("blocking")) || name.startsWith("i") || name.startsWith("R");
        }
        return false;
      }

      @Override
      public FoldSummary push(Buffer buffer, int lines, FoldPlan plan, double parseMs, long changedtick,
          boolean whole) {
        return folder.push(buffer, lines, plan, parseMs, changedtick, whole);
      }

      @Override
      public void detached(LiveBuffer lb) {
        live.remove(lb.buffer().id(), lb);
      }

      @Override
      public void lost(LiveBuffer lb, RuntimeException cause) {
        live.remove(lb.buffer().id(), lb);
        nvim.bufDetach(lb.buffer()); // not awaited: we are on the thread that would complete it
        reportLiveError(new IllegalStateException("lost track of buffer " + lb.buffer().id() + " ("
            + cause.getMessage() + "); live folding stopped, :NvimpamFoldAttach starts it again", cause));
      }
    };
  }

  /** Live folding runs in the background: its failures reach the user as notifications. */
  private void reportLiveError(Throwable e) {
    LOG.log(Level.WARNING, "live folding failed", e);
    Messages.error(nvim, "nvimpam (live folding): " + e.getMessage());
  }
}
