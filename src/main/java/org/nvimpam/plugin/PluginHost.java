package org.nvimpam.plugin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import org.msgpack.core.MessageUnpacker;
import org.nvimpam.deck.ProblemItems;
import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.ids.IdBuffer;
import org.nvimpam.ids.IdService;
import org.nvimpam.ids.TreeProblems;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.Encoders;
import org.nvimpam.nvim.ErrorValue;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.nvim.StartTrace;
import org.nvimpam.rpc.ConnectionClosedException;
import org.nvimpam.rpc.Encoder;
import org.nvimpam.rpc.Log;
import org.nvimpam.strategy.FoldStrategyException;

/**
 * The plugin as Neovim sees it. lua/nvimpam/host/init.lua never waits for the JVM in a blocking
 * request: it sends {@code nvimpam_call} notifications {@code [id, method, args]}, and every call
 * is answered by an {@code nvim_exec_lua} notification that runs {@link LuaEntry#HOST_DONE}
 * {@code (id, error, result)}, with the error as an {@link ErrorValue} map.
 * Calls that talk to Neovim run in arrival order on one thread of their own, so the RPC reader and
 * dispatcher never wait for Neovim; setup and info need no Neovim call and are answered at once.
 * The rplugin manifest's commands are handed back to Lua ({@link RemotePluginSpecs}). One instance
 * serves every buffer of one Neovim.
 */
public final class PluginHost {
  private static final Log LOG = Log.of(PluginHost.class);

  private final Nvim nvim;
  private final AtomicReference<Settings> settings = new AtomicReference<>(Settings.DEFAULTS);
  private final Folder folder;
  private final Diagnostics diagnostics;
  private final IdCalls ids; // goto, references, completion, outline, rename, cross-reference checks
  private final InheritedVersions versions;
  private final Map<Long, LiveBuffer> live = new ConcurrentHashMap<>();
  // Insert mode, as InsertEnter/InsertLeave notifications tell it: a refresh never asks Neovim.
  private volatile boolean inserting;
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(daemon("nvimpam-live", null));
  private final ExecutorService calls = Executors.newSingleThreadExecutor(daemon("nvimpam-calls", null));
  // The field checks and the id index of live buffers, after their refreshes: never in a refold's way.
  private final ExecutorService background = Executors.newSingleThreadExecutor(daemon("nvimpam-checks",
      t -> backgroundThread = t));
  private volatile Thread backgroundThread; // the thread of `background`: only its work waits for due refolds
  // :NvimpamParts, which reads a deck's whole tree from disk: on its own thread.
  private final ExecutorService partsWork = Executors.newSingleThreadExecutor(daemon("nvimpam-parts", null));

  private final EarlyReads early; // decks read from disk while Neovim reads them

