package org.nvimpam.model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.lines.LineRefs;
import org.nvimpam.lines.LineSource;

/**
 * Offsets or renumbers every id of some kinds across a deck's include tree, from files: each
 * definition and each reference the card-layout table describes (id fields, GES items and
 * ranges, a range split where its new ids are no longer one run) gets its new number, and every
 * other byte of every line stays. The whole tree is checked first (ids that would not fit their
 * fields or be no positive id, references a dense renumber cannot map, lines and fields the table
 * does not describe that may hold a changed id, output files that cannot be written), and only
 * when nothing is refused is anything written: each file to a temporary file beside its target,
 * all moved into place at the end.
 *
 * <p>Passes over each file's bytes, in card-aligned pieces on worker threads: for a dense
 * renumber, the first finds the definitions (their order gives the new ids); then each piece's new
 * bytes are written into memory (for an offset, finding the definitions and the lines the table
 * does not describe on the way).
 *
 * <p>This class reads and writes the tree; {@link RenumberPlanner} finds which ids change and what
 * is refused, {@link RenumberPiece} rewrites the lines, {@link RenumberStream} streams an offset.
 */
public final class Renumber {
  /** Every id of {@code kind} moves by {@code amount} ({@code dense}: becomes {@code amount}, {@code amount + 1}, … in deck order). */
  public record Change(int kind, boolean dense, long amount) {}

  /**
   * A reason to refuse: {@code file} null for the run as a whole; {@code line} and {@code col}
   * 0-based; {@code source} the index of the file in the tree ({@link #plan}'s sources), -1 for the
   * run as a whole.
   */
  public record Refusal(Path file, int line, int col, String message, int source) {
    public Refusal(Path file, int line, int col, String message) {
      this(file, line, col, message, -1);
    }
  }

  /** One file of a tree whose lines are held elsewhere (a buffer's): its file (null when none), lines and version. */
  public record Source(Path path, LineSource lines, int version) {}

  /**
   * Which ids change: all of their kinds ({@link #ALL}); those defined by the cards that hold lines
   * {@code [from, to)} of source {@code source}; or, with {@code parts}, those parts, their elements
   * and their elements' nodes.
   */
  public record Scope(int source, int from, int to, int[] parts) {
    public static final Scope ALL = new Scope(-1, 0, 0, null);
  }

  /**
   * Lines {@code [first, last)} of a source become {@code lines}; {@code changed} of them differ
   * (a hunk may take unchanged lines between changed ones along: {@link Hunks#GAP}).
   */
  public record Hunk(int first, int last, LineSource lines, int changed) {
    public Hunk(int first, int last, byte[][] lines) {
      this(first, last, LineRefs.of(lines), last - first);
    }

    /** The number of new lines. */
    public int count() {
      return lines.lineCount();
    }
  }

  /**
   * What {@link #plan} found: each source's hunks, in line order (to be applied only when nothing
   * is refused), the values changed per change, the refusals.
   */
  public record Plan(List<List<Hunk>> hunks, long[] changed, List<Refusal> refusals) {
    public boolean refused() {
      return !refusals.isEmpty();
    }
  }

  /**
   * What a run did: the tree's files, in include order, and where each went (empty when refused);
   * the values changed per kind of {@link Options#changes}; the refusals, all of them.
   */
  public record Result(Path deck, List<Path> files, List<Path> written, long[] changed, List<Refusal> refusals, long lines) {
    public boolean refused() {
      return !refusals.isEmpty();
    }
  }

  /** {@code outDir}: where the tree goes (its relative paths kept); {@code inPlace}: the deck's own files may be overwritten. */
  public record Options(List<Change> changes, Path outDir, boolean inPlace, int threads) {
    public Options {
      changes = List.copyOf(changes);
      if (threads < 1) throw new IllegalArgumentException("threads: " + threads);
    }
  }

  /**
   * The change of {@code kindName}, or why there is none: a name {@code KINDS} does not list, or
   * group (named by titles).
   */
  public static Change change(String kindName, long amount, boolean dense) {
    int kind = IdKinds.code(kindName);
    if (kind == 0) {
      throw new IllegalArgumentException("no id kind \"" + kindName + "\" (the kinds: " + String.join(", ", CardLayouts.KINDS) + ")");
    }
    if (IdKinds.named(kind)) {
      throw new IllegalArgumentException("groups are named by their titles, not numbered: there is nothing to renumber");
    }
    if (dense && (amount < 1 || amount > Integer.MAX_VALUE)) {
      throw new IllegalArgumentException("the first new " + kindName + " id must be a positive id, not " + amount);
    }
    return new Change(kind, dense, amount);
  }

