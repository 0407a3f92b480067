package org.nvimpam.soak;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.nvimpam.bench.BenchRunner;
import org.nvimpam.bench.PluginRuntime;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.nvim.Window;

/**
 * A long run of random edits in a headless Neovim with the plugin, as a user would have it: live
 * buffers opened from files (:NvimpamFoldAttach), several windows, and the plugin's own JVM. At every
 * check each buffer must have been refolded at its changedtick within a deadline, and each
 * window's folds must equal a full parse of its buffer; the JVM's heap after GC and its thread
 * count are sampled from outside (jcmd, /proc).
 */
public final class SoakRun {
  private static final long REFOLD_DEADLINE_MS = 30_000;
  /** How long a check waits for pending refolds before it looks at the windows. */
  private static final long SETTLE_MS = 2_000;
  /** Heap and thread samples over the run, besides the first and last check. */
  private static final int SAMPLES = 30;
  /**
   * Records the changedtick of each buffer's last text change. :w also bumps the changedtick, with
   * no text change and so no refold: a buffer counts as refolded once its folds were applied at or
   * after its last text change.
   */
  private static final String TRACK_TEXT = "_G.soak_text_tick = _G.soak_text_tick or {}"
      + " local b = BUF"
      + " local function track() _G.soak_text_tick[b] = vim.api.nvim_buf_get_changedtick(b)"
      + "   vim.api.nvim_buf_attach(b, false, {"
      + "   on_lines = function(_, buf, tick) _G.soak_text_tick[buf] = tick end,"
      + "   on_reload = function(_, buf) _G.soak_text_tick[buf] = vim.api.nvim_buf_get_changedtick(buf) end,"
      + "   on_detach = function() vim.schedule(track) end }) end" // :edit! may detach it
      + " track()";

  private final SoakSettings settings;
  private final PrintStream progress;
  private final List<Buffer> buffers = new ArrayList<>();
  private final List<Window> windows = new ArrayList<>();
  private final List<Long> heap = new ArrayList<>();
  private final List<Integer> threads = new ArrayList<>();
  private final List<Long> lines = new ArrayList<>();
  private final List<String> errorMessages = new ArrayList<>();
  private final List<String> mismatches = new ArrayList<>();
  private Nvim nvim;
  private JvmProbe jvm;
  private long nvimPid;
  private int checks;
  private int windowsChecked;
  private int lagging; // buffers whose applied tick had not reached their last text change at a check

  private SoakRun(SoakSettings settings, PrintStream progress) {
    this.settings = settings;
    this.progress = progress;
  }

  /** Runs the soak; progress lines go to {@code progress}. */
  public static SoakReport run(SoakSettings settings, PrintStream progress) throws IOException {
    return new SoakRun(settings, progress).run();
  }

  private SoakReport run() throws IOException {
    Path dir = Files.createTempDirectory("nvimpam-soak");
    long t0 = System.nanoTime();
    try (PluginRuntime runtime = PluginRuntime.locate()) {
      nvim = Nvim.embed(BenchRunner.nvimArgv(settings.nvim(), runtime.root(), List.of()));
      try {
        open(dir);
        SoakEditor editor = new SoakEditor(nvim, buffers, windows, settings.seed());
        String failure = null;
        long rssStart = 0;
        int sampleEvery = settings.checkEvery() * Math.max(1, settings.edits() / SAMPLES / settings.checkEvery());
        int made = 0;
        for (int i = 1; i <= settings.edits() && failure == null; i++) {
          editor.edit(i);
          made = i;
          if (i % 10 == 0) {
            pause(); // let some refolds happen between edits, not only at the checks
          }
          if (i % settings.checkEvery() == 0 || i == settings.edits()) {
            failure = check(i);
            if (checks == 1) {
              sample();
              rssStart = JvmProbe.residentKib(nvimPid);
            } else if (i % sampleEvery == 0 && i != settings.edits()) {
              sample();
            }
            progress.printf(Locale.ROOT, "soak: %,d/%,d edits, %d checks%s, %d error messages, %d windows wrong%n", i,
                settings.edits(), checks, failure == null ? "" : ": " + failure, errorMessages.size(), mismatches.size());
          }
        }
        if (settings.edits() == 0) {
          failure = check(0);
        }
        if (failure == null) {
          sample();
        }
        long rssEnd = JvmProbe.residentKib(nvimPid);
        return new SoakReport(settings, made, editor.counts(), checks, windowsChecked, List.copyOf(heap),
            List.copyOf(threads), List.copyOf(lines), rssStart, rssEnd, (System.nanoTime() - t0) / 1e9, List.copyOf(errorMessages),
            List.copyOf(mismatches), lagging, failure);
      } finally {
        nvim.close();
      }
    } finally {
      deleteTree(dir);
    }
  }

