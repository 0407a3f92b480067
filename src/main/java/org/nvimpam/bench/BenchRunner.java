package org.nvimpam.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.nvimpam.deck.Deck;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.plugin.BufferLoad;
import org.nvimpam.strategy.FoldStrategies;
import org.nvimpam.strategy.FoldStrategy;
import org.nvimpam.strategy.StrategyTimer;

/**
 * Runs the headless benchmark: each deck is written to a file and opened in Neovim, then timed
 * from getting its lines, through parsing them into a fold plan, to every strategy applying that
 * plan, plus the in-process floor. One {@link BenchResult} per deck and strategy.
 *
 * <p>A strategy that fails on a deck (an error, or the wrong folds in Neovim) gets a result
 * without times and a line in {@link #failures()}; the other strategies still run.
 */
public final class BenchRunner {
  /**
   * What to measure.
   *
   * @param strategies strategy names, as {@link FoldStrategies#byName} takes them
   * @param warmup runs before the measured ones, for every timed step
   * @param runs measured runs, whose median, minimum and maximum are reported
   * @param foldOptions how folds are computed
   */
  public record Settings(List<String> strategies, int warmup, int runs, FoldOptions foldOptions, boolean live,
      List<Peer> peers, boolean floorRow) {
    public Settings {
      strategies = List.copyOf(strategies);
      peers = List.copyOf(peers);
      Objects.requireNonNull(foldOptions, "foldOptions");
      if (strategies.isEmpty()) {
        throw new IllegalArgumentException("no strategy to measure");
      }
      strategies.forEach(BenchRunner::strategy); // unknown names fail here, with the valid ones listed
      if (runs < 1 || warmup < 0) {
        throw new IllegalArgumentException("need runs >= 1 and warmup >= 0, got " + runs + " and " + warmup);
      }
    }
  }

  /**
   * Another client doing the same strategies the obvious way (bench/peers/): {@code argv} is run
   * with the Neovim, deck file, plan file, strategy names, warm-up and run counts appended.
   */
  public record Peer(String name, List<String> argv, String nvim) {
    public Peer {
      argv = List.copyOf(argv);
    }
  }

  /** The name of the row that times a live refold after a one-line edit ({@link LiveEditTimer}). */
  public static final String LIVE_EDIT = "live-edit";
  /** The prefix of the floor's row; the rest names the fastest way it found. */
  public static final String FLOOR_PREFIX = "floor: ";
  /**
   * The prefix of the rows of --floor-row's other measures inside Neovim: the floor's other
   * candidates and Neovim's own part of the strategies (lua/nvimpam/tools/bench.lua).
   */
  public static final String INSIDE_PREFIX = "inside: ";