  static final String TAG = "renumber"; // names its temporary files

  private final Options options;
  private final RenumberPlanner ids;

  public Renumber(Options options, TreeCheck.Progress progress) {
    this.options = options;
    this.ids = new RenumberPlanner(options, progress);
  }

  /**
   * Renumbers the tree of {@code deck}. A deck that cannot be read throws why; a failed read or
   * write of a file found readable throws (and leaves no file written).
   */
  public Result run(Path deck) throws IncludeFiles.Unreadable, IOException {
    Path root = deck.toAbsolutePath().normalize();
    IncludeFiles.readable(root);
    if (options.changes().stream().noneMatch(Change::dense)) return new RenumberStream(ids).stream(root);
    List<Refusal> refusals = new ArrayList<>();
    List<RenumberFile> files = readTree(root, refusals);
    long lines = 0;
    for (RenumberFile f : files) lines += f.deck.lineCount();
    ids.targets(files, refusals);
    long[] changed = ids.rewrite(files, refusals);
    List<Path> paths = new ArrayList<>();
    for (RenumberFile f : files) paths.add(f.path);
    if (!refusals.isEmpty()) return new Result(root, paths, List.of(), changed, refusals, lines);
    return new Result(root, paths, write(files), changed, List.of(), lines);
  }

  /**
   * The changes of the tree {@code sources} (its root first, each file once) within {@code scope},
   * as hunks of new lines per source; nothing is written. The checks are those of {@link #run},
   * and the new ids of a scope must not be ids defined outside it.
   */
  public Plan plan(List<Source> sources, Scope scope) throws IOException {
    ids.scope = scope;
    List<RenumberFile> files = new ArrayList<>();
    for (Source s : sources) {
      RenumberFile f = new RenumberFile(s.path(), s.lines(), true, true);
      f.index = files.size();
      f.version = s.version();
      files.add(f);
    }
    List<Refusal> refusals = new ArrayList<>();
    long[] changed = ids.rewrite(files, refusals);
    List<List<Hunk>> hunks = new ArrayList<>();
    for (RenumberFile f : files) hunks.add(RenumberPiece.hunks(f)); // also when refused: where a change would go may be refused too
    return new Plan(hunks, changed, refusals);
  }

  private List<RenumberFile> readTree(Path root, List<Refusal> refusals) throws IOException {
    List<RenumberFile> files = new ArrayList<>();
    RenumberFile top = read(root);
    top.version = DeckVersion.readAs(top.deck, 0, ids.table.newestVersion());
    files.add(top);
    TreeWalk.walk(top, files, new TreeWalk.Members<RenumberFile>() {
      @Override
      public Path path(RenumberFile f) {
        return f.path;
      }

      @Override
      public List<IncludeLine> includes(RenumberFile f) {
        return IncludeLine.of(f.deck);
      }

      @Override
      public RenumberFile open(Path p) throws IOException {
        RenumberFile f = read(p);
        f.version = DeckVersion.readAs(f.deck, top.version);
        return f;
      }

      @Override
      public void problem(RenumberFile in, IncludeLine at, ProblemCode code, String message) {
        refusals.add(new Refusal(in.path, at.line(), at.from(), message + ": the ids of the tree cannot all be renumbered without it"));
      }
    });
    return files;
  }

  private RenumberFile read(Path p) throws IOException {
    long size = Files.size(p);
    Deck d = DeckFile.read(p, DeckFile.estimateLines(p, size), size);
    if (ids.progress != null) ids.progress.read(p, size, d.lineCount());
    return new RenumberFile(p, d, FileBytes.lastTerminated(p, size), false);
  }

  /** Writes every file to a temporary file beside its target, then moves them all into place. */
  private static List<Path> write(List<RenumberFile> files) throws IOException {
    List<Path> targets = new ArrayList<>();
    for (RenumberFile f : files) targets.add(f.target);
    return TreeWrite.write(targets, TAG, (i, o) -> {
      for (RenumberPiece p : files.get(i).pieces) o.write(p.out.a, 0, p.out.size);
    });
  }
}
