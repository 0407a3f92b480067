package org.nvimpam.bench;

import static org.nvimpam.bench.BenchCalls.WAIT_S;
import static org.nvimpam.bench.BenchCalls.get;
import static org.nvimpam.bench.BenchCalls.lua;
import static org.nvimpam.bench.BenchCalls.ms;
import static org.nvimpam.bench.BenchCalls.waitFor;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.ids.BufferIds;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdScanner;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.ChildProcessTransport;

/**
 * The scale targets of the id index on one generated deck, from one run: in the JVM alone, the
 * index's heap against the deck's bytes, its build, the whole cross-reference check, goto (the
 * definitions of a key), references (a scan of the deck) and one edit; then end to end in a
 * headless Neovim through the plugin, goto and :NvimpamRefs as the user runs them and the longest
 * time Neovim took to answer a second client while the JVM built the index and checked the deck.
 */
public final class IdsBench {
  private static final byte[] SHELL = LineBytes.ascii("SHELL /");

  private final String nvimExe;
  private final Path root;
  private final Path dir;
  private final List<String> jvmArgs;
  private final PrintStream log;

  public IdsBench(String nvimExe, Path root, Path dir, List<String> jvmArgs, PrintStream log) {
    this.nvimExe = nvimExe;
    this.root = root;
    this.dir = dir;
    this.jvmArgs = jvmArgs;
    this.log = log;
  }

  /** The figures of one deck. */
  public record Row(long lines, long bytes, double buildMs, long indexBytes, double ratio, int definitions,
      double checkMs, int problems, double gotoMaxMs, double refsMs, int refs, double editMs,
      double nvimGotoMs, double nvimRefsMs, double stallMs, double idleStallMs) {}

  public Row run(long lines) throws Exception {
    Path file = OpenBench.deck(dir, lines, log); // bench-open's decks: generated once
    long bytes = Files.size(file);
    log.println("reading " + file + " (" + bytes + " bytes)");
    Deck deck = DeckFile.read(file, (int) Math.min(Integer.MAX_VALUE - 8, lines + 1), bytes);
    CardLayouts.bundled();
    long h0 = usedHeap();
    BufferIds ids = new BufferIds();
    long t0 = System.nanoTime();
    ids.build(deck);
    double buildMs = ms(t0);
    ids.tree(List.of(), List.of(), true, -1, deck);
    long t1 = System.nanoTime();
    ids.check(deck);
    double checkMs = ms(t1);
    long indexBytes = usedHeap() - h0;
    log.println(String.format(Locale.ROOT, "index: %d definitions, built in %.0f ms, %d MB (%.3f of the deck's bytes); check %.0f ms, %d problems",
        ids.defs().size(), buildMs, indexBytes >> 20, (double) indexBytes / bytes, checkMs, ids.refs().size()));

    // goto: the definitions of 200 keys spread over the deck
    double gotoMax = 0;
    for (int k = 0; k < 200; k++) {
      int d = (int) ((long) ids.defs().size() * k / 200);
      long key = ids.defs().key(d);
      long g0 = System.nanoTime();
      int[] at = ids.defs().linesOf(key, 1000);
      gotoMax = Math.max(gotoMax, ms(g0));
      if (at.length == 0) throw new IllegalStateException("no definition of a defined key");
    }
    int shell = shellLine(deck, (int) (lines / 2));
    int part = LineBytes.number(deck.bytes(shell), deck.start(shell), deck.contentLength(shell), 16, 24);
    long r0 = System.nanoTime();
    int[] refs = {0};
    new IdScanner(CardLayouts.bundled()).scan(deck, 0, deck.lineCount(), ids.version(), true, IdKinds.bit(IdKinds.PART),
        (line, from, to, kind, lo, hi, def) -> {
          if (!def && kind == IdKinds.PART && lo <= part && part <= hi) refs[0]++;
        });
    double refsMs = ms(r0);
    log.println(String.format(Locale.ROOT, "goto: longest of 200 %.2f ms; references to part %d: %d in %.0f ms", gotoMax, part,
        refs[0], refsMs));
    // edits: a node line renumbered (its old id is then referenced but undefined), three times;
    // the figure is the JVM's part of the last: the index updated and the check brought up to date
    int node = nodeLine(deck, (int) (lines / 3));
    double editMs = 0;
    for (int k = 0; k < 3; k++) {
      byte[] neu = Arrays.copyOfRange(deck.bytes(node), deck.start(node), deck.start(node) + deck.contentLength(node));
      neu[15] = (byte) (neu[15] == '9' ? '8' : '9');
      deck.replace(node, node + 1, Lines.split(concat(neu, (byte) '\n')));
      long e0 = System.nanoTime();
      ids.edited(deck, node, node + 1, 1);
      double editOnly = ms(e0);
      ids.check(deck);
      editMs = ms(e0);
      log.println(String.format(Locale.ROOT, "edit %d of line %d (a node renumbered): index %.2f ms, with the check %.1f ms, %d problems",
          k, node + 1, editOnly, editMs, ids.refs().size()));
    }
    int defs = ids.defs().size();
    int problems = ids.refs().size();
    deck = null;
    ids = null;
    System.gc();

    double[] nv = inNeovim(file, shell, part);
    return new Row(lines, bytes, buildMs, indexBytes, (double) indexBytes / bytes, defs, checkMs, problems, gotoMax,
        refsMs, refs[0], editMs, nv[0], nv[1], nv[2], nv[3]);
  }

