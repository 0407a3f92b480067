package org.nvimpam.bench;

import static org.nvimpam.bench.BenchCalls.WAIT_S;
import static org.nvimpam.bench.BenchCalls.get;
import static org.nvimpam.bench.BenchCalls.lua;

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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.Encoders;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.ChildProcessTransport;

/**
 * Page-by-page scrolling of generated decks in a 120x50 embedded Neovim with a UI attached, with
 * nvimpam (cells on, and cells off) and without it (Neovim alone, on the same file, in the same
 * run): the time of each {@code <C-f>} and {@code :redraw}, measured inside Neovim
 * (resource {@code cells.lua}), as milliseconds per page, the median over rounds of each round's
 * mean. The smallest deck is scrolled from its top, every other from 90% of its lines ("deep").
 *
 * <p>The UI is this connection, attached with {@code ext_linegrid} and {@code rgb} as a terminal
 * UI is, and it drains what Neovim sends without decoding it. Neovim headless without a UI also
 * draws its grid, but sends nothing: the cost of turning a redraw into {@code grid_line} events,
 * which cells add to (more highlight runs per row), would be missing. Both sides get the same UI.
 */
public final class CellsBench {
  /** One deck's figures: ms per page for each side. */
  public record Row(long lines, long bytes, long from, double aloneMs, double cellsOffMs, double cellsMs,
      double linesPerPage) {}

  public static final int WIDTH = 120;
  public static final int HEIGHT = 50;
  private static final String FOLDED = "return " + LuaEntry.FOLDS_APPLIED_TICK.expression("0") + " == vim.b.changedtick";

  private final String nvimExe;
  private final Path root;
  private final Path dir;
  private final String jar;
  private final int pages;
  private final int rounds;
  private final PrintStream log;
  private final String scroll;

