package org.nvimpam.bench;

import static org.nvimpam.bench.BenchCalls.WAIT_S;
import static org.nvimpam.bench.BenchCalls.get;
import static org.nvimpam.bench.BenchCalls.lua;
import static org.nvimpam.bench.BenchCalls.ms;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.ChildProcessTransport;

/**
 * Opens big generated decks end to end through the plugin, in a headless Neovim, as a user with
 * {@code require('nvimpam').setup{}} would: Neovim's own {@code :edit} of the file (same run, no
 * plugin), open to folds in place, the longest time Neovim took to answer a second client
 * meanwhile, the JVM's memory, and how long edits take to be refolded.
 */
public final class OpenBench {
  /** One deck's figures. */
  public record Row(long lines, long bytes, double nvimEditMs, double openMs, double openStallMs, double pluginStallMs,
      long jvmPeakRssKb, long jvmRssKb, String heap, double atOnceEditMs, double firstEditMs, double laterEditMs,
      double editStallMs, double atOnceWaitMs, double laterWaitMs) {}

  private static final String FOLDED = "return " + LuaEntry.FOLDS_APPLIED_TICK.expression("0") + " == vim.b.changedtick";
  private static final String BEAM = "BEAM  /        7       1       2       3";

  private final String nvimExe;
  private final Path root;
  private final Path dir;
  private final List<String> jvmArgs;
  private final int editsAtOnce;
  private final int editsLater;
  private final PrintStream log;

  /**
   * {@code editsAtOnce}: how many edits, 100 ms apart, follow the open at once; {@code editsLater}:
   * how many follow 3 s later, 400 ms apart.
   */
  public OpenBench(String nvimExe, Path root, Path dir, List<String> jvmArgs, int editsAtOnce, int editsLater,
      PrintStream log) {
    this.nvimExe = nvimExe;
    this.root = root;
    this.dir = dir;
    this.jvmArgs = jvmArgs;
    this.editsAtOnce = editsAtOnce;
    this.editsLater = Math.max(2, editsLater);
    this.log = log;
  }

  /** A generated deck of {@code lines} lines (seed 1). */
  public Row run(long lines) throws Exception {
    return open(deck(dir, lines, log), lines);
  }