  private static byte[] concat(byte[] a, byte b) {
    byte[] c = Arrays.copyOf(a, a.length + 1);
    c[a.length] = b;
    return c;
  }

  /** The goto and :NvimpamRefs times in a real Neovim, and its longest stall while the JVM indexed and checked. */
  private double[] inNeovim(Path file, int shell, int part) throws Exception {
    Path sock = dir.resolve("nvimpam-ids-" + ProcessHandle.current().pid() + ".sock");
    Files.deleteIfExists(sock);
    List<String> argv = new ArrayList<>(ChildProcessTransport.nvimArgv(nvimExe));
    argv.addAll(List.of("--listen", sock.toString(), "--cmd", "set rtp^=" + root));
    try (Nvim nvim = Nvim.embed(argv); StallProbe probe = new StallProbe(sock.toString())) {
      get(nvim.command("filetype on"));
      long idle0 = System.nanoTime();
      Thread.sleep(3000);
      double idle = probe.maxMs(idle0, System.nanoTime()); // this machine's noise: Neovim alone, idle
      log.println(String.format(Locale.ROOT, "Neovim alone, idle for 3 s: longest answer %.1f ms", idle));
      StringBuilder setup = new StringBuilder("{ timeout_ms = 600000, jar = '" + jar() + "', ");
      if (!jvmArgs.isEmpty()) {
        setup.append("jvm_args = {");
        for (String a : jvmArgs) setup.append('\'').append(a).append("',");
        setup.append('}');
      }
      lua(nvim, LuaEntry.SETUP.expression(setup.append('}').toString()));
      log.println("opening " + file + " through the plugin");
      get(nvim.command("edit " + file));
      String folded = "return " + LuaEntry.FOLDS_APPLIED_TICK.expression("0") + " == vim.b.changedtick";
      waitFor(nvim, folded, WAIT_S);
      long folds = System.nanoTime();
      // the field checks come first (their diagnostics), then the id index and its check, on the same thread
      waitFor(nvim, "return require('nvimpam.ui.diagnostics').last[vim.api.nvim_get_current_buf()] ~= nil", WAIT_S);
      long indexing = System.nanoTime();
      waitFor(nvim, "return require('nvimpam.ids').last[vim.api.nvim_get_current_buf()] ~= nil", WAIT_S);
      long indexed = System.nanoTime();
      double stall = probe.maxMs(indexing, indexed);
      log.println(String.format(Locale.ROOT, "after the folds: field checks %.0f ms (longest stall %.1f ms), then the id index and"
          + " its check %.0f ms (longest stall %.1f ms)", (indexing - folds) / 1e6, probe.maxMs(folds, indexing),
          (indexed - indexing) / 1e6, stall));
      long quiet0 = System.nanoTime();
      Thread.sleep(3000);
      log.println(String.format(Locale.ROOT, "the deck loaded, everything done, idle for 3 s: longest answer %.1f ms",
          probe.maxMs(quiet0, System.nanoTime())));
      // the id index and check alone, again: :NvimpamFoldAttach-like rebuild through a call
      long again0 = System.nanoTime();
      lua(nvim, "require('nvimpam.host').wait('ids_check', { 0 }, 'ids_check', 0)");
      log.println(String.format(Locale.ROOT, "ids_check again (index up to date): %.0f ms, longest answer %.1f ms",
          (System.nanoTime() - again0) / 1e6, probe.maxMs(again0, System.nanoTime())));
      lua(nvim, "vim.api.nvim_win_set_cursor(0, { " + (shell + 1) + ", 20 })");
      double gotoMs = 1e9;
      for (int k = 0; k < 5; k++) {
        lua(nvim, "vim.api.nvim_win_set_cursor(0, { " + (shell + 1) + ", 20 })");
        Object ms = lua(nvim, "local uv = vim.uv or vim.loop local t = uv.hrtime() require('nvimpam.ids').goto_definition() return (uv.hrtime() - t) / 1e6");
        gotoMs = Math.min(gotoMs, ((Number) ms).doubleValue());
      }
      lua(nvim, "vim.api.nvim_win_set_cursor(0, { " + (shell + 1) + ", 20 })");
      long refs0 = System.nanoTime();
      Object refsMs = lua(nvim, "local uv = vim.uv or vim.loop local t = uv.hrtime() require('nvimpam.ids').references() return (uv.hrtime() - t) / 1e6");
      log.println(String.format(Locale.ROOT, "while :NvimpamRefs waited for the JVM, the longest answer to the second client: %.1f ms",
          probe.maxMs(refs0, System.nanoTime())));
      log.println(String.format(Locale.ROOT, "in Neovim: goto %.1f ms (best of 5), :NvimpamRefs of part %d %.0f ms (%s)", gotoMs, part,
          ((Number) refsMs).doubleValue(), lua(nvim, "return vim.fn.getqflist({ title = 1 }).title")));
      return new double[] {gotoMs, ((Number) refsMs).doubleValue(), stall, idle};
    } finally {
      Files.deleteIfExists(sock);
    }
  }

