package org.nvimpam.model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.ids.RenamePlan;
import org.nvimpam.lines.LineSource;
import org.nvimpam.model.MergeOutput.ControlSection;
import org.nvimpam.model.MergeOutput.Output;
import org.nvimpam.model.MergeTree.Src;

/**
 * Merges decks into one model: each deck's include tree is written under a folder of its own in
 * the output folder (its relative paths kept), with the ids of every kind moved by an offset per
 * deck ({@link Renumber}) so that no two decks define the same id, and a master deck holds the
 * first deck's control section and an INCLU line per deck. The other decks' control sections
 * (the lines before their first card, and the control cards up to the first other card) are left
 * out and listed; group titles a deck shares with an earlier one get a suffix ({@link
 * RenamePlan}, every reference with them); INCLU names that would no longer reach their file (an
 * absolute name, one leaving the deck's folder, one found through the top deck's folder) are
 * rewritten, the file copied under the deck's folder when it lay outside it.
 *
 * <p>Everything is checked before anything is written to the output folder: decks of different
 * INPUTVERSION or UNIT, clashing ids, values that no longer fit their fields, files that cannot be
 * written. Each deck is offset from a staging copy of its tree in a temporary folder (removed at
 * the end), where its INCLU names are already rewritten, so that the offset sees the tree as it
 * will be; the output files are then written beside their targets and moved into place. {@link
 * #plan} merges trees whose lines are held elsewhere (Neovim's buffers) the same way, in memory,
 * and returns the output files' bytes instead of writing them.
 *
 * <p>This class runs the steps: {@link MergeReader} reads each deck's tree ({@link MergeTree}),
 * {@link MergePlanner} plans the offsets, titles and places and finds what is refused, {@link
 * MergeOffset} offsets each tree, {@link MergeOutput} makes and writes the output files.
 */
public final class Merge {
  /** The master deck's name in the output folder. */
  public static final String MASTER = "master.pc";

  /**
   * {@code steps}: per kind, the step of an explicit offset (deck k, counting from 0, moves by
   * {@code k * step}); the other kinds get automatic offsets.
   */
  public record Options(List<Path> decks, Path outDir, Map<Integer, Long> steps, int threads) {
    public Options {
      decks = List.copyOf(decks);
      steps = Map.copyOf(steps);
      if (threads < 1) throw new IllegalArgumentException("threads: " + threads);
    }
  }

  /** A deck of the merge: its top file, its folder in the output, and its offset by kind (index: kind code). */
  public record Member(Path deck, Path folder, long[] offsets, boolean[] auto) {}

  /** A group title of {@code deck} given another. */
  public record Renamed(Path deck, String from, String to) {}

  /** A control card or control line of {@code file} (0-based {@code line}) left out. */
  public record LeftOut(Path file, int line, String text) {}

  /** A file outside its deck's folder, copied to {@code to}. */
  public record Copied(Path from, Path to) {}

  /** One file of a deck's tree whose lines are held elsewhere (a buffer's, or a file as read), for {@link #plan}. */
  public record Source(Path path, LineSource lines, int version, boolean lastTerminated) {}

  /**
   * A deck's tree for {@link #plan}: its files in include order, the top file first, each once;
   * {@code problems}: the INCLU lines that could not be followed.
   */
  public record Input(List<Source> files, List<Renumber.Refusal> problems) {}

  /** One file of the merged tree: where it goes, its bytes, and the deck and file (indexes) it comes from (the master: 0, 0). */
  public record Produced(Path target, byte[] bytes, int deck, int file) {}

  /** What {@link #plan} found: the result (nothing written), and when nothing is refused the files, the master first. */
  public record Plan(Result result, List<Produced> files) {}

  /** What a merge did, or why it refused (then nothing was written). */
  public record Result(List<Member> members, Path master, List<Renamed> renamed, List<LeftOut> leftOut, List<Copied> copied,
      List<Path> written, List<Renumber.Refusal> refusals) {
    public boolean refused() {
      return !refusals.isEmpty();
    }
  }

  // read by the steps (MergeReader, MergePlanner, MergeOffset, MergeOutput)
  final Options options;
  final TreeCheck.Progress progress;
  final CardLayouts table = CardLayouts.bundled();
  final int nk = IdKinds.NAMES.size();
  private final MergeReader reader = new MergeReader(this);
  private final MergePlanner planner = new MergePlanner(this);
  private final MergeOffset offset = new MergeOffset(this);
  private final MergeOutput output = new MergeOutput(this);