  /** Daemon threads called {@code name} (Neovim's exit never waits for them); {@code made} hears of each. */
  private static ThreadFactory daemon(String name, java.util.function.Consumer<Thread> made) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      if (made != null) made.accept(t);
      return t;
    };
  }

  private PluginHost(Nvim nvim, EarlyReads early) {
    this.nvim = nvim;
    this.early = early;
    early.options(() -> settings.get().foldOptions());
    this.folder = new Folder(nvim, settings);
    this.diagnostics = new Diagnostics(nvim);
    this.ids = new IdCalls(nvim, diagnostics, live::values, settings::get);
    this.versions = new InheritedVersions(nvim, live.values());
  }

  /**
   * Registers every handler on the connection; for {@code serve}. {@code early} holds the reads
   * of decks Neovim announced; one may be running already, which warms up the first fold itself.
   */
  public static PluginHost install(Nvim nvim, EarlyReads early) {
    if (!early.any()) Warmup.start();
    PluginHost host = new PluginHost(nvim, early);
    var rpc = nvim.rpc();
    NOTIFICATIONS.forEach((name, handler) -> rpc.onNotification(name, params -> handler.accept(host, args(params, nvim))));
    rpc.onRequest("specs", params -> RemotePluginSpecs.specs(nvim));
    rpc.onOtherNotification((method, params) -> RemotePluginSpecs.forward(nvim, method, args(params, nvim)));
    // A manifest written before its commands became asynchronous still sends requests: answer at once.
    rpc.onOtherRequest((method, params) -> {
      RemotePluginSpecs.forward(nvim, method, args(params, nvim));
      return out -> out.packNil();
    });
    rpc.closed().whenComplete((ok, e) -> {
      host.scheduler.shutdownNow();
      host.calls.shutdownNow();
      host.background.shutdownNow();
      host.partsWork.shutdownNow();
    });
    return host;
  }

  /** One {@code nvimpam_call}: {@code [id, method, [args…]]}; the answer goes to {@code _done}. */
  void call(List<Object> a) {
    if (a.size() < 2 || !(a.get(0) instanceof Number n)) {
      throw new IllegalArgumentException("nvimpam_call takes [id, method, args]");
    }
    long id = n.longValue();
    String method = String.valueOf(a.get(1));
    List<Object> args = a.size() > 2 && a.get(2) instanceof List<?> l ? new ArrayList<>(l) : List.of();
    switch (method) {
      case "setup", "info" -> answer(id, method, args); // no Neovim call: at once, in order
      case "parts" -> partsWork.execute(() -> answer(id, method, args)); // seconds on a big deck: other calls go on
      default -> calls.execute(() -> answer(id, method, args));
    }
  }

  /** One of Lua's calls into the JVM: its arguments in, its answer out. */
  @FunctionalInterface
  interface Call {
    Encoder run(PluginHost host, List<Object> args) throws Exception;
  }

  /**
   * Lua's calls into the JVM ({@code nvimpam_call}), by name: exactly the {@code call.*} of
   * contract.properties, which names their arguments (PluginHostCallsTest, ContractIT).
   */
  static final Map<String, Call> CALLS = Map.ofEntries(
      Map.entry("setup", PluginHost::setup),
      Map.entry("info", (h, a) -> h.info()),
      Map.entry("fold", (h, a) -> h.fold(buffer(a, 0))),
      Map.entry("attach", (h, a) -> h.attach(buffer(a, 0), a.size() > 1 && a.get(1) instanceof Number n ? n.longValue() : -1)),
      Map.entry("detach", (h, a) -> h.detach(buffer(a, 0))),
      Map.entry("bench", (h, a) -> h.bench(buffer(a, 0))),
      Map.entry("check", (h, a) -> h.check(buffer(a, 0))),
      ids("ids_goto", IdCalls::definitions), ids("ids_refs", IdCalls::references), ids("ids_complete", IdCalls::complete),
      ids("ids_outline", IdCalls::outline), ids("ids_rename", IdCalls::rename), ids("ids_check", IdCalls::check),
      ids("ids_next", IdCalls::nextFree),
      Map.entry("diff", (h, a) -> h.diff(buffer(a, 0), a)),
      Map.entry("parts", (h, a) -> PartsCall.run(h.nvim, a)),
      Map.entry("transform", (h, a) -> TransformCall.run(h.ids.service(), h.idBuffer(buffer(a, 0)), a)),
      Map.entry("extract", (h, a) -> ExtractCall.run(h.ids.service(), h.idBuffer(buffer(a, 0)), a)),
      Map.entry("unused", (h, a) -> UnusedCall.run(h.ids.service(), h.idBuffer(buffer(a, 0)), a.size() > 1 && Boolean.TRUE.equals(a.get(1)),
          h.settings.get().diagnosticsCap())),
      Map.entry("renumber", (h, a) -> RenumberCall.run(h.ids.service(), h.idBuffer(buffer(a, 0)), a)),
      Map.entry("merge", (h, a) -> MergeCall.run(h.ids.service(), h.idBuffer(buffer(a, 0)), a)),
      Map.entry("merge_lines", (h, a) -> Pages.lines("merge_lines", a)),
      Map.entry("renumber_lines", (h, a) -> Pages.lines("renumber_lines", a)),
      Map.entry("transform_lines", (h, a) -> Pages.lines("transform_lines", a)),
      Map.entry("extract_lines", (h, a) -> Pages.lines("extract_lines", a)),
      Map.entry("unused_lines", (h, a) -> Pages.lines("unused_lines", a)));

  /** An id call ({@link IdCalls}) on the buffer of its first argument. */
  private static Map.Entry<String, Call> ids(String method, IdCalls.Call call) {
    return Map.entry(method, (h, a) -> call.run(h.ids, h.idBuffer(buffer(a, 0)), a));
  }

  /**
   * Lua's notifications to the JVM (no answer), by name: exactly the {@code notify.*} of
   * contract.properties.
   */
  static final Map<String, java.util.function.BiConsumer<PluginHost, List<Object>>> NOTIFICATIONS = Map.of(
      "nvimpam_call", PluginHost::call,
      "nvimpam_early_read", PluginHost::readEarly,
      "nvimpam_insert_enter", (h, a) -> h.inserting = true,
      "nvimpam_insert_leave", (h, a) -> {
        h.inserting = false;
        h.withLive(a, LiveBuffer::insertLeft);
      },
      "nvimpam_refresh", (h, a) -> h.withLive(a, LiveBuffer::forceRefresh),
      "nvimpam_hold", (h, a) -> h.withLive(a, lb -> lb.hold(a.size() > 1 && Boolean.TRUE.equals(a.get(1)))));

  private Encoder run(String method, List<Object> args) throws Exception {
    Call call = CALLS.get(method);
    if (call == null) {
      throw new IllegalArgumentException("nvimpam has no call '" + method + "'");
    }
    return call.run(this, args);
  }

  private void answer(long id, String method, List<Object> args) {
    Encoder result = null;
    ErrorValue error = null;
    try {
      result = run(method, args);
    } catch (Exception e) {
      LOG.fine(method + " failed", e);
      error = errorValue(e);
    } catch (OutOfMemoryError e) {
      error = ErrorValue.of(ErrorValue.Code.OUT_OF_MEMORY, "nvimpam: the JVM ran out of memory during " + method
          + " (" + e + ")");
    }
    reply(id, error, result);
  }

  private void reply(long id, ErrorValue error, Encoder result) {
    try {
      LuaEntry.HOST_DONE.notify(nvim, out -> {
        out.packLong(id);
        if (error == null) {
          out.packNil();
        } else {
          error.pack(out);
        }
        if (result == null) {
          out.packNil();
        } else {
          result.write(out);
        }
      });
    } catch (ConnectionClosedException gone) {
      // Neovim is gone and nobody waits for the answer; serve reports the end of the connection once.
      LOG.fine("could not answer call " + id, gone);
    } catch (RuntimeException e) {
      LOG.warning("could not answer call " + id, e);
    }
  }

  /** The error a failed call reports to Lua: what it was, not how it surfaced. */
  static ErrorValue errorValue(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    String message = String.valueOf(t.getMessage());
    if (t instanceof Folder.FoldFailure f) {
      return f.value();
    }
    if (t instanceof FoldStrategyException f) {
      return f.error();
    }
    if (t instanceof Await.DeadlineException) {
      return ErrorValue.of(ErrorValue.Code.TIMEOUT, "nvimpam: " + message);
    }
    if (t instanceof IllegalArgumentException) {
      return ErrorValue.of(ErrorValue.Code.BAD_ARGUMENT, message);
    }
    return ErrorValue.of(ErrorValue.Code.FAILED, message);
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
    return b.id() == 0 ? Await.call(nvim.currentBuffer(), "nvim_get_current_buf") : b;
  }

  Encoder setup(List<Object> args) {
    if (args.isEmpty() || !(args.get(0) instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException("setup takes one table of options");
    }
    settings.getAndUpdate(current -> current.merge(m)); // one atomic update: none is lost
    for (LiveBuffer lb : live.values()) background.execute(lb::publishChecks); // checks or their cap may have changed
    long pid = ProcessHandle.current().pid();
    String version = Version.current();
    return out -> {
      out.packMapHeader(2);
      out.packString("pid").packLong(pid);
      out.packString("version").packString(version);
    };
  }

  /** Folds now; a live buffer's folds are already known (or loading), so only those are pushed. */
  Encoder fold(Buffer requested) throws Exception {
    Buffer b = resolve(requested);
    // the live engine has seen every edit made before this call
    Await.call(nvim.sync(), "waiting for Neovim's earlier buffer events");
    LiveBuffer lb = live.get(b.id());
    FoldSummary summary = null;
    if (lb != null) {
      LiveBuffer.Refresh r = lb.pushNow();
      if (r.outcome() == LiveBuffer.Outcome.LOADING) {
        try {
          Await.within(lb.firstPush(), Await.ATTACH, "loading buffer " + b.id());
        } catch (CompletionException e) {
          throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
        r = lb.pushNow();
      }
      summary = r.summary();
      lb.publishChecks();
    }
    if (summary == null) summary = folder.fold(b);
    return summary::pack;
  }

  /** {@code lineCount}: the buffer's, as the caller saw it (for the note on big decks); -1 to ask. */
  Encoder attach(Buffer requested, long lineCount) throws Exception {
    StartTrace.mark("attach");
    Buffer b = resolve(requested);
    LiveBuffer existing = live.get(b.id());
    if (existing != null) {
      // a detach from :edit! still in the queue must land before we look again
      Await.call(nvim.sync(), "waiting for Neovim's earlier buffer events");
      existing = live.get(b.id());
    }
    if (existing != null) {
      existing.forceRefresh();
      return out -> out.packBoolean(true);
    }
    Settings s = settings.get();
    long count = lineCount >= 0 ? lineCount : Await.call(nvim.bufLineCount(b), "nvim_buf_line_count");
    if (count >= s.notifyLines()) { // a big deck is no silent pause, attached or folded once
      Messages.progress(nvim, "nvimpam: folding " + Messages.grouped(count) + " lines…");
    }
    LiveBuffer lb = startLive(b, true);
    FoldSummary summary;
    try {
      // when the call returns, the folds are in place
      summary = Await.within(lb.firstPush(), Await.ATTACH, "loading and folding buffer " + b.id());
    } catch (Await.DeadlineException e) { // a timeout, for Lua too: not a failure of the load
      stopLive(lb);
      throw e;
    } catch (CompletionException e) {
      live.remove(b.id(), lb);
      throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
    }
    // Its summary, for the note on big decks.
    if (summary != null && summary.buf() == b.id()) {
      return summary::pack;
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
    LiveBuffer lb = new LiveBuffer(b, new FoldEngine(s.foldOptions()), scheduler, new LiveHost(awaited),
        e -> reportLiveError(b, e));
    askFile(lb);
    lb.idService(ids.service());
    live.put(b.id(), lb);
    lb.startLoading(nvim, BufferLoad.Options.DEFAULT, early.take(b.id()));
    return lb;
  }

  /** {@code nvimpam_early_read [buf, path]}: a deck Neovim is about to read; read it now too. */
  private void readEarly(List<Object> args) {
    if (args.size() < 2 || !(args.get(1) instanceof String path)) {
      throw new IllegalArgumentException("nvimpam_early_read takes [buf, path]");
    }
    early.start(buffer(args, 0).id(), path);
  }

  private void stopLive(LiveBuffer lb) {
    live.remove(lb.buffer().id(), lb);
    lb.close();
    nvim.bufDetach(lb.buffer());
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
          "  last fold: buffer %d, %s lines, %s folds, get lines %.1f ms, parse %.1f ms, waited %.1f ms, push %.1f ms (%s)",
          last.buf(), Messages.grouped(last.lines()), Messages.grouped(last.folds()), last.getMs(), last.parseMs(),
          last.waitMs(), last.pushMs(), last.strategy()));
    }
    return lines;
  }

  /**
   * :NvimpamCheck: the first {@code max_diagnostics} problems of the buffer's deck and its include
   * tree ({@link TreeProblems}) and their total.
   */
  Encoder check(Buffer requested) {
    int cap = settings.get().diagnosticsCap();
    TreeProblems c = TreeProblems.of(ids.service(), idBuffer(requested), cap,
        b -> b instanceof LiveBuffer lb ? lb.problems(cap) : null);
    return out -> Diagnostics.packTree(out, c);
  }

  /**
   * :NvimpamDiff: {@code [buf, file, tol]}: the deck of {@code requested} as Neovim holds it
   * against the deck file {@code file} ({@link DeckDiffs}).
   */
  Encoder diff(Buffer requested, List<Object> args) throws Exception {
    if (args.size() < 2 || !(args.get(1) instanceof String file) || file.isBlank()) {
      throw new IllegalArgumentException("nvimpam: :NvimpamDiff needs the deck to compare with: :NvimpamDiff {file}");
    }
    double tol = args.size() > 2 && args.get(2) instanceof Number n ? n.doubleValue() : 0;
    if (!(tol >= 0)) throw new IllegalArgumentException("nvimpam: the tolerance must be 0 or more, not " + tol);
    return DeckDiffs.of(ids.service(), idBuffer(requested), file, tol)::pack;
  }

  /** The buffer an id call serves, once Neovim's earlier events are in: live, or read once. */
  private IdBuffer idBuffer(Buffer requested) {
    Buffer b = resolve(requested);
    Await.call(nvim.sync(), "waiting for Neovim's earlier buffer events");
    LiveBuffer lb = live.get(b.id());
    if (lb != null && lb.phase() == LiveBuffer.Phase.LIVE) return lb;
    Object name = Await.call(nvim.call("nvim_buf_get_name", nvim.args(b), Decoders.object()), "nvim_buf_get_name");
    java.nio.file.Path file = null;
    if (name instanceof String n && !n.isEmpty()) {
      try {
        file = java.nio.file.Path.of(n).toAbsolutePath().normalize();
      } catch (java.nio.file.InvalidPathException bad) {
        file = null;
      }
    }
    return IdService.once(b.id(), file, BufferLoad.deckOf(nvim, b));
  }

  /** Asks for the buffer's file (an absolute path; none without a name) without waiting for it. */
  private void askFile(LiveBuffer lb) {
    nvim.call("nvim_buf_get_name", nvim.args(lb.buffer()), Decoders.object()).thenAccept(o -> {
      if (o instanceof String name && !name.isEmpty()) {
        try {
          lb.file(java.nio.file.Path.of(name).toAbsolutePath().normalize());
        } catch (java.nio.file.InvalidPathException e) {
          LOG.fine("buffer " + lb.buffer().id() + " has a name that is no path", e);
        }
      }
    });
  }


  Encoder bench(Buffer b) {
    List<Map<String, Object>> rows = benchRows(b);
    return out -> Encoders.writeValue(out, Map.of("rows", rows, "lines", StrategyComparison.table(rows)), null);
  }

  List<Map<String, Object>> benchRows(Buffer b) {
    Buffer buffer = resolve(b);
    return folder.exclusively(() -> new StrategyComparison(nvim, settings.get()).run(buffer));
  }

  /**
   * What a live buffer asks of the host: the options, the fold push, the checks' thread and
   * publisher, the versions its include tree hands down, and the end of its life. With {@code
   * awaited} the caller of the attach reports a failed load itself.
   */
  private final class LiveHost implements LiveBuffer.Host {
    private final boolean awaited;

    LiveHost(boolean awaited) {
      this.awaited = awaited;
    }

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
    public FoldSummary push(Buffer buffer, int lines, FoldPlan plan, double parseMs, double waitedMs,
        long changedtick, boolean whole) {
      return folder.push(buffer, lines, plan, parseMs, waitedMs, changedtick, whole);
    }

    @Override
    public boolean checks() {
      return settings.get().checks();
    }

    @Override
    public int maxDiagnostics() {
      return settings.get().diagnosticsCap();
    }

    @Override
    public int inheritedVersion(LiveBuffer lb) {
      return versions.inherited(lb);
    }

    @Override
    public void background(Runnable work) {
      try {
        background.execute(work);
      } catch (java.util.concurrent.RejectedExecutionException closing) {
        LOG.fine("no checks after the connection closed", closing); // nobody would see them
      }
    }

    @Override
    public boolean inBackground() {
      return Thread.currentThread() == backgroundThread;
    }

    @Override
    public void checkedFirst(LiveBuffer lb) {
      versions.checkedFirst(lb);
    }

    @Override
    public void publish(Buffer buffer, long changedtick, ProblemItems problems) {
      diagnostics.fields(buffer, changedtick, problems);
    }

    @Override
    public void awaitEvents() {
      Await.within(nvim.sync(), Duration.ofSeconds(5), "the buffer events before a failed refold");
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
  }

  /** Heap the other live buffers' decks hold, for the advice after an OutOfMemoryError. */
  private long heldByOthers(LiveBuffer except) {
    long b = 0;
    for (LiveBuffer o : live.values()) {
      if (o != except) b += o.heldBytes();
    }
    return b;
  }

  /**
   * A refresh of a buffer that was unloaded or wiped meanwhile fails on lines that are gone (E16):
   * nothing the user can act on, so it is only logged.
   */
  private void reportLiveError(Buffer b, Throwable e) {
    boolean loaded;
    try {
      loaded = Await.call(nvim.call("nvim_buf_is_loaded", nvim.args(b), Decoders.booleanValue()),
          "nvim_buf_is_loaded");
    } catch (RuntimeException unknown) {
      loaded = true; // cannot tell: report it
    }
    if (!loaded) {
      LOG.fine("live folding of buffer " + b.id() + " failed after it was unloaded", e);
      return;
    }
    reportLiveError(e);
  }

  /** Live folding runs in the background: its failures reach the user as notifications. */
  private void reportLiveError(Throwable e) {
    if (nvim.rpc().closed().isDone()) { // Neovim is gone: nobody to tell, and serve says why once
      LOG.fine("live folding failed after the connection closed", e);
      return;
    }
    LOG.warning("live folding failed", e);
    Messages.error(nvim, "nvimpam (live folding): " + e.getMessage());
  }
}
