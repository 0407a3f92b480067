package org.nvimpam.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.nvimpam.deck.Deck;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.plugin.BufferLoad;
import org.nvimpam.rpc.ChildProcessTransport;

/**
 * Times {@link BufferLoad} alone for several chunk sizes and pipeline depths, on a deck Neovim has
 * open: how long the whole fetch takes, and the longest time Neovim took to answer a second
 * client meanwhile (each chunk keeps Neovim's main loop busy while it builds the reply).
 */
public final class LoadBench {
  public record Row(int chunkKb, int inFlight, double medianMs, double maxStallMs) {}

  private LoadBench() {}

  public static List<Row> run(String nvimExe, Path file, List<Integer> chunkKb, List<Integer> inFlight, int runs,
      PrintStream log) throws Exception {
    Path sock = file.resolveSibling("nvimpam-load-" + ProcessHandle.current().pid() + ".sock");
    Files.deleteIfExists(sock);
    List<String> argv = new ArrayList<>(ChildProcessTransport.nvimArgv(nvimExe));
    argv.addAll(List.of("--listen", sock.toString()));
    List<Row> rows = new ArrayList<>();
    try (Nvim nvim = Nvim.embed(argv); StallProbe probe = new StallProbe(sock.toString())) {
      nvim.command("edit " + file).get(600, TimeUnit.SECONDS);
      Buffer buf = nvim.currentBuffer().get(10, TimeUnit.SECONDS);
      for (int kb : chunkKb) {
        for (int w : inFlight) {
          BufferLoad.Options o = new BufferLoad.Options(kb << 10, w);
          double[] ms = new double[runs];
          double stall = 0;
          for (int r = -1; r < runs; r++) { // one warm-up
            long t0 = System.nanoTime();
            loadOnce(nvim, buf, o);
            long t1 = System.nanoTime();
            if (r >= 0) {
              ms[r] = (t1 - t0) / 1e6;
              stall = Math.max(stall, probe.maxMs(t0, t1));
            }
            nvim.bufDetach(buf).get(10, TimeUnit.SECONDS); // in order: its detach event is handled before

            System.gc();
          }
          Arrays.sort(ms);
          Row row = new Row(kb, w, ms[runs / 2], stall);
          log.println(row);
          rows.add(row);
        }
      }
    } finally {
      Files.deleteIfExists(sock);
    }
    return rows;
  }

  private static void loadOnce(Nvim nvim, Buffer buf, BufferLoad.Options o) throws Exception {
    CompletableFuture<Deck> done = new CompletableFuture<>();
    BufferLoad.start(nvim, buf, new BufferLoad.Target() {
      @Override
      public void onLoaded(Buffer b, Deck deck, BufferLoad.Stats stats) {
        done.complete(deck);
      }

      @Override
      public void onLoadFailed(Buffer b, Throwable cause, int lines, long deckBytes) {
        done.completeExceptionally(cause);
      }

      @Override
      public void onLines(Buffer b, long tick, int first, int last, Lines data, boolean more) {}
    }, o);
    done.get(600, TimeUnit.SECONDS);
  }

  public static void print(List<Row> rows, PrintStream out) {
    out.println("| chunk KiB | in flight | load ms (median) | longest stall ms |");
    out.println("|---:|---:|---:|---:|");
    for (Row r : rows) {
      out.println(String.format(Locale.ROOT, "| %d | %d | %.0f | %.1f |", r.chunkKb(), r.inFlight(), r.medianMs(),
          r.maxStallMs()));
    }
  }
}
