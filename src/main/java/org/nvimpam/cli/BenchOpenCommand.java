package org.nvimpam.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.nvimpam.bench.OpenBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bench-open}: big decks opened end to end through the plugin in a headless Neovim. */
@Command(
    name = "bench-open",
    mixinStandardHelpOptions = true,
    description = {
      "Opens generated decks through the plugin (require('nvimpam').setup{} on this repository's runtime)"
          + " in a headless Neovim and reports, per deck: Neovim's own :edit of the file (same run), open to"
          + " folds in place, the longest time Neovim took to answer a second client (a --listen socket pinged"
          + " every 5 ms), the JVM's RSS (peak and 3 s after the load) and heap, and edit to refold latency: right after the open, while the field checks and the id index are at work, and later;"
          + " and the longest time a refold waited for that work (the buffer's lock), apart from its own cost."
          + " A root whose plugin does not report that wait shows NaN.",
    })
public final class BenchOpenCommand implements Callable<Integer> {
  @Option(names = "--lines", split = ",", paramLabel = "N", defaultValue = "1000000,10000000",
      description = "Deck sizes in lines (default: ${DEFAULT-VALUE}).")
  private List<Long> lines;

  @Mixin private NvimOption neovim;

  @Mixin private RootOption root;

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = "${java.io.tmpdir}",
      description = "Where the decks are written (and kept for the next run).")
  private Path dir;

  @Mixin private JvmArgOption jvmArgs;

  @Option(names = "--edits-at-once", paramLabel = "N", defaultValue = "4",
      description = "Edits made 100 ms apart as soon as the folds are in place (default: ${DEFAULT-VALUE}); more"
          + " of them span more of the checks' and the id index's work after the open.")
  private int editsAtOnce;

  @Option(names = "--edits-later", paramLabel = "N", defaultValue = "5",
      description = "Edits made 400 ms apart 3 s after the open (default: ${DEFAULT-VALUE}): the first, and the median of the others.")
  private int editsLater;

  @Option(names = "--folds", split = ",", paramLabel = "N",
      description = "Instead of --lines: decks with exactly N folds each (as bench --folds makes them).")
  private List<Integer> folds = new ArrayList<>();

  @Option(names = "--load-chunks-kb", split = ",", paramLabel = "KB",
      description = "Instead: time the chunked load alone on the first deck, for these chunk sizes.")
  private List<Integer> chunksKb = new ArrayList<>();

  @Option(names = "--load-in-flight", split = ",", paramLabel = "N", defaultValue = "1,2,3",
      description = "With --load-chunks-kb: chunks in flight (default: ${DEFAULT-VALUE}).")
  private List<Integer> inFlight;

  @Override
  public Integer call() throws Exception {
    java.nio.file.Files.createDirectories(dir); // where the decks are kept: made when new
    if (!chunksKb.isEmpty()) {
      Path file = OpenBench.deck(dir, lines.get(0), System.err);
      org.nvimpam.bench.LoadBench.print(
          org.nvimpam.bench.LoadBench.run(neovim.path, file, chunksKb, inFlight, 5, System.err), System.out);
      return 0;
    }
    OpenBench bench = new OpenBench(neovim.path, root.path.toAbsolutePath(), dir, jvmArgs.args, editsAtOnce, editsLater,
        System.err);
    List<OpenBench.Row> rows = new ArrayList<>();
    if (!folds.isEmpty()) {
      for (int n : folds) rows.add(bench.runFolds(n));
    } else {
      for (long n : lines) rows.add(bench.run(n));
    }
    OpenBench.print(rows, System.out);
    return 0;
  }
}