  /** Sets the plugin up, opens the decks from files and lays out the windows. */
  private void open(Path dir) throws IOException {
    byte[] deck;
    try (InputStream in = SoakRun.class.getResourceAsStream("/decks/example.pc")) {
      deck = in.readAllBytes();
    }
    nvimPid = ((Number) Await.call(nvim.eval("getpid()"), "a call of the soak")).longValue();
    Await.call(nvim.command("set hidden noswapfile"), "a call of the soak");
    // What the plugin tells the user is collected, not shown: an error there fails the run, and a
    // long message would stop this UI-less Neovim at a -- More -- prompt.
    Await.call(nvim.command("set nomore"), "a call of the soak");
    lua("_G.soak_errors = {} vim.notify = function(m, l)"
        + " if (l or 0) >= vim.log.levels.ERROR then table.insert(_G.soak_errors, tostring(m)) end end");
    lua(LuaEntry.SETUP.expression("{ jar = " + luaString(settings.jar().toString()) + ", auto_attach = false, debounce_ms = 20 }"));
    for (int i = 0; i < settings.buffers(); i++) {
      Path file = dir.resolve("deck" + (i + 1) + ".pc");
      Files.write(file, deck);
      Await.call(nvim.command("edit " + file), "a call of the soak");
      Buffer b = Await.call(nvim.currentBuffer(), "a call of the soak");
      // by hand: a jar's runtime copy has no ftdetect/
      Await.call(nvim.command("NvimpamFoldAttach"), "a call of the soak");
      buffers.add(b);
      lua(TRACK_TEXT.replace("BUF", String.valueOf(b.id())));
    }
    for (int i = 1; i < settings.windows(); i++) {
      String split = (i % 2 == 1 ? "split" : "vsplit") + " | buffer " + buffers.get(i % buffers.size()).id();
      Await.call(nvim.command(split), "a call of the soak");
    }
    List<?> wins = (List<?>) Await.call(nvim.call("nvim_list_wins", out -> out.packArrayHeader(0), nvim.objects()),
        "a call of the soak");
    for (Object w : wins) {
      windows.add((Window) w);
    }
    long deadline = System.currentTimeMillis() + REFOLD_DEADLINE_MS;
    while (!Boolean.TRUE.equals(lua("return " + LuaEntry.HOST_RUNNING.expression("")))) {
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("the plugin's JVM did not start: " + lua("return " + LuaEntry.HOST_LAST_ERROR.expression(""))
            + errors());
      }
      pause();
    }
    jvm = new JvmProbe(((Number) lua("return " + LuaEntry.HOST_PID.expression(""))).longValue(), JvmProbe.defaultJcmd());
  }

  /**
   * Null when every window equals a full parse of its buffer; else what stopped the run. A buffer
   * counts as refolded once its folds were applied at or after its last text change; the JVM does
   * not push folds that did not change, so a window may also be right without that.
   */
  private String check(int edit) {
    checks++;
    for (Buffer b : buffers) { // give every pending refold its chance first
      long deadline = System.currentTimeMillis() + SETTLE_MS;
      while (!refolded(b) && System.currentTimeMillis() < deadline) {
        pause();
      }
      if (!refolded(b)) {
        lagging++;
      }
    }
    collectErrors(edit);
    for (Window w : windows) {
      Buffer b = (Buffer) Await.call(nvim.call("nvim_win_get_buf", out -> {
        out.packArrayHeader(1);
        nvim.writeWindow(out, w);
      }, nvim.objects()), "a call of the soak");
      boolean claimed = refolded(b);
      String diff = difference(b, w);
      windowsChecked++;
      if (diff == null) {
        continue;
      }
      // Wrong now: does it put itself right? If not within the deadline, the run stops.
      long t0 = System.nanoTime();
      long deadline = System.currentTimeMillis() + REFOLD_DEADLINE_MS;
      String now = diff;
      while (now != null && System.currentTimeMillis() < deadline) {
        pause();
        now = difference(b, w);
      }
      String what = "after edit " + edit + ", window " + w.id() + " (buffer " + b.id() + ")"
          + (claimed ? ", refolded by the plugin's account: " : ": ") + diff;
      if (now != null) {
        // Tells a push that never came from a JVM whose lines went out of step with the buffer:
        // :NvimpamFold pushes the folds the JVM holds for a live buffer, without reading its lines.
        setCurrent(w);
        // :NvimpamFold waits for the JVM up to its own timeout_ms (60 s): give it more.
        Await.within(nvim.command("NvimpamFold"), Duration.ofMinutes(2), ":NvimpamFold");
        String pushed = difference(b, w);
        return what + "; still different after " + REFOLD_DEADLINE_MS + " ms: " + now + "; after :NvimpamFold, "
            + (pushed == null ? "equal (the JVM held the right folds but had not pushed them)"
                : "still different (the JVM's folds are wrong): " + pushed)
            + " (applied at tick " + lua("return " + LuaEntry.FOLDS_APPLIED_TICK.expression(String.valueOf(b.id())))
            + ", last text change at " + lua("return _G.soak_text_tick[" + b.id() + "]") + ")" + errors();
      }
      if (claimed) {
        mismatches.add(String.format(Locale.ROOT, "%s; equal %.0f ms later", what, (System.nanoTime() - t0) / 1e6));
      }
    }
    return null;
  }

  private boolean refolded(Buffer b) {
    return Boolean.TRUE.equals(lua("local b = " + b.id() + " local t = " + LuaEntry.FOLDS_APPLIED_TICK.expression("b")
        + " return t ~= nil and t >= _G.soak_text_tick[b]"));
  }

  private String difference(Buffer b, Window w) {
    return WindowFolds.expected(nvim, b, FoldOptions.GENERIC).difference(WindowFolds.read(nvim, w));
  }

  /**
   * Takes the error messages the plugin showed since the last call. They fail the run but do not
   * stop it: the next refold may put things right, and the heap and threads are still worth seeing.
   */
  private void collectErrors(int edit) {
    for (String e : strings(lua("local e = _G.soak_errors _G.soak_errors = {} return e"))) {
      String first = e.lines().findFirst().orElse("");
      errorMessages.add("after edit " + edit + ": " + (first.length() > 300 ? first.substring(0, 300) + "…" : first));
    }
  }

  /** The error messages seen so far, for a failure message. */
  private String errors() {
    return errorMessages.isEmpty() ? "" : "; the plugin showed " + errorMessages.size() + " errors, the last: "
        + errorMessages.get(errorMessages.size() - 1);
  }

  private static List<String> strings(Object list) {
    return ((List<?>) list).stream().map(String::valueOf).toList();
  }

  private void sample() throws IOException {
    heap.add(jvm.heapAfterGc());
    threads.add(jvm.threads());
    long total = 0;
    for (Buffer b : buffers) {
      total += Await.call(nvim.bufLineCount(b), "a call of the soak");
    }
    lines.add(total);
  }

  private void setCurrent(Window w) {
    Await.call(nvim.call("nvim_set_current_win", out -> {
      out.packArrayHeader(1);
      nvim.writeWindow(out, w);
    }, Decoders.nil()), "a call of the soak");
  }

  private Object lua(String code) {
    return Await.call(nvim.execLua(code, out -> out.packArrayHeader(0)), "a call of the soak");
  }

  private static String luaString(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  private static void pause() {
    try {
      Thread.sleep(25);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