  /**
   * A strategy by name, or by {@code NAME:SIZE} for a chunk or batch size other than the default
   * (the sweeps of {@code bench --sweep}).
   */
  static FoldStrategy strategy(String spec) {
    int colon = spec.indexOf(':');
    if (colon < 0) {
      return FoldStrategies.byName(spec);
    }
    int size;
    try {
      size = Integer.parseInt(spec.substring(colon + 1).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad size in '" + spec + "': want NAME:SIZE, e.g. pipe:250");
    }
    return FoldStrategies.withSize(spec.substring(0, colon).trim(), size);
  }

  private final Nvim nvim;
  private final Settings settings;
  private final Path workDir;
  private final BenchProgress progress;
  private final List<String> failures = new ArrayList<>();

  /**
   * @param nvim a Neovim with nvimpam's runtime on its 'runtimepath' (see {@link #nvimArgv})
   * @param workDir where the decks are written for Neovim to open
   */
  public BenchRunner(Nvim nvim, Settings settings, Path workDir, BenchProgress progress) {
    this.nvim = nvim;
    this.settings = settings;
    this.workDir = workDir;
    this.progress = progress;
  }

  /**
   * The command line of a headless, embedded Neovim without user configuration, with {@code
   * runtime} first on its 'runtimepath' and {@code extraArgs} at the end.
   */
  public static List<String> nvimArgv(String nvim, Path runtime, List<String> extraArgs) {
    List<String> argv = new ArrayList<>(List.of(nvim, "--embed", "--headless", "-u", "NONE", "-i", "NONE", "-n",
        "--cmd", "set rtp^=" + optionEscape(runtime.toString())));
    argv.addAll(extraArgs);
    return argv;
  }

  /** A path as a :set value and 'runtimepath' entry: spaces for :set, commas for the list. */
  private static String optionEscape(String path) {
    return path.replace("\\", "\\\\").replace(" ", "\\ ").replace(",", "\\\\,");
  }

  /** The machine, for the report: cores, OS and architecture. */
  public static String machine() {
    return String.format(Locale.ROOT, "%d cores, %s %s", Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.name"), System.getProperty("os.arch"));
  }

  /** Benchmarks each deck in turn. */
  public List<BenchResult> run(List<BenchDeck> decks) throws IOException {
    List<BenchResult> results = new ArrayList<>();
    for (int i = 0; i < decks.size(); i++) {
      BenchDeck deck = decks.get(i);
      progress.deck(i + 1, decks.size(), deck.name());
      results.addAll(run(deck));
    }
    progress.done();
    return results;
  }

  /** What went wrong, one line per failed deck × strategy; empty when everything worked. */
  public List<String> failures() {
    return List.copyOf(failures);
  }

  private List<BenchResult> run(BenchDeck deck) throws IOException {
    byte[] bytes = deck.bytes();
    Path file = Files.createTempFile(workDir, "deck", ".pc");
    try {
      Files.write(file, bytes);
      Await.call(nvim.command("silent! %bwipeout!"), "loading a deck");
      Await.call(nvim.execLua("vim.cmd('silent edit ' .. vim.fn.fnameescape(...))", out -> {
        out.packArrayHeader(1);
        out.packString(file.toString());
      }), "loading a deck");
      Buffer buffer = Await.call(nvim.currentBuffer(), "loading a deck");
      return measure(deck.name(), bytes.length, buffer, file);
    } finally {
      if (!nvim.rpc().isClosed()) {
        // the next deck starts without this one in memory
        Await.call(nvim.command("silent! %bwipeout!"), "loading a deck");
      }
      Files.deleteIfExists(file);
    }
  }

  private List<BenchResult> measure(String deck, long bytes, Buffer buffer, Path file) throws IOException {
    int warmup = settings.warmup();
    int runs = settings.runs();
    double[] getLines = new double[runs];
    Deck lines = null;
    progress.step("get lines");
    for (int r = -warmup; r < runs; r++) {
      long t0 = System.nanoTime();
      lines = BufferLoad.deckOf(nvim, buffer);
      record(getLines, r, t0);
    }
    double[] parse = new double[runs];
    FoldPlan plan = null;
    progress.step("parse");
    for (int r = -warmup; r < runs; r++) {
      long t0 = System.nanoTime();
      plan = FoldParser.parse(lines, settings.foldOptions()).plan(false);
      record(parse, r, t0);
    }
    double getLinesMs = median(getLines);
    double parseMs = median(parse);

    InsideProbe inside = settings.floorRow() ? new InsideProbe(nvim, buffer) : null;
    StrategyTimer timer = inside == null ? new StrategyTimer(nvim, buffer, warmup, runs)
        : new StrategyTimer(nvim, buffer, warmup, runs, inside);
    List<StrategyTimer.Timing> timings = new ArrayList<>();
    List<FoldStrategy> strategies = new ArrayList<>();
    for (String name : settings.strategies()) {
      strategies.add(strategy(name));
    }
    List<StrategyTimer.Outcome> outcomes =
        timer.timeAll(strategies, plan, (s, warm, run, of) -> progress.run(s, warm, run, of));
    for (int i = 0; i < outcomes.size(); i++) {
      String name = settings.strategies().get(i);
      StrategyTimer.Outcome o = outcomes.get(i);
      if (o.failure() == null) {
        StrategyTimer.Timing t = o.timing();
        timings.add(new StrategyTimer.Timing(name, t.folds(), t.medianMs(), t.minMs(), t.maxMs(), t.bytesSent()));
        continue;
      }
      if (nvim.rpc().isClosed()) {
        throw new IllegalStateException("Neovim exited while strategy '" + name + "' ran on " + deck, o.failure());
      }
      String failure = "strategy '" + name + "' failed on " + deck + ": " + message(o.failure());
      failures.add(failure);
      progress.warn(failure);
      timings.add(new StrategyTimer.Timing(name, plan.size(), Double.NaN, Double.NaN, Double.NaN, 0));
    }
    boolean anyTimed = !timings.stream().allMatch(t -> Double.isNaN(t.medianMs()));
    StrategyTimer.Median floor = anyTimed ? timer.floor() : null;
    double floorMs = floor == null ? Double.NaN : floor.ms();
    if (floor != null) {
      progress.note("floor on " + deck + ": " + floor.method() + ", " + String.format(java.util.Locale.ROOT, "%.3f ms",
          floor.ms()) + (settings.floorRow() ? "" : " (the fastest way inside Neovim; --floor-row reports it as a row)"));
      if (settings.floorRow()) {
        timings.add(new StrategyTimer.Timing(FLOOR_PREFIX + floor.method(), plan.size(), floor.ms(), Double.NaN,
            Double.NaN, 0));
        for (StrategyTimer.Median m : inside.rows(timer)) {
          timings.add(new StrategyTimer.Timing(INSIDE_PREFIX + m.method(), plan.size(), m.ms(), Double.NaN,
              Double.NaN, 0));
        }
      }
    }
    if (settings.live()) {
      progress.step(LIVE_EDIT);
      try {
        LiveEditTimer.Timing t = new LiveEditTimer(nvim, buffer, settings.foldOptions()).time(warmup, runs);
        timings.add(new StrategyTimer.Timing(LIVE_EDIT, plan.size(), t.medianMs(), t.minMs(), t.maxMs(), 0));
      } catch (RuntimeException | InterruptedException e) {
        if (e instanceof InterruptedException) Thread.currentThread().interrupt();
        String failure = LIVE_EDIT + " failed on " + deck + ": " + message(e);
        failures.add(failure);
        progress.warn(failure);
      }
    }
    for (Peer peer : settings.peers()) {
      progress.step(peer.name());
      timings.addAll(runPeer(peer, deck, file, plan));
    }
    List<BenchResult> results = new ArrayList<>();
    for (StrategyTimer.Timing t : timings) {
      results.add(new BenchResult(deck, lines.lineCount(), bytes, plan.size(), getLinesMs, parseMs, t.strategy(),
          t.medianMs(), t.minMs(), t.maxMs(), t.bytesSent(), t.strategy().equals(LIVE_EDIT) ? Double.NaN : floorMs));
    }
    return results;
  }

  /** Runs a peer on the same deck and plan; its rows are named "PEER STRATEGY". */
  private List<StrategyTimer.Timing> runPeer(Peer peer, String deck, Path file, FoldPlan plan) throws IOException {
    Path planFile = Files.createTempFile(workDir, "plan", ".txt");
    List<StrategyTimer.Timing> rows = new ArrayList<>();
    try {
      StringBuilder sb = new StringBuilder(plan.size() * 14);
      for (int i = 0; i < plan.size(); i++) {
        sb.append(plan.start(i)).append(' ').append(plan.end(i)).append('\n');
      }
      Files.writeString(planFile, sb);
      List<String> names = settings.strategies().stream().filter(n -> n.indexOf(':') < 0).toList();
      List<String> argv = new ArrayList<>(peer.argv());
      argv.addAll(List.of(peer.nvim(), file.toString(), planFile.toString(), String.join(",", names),
          Integer.toString(settings.warmup()), Integer.toString(settings.runs()),
          Integer.toString(FoldStrategies.defaultSize("pipe")),
          Integer.toString(FoldStrategies.defaultSize("call-atomic"))));
      Process p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      int exit = p.waitFor();
      for (String line : out.split("\n")) {
        String[] f = line.trim().split(" ");
        if (f.length == 4) {
          rows.add(new StrategyTimer.Timing(peer.name() + " " + f[0], plan.size(), Double.parseDouble(f[1]),
              Double.parseDouble(f[2]), Double.parseDouble(f[3]), 0));
        }
      }
      if (exit != 0) {
        String failure = "peer " + peer.name() + " failed on " + deck + " (exit " + exit + "): " + String.join(" ", argv);
        failures.add(failure);
        progress.warn(failure);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while peer " + peer.name() + " ran", e);
    } finally {
      Files.deleteIfExists(planFile);
    }
    return rows;
  }

  private static void record(double[] ms, int run, long t0) {
    long t1 = System.nanoTime();
    if (run >= 0) {
      ms[run] = (t1 - t0) / 1e6;
    }
  }

  private static double median(double[] ms) {
    double[] sorted = ms.clone();
    Arrays.sort(sorted);
    return StrategyTimer.median(sorted);
  }

  /** The innermost message of a (possibly wrapped) exception. */
  private static String message(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && (t.getMessage() == null || t instanceof java.util.concurrent.CompletionException)) {
      t = t.getCause();
    }
    return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
  }
}