  /**
   * The generated deck of {@code lines} lines (seed {@link BenchDeck#SEED}) in {@code dir}, written
   * on first use and kept: the end-to-end benchmarks share it across runs and commands.
   */
  public static Path deck(Path dir, long lines, PrintStream log) throws IOException {
    Path file = dir.resolve("nvimpam-open-" + lines + ".pc");
    if (!Files.exists(file)) {
      log.println("writing " + file);
      try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
        new org.nvimpam.gen.DeckGenerator(BenchDeck.SEED).write(out, lines);
      }
    }
    return file;
  }

  /** A deck of exactly {@code folds} folds, as {@code bench --folds} makes them. */
  public Row runFolds(int folds) throws Exception {
    Path file = dir.resolve("nvimpam-folds-" + folds + ".pc");
    byte[] deck = org.nvimpam.gen.DeckGenerator.foldCountDeck(folds);
    if (!Files.exists(file)) {
      log.println("writing " + file);
      Files.write(file, deck);
    }
    long lines = 0;
    for (byte b : deck) if (b == '\n') lines++;
    return open(file, lines);
  }

  private Row open(Path file, long lines) throws Exception {
    long bytes = Files.size(file);
    readThrough(file); // both opens find the file in the page cache
    Path sock = dir.resolve("nvimpam-open-" + ProcessHandle.current().pid() + ".sock");
    Files.deleteIfExists(sock);
    List<String> argv = new ArrayList<>(ChildProcessTransport.nvimArgv(nvimExe));
    argv.addAll(List.of("--listen", sock.toString(), "--cmd", "set rtp^=" + root));
    try (Nvim nvim = Nvim.embed(argv); StallProbe probe = new StallProbe(sock.toString())) {
      get(nvim.command("filetype on"));
      // Neovim alone.
      long t0 = System.nanoTime();
      get(nvim.command("edit " + file));
      double editMs = ms(t0);
      get(nvim.command("bwipeout!"));
      lua(nvim, "collectgarbage()");

      StringBuilder setup = new StringBuilder("{");
      if (!jvmArgs.isEmpty()) {
        setup.append("jvm_args = {");
        for (String a : jvmArgs) setup.append('\'').append(a).append("',");
        setup.append('}');
      }
      lua(nvim, LuaEntry.SETUP.expression(setup.append('}').toString()));
      log.println("opening " + lines + " lines through the plugin");
      long open0 = System.nanoTime();
      get(nvim.command("edit " + file));
      long read = System.nanoTime(); // Neovim's own read is over: what follows is the plugin's
      awaitFolded(nvim);
      long open1 = System.nanoTime();
      double openMs = (open1 - open0) / 1e6;
      log.println("open: " + infoLine(nvim, "last fold:") + "; " + infoLine(nvim, "buffer "));
      // Edits at once, while the field checks and the id index of the deck are still at work.
      Buffer buf = get(nvim.currentBuffer());
      int at = nodeRunLine(nvim, buf, (int) (lines / 2));
      double atOnceMs = 0;
      double atOnceWaitMs = 0;
      for (int k = 0; k < editsAtOnce; k++) {
        long e0 = editAt(nvim, buf, at, k);
        awaitFolded(nvim);
        double ms = foldedMs(nvim, e0);
        atOnceMs = Math.max(atOnceMs, ms);
        double waited = waitedMs(nvim, lines + (k % 2 == 0 ? 2 : 0));
        atOnceWaitMs = Math.max(atOnceWaitMs, waited);
        log.println(String.format(Locale.ROOT, "edit at once %d: %.1f ms, waited %.1f ms", k, ms, waited));
        Thread.sleep(100);
      }
      if (editsAtOnce % 2 == 1) { // the deck as it was for the edits below
        editAt(nvim, buf, at, 1);
        awaitFolded(nvim);
      }
      Thread.sleep(3000); // "a few seconds after the load": the JVM may give heap back
      long pid = ((Number) lua(nvim, "return " + LuaEntry.HOST_PID.expression(""))).longValue();
      long[] rss = rssKb(pid);
      String heap = heapLine(nvim);

      double[] editMsAll = new double[editsLater];
      double laterWaitMs = 0;
      long edits0 = System.nanoTime();
      for (int k = 0; k < editMsAll.length; k++) {
        long e0 = editAt(nvim, buf, at, k);
        awaitFolded(nvim);
        editMsAll[k] = foldedMs(nvim, e0);
        laterWaitMs = Math.max(laterWaitMs, waitedMs(nvim, lines + (k % 2 == 0 ? 2 : 0)));
        log.println("edit " + k + ": " + String.format(Locale.ROOT, "%.1f ms, ", editMsAll[k]) + infoLine(nvim, "last fold:"));
        Thread.sleep(400); // past the debounce: each edit is an isolated one
      }
      long edits1 = System.nanoTime();
      double[] later = Arrays.copyOfRange(editMsAll, 1, editMsAll.length);
      Arrays.sort(later);
      return new Row(lines, bytes, editMs, openMs, probe.maxMs(open0, open1), probe.maxMs(read, open1), rss[1], rss[0], heap,
          atOnceMs, editMsAll[0], later[later.length / 2], probe.maxMs(edits0, edits1), atOnceWaitMs, laterWaitMs);
    } finally {
      Files.deleteIfExists(sock);
    }
  }

  /**
   * Edit {@code k} of a series at line {@code at}: two BEAM lines that split the NODE fold, then
   * gone again. Returns when Neovim made it, on its own clock ({@code hrtime()}, ns).
   */
  private static long editAt(Nvim nvim, Buffer buf, int at, int k) throws Exception {
    String lines = k % 2 == 0 ? "{ '" + BEAM + "', '" + BEAM + "' }" : "{}";
    return ((Number) lua(nvim, "local t = (vim.uv or vim.loop).hrtime() vim.api.nvim_buf_set_lines(" + buf.id() + ", "
        + at + ", " + (k % 2 == 0 ? at : at + 2) + ", true, " + lines + ") return t")).longValue();
  }

  /**
   * Milliseconds from an edit made at {@code editNs} to its folds in place, both on Neovim's clock:
   * what the user waits, without the time this client's polls take to notice. NaN with a {@code
   * --root} whose plugin does not note that time.
   */
  private static double foldedMs(Nvim nvim, long editNs) throws Exception {
    Object applied = lua(nvim, "local ok, t = pcall(function() return " + LuaEntry.FOLDS_APPLIED_AT.expression("0")
        + " end) return ok and t or vim.NIL");
    return applied instanceof Number n ? (n.longValue() - editNs) / 1e6 : Double.NaN;
  }

  private static void readThrough(Path file) throws IOException {
    byte[] buf = new byte[1 << 20];
    try (InputStream in = Files.newInputStream(file)) {
      while (in.read(buf) >= 0) {
        // only to warm the page cache
      }
    }
  }

  private static void awaitFolded(Nvim nvim) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
    while (!Boolean.TRUE.equals(lua(nvim, FOLDED))) {
      if (System.nanoTime() > end) throw new IllegalStateException("no folds within " + WAIT_S + " s");
      Thread.sleep(2);
    }
  }

  /** A line inside a run of NODE cards near {@code around}, where two BEAM lines make a new fold. */
  private static int nodeRunLine(Nvim nvim, Buffer buf, int around) throws Exception {
    for (int from = around; from < around + 2_000_000; from += 500) {
      Lines l = get(nvim.bufGetLines(buf, from, from + 500, false));
      for (int i = 1; i + 1 < l.count(); i++) {
        if (isNode(l, i - 1) && isNode(l, i) && isNode(l, i + 1)) return from + i;
      }
    }
    throw new IllegalStateException("no NODE run after line " + around);
  }

  private static boolean isNode(Lines l, int i) {
    return l.length(i) > 8 && new String(l.line(i), 0, 8, StandardCharsets.ISO_8859_1).equals("NODE  / ");
  }

  private static final java.util.regex.Pattern WAITED = java.util.regex.Pattern.compile("waited ([0-9.]+) ms");

  /**
   * What the refold of the last edit waited for other work (a step of the checks or the id index
   * holding the buffer's lock, another push), apart from its own cost: the "waited" of
   * :NvimpamFoldInfo's last fold, once that fold is of the deck at {@code lines} lines (its push is
   * recorded after Neovim's reply, which the bench may see first). NaN when it does not say.
   */
  private static double waitedMs(Nvim nvim, long lines) throws Exception {
    String want = String.format(Locale.ROOT, " %,d lines,", lines);
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < end) {
      String s = infoLine(nvim, "last fold:");
      if (s.contains(want)) {
        java.util.regex.Matcher m = WAITED.matcher(s);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN; // NaN: a plugin that does not tell
      }
      Thread.sleep(2);
    }
    return Double.NaN;
  }

  private static String heapLine(Nvim nvim) throws Exception {
    String s = infoLine(nvim, "heap:");
    return s.startsWith("heap:") ? s.substring(5).trim() : s;
  }

  /** The line of :NvimpamFoldInfo that starts with {@code prefix}, or "?". */
  private static String infoLine(Nvim nvim, String prefix) throws Exception {
    Object info = lua(nvim, "return " + LuaEntry.INFO_LINES.expression(""));
    for (Object o : (List<?>) info) {
      String s = String.valueOf(o).trim();
      if (s.startsWith(prefix)) return s;
    }
    return "?";
  }

  /** VmRSS and VmHWM (peak) of a process, in kB. */
  private static long[] rssKb(long pid) throws IOException {
    long rss = -1;
    long hwm = -1;
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("VmRSS:")) rss = kb(line);
      if (line.startsWith("VmHWM:")) hwm = kb(line);
    }
    return new long[] {rss, hwm};
  }

  private static long kb(String line) {
    return Long.parseLong(line.replaceAll("[^0-9]", ""));
  }

  /** The figures as a Markdown table. */
  public static void print(List<Row> rows, PrintStream out) {
    out.println("| lines | deck MB | nvim :edit s | open→folds s | ratio | longest stall s (after :edit) "
        + "| JVM RSS peak / 3 s after MB | edits at once ms (longest) | first edit ms | later edits ms "
        + "| stall while editing ms | refold waited ms, at once / later (longest) |");
    out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Row r : rows) {
      out.println(String.format(Locale.ROOT, "| %,d | %d | %.2f | %.2f | %.1f× | %.2f (%.2f) | %d / %d | %.0f | %.0f | %.0f | %.0f | %.1f / %.1f |",
          r.lines(), Math.round(r.bytes() / 1e6), r.nvimEditMs() / 1000, r.openMs() / 1000, r.openMs() / r.nvimEditMs(),
          r.openStallMs() / 1000, r.pluginStallMs() / 1000, Math.round(r.jvmPeakRssKb() * 1024 / 1e6),
          Math.round(r.jvmRssKb() * 1024 / 1e6), r.atOnceEditMs(), r.firstEditMs(), r.laterEditMs(), r.editStallMs(),
          r.atOnceWaitMs(), r.laterWaitMs()));
    }
    for (Row r : rows) out.println(String.format(Locale.ROOT, "heap %,d lines: %s", r.lines(), r.heap()));
  }
}