  public Merge(Options options, TreeCheck.Progress progress) {
    this.options = options;
    this.progress = progress;
  }

  /** Merges the decks. A deck that cannot be read throws why; a failed read or write throws (and leaves no output file written). */
  public Result run() throws IncludeFiles.Unreadable, IOException {
    List<Renumber.Refusal> refusals = new ArrayList<>();
    List<MergeTree> trees = new ArrayList<>();
    Set<String> folders = new HashSet<>();
    for (Path d : options.decks()) {
      Path top = d.toAbsolutePath().normalize();
      IncludeFiles.readable(top);
      MergeTree t = new MergeTree(trees.size(), top, options.outDir());
      t.folder = unique(stem(top.getFileName().toString()), folders);
      reader.read(t, refusals);
      trees.add(t);
    }
    return merge(trees, refusals, null);
  }

  /**
   * Merges the trees {@code decks} (the first one's control section kept) as {@link #run} merges
   * decks from files, {@link Options#decks} aside: the same checks (an output file that exists
   * among them), the same bytes, returned instead of written.
   */
  public Plan plan(List<Input> decks) throws IOException {
    List<Renumber.Refusal> refusals = new ArrayList<>();
    List<MergeTree> trees = new ArrayList<>();
    Set<String> folders = new HashSet<>();
    for (Input in : decks) {
      Source first = in.files().get(0);
      MergeTree t = new MergeTree(trees.size(), first.path().toAbsolutePath().normalize(), options.outDir());
      t.folder = unique(stem(t.top.getFileName().toString()), folders);
      for (Source s : in.files()) {
        Src f = new Src(s.path().toAbsolutePath().normalize(), s.lines());
        f.version = s.version();
        f.terminated = s.lastTerminated();
        t.files.add(f);
      }
      t.declared = DeckVersion.declared(first.lines());
      for (Renumber.Refusal x : in.problems()) {
        t.complete = false;
        refusals.add(new Renumber.Refusal(x.file(), x.line(), x.col(), x.message() + ": the deck cannot be merged without it"));
      }
      reader.definitions(t);
      trees.add(t);
    }
    List<Produced> files = new ArrayList<>();
    Result r = merge(trees, refusals, files);
    return new Plan(r, r.refused() ? List.of() : files);
  }

  /** The merge of the trees read: written, or with {@code produced} (a plan) kept in memory and added there. */
  private Result merge(List<MergeTree> trees, List<Renumber.Refusal> refusals, List<Produced> produced) throws IOException {
    Path out = options.outDir().toAbsolutePath().normalize();
    MergePlanner.sameSettings(trees, refusals);
    planner.offsets(trees);
    planner.clashes(trees, refusals);
    MergePlanner.titles(trees);
    List<Copied> copied = new ArrayList<>();
    for (MergeTree t : trees) {
      MergePlanner.places(t, copied);
      planner.rewrites(t, refusals);
    }
    MergePlanner.targets(trees, out, refusals);
    List<Member> members = new ArrayList<>();
    for (MergeTree t : trees) members.add(new Member(t.top, t.outFolder(), t.offsets.clone(), t.auto.clone()));
    List<Renamed> renamed = new ArrayList<>();
    for (MergeTree t : trees) {
      for (Map.Entry<String, String> e : t.renames.entrySet()) renamed.add(new Renamed(t.top, e.getKey(), e.getValue()));
    }
    boolean complete = trees.stream().allMatch(x -> x.complete);
    if (!complete) return new Result(members, out.resolve(MASTER), renamed, List.of(), copied, List.of(), refusals);
    if (produced != null) {
      for (MergeTree t : trees) offset.offset(t, refusals);
      List<LeftOut> left = new ArrayList<>();
      List<Output> outputs = new ArrayList<>();
      ControlSection first = null;
      for (MergeTree t : trees) {
        if (t.files.get(0).result == null) continue; // its offset refused: nothing to finish
        ControlSection c = output.finish(t, outputs, left, refusals);
        if (t.index == 0) first = c;
      }
      if (!refusals.isEmpty()) return new Result(members, out.resolve(MASTER), renamed, left, copied, List.of(), refusals);
      produced.add(new Produced(out.resolve(MASTER), MergeOutput.master(trees, first, out), 0, 0));
      for (Output x : outputs) produced.add(new Produced(x.target(), x.bytes(), x.src()[0], x.src()[1]));
      return new Result(members, out.resolve(MASTER), renamed, left, copied, List.of(), List.of());
    }
    Path stage = Files.createTempDirectory("nvimpam-merge");
    try {
      for (MergeTree t : trees) {
        offset.stage(t, stage.resolve("in"));
        offset.offset(t, stage.resolve("out"), refusals);
      }
      List<LeftOut> left = new ArrayList<>();
      List<Output> outputs = new ArrayList<>();
      ControlSection first = null;
      for (MergeTree t : trees) {
        if (t.files.get(0).current == null) continue; // its offset refused: nothing to finish
        ControlSection c = output.finish(t, outputs, left, refusals);
        if (t.index == 0) first = c;
      }
      if (!refusals.isEmpty()) return new Result(members, out.resolve(MASTER), renamed, left, copied, List.of(), refusals);
      outputs.add(0, new Output(out.resolve(MASTER), MergeOutput.master(trees, first, out), null, null));
      return new Result(members, out.resolve(MASTER), renamed, left, copied, MergeOutput.write(outputs), List.of());
    } finally {
      MergeOutput.delete(stage);
    }
  }