  /**
   * @param root the plugin's checkout (lua/, syntax/, ftdetect/ on 'runtimepath')
   * @param jar the jar for {@code setup{ jar = ... }}, or null for the plugin's default
   */
  public CellsBench(String nvimExe, Path root, Path dir, String jar, int pages, int rounds, PrintStream log)
      throws IOException {
    this.nvimExe = nvimExe;
    this.root = root;
    this.dir = dir;
    this.jar = jar;
    this.pages = pages;
    this.rounds = rounds;
    this.log = log;
    try (InputStream in = CellsBench.class.getResourceAsStream("cells.lua")) {
      if (in == null) throw new IOException("no resource org/nvimpam/bench/cells.lua in the jar");
      this.scroll = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The deck of {@code lines} lines (seed 1), written to the directory unless already there. */
  public Path deck(long lines) throws IOException {
    Path file = dir.resolve("nvimpam-gen-" + lines + ".pc");
    if (!Files.exists(file)) {
      log.println("writing " + file);
      Path tmp = dir.resolve(file.getFileName() + ".part");
      try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
        new DeckGenerator(1).write(out, lines);
      }
      Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
    return file;
  }

  /** Scrolls the deck of {@code lines} lines from line {@code from} on both sides. */
  public Row run(long lines, long from) throws Exception {
    Path file = deck(lines);
    log.println("opening " + file + " (" + lines + " lines) in Neovim alone and with nvimpam");
    try (Nvim alone = start(false); Nvim plugin = start(true)) {
      get(alone.command("edit " + file));
      openWithPlugin(plugin, file);
      String ft = String.valueOf(lua(plugin, "return vim.bo.filetype"));
      if (!ft.equals("pamcrash")) throw new IllegalStateException("the deck opened as filetype '" + ft + "', not pamcrash");
      // one round each to warm up, not counted
      scrollRound(alone, from);
      scrollRound(plugin, from);
      double[] aloneMs = new double[rounds];
      double[] offMs = new double[rounds];
      double[] onMs = new double[rounds];
      long drawn = 0;
      for (int r = 0; r < rounds; r++) {
        // alternating, and in another order each round
        boolean offFirst = r % 2 == 0;
        aloneMs[r] = scrollRound(alone, from).ms();
        lua(plugin, "vim.cmd('NvimpamCells " + (offFirst ? "off" : "on") + "')");
        Round first = scrollRound(plugin, from);
        lua(plugin, "vim.cmd('NvimpamCells " + (offFirst ? "on" : "off") + "')");
        Round second = scrollRound(plugin, from);
        Round on = offFirst ? second : first;
        offMs[r] = (offFirst ? first : second).ms();
        onMs[r] = on.ms();
        drawn += on.cellLines();
        log.println(String.format(Locale.ROOT, "round %d: alone %.3f, cells off %.3f, cells on %.3f ms/page",
            r + 1, aloneMs[r], offMs[r], onMs[r]));
      }
      double linesPerPage = (double) drawn / ((long) rounds * pages);
      if (drawn <= 0) throw new IllegalStateException("the cells looked at no line: the numbers would be of nothing");
      return new Row(lines, Files.size(file), from, median(aloneMs), median(offMs), median(onMs), linesPerPage);
    }
  }

  /** A Neovim with a 120x50 UI attached: with the plugin's runtime on 'runtimepath', or bare. */
  private Nvim start(boolean withPlugin) throws IOException {
    List<String> argv = new ArrayList<>(ChildProcessTransport.nvimArgv(nvimExe));
    if (withPlugin) argv.addAll(List.of("--cmd", "set rtp^=" + root));
    Nvim nvim = Nvim.embed(argv);
    try {
      AtomicLong flushes = new AtomicLong();
      // drained, not decoded: a UI that keeps up, like a terminal's
      nvim.rpc().onNotification("redraw", params -> flushes.incrementAndGet());
      get(nvim.call("nvim_ui_attach", Encoders.args(WIDTH, HEIGHT, Map.of("ext_linegrid", true, "rgb", true)),
          Decoders.nil()));
      return nvim;
    } catch (Exception e) {
      nvim.close();
      throw e instanceof IOException io ? io : new IOException("attaching a UI failed: " + e.getMessage(), e);
    }
  }

  private void openWithPlugin(Nvim nvim, Path file) throws Exception {
    lua(nvim, "vim.cmd('filetype on') vim.cmd('syntax on')");
    String options = jar == null ? "{}" : "{ jar = '" + jar.replace("\\", "\\\\").replace("'", "\\'") + "' }";
    lua(nvim, LuaEntry.SETUP.expression(options));
    get(nvim.command("edit " + file));
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
    while (!Boolean.TRUE.equals(lua(nvim, FOLDED))) {
      if (System.nanoTime() > end) throw new IllegalStateException("no folds within " + WAIT_S + " s");
      Thread.sleep(20);
    }
    lua(nvim, "vim.cmd('normal! zR')");
  }

  /** One round: the mean ms per page, and the lines the cells looked at (-1 without nvimpam). */
  private record Round(double ms, long cellLines) {}

  private Round scrollRound(Nvim nvim, long from) throws Exception {
    List<?> r = (List<?>) get(nvim.execLua(scroll, Encoders.args(from, pages)));
    double sum = 0;
    for (int i = 0; i < pages; i++) sum += ((Number) r.get(i)).doubleValue();
    long top = ((Number) r.get(pages)).longValue();
    if (top <= from) throw new IllegalStateException("the window did not scroll: top line " + top + " after " + pages + " pages from " + from);
    return new Round(sum / pages, ((Number) r.get(pages + 1)).longValue());
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /** The figures as a Markdown table, then the ratios against their targets. */
  public static void print(List<Row> rows, String nvimVersion, int pages, int rounds, PrintStream out) {
    out.println(String.format(Locale.ROOT, "Neovim %s, %dx%d UI, %d pages a round, median of %d rounds", nvimVersion,
        WIDTH, HEIGHT, pages, rounds));
    out.println();
    out.println("| deck lines | MB | from line | Neovim alone ms/page | nvimpam, cells off ms/page "
        + "| nvimpam, cells on ms/page | cells on / alone | lines the cells drew per page |");
    out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Row r : rows) {
      out.println(String.format(Locale.ROOT, "| %,d | %d | %,d | %.3f | %.3f | %.3f | %.2f× | %.1f |", r.lines(),
          Math.round(r.bytes() / 1e6), r.from(), r.aloneMs(), r.cellsOffMs(), r.cellsMs(), r.cellsMs() / r.aloneMs(),
          r.linesPerPage()));
    }
    out.println();
    Row first = rows.get(0);
    for (Row r : rows.subList(1, rows.size())) {
      double ratio = r.cellsMs() / first.cellsMs();
      out.println(String.format(Locale.ROOT, "deep %,d / top %,d, cells on: %.2f× (target at most 1.2×: %s);"
          + " Neovim alone: %.2f×; the cells' own part (cells on minus off): %.3f / %.3f ms, %.2f×", r.lines(),
          first.lines(), ratio, ratio <= 1.2 ? "met" : "NOT met", r.aloneMs() / first.aloneMs(),
          r.cellsMs() - r.cellsOffMs(), first.cellsMs() - first.cellsOffMs(),
          (r.cellsMs() - r.cellsOffMs()) / (first.cellsMs() - first.cellsOffMs())));
    }
    for (Row r : rows) {
      out.println(String.format(Locale.ROOT, "cells on, %,d lines: %.3f ms per page (target at most 1 ms: %s)", r.lines(),
          r.cellsMs(), r.cellsMs() <= 1.0 ? "met" : "NOT met"));
    }
  }
}
