package org.nvimpam.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.nvimpam.bench.ColdStartBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bench-cold}: a deck opened as a new user opens it, the JVM started by the open. */
@Command(
    name = "bench-cold",
    mixinStandardHelpOptions = true,
    description = {
      "Opens a deck in a fresh headless Neovim per run (setup{} defaults, :edit) and times :edit to folds in"
          + " place, the JVM started by that open; checkouts given with --root run in turn. Prints the floors"
          + " next to it: Neovim's own :edit without the plugin, and the bare start of a JVM with the plugin's"
          + " flags.",
    })
public final class BenchColdCommand implements Callable<Integer> {
  @Option(names = "--root", paramLabel = "DIR", defaultValue = ".", split = ",",
      description = "Plugin roots (lua/, target/nvimpam.jar) to compare, in turn (default: the current directory).")
  private List<Path> roots;

  @Option(names = "--deck", paramLabel = "FILE",
      description = "The deck to open (default: the bundled example.pc of the first root).")
  private Path deck;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "10", description = "Runs per root (default: ${DEFAULT-VALUE}).")
  private int runs;

  @Option(names = "--trace", description = "Also time the phases of each start (JVM start, connection, early read,"
      + " attach, push) from the plugin's start trace.")
  private boolean trace;

  @Mixin private NvimOption neovim;

  @Override
  public Integer call() throws Exception {
    Path d = deck != null ? deck : roots.get(0).resolve("src/main/resources/decks/example.pc");
    ColdStartBench.print(new ColdStartBench(neovim.path, System.err).run(roots, d, Math.max(1, runs), trace), System.out);
    return 0;
  }
}