  /** The jar this bench runs from: the plugin it measures. */
  private static String jar() throws java.net.URISyntaxException {
    return Path.of(IdsBench.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  private static int shellLine(Deck deck, int around) {
    for (int i = around; i < deck.lineCount(); i++) {
      if (LineBytes.startsWith(deck.bytes(i), deck.start(i), deck.contentLength(i), SHELL)) return i;
    }
    throw new IllegalStateException("the deck has no SHELL line after line " + around);
  }

  private static int nodeLine(Deck deck, int around) {
    byte[] node = LineBytes.ascii("NODE  /");
    for (int i = around; i < deck.lineCount(); i++) {
      if (LineBytes.startsWith(deck.bytes(i), deck.start(i), deck.contentLength(i), node)) return i;
    }
    throw new IllegalStateException("the deck has no NODE line after line " + around);
  }

  private static long usedHeap() {
    for (int i = 0; i < 3; i++) System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  public static void print(List<Row> rows, PrintStream out) {
    out.println("| lines | deck MB | definitions | index build ms | index MB | index / deck bytes | check ms | problems | goto max ms (JVM) | refs ms (JVM) | refs | edit+check ms | goto ms (Neovim) | :NvimpamRefs ms (Neovim) | longest stall ms while indexing | longest stall ms, Neovim idle |");
    out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (Row r : rows) {
      out.println(String.format(Locale.ROOT, "| %d | %.0f | %d | %.0f | %.0f | %.3f | %.0f | %d | %.2f | %.0f | %d | %.1f | %.1f | %.0f | %.1f | %.1f |",
          r.lines, r.bytes / 1e6, r.definitions, r.buildMs, r.indexBytes / 1e6, r.ratio, r.checkMs, r.problems, r.gotoMaxMs,
          r.refsMs, r.refs, r.editMs, r.nvimGotoMs, r.nvimRefsMs, r.stallMs, r.idleStallMs));
    }
  }

}
