package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import org.nvimpam.bench.BenchDeck;
import org.nvimpam.bench.BenchProgress;
import org.nvimpam.bench.BenchReport;
import org.nvimpam.bench.BenchResult;
import org.nvimpam.bench.BenchRunner;
import org.nvimpam.bench.PluginRuntime;
import org.nvimpam.bench.ReportFormat;
import org.nvimpam.bench.SvgChart;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.strategy.FoldStrategies;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code bench}: parses the options, then leaves the measuring to {@link BenchRunner}. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Measures every fold strategy in a headless Neovim: for each deck the time to get its lines,"
          + " to parse them into folds, and per strategy the time to apply the folds (median, min, max"
          + " of the runs after warm-up) and the bytes sent, next to the floor: the fastest way found to run"
          + " the same folds' prebuilt commands inside Neovim.",
      "Without decks it runs the bundled example deck and synthetic decks with 1000, 10000 and 100000"
          + " folds, every strategy, 5 runs after 1 warm-up (under a minute on 2 cores).",
      "Progress goes to stderr, results to stdout."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:every strategy measured",
      "1:a strategy failed on a deck (its times are empty), or writing failed",
      "2:bad options, or Neovim could not be started"
    })
public final class BenchCommand implements Callable<Integer> {
  /** Exit code when a strategy failed or a result could not be written. */
  static final int EXIT_FAILED = 1;
  /** Exit code for bad options or a Neovim that does not start. */
  static final int EXIT_USAGE = 2;
  static final List<Integer> DEFAULT_FOLDS = List.of(1_000, 10_000, 100_000);

  @Spec private CommandSpec spec;

  @Parameters(paramLabel = "DECK", arity = "0..*", description = "PAM-CRASH deck files to measure.")
  private List<Path> deckFiles = new ArrayList<>();

  @Option(names = "--folds", split = ",", paramLabel = "N",
      description = "Synthetic decks with exactly N folds each.")
  private List<Integer> folds = new ArrayList<>();

  @Option(names = "--lines", split = ",", paramLabel = "N",
      description = "Realistic synthetic decks of N lines each (fixed seed).")
  private List<Integer> lines = new ArrayList<>();

  @Option(names = "--strategy", split = ",", paramLabel = "NAME", defaultValue = "all",
      description = "all (the default) or strategies among: ${COMPLETION-CANDIDATES}.",
      completionCandidates = StrategyNames.class)
  private List<String> strategies;

  @Option(names = "--runs", paramLabel = "R", defaultValue = "5",
      description = "Measured runs per step (default: ${DEFAULT-VALUE}).")
  private int runs;