  /**
   * One line of what a merge reports: {@code file} and {@code line} (0-based; -1: the file only)
   * where it is, {@code text} what follows them.
   */
  public record Note(Path file, int line, String text) {
    /** As the headless merge prints it: {@code FILE[:LINE]: TEXT}, paths {@link #shown} from {@code cwd}. */
    public String print(Path cwd) {
      return shown(file, cwd) + (line >= 0 ? ":" + (line + 1) : "") + ": " + text;
    }
  }

  /** What a merge reports, refusals aside: each deck's offsets, the groups renamed, the control lines left out, the files copied. */
  public static List<Note> notes(Result r, Path cwd) {
    List<Note> out = new ArrayList<>();
    for (Member m : r.members()) out.add(new Note(m.deck(), -1, offsets(m, cwd)));
    for (Renamed x : r.renamed()) out.add(new Note(x.deck(), -1, "group '" + x.from() + "' renamed '" + x.to() + "'"));
    for (LeftOut x : r.leftOut()) out.add(new Note(x.file(), x.line(), "left out: " + x.text()));
    for (Copied x : r.copied()) out.add(new Note(x.from(), -1, "copied to " + shown(x.to(), cwd)));
    return out;
  }

  /** The offsets of a deck: {@code node +20000 (auto), part +100}, or none. */
  private static String offsets(Member m, Path cwd) {
    StringBuilder s = new StringBuilder();
    for (int k = 1; k < m.offsets().length; k++) {
      if (m.offsets()[k] == 0) continue;
      if (s.length() > 0) s.append(", ");
      s.append(IdKinds.name(k)).append(' ').append(m.offsets()[k] > 0 ? "+" : "").append(m.offsets()[k]).append(m.auto()[k] ? " (auto)" : "");
    }
    return (s.length() == 0 ? "ids kept" : "offsets " + s) + ", into " + shown(m.folder(), cwd);
  }

  /** A path as given: relative to the folder {@code cwd} (absolute) when it lies in it. */
  public static String shown(Path p, Path cwd) {
    Path a = p.toAbsolutePath().normalize();
    return a.startsWith(cwd) && !a.equals(cwd) ? cwd.relativize(a).toString() : a.toString();
  }

  /**
   * The step of {@code spec}, {@code KIND=N} (an {@code --offset} word that is not auto), or why it
   * is none.
   */
  public static Renumber.Change step(String spec) {
    int eq = spec.indexOf('=');
    if (eq <= 0) throw new IllegalArgumentException("\"" + spec + "\" is neither auto nor KIND=N");
    long amount;
    try {
      amount = Long.parseLong(spec.substring(eq + 1).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("\"" + spec + "\": " + spec.substring(eq + 1) + " is no integer");
    }
    if (amount < 1) throw new IllegalArgumentException("\"" + spec + "\": the step of an offset must be 1 or more");
    return Renumber.change(spec.substring(0, eq).trim(), amount, false);
  }

  /** The next multiple of {@code max}'s leading power of ten above it: 10626 → 20000, 9 → 10. */
  static long roundAbove(long max) {
    long p = 1;
    while (p <= max / 10) p *= 10;
    return (max / p + 1) * p;
  }

  private static String stem(String name) {
    int dot = name.lastIndexOf('.');
    String s = dot > 0 ? name.substring(0, dot) : name;
    return s.isEmpty() ? "deck" : s;
  }

  private static String unique(String name, Set<String> taken) {
    String n = name;
    for (int k = 2; !taken.add(n.toLowerCase(Locale.ROOT)); k++) n = name + "_" + k;
    return n;
  }
}
