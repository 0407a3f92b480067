package org.nvimpam.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.nvimpam.bench.OpenBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bench-open}: big decks opened end to end through the plugin in a headless Neovim. */
@Command(
    name = "bench-open",
    mixinStandardHelpOptions = true,
    description = {
      "Opens generated decks through the plugin (require('nvimpam').setup{} on this repository's runtime)"
          + " in a headless Neovim and reports, per deck: Neovim's own :edit of the file (same run), open to"
          + " folds in place, the longest time Neovim took to answer a second client (a --listen socket pinged"
          + " every 5 ms), the JVM's RSS (peak and 3 s after the load) and heap, and edit to refold latency.",
    })
public final class BenchOpenCommand implements Callable<Integer> {
  @Option(names = "--lines", split = ",", paramLabel = "N", defaultValue = "1000000,10000000",
      description = "Deck sizes in lines (default: ${DEFAULT-VALUE}).")
  private List<Long> lines;

  @Option(names = "--nvim", paramLabel = "PATH", defaultValue = "nvim", description = "Neovim executable.")
  private String nvim;

  @Option(names = "--root", paramLabel = "DIR", defaultValue = ".",
      description = "The plugin's root (lua/, target/nvimpam.jar); default: the current directory.")
  private Path root;

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = "${java.io.tmpdir}",
      description = "Where the decks are written (and kept for the next run).")
  private Path dir;

  @Option(names = "--jvm-arg", paramLabel = "ARG", description = "A jvm_args entry for setup{}; repeatable.")
  private List<String> jvmArgs = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    OpenBench bench = new OpenBench(nvim, root.toAbsolutePath(), dir, jvmArgs, System.err);
    List<OpenBench.Row> rows = new ArrayList<>();
    for (long n : lines) rows.add(bench.run(n));
    OpenBench.print(rows, System.out);
    return 0;
  }
}