  @Option(names = "--warmup", paramLabel = "W", defaultValue = "1",
      description = "Unmeasured runs before them (default: ${DEFAULT-VALUE}).")
  private int warmup;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
      description = "table, csv or json (default: ${DEFAULT-VALUE}).")
  private String format;

  @Option(names = "--out", paramLabel = "FILE", description = "Write the results to FILE instead of stdout.")
  private Path out;

  @Option(names = "--chart", paramLabel = "FILE.svg",
      description = "Also draw the apply time per strategy against the fold count as an SVG chart.")
  private Path chart;

  @Mixin private NvimOption neovim;

  @Option(names = "--nvim-arg", paramLabel = "ARG", description = "An extra argument for Neovim (repeatable).")
  private List<String> nvimArgs = new ArrayList<>();

  @Option(names = "--compat", description = "Compatible mode: unknown card headers start no folds.")
  private boolean compat;

  @Option(names = "--sweep", paramLabel = "NAME=SIZES",
      description = "Tune a size instead of measuring the strategies: pipe=25,50,100, lua=10,20 or viml=10,20 (folds per command line)"
          + " or call-atomic=500,1000 (folds per call); repeatable. Rows are named NAME:SIZE.")
  private List<String> sweeps = new ArrayList<>();

  @Option(names = "--live", description = "Also time a live refold after a one-line edit, from the edit's event"
      + " arriving at the JVM to Neovim's folds matching (row live-edit; no debounce).")
  private boolean live;

  @Option(names = "--floor-row", description = "Also report the floor as a row, named after the way it was measured"
      + " (floor: execute-list, ...), and as rows named inside: NAME the floor's other candidates and Neovim's own"
      + " part of the strategies: running what they receive, with no RPC (inside: split-execute, inside: pipe-lines),"
      + " and answering the requests of call-atomic and per-command encoded beforehand (inside: replay-call-atomic,"
      + " inside: replay-per-command, and paced as per-command paces them, inside: replay-per-command-paced).")
  private boolean floorRow;

  @Option(names = "--peers", description = "Also run pynvim and the Node client doing the same strategies the obvious"
      + " way (bench/peers/ of a checkout; the Node client needs `npm install` there). Rows are named PEER STRATEGY.")
  private boolean peers;

  @Option(names = "--python", paramLabel = "PATH", defaultValue = "python3",
      description = "The Python with pynvim for --peers (default: ${DEFAULT-VALUE}).")
  private String python;

  @Option(names = "--node", paramLabel = "PATH", defaultValue = "node",
      description = "The Node for --peers (default: ${DEFAULT-VALUE}).")
  private String node;

  /** The strategy names, for the help text. */
  static final class StrategyNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return FoldStrategies.names().iterator();
    }
  }

  @Override
  public Integer call() {
    ReportFormat reportFormat = reportFormat();
    List<BenchDeck> decks = decks();
    PrintStream err = System.err;
    BenchProgress progress = new BenchProgress(err, System.console() != null);

    List<BenchResult> results;
    String nvimVersion;
    List<String> failures;
    try (PluginRuntime runtime = PluginRuntime.locate()) {
      BenchRunner.Settings settings = settings(runtime.root());
      Nvim nvim;
      try {
        nvim = Nvim.embed(BenchRunner.nvimArgv(neovim.path, runtime.root(), nvimArgs));
      } catch (IOException e) {
        err.println("bench: cannot start Neovim '" + neovim.path + "': " + e.getMessage());
        err.println("bench: install Neovim (0.7 or later) or name it with --nvim PATH");
        return EXIT_USAGE;
      }
      try (nvim) {
        nvimVersion = nvim.apiInfo().version();
        Path workDir = Files.createTempDirectory("nvimpam-bench");
        try {
          BenchRunner runner = new BenchRunner(nvim, settings, workDir, progress);
          results = runner.run(decks);
          failures = runner.failures();
        } finally {
          Files.deleteIfExists(workDir);
        }
      }
    } catch (ParameterException e) {
      throw e; // bad options: picocli's usage message and exit code
    } catch (IOException | RuntimeException e) {
      progress.done();
      err.println("bench: " + message(e));
      return EXIT_FAILED;
    }

    BenchReport report = new BenchReport(nvimVersion, Runtime.version().toString(), BenchRunner.machine(), results);
    int written = write(report, reportFormat);
    int drawn = chart == null ? 0 : draw(results);
    if (!failures.isEmpty()) {
      err.println("bench: " + failures.size() + " measurement(s) failed:");
      failures.forEach(f -> err.println("  " + f));
      return EXIT_FAILED;
    }
    return Math.max(written, drawn);
  }

  private ReportFormat reportFormat() {
    try {
      return ReportFormat.valueOf(format.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(),
          "unknown --format '" + format + "'; valid formats: table, csv, json");
    }
  }

  private BenchRunner.Settings settings(Path runtimeRoot) {
    if (runs < 1) throw new ParameterException(spec.commandLine(), "--runs must be at least 1, was " + runs);
    if (warmup < 0) throw new ParameterException(spec.commandLine(), "--warmup must be 0 or more, was " + warmup);
    List<String> names = strategies.size() == 1 && strategies.get(0).trim().equals("all")
        ? FoldStrategies.names() : strategies.stream().map(String::trim).toList();
    if (!sweeps.isEmpty()) {
      List<String> swept = new ArrayList<>();
      for (String sweep : sweeps) {
        int eq = sweep.indexOf('=');
        if (eq < 0) throw new ParameterException(spec.commandLine(), "--sweep wants NAME=SIZES, got '" + sweep + "'");
        for (String size : sweep.substring(eq + 1).split(",")) {
          swept.add(sweep.substring(0, eq).trim() + ":" + size.trim());
        }
      }
      names = swept;
    }
    List<BenchRunner.Peer> peerList = new ArrayList<>();
    if (peers) {
      Path dir = runtimeRoot.resolve("bench/peers");
      if (!Files.isRegularFile(dir.resolve("pynvim_peer.py"))) {
        throw new ParameterException(spec.commandLine(), "--peers needs a checkout: no " + dir.resolve("pynvim_peer.py"));
      }
      peerList.add(new BenchRunner.Peer("pynvim", List.of(python, dir.resolve("pynvim_peer.py").toString()), neovim.path));
      peerList.add(new BenchRunner.Peer("node", List.of(node, dir.resolve("node_peer.js").toString()), neovim.path));
    }
    try {
      return new BenchRunner.Settings(names, warmup, runs, compat ? FoldOptions.COMPATIBLE : FoldOptions.GENERIC, live,
          peerList, floorRow);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage() + " (or: all)");
    }
  }

  private List<BenchDeck> decks() {
    List<BenchDeck> decks = new ArrayList<>();
    for (Path f : deckFiles) {
      if (!Files.isRegularFile(f) || !Files.isReadable(f)) {
        throw new ParameterException(spec.commandLine(), "cannot read deck file " + f);
      }
      decks.add(BenchDeck.file(f));
    }
    for (int n : folds) {
      if (n < 1) throw new ParameterException(spec.commandLine(), "--folds must be at least 1, was " + n);
      decks.add(BenchDeck.folds(n));
    }
    for (int n : lines) {
      if (n < 1) throw new ParameterException(spec.commandLine(), "--lines must be at least 1, was " + n);
      decks.add(BenchDeck.lines(n));
    }
    if (decks.isEmpty()) {
      decks.add(BenchDeck.example());
      DEFAULT_FOLDS.forEach(n -> decks.add(BenchDeck.folds(n)));
    }
    return decks;
  }

  /** The report to --out or stdout; 0, or {@link #EXIT_FAILED} after saying why. */
  private int write(BenchReport report, ReportFormat reportFormat) {
    StringBuilder text = new StringBuilder();
    try {
      report.write(reportFormat, text);
    } catch (IOException e) {
      throw new IllegalStateException("a StringBuilder does not fail", e);
    }
    if (out == null) {
      PrintStream stdout = System.out;
      stdout.print(text);
      stdout.flush();
      if (stdout.checkError()) {
        System.err.println("bench: writing to stdout failed");
        return EXIT_FAILED;
      }
      return 0;
    }
    return writeFile(out, text.toString());
  }

  private int draw(List<BenchResult> results) {
    String svg;
    try {
      // The chart compares strategies: no floor, live-edit, peer or sweep rows.
      List<String> shown = FoldStrategies.names();
      svg = SvgChart.render(results.stream().filter(r -> shown.contains(r.strategy())).toList());
    } catch (IllegalArgumentException e) {
      System.err.println("bench: no chart: " + e.getMessage());
      return EXIT_FAILED;
    }
    return writeFile(chart, svg);
  }

  private static int writeFile(Path file, String text) {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write(text);
      return 0;
    } catch (IOException e) {
      System.err.println("bench: cannot write " + file + ": " + message(e));
      return EXIT_FAILED;
    }
  }

  private static String message(Throwable e) {
    Throwable t = e;
    while (t instanceof CompletionException && t.getCause() != null) t = t.getCause();
    String m = t.getMessage();
    return m != null ? m : t.getClass().getSimpleName();
  }
}
