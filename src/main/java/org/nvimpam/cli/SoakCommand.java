package org.nvimpam.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.nvimpam.bench.PluginRuntime;
import org.nvimpam.soak.SoakReport;
import org.nvimpam.soak.SoakRun;
import org.nvimpam.soak.SoakSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code soak}: random edits for a long time, checking the folds, the JVM's heap and threads. */
@Command(
    name = "soak",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Makes random edits in live buffers of a headless Neovim running the plugin (API and normal-mode"
          + " edits, undo, redo, :w, :edit!, window and buffer switches). At every check each buffer must"
          + " be refolded at its changedtick and each window's folds must equal a full parse. The plugin"
          + " JVM's heap after GC (jcmd GC.run, GC.heap_info) and thread count (/proc) are sampled from"
          + " outside.",
      "Progress goes to stderr, the report to stdout."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:every check passed, no error shown, the heap grew less than --max-heap-growth, the threads did not grow",
      "1:a check failed, the plugin showed an error, the heap grew too much or the threads grew",
      "2:bad options, or Neovim or the JVM could not be started"
    })
public final class SoakCommand implements Callable<Integer> {
  @Option(names = "--edits", paramLabel = "N", defaultValue = "10000",
      description = "Random edits to make (default: ${DEFAULT-VALUE}).")
  private int edits;

  @Option(names = "--buffers", paramLabel = "B", defaultValue = "5",
      description = "Live buffers, each a copy of the bundled example deck (default: ${DEFAULT-VALUE}).")
  private int buffers;

  @Option(names = "--windows", paramLabel = "W", defaultValue = "3",
      description = "Windows showing some of them (default: ${DEFAULT-VALUE}).")
  private int windows;

  @Option(names = "--check-every", paramLabel = "N", defaultValue = "100",
      description = "Edits between two checks (default: ${DEFAULT-VALUE}).")
  private int checkEvery;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
      description = "Seed of the random edits (default: ${DEFAULT-VALUE}).")
  private long seed;

  @Option(names = "--max-heap-growth", paramLabel = "PERCENT", defaultValue = "10",
      description = "Largest accepted growth of the heap's floor after GC, from the first third of the run"
          + " to the last (default: ${DEFAULT-VALUE}).")
  private double maxHeapGrowth;

  @Mixin private NvimOption neovim;

  @Option(names = "--jar", paramLabel = "FILE",
      description = "The nvimpam jar the plugin starts (default: this jar, or target/nvimpam.jar of the checkout).")
  private Path jar;

  @Override
  public Integer call() {
    SoakSettings settings;
    try {
      settings = new SoakSettings(edits, buffers, windows, checkEvery, seed, neovim.path, jar(), maxHeapGrowth / 100);
    } catch (IllegalArgumentException | IOException e) {
      System.err.println("nvimpam soak: " + e.getMessage());
      return 2;
    }
    SoakReport report;
    try {
      report = SoakRun.run(settings, System.err);
    } catch (IOException | RuntimeException e) {
      System.err.println("nvimpam soak: " + e.getMessage());
      return 2;
    }
    report.lines().forEach(System.out::println);
    return report.passed() ? 0 : 1;
  }

  private Path jar() throws IOException {
    if (jar != null) {
      return jar.toAbsolutePath();
    }
    var source = SoakCommand.class.getProtectionDomain().getCodeSource();
    try {
      Path self = Path.of(source.getLocation().toURI());
      if (Files.isRegularFile(self)) {
        return self;
      }
    } catch (java.net.URISyntaxException | RuntimeException e) {
      // not run from a jar: look in the checkout below
    }
    try (PluginRuntime runtime = PluginRuntime.locate()) {
      Path built = runtime.root().resolve("target/nvimpam.jar");
      if (!Files.isRegularFile(built)) {
        throw new IOException("no " + built + ": build it with `mvn -q package -DskipTests`, or give --jar");
      }
      return built;
    }
  }
}
