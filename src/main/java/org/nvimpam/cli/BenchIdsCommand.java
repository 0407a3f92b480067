package org.nvimpam.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.nvimpam.bench.IdsBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bench-ids}: the id index's scale targets on generated decks. */
@Command(
    name = "bench-ids",
    mixinStandardHelpOptions = true,
    description = {
      "Builds the id index of generated decks in this JVM (heap against the deck's bytes, build, whole"
          + " cross-reference check, goto, references, one edit), then opens each deck through the plugin in a"
          + " headless Neovim and times goto and :NvimpamRefs as a user runs them, and the longest time Neovim"
          + " took to answer a second client (pinged every 5 ms) while the JVM indexed and checked the deck.",
    })
public final class BenchIdsCommand implements Callable<Integer> {
  @Option(names = "--lines", split = ",", paramLabel = "N", defaultValue = "10000000",
      description = "Deck sizes in lines (default: ${DEFAULT-VALUE}).")
  private List<Long> lines;

  @Mixin private NvimOption neovim;

  @Mixin private RootOption root;

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = "${java.io.tmpdir}",
      description = "Where the decks are written (and kept for the next run; bench-open uses the same names).")
  private Path dir;

  @Mixin private JvmArgOption jvmArgs;

  @Override
  public Integer call() throws Exception {
    java.nio.file.Files.createDirectories(dir); // where the decks are kept: made when new
    IdsBench bench = new IdsBench(neovim.path, root.path.toAbsolutePath(), dir, jvmArgs.args, System.err);
    List<IdsBench.Row> rows = new ArrayList<>();
    for (long n : lines) rows.add(bench.run(n));
    IdsBench.print(rows, System.out);
    return 0;
  }
}
