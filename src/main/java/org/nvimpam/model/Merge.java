package org.nvimpam.model;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.deck.RowWalker;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdNames;
import org.nvimpam.ids.IdScanner;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.ids.IncludeWalk;
import org.nvimpam.ids.IntList;
import org.nvimpam.ids.RenamePlan;
import org.nvimpam.lines.LineSource;
import org.nvimpam.lines.Lines;

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

  private static final byte[] UNIT = LineBytes.ascii("UNIT");
  private static final long INCLU = LineBytes.headerWord(LineBytes.ascii("INCLU /"), 0, 7);

  private final Options options;
  private final TreeCheck.Progress progress;
  private final CardLayouts table = CardLayouts.bundled();
  private final int nk = IdKinds.NAMES.size();

  public Merge(Options options, TreeCheck.Progress progress) {
    this.options = options;
    this.progress = progress;
  }

  /** One file of a deck's tree. */
  private static final class Src {
    final Path path;
    LineSource deck; // until the tree is staged
    int version;
    boolean terminated = true; // a file's last line ends with a line feed (for a plan)
    Lines result; // after the offset (for a plan)
    Path rel; // its place under the deck's folder
    boolean outside;
    final List<Rewrite> rewrites = new ArrayList<>();
    Path staged; // the tree's copy the offset reads
    Path current; // the file holding its bytes after the offset

    Src(Path path, LineSource deck) {
      this.path = path;
      this.deck = deck;
    }
  }

  /** An INCLU line whose name becomes {@code name}, written as {@code lines} (no line ends); it took {@code span} lines. */
  private record Rewrite(IncludeLine at, int span, String name, byte[][] lines) {}

  /** One deck's tree. */
  private final class Tree {
    final int index;
    final Path top;
    final List<Src> files = new ArrayList<>();
    boolean complete = true;
    int declared = -1; // INPUTVERSION
    String units; // the UNIT line's words
    int unitsLine;
    final int[][] defs = new int[nk][]; // by kind: the defined ids, ascending, unique
    final List<String> titles = new ArrayList<>(); // the group titles it defines, in order
    final long[] offsets = new long[nk];
    final boolean[] auto = new boolean[nk];
    final Map<String, String> renames = new LinkedHashMap<>();
    String folder;

    Tree(int index, Path top) {
      this.index = index;
      this.top = top;
    }

    Path outFolder() {
      return options.outDir().toAbsolutePath().normalize().resolve(folder);
    }
  }

  /** Merges the decks. A deck that cannot be read throws why; a failed read or write throws (and leaves no output file written). */
  public Result run() throws IncludeFiles.Unreadable, IOException {
    List<Renumber.Refusal> refusals = new ArrayList<>();
    List<Tree> trees = new ArrayList<>();
    Set<String> folders = new HashSet<>();
    for (Path d : options.decks()) {
      Path top = d.toAbsolutePath().normalize();
      IncludeFiles.readable(top);
      Tree t = new Tree(trees.size(), top);
      t.folder = unique(stem(top.getFileName().toString()), folders);
      read(t, refusals);
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
    List<Tree> trees = new ArrayList<>();
    Set<String> folders = new HashSet<>();
    for (Input in : decks) {
      Source first = in.files().get(0);
      Tree t = new Tree(trees.size(), first.path().toAbsolutePath().normalize());
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
      definitions(t);
      trees.add(t);
    }
    List<Produced> files = new ArrayList<>();
    Result r = merge(trees, refusals, files);
    return new Plan(r, r.refused() ? List.of() : files);
  }

  /** The merge of the trees read: written, or with {@code produced} (a plan) kept in memory and added there. */
  private Result merge(List<Tree> trees, List<Renumber.Refusal> refusals, List<Produced> produced) throws IOException {
    Path out = options.outDir().toAbsolutePath().normalize();
    sameSettings(trees, refusals);
    offsets(trees);
    clashes(trees, refusals);
    titles(trees);
    List<Copied> copied = new ArrayList<>();
    for (Tree t : trees) {
      places(t, copied);
      rewrites(t, refusals);
    }
    targets(trees, out, refusals);
    List<Member> members = new ArrayList<>();
    for (Tree t : trees) members.add(new Member(t.top, t.outFolder(), t.offsets.clone(), t.auto.clone()));
    List<Renamed> renamed = new ArrayList<>();
    for (Tree t : trees) {
      for (Map.Entry<String, String> e : t.renames.entrySet()) renamed.add(new Renamed(t.top, e.getKey(), e.getValue()));
    }
    boolean complete = trees.stream().allMatch(x -> x.complete);
    if (!complete) return new Result(members, out.resolve(MASTER), renamed, List.of(), copied, List.of(), refusals);
    if (produced != null) {
      for (Tree t : trees) offset(t, refusals);
      List<LeftOut> left = new ArrayList<>();
      List<Output> outputs = new ArrayList<>();
      ControlSection first = null;
      for (Tree t : trees) {
        if (t.files.get(0).result == null) continue; // its offset refused: nothing to finish
        ControlSection c = finish(t, outputs, left, refusals);
        if (t.index == 0) first = c;
      }
      if (!refusals.isEmpty()) return new Result(members, out.resolve(MASTER), renamed, left, copied, List.of(), refusals);
      produced.add(new Produced(out.resolve(MASTER), master(trees, first, out), 0, 0));
      for (Output x : outputs) produced.add(new Produced(x.target(), x.bytes(), x.src()[0], x.src()[1]));
      return new Result(members, out.resolve(MASTER), renamed, left, copied, List.of(), List.of());
    }
    Path stage = Files.createTempDirectory("nvimpam-merge");
    try {
      for (Tree t : trees) {
        stage(t, stage.resolve("in"));
        offset(t, stage.resolve("out"), refusals);
      }
      List<LeftOut> left = new ArrayList<>();
      List<Output> outputs = new ArrayList<>();
      ControlSection first = null;
      for (Tree t : trees) {
        if (t.files.get(0).current == null) continue; // its offset refused: nothing to finish
        ControlSection c = finish(t, outputs, left, refusals);
        if (t.index == 0) first = c;
      }
      if (!refusals.isEmpty()) return new Result(members, out.resolve(MASTER), renamed, left, copied, List.of(), refusals);
      outputs.add(0, new Output(out.resolve(MASTER), master(trees, first, out), null, null));
      return new Result(members, out.resolve(MASTER), renamed, left, copied, write(outputs), List.of());
    } finally {
      delete(stage);
    }
  }

  // --- reading

  private void read(Tree t, List<Renumber.Refusal> refusals) throws IOException {
    Src top = file(t.top);
    t.declared = DeckVersion.declared(top.deck);
    top.version = t.declared > 0 ? t.declared : table.newestVersion();
    t.files.add(top);
    try {
      IncludeWalk.walk(top, new IncludeWalk.Members<Src>() {
        @Override
        public Path path(Src f) {
          return f.path;
        }

        @Override
        public List<IncludeLine> includes(Src f) {
          return IncludeLine.of(f.deck);
        }

        @Override
        public Src open(Path p) throws IncludeFiles.Unreadable {
          IncludeFiles.readable(p);
          Src f;
          try {
            f = file(p);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          int v = DeckVersion.declared(f.deck);
          f.version = v > 0 ? v : top.version;
          t.files.add(f);
          return f;
        }

        @Override
        public void problem(Src in, IncludeLine at, IncludeLine via, ProblemCode code, String message) {
          t.complete = false;
          refusals.add(new Renumber.Refusal(in.path, at.line(), at.from(), message + ": the deck cannot be merged without it"));
        }
      });
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
    definitions(t);
  }

  /** The ids and group titles the tree defines, and its units. */
  private void definitions(Tree t) {
    IntList[] ids = new IntList[nk];
    IdScanner sc = new IdScanner(table);
    for (Src f : t.files) {
      sc.scan(f.deck, 0, f.deck.lineCount(), f.version, false, (line, a, b, kind, lo, hi, def) -> {
        if (IdKinds.named(kind)) {
          String title = IdNames.text(lo);
          if (!t.titles.contains(title)) t.titles.add(title);
          return;
        }
        if (ids[kind] == null) ids[kind] = new IntList();
        ids[kind].add(lo);
      });
    }
    for (int k = 0; k < nk; k++) t.defs[k] = ids[k] == null ? new int[0] : sortedUnique(ids[k]);
    units(t, t.files.get(0).deck);
  }

  private Src file(Path p) throws IOException {
    long size = Files.size(p);
    Deck d = DeckFile.read(p, DeckFile.estimateLines(p, size), size);
    if (progress != null) progress.read(p, size, d.lineCount());
    return new Src(p, d);
  }

  private static int[] sortedUnique(IntList l) {
    int[] s = Arrays.copyOf(l.a, l.size);
    Arrays.sort(s);
    int u = 0;
    for (int i = 0; i < s.length; i++) {
      if (i == 0 || s[i] != s[i - 1]) s[u++] = s[i];
    }
    return Arrays.copyOf(s, u);
  }

  /** The UNIT line before the first card, its words as one string. */
  private static void units(Tree t, LineSource src) {
    int n = Math.min(DeckVersion.SCAN_LINES, src.lineCount());
    for (int i = 0; i < n; i++) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int len = src.contentLength(i);
      if (LineBytes.headerWord(a, off, len) != 0) return;
      if (LineBytes.startsWith(a, off, len, UNIT) && (len == UNIT.length || a[off + UNIT.length] == ' ')) {
        t.units = new String(a, off + UNIT.length, len - UNIT.length, StandardCharsets.ISO_8859_1).trim().replaceAll(" +", " ")
            .toUpperCase(Locale.ROOT);
        t.unitsLine = i;
        return;
      }
    }
  }

  // --- checks and plans

  /** Decks that declare another INPUTVERSION or other units than the first that declares them. */
  private static void sameSettings(List<Tree> trees, List<Renumber.Refusal> refusals) {
    Tree v = null;
    Tree u = null;
    for (Tree t : trees) {
      if (t.declared > 0) {
        if (v == null) v = t;
        else if (t.declared != v.declared) {
          refusals.add(new Renumber.Refusal(t.top, 0, 0, t.top.getFileName() + " declares INPUTVERSION " + t.declared + ", "
              + v.top.getFileName() + " INPUTVERSION " + v.declared + ": decks of different versions are not merged"));
        }
      }
      if (t.units != null) {
        if (u == null) u = t;
        else if (!t.units.equals(u.units)) {
          refusals.add(new Renumber.Refusal(t.top, t.unitsLine, 0, t.top.getFileName() + " is in units " + t.units + ", "
              + u.top.getFileName() + " in " + u.units + ": decks of different units are not merged"));
        }
      }
    }
  }

  /** Each deck's offset per kind: the explicit steps, else the next round number above the earlier decks' ids. */
  private void offsets(List<Tree> trees) {
    for (int k = 1; k < nk; k++) {
      if (IdKinds.named(k)) continue;
      Long step = options.steps().get(k);
      long max = 0; // the highest id the earlier decks define, after their offsets
      for (Tree t : trees) {
        int[] d = t.defs[k];
        if (step != null) {
          t.offsets[k] = t.index * step;
        } else if (d.length > 0 && max > 0 && d[0] <= max) {
          t.offsets[k] = roundAbove(max);
          t.auto[k] = true;
        }
        if (d.length > 0) max = Math.max(max, d[d.length - 1] + t.offsets[k]);
      }
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

  /** Ids two decks define after their offsets, per kind and pair of decks, as runs. */
  private void clashes(List<Tree> trees, List<Renumber.Refusal> refusals) {
    for (int k = 1; k < nk; k++) {
      for (int j = 1; j < trees.size(); j++) {
        Tree b = trees.get(j);
        for (int i = 0; i < j; i++) {
          Tree a = trees.get(i);
          IntList both = common(a.defs[k], a.offsets[k], b.defs[k], b.offsets[k]);
          if (both.size == 0) continue;
          refusals.add(new Renumber.Refusal(null, 0, 0, both.size + " " + IdKinds.name(k) + " id" + (both.size == 1 ? "" : "s") + " of "
              + b.top.getFileName() + " (offset " + b.offsets[k] + ") " + (both.size == 1 ? "is" : "are") + " defined by "
              + a.top.getFileName() + " (offset " + a.offsets[k] + ") too: " + runs(both) + " (choose another --offset "
              + IdKinds.name(k) + "=N, or auto)"));
        }
      }
    }
  }

  /** The values of {@code x + dx} that are also values of {@code y + dy}. */
  private static IntList common(int[] x, long dx, int[] y, long dy) {
    IntList out = new IntList();
    int i = 0;
    int j = 0;
    while (i < x.length && j < y.length) {
      long a = x[i] + dx;
      long b = y[j] + dy;
      if (a < b) i++;
      else if (a > b) j++;
      else {
        if (a <= Integer.MAX_VALUE) out.add((int) a);
        i++;
        j++;
      }
    }
    return out;
  }

  /** Ascending ids as runs {@code a:b}, the first 8 of them. */
  private static String runs(IntList v) {
    StringBuilder sb = new StringBuilder();
    int n = 0;
    for (int k = 0; k < v.size;) {
      int e = k;
      while (e + 1 < v.size && v.a[e + 1] == v.a[e] + 1) e++;
      if (n == 8) return sb.append(" …").toString();
      if (n++ > 0) sb.append(' ');
      sb.append(v.a[k]);
      if (e > k) sb.append(':').append(v.a[e]);
      k = e + 1;
    }
    return sb.toString();
  }

  /** New titles for the group titles an earlier deck defines too: the first free {@code TITLE_N}. */
  private static void titles(List<Tree> trees) {
    Set<String> taken = new HashSet<>();
    for (Tree t : trees) taken.addAll(t.titles);
    Set<String> seen = new HashSet<>();
    for (Tree t : trees) {
      for (String title : t.titles) {
        if (!seen.contains(title)) continue;
        int n = 2;
        while (taken.contains(title + "_" + n)) n++;
        t.renames.put(title, title + "_" + n);
        taken.add(title + "_" + n);
      }
      seen.addAll(t.titles);
    }
  }

  /** Each file's place under its deck's folder: its path in the deck's folder, else {@code outside/NAME}. */
  private static void places(Tree t, List<Copied> copied) {
    Path dir = t.top.getParent();
    Set<Path> used = new HashSet<>();
    for (Src f : t.files) {
      Path rel = dir.relativize(f.path);
      if (!rel.startsWith("..") && !rel.isAbsolute()) {
        f.rel = rel;
        used.add(rel);
      }
    }
    for (Src f : t.files) {
      if (f.rel != null) continue;
      f.outside = true;
      String name = f.path.getFileName().toString();
      Path rel = Path.of("outside", name);
      for (int n = 2; used.contains(rel); n++) {
        int dot = name.lastIndexOf('.');
        rel = Path.of("outside", dot > 0 ? name.substring(0, dot) + "_" + n + name.substring(dot) : name + "_" + n);
      }
      used.add(rel);
      f.rel = rel;
      copied.add(new Copied(f.path, t.outFolder().resolve(rel)));
    }
  }

  /**
   * The INCLU names that would not reach their file in the output as the solver looks for it (in
   * the including file's folder first): rewritten relative to that folder.
   */
  private void rewrites(Tree t, List<Renumber.Refusal> refusals) {
    Path rootDir = t.top.getParent();
    Map<Path, Src> byPath = new HashMap<>();
    for (Src f : t.files) byPath.put(f.path, f);
    for (Src f : t.files) {
      for (IncludeLine il : IncludeLine.of(f.deck)) {
        Path p = IncludeWalk.resolve(il.name(), f.path.getParent(), rootDir);
        Src target = p == null ? null : byPath.get(p);
        if (target == null) continue; // refused by the walk
        Path from = t.outFolder().resolve(f.rel).getParent();
        Path to = t.outFolder().resolve(target.rel);
        Path named;
        try {
          named = Path.of(il.name());
        } catch (java.nio.file.InvalidPathException e) {
          named = null;
        }
        if (named != null && !named.isAbsolute() && from.resolve(named).normalize().equals(to)) continue;
        String name = from.relativize(to).toString().replace('\\', '/');
        if (name.indexOf(' ') >= 0 && il.from() + name.length() + 2 > 80) { // a continued name's pieces are trimmed
          refusals.add(new Renumber.Refusal(f.path, il.line(), il.from(), "the include name " + name + " holds blanks and does not fit one line"));
          continue;
        }
        int span = 1;
        while (IncludeLine.continued(f.deck, il.line() + span - 1) && il.line() + span < f.deck.lineCount()) span++;
        f.rewrites.add(new Rewrite(il, span, name, inclu(f.deck, il, name)));
      }
    }
  }

  /** Output files that exist already or cannot be written. */
  private static void targets(List<Tree> trees, Path out, List<Renumber.Refusal> refusals) {
    List<Path> all = new ArrayList<>();
    all.add(out.resolve(MASTER));
    for (Tree t : trees) {
      for (Src f : t.files) all.add(t.outFolder().resolve(f.rel));
    }
    for (Path p : all) {
      if (Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        refusals.add(new Renumber.Refusal(null, 0, 0, p + " exists already: merge writes no file over another (choose an empty OUTDIR)"));
        continue;
      }
      String why = TreeWrite.unwritable(p);
      if (why != null) refusals.add(new Renumber.Refusal(null, 0, 0, p + " cannot be written: " + why));
    }
  }

  // --- the offset, from a staging copy

  /** The deck's tree in {@code dir/FOLDER}, INCLU names rewritten; the other files linked (or copied). */
  private void stage(Tree t, Path dir) throws IOException {
    Path base = dir.resolve(t.folder);
    for (Src f : t.files) {
      f.deck = null; // the offset reads the staged files
      f.staged = base.resolve(f.rel);
      Files.createDirectories(f.staged.getParent());
      if (f.rewrites.isEmpty()) {
        try {
          Files.createSymbolicLink(f.staged, f.path);
        } catch (UnsupportedOperationException | IOException e) {
          Files.copy(f.path, f.staged);
        }
        continue;
      }
      Lines l = Lines.split(Files.readAllBytes(f.path));
      try (OutputStream o = Files.newOutputStream(f.staged)) {
        o.write(rewritten(l, f.rewrites, FileBytes.lastTerminated(f.path, Files.size(f.path))));
      }
    }
  }

  /** The file's bytes with its INCLU names rewritten. */
  private static byte[] rewritten(LineSource l, List<Rewrite> rewrites, boolean lastTerminated) {
    Out o = new Out();
    int next = 0;
    for (Rewrite r : rewrites) {
      int line = r.at().line();
      for (int i = next; i < line; i++) o.line(l, i, lastTerminated);
      byte[] a = l.bytes(line);
      int off = l.start(line);
      byte[] cr = Arrays.copyOfRange(a, off + l.contentLength(line), off + l.length(line));
      for (int k = 0; k < r.lines().length; k++) {
        o.put(r.lines()[k]);
        o.put(cr);
        if (k + 1 < r.lines().length || !(line + r.span() == l.lineCount() && !lastTerminated)) o.nl();
      }
      next = line + r.span();
    }
    for (int i = next; i < l.lineCount(); i++) o.line(l, i, lastTerminated);
    return o.bytes();
  }

  /**
   * INCLU line {@code il} of {@code src} naming {@code name} instead: the bytes before the old name
   * kept, the name (in the old one's quotes) where the old one began, continued past column 80 on
   * lines of their own with {@code &} in column 81.
   */
  private static byte[][] inclu(LineSource src, IncludeLine il, String name) {
    byte[] a = src.bytes(il.line());
    int off = src.start(il.line());
    int from = il.from();
    byte q = a[off + from] == '"' || a[off + from] == '\'' ? a[off + from] : 0;
    byte[] n = (q == 0 ? name : (char) q + name + (char) q).getBytes(StandardCharsets.UTF_8);
    List<byte[]> out = new ArrayList<>();
    int p = 0;
    int at = from;
    do {
      int e = Math.min(n.length, p + 80 - at);
      byte[] l = new byte[e < n.length ? 81 : at + e - p];
      Arrays.fill(l, (byte) ' ');
      if (out.isEmpty()) System.arraycopy(a, off, l, 0, from);
      System.arraycopy(n, p, l, at, e - p);
      if (e < n.length) l[80] = '&';
      out.add(l);
      p = e;
      at = 0;
    } while (p < n.length);
    return out.toArray(new byte[0][]);
  }

  /** Offsets the staged tree into {@code dir/FOLDER}; a deck with no offset is used as staged. */
  private void offset(Tree t, Path dir, List<Renumber.Refusal> refusals) throws IOException {
    List<Renumber.Change> changes = new ArrayList<>();
    for (int k = 1; k < nk; k++) {
      if (t.offsets[k] != 0 && t.defs[k].length > 0) changes.add(new Renumber.Change(k, false, t.offsets[k]));
    }
    if (changes.isEmpty()) {
      for (Src f : t.files) f.current = f.staged;
      return;
    }
    Renumber.Result r;
    try {
      r = new Renumber(new Renumber.Options(changes, dir.resolve(t.folder), false, options.threads()), progress).run(t.files.get(0).staged);
    } catch (IncludeFiles.Unreadable e) {
      throw new IOException(t.files.get(0).staged + " " + e.getMessage(), e);
    }
    Map<Path, Src> byStaged = new HashMap<>();
    for (Src f : t.files) byStaged.put(f.staged, f);
    for (Renumber.Refusal x : r.refusals()) {
      Src f = x.file() == null ? null : byStaged.get(x.file());
      refusals.add(f == null ? new Renumber.Refusal(t.top, 0, 0, x.message())
          : new Renumber.Refusal(f.path, original(f, x.line()), x.col(), x.message()));
    }
    for (int i = 0; i < r.written().size(); i++) byStaged.get(r.files().get(i)).current = r.written().get(i);
  }

  /** Offsets the tree in memory, its INCLU names rewritten first, as {@link Renumber#plan} changes it: each file's {@code result}. */
  private void offset(Tree t, List<Renumber.Refusal> refusals) throws IOException {
    List<Renumber.Source> sources = new ArrayList<>();
    for (Src f : t.files) {
      LineSource staged = f.rewrites.isEmpty() ? f.deck : Lines.split(rewritten(f.deck, f.rewrites, f.terminated));
      sources.add(new Renumber.Source(f.path, staged, f.version));
    }
    List<Renumber.Change> changes = new ArrayList<>();
    for (int k = 1; k < nk; k++) {
      if (t.offsets[k] != 0 && t.defs[k].length > 0) changes.add(new Renumber.Change(k, false, t.offsets[k]));
    }
    Renumber.Plan p = changes.isEmpty() ? null
        : new Renumber(new Renumber.Options(changes, null, false, options.threads()), progress).plan(sources, Renumber.Scope.ALL);
    if (p != null && p.refused()) {
      for (Renumber.Refusal x : p.refusals()) {
        Src f = x.source() < 0 ? null : t.files.get(x.source());
        refusals.add(f == null ? new Renumber.Refusal(t.top, 0, 0, x.message())
            : new Renumber.Refusal(f.path, original(f, x.line()), x.col(), x.message()));
      }
      return;
    }
    for (int i = 0; i < t.files.size(); i++) {
      t.files.get(i).result = patched(sources.get(i).lines(), p == null ? List.of() : p.hunks().get(i));
    }
  }

  /** {@code src} with the hunks' lines in place of theirs, as a copy. */
  private static Lines patched(LineSource src, List<Renumber.Hunk> hunks) {
    int n = src.lineCount();
    long bytes = 0;
    for (int i = 0; i < n; i++) bytes += src.length(i);
    Lines.Builder b = new Lines.Builder(n + 8, (int) Math.min(Integer.MAX_VALUE - 64, bytes + 64));
    int next = 0;
    for (Renumber.Hunk h : hunks) {
      for (int i = next; i < h.first(); i++) b.add(src.bytes(i), src.start(i), src.length(i));
      for (byte[] l : h.lines()) b.add(l, 0, l.length);
      next = h.last();
    }
    for (int i = next; i < n; i++) b.add(src.bytes(i), src.start(i), src.length(i));
    return b.build();
  }

  /** The line of the original file that staged line {@code line} comes from. */
  private static int original(Src f, int line) {
    int shift = 0;
    for (Rewrite r : f.rewrites) {
      int staged = r.at().line() + shift;
      int lines = r.lines().length;
      if (line < staged) break;
      if (line < staged + lines) return r.at().line();
      shift += lines - r.span();
    }
    return line - shift;
  }

  // --- renames, control sections, output

  /**
   * The control section of a deck's top file: lines {@code [0, end)} but those {@code kept} (INCLU
   * cards); {@code listed}: its lines that name what is left out (the lines before the first card
   * that are no comment, the header line of each control card).
   */
  private record ControlSection(Lines lines, int end, boolean[] kept, IntList listed) {}

  /** One output file: its bytes, or the file they are in; {@code src} the deck and file it comes from. */
  private record Output(Path target, byte[] bytes, Path from, int[] src) {}

  /**
   * The deck's files as they go out: renamed group titles, the top file without its control
   * section (the first deck's goes to the master); the others as the offset wrote them.
   */
  private ControlSection finish(Tree t, List<Output> outputs, List<LeftOut> left, List<Renumber.Refusal> refusals) throws IOException {
    ControlSection section = null;
    for (int n = 0; n < t.files.size(); n++) {
      Src f = t.files.get(n);
      Path target = t.outFolder().resolve(f.rel);
      int[] from = {t.index, n};
      boolean top = n == 0;
      if (!top && t.renames.isEmpty()) {
        outputs.add(f.result != null ? new Output(target, bytes(f.result, null, f.terminated), null, from) : new Output(target, null, f.current, from));
        continue;
      }
      boolean terminated = f.result != null ? f.terminated : FileBytes.lastTerminated(f.current, Files.size(f.current));
      Lines src = renamed(f, f.result != null ? f.result : Lines.split(Files.readAllBytes(f.current)), t.renames, refusals);
      if (top) {
        section = section(src);
        if (t.index > 0) {
          for (int k = 0; k < section.listed().size; k++) {
            int i = section.listed().a[k];
            left.add(new LeftOut(f.path, i, new String(src.bytes(i), src.start(i), src.contentLength(i), StandardCharsets.ISO_8859_1).trim()));
          }
        }
      }
      outputs.add(new Output(target, bytes(src, top ? section : null, terminated), null, from));
    }
    return section;
  }

  /**
   * {@code src} with its group titles renamed, each as {@link RenamePlan} renames one: one scan
   * finds the cards that name a title being renamed, and the plans read those cards only (a
   * refused plan is made again on the whole file, whose line numbers its message gives).
   */
  private Lines renamed(Src f, Lines src, Map<String, String> renames, List<Renumber.Refusal> refusals) {
    if (renames.isEmpty()) return src;
    Set<Integer> titles = new HashSet<>();
    for (String t : renames.keySet()) titles.add(IdNames.intern(t));
    boolean[] hits = new boolean[src.lineCount()];
    boolean[] any = {false};
    IdScanner sc = new IdScanner(table);
    Lines all = src;
    sc.scan(src, 0, src.lineCount(), f.version, true, IdKinds.bit(IdKinds.GROUP), (line, a, b, kind, lo, hi, def) -> {
      if (kind != IdKinds.GROUP || !titles.contains(lo) || hits[line]) return;
      Arrays.fill(hits, IdScanner.cardStart(all, line), IdScanner.cardEnd(all, line + 1), true);
      any[0] = true;
    });
    if (!any[0]) return src;
    int[] lines = indices(hits);
    for (Map.Entry<String, String> e : renames.entrySet()) {
      long key = IdKinds.key(IdKinds.GROUP, IdNames.intern(e.getKey()));
      RenamePlan plan = RenamePlan.make(new Picked(src, lines), f.version, sc, key, e.getValue());
      if (plan.refusal() != null) {
        plan = RenamePlan.make(src, f.version, sc, key, e.getValue());
        refusals.add(new Renumber.Refusal(f.path, 0, 0, "group '" + e.getKey() + "' cannot become '" + e.getValue() + "': " + plan.refusal()));
        continue;
      }
      if (plan.count() == 0) continue;
      src = applied(src, plan, lines);
      if (plan.addCount() > 0) lines = indices(shifted(lines, plan, src.lineCount()));
    }
    return src;
  }

  /** Lines {@code lines} of {@code src}, in order. */
  private record Picked(Lines src, int[] lines) implements LineSource {
    @Override
    public int lineCount() {
      return lines.length;
    }

    @Override
    public byte[] bytes(int i) {
      return src.bytes(lines[i]);
    }

    @Override
    public int start(int i) {
      return src.start(lines[i]);
    }

    @Override
    public int length(int i) {
      return src.length(lines[i]);
    }
  }

  private static int[] indices(boolean[] picked) {
    IntList l = new IntList();
    for (int i = 0; i < picked.length; i++) {
      if (picked[i]) l.add(i);
    }
    return Arrays.copyOf(l.a, l.size);
  }

  /** The lines picked after the plan, in a file of {@code count} lines: those of {@code lines}, and those the plan adds. */
  private static boolean[] shifted(int[] lines, RenamePlan p, int count) {
    boolean[] out = new boolean[count];
    int added = 0;
    int k = 0;
    for (int i = 0; i < lines.length; i++) {
      out[lines[i] + added] = true;
      for (; k < p.addCount() && p.addAt()[k] == i; k++) {
        for (int x = 0; x < p.adds()[k].length; x++) out[lines[i] + ++added] = true;
      }
    }
    return out;
  }

  /**
   * The control section of a top file: the lines before its first card, and its control cards
   * after them (each up to its last line that is no comment), up to the first card that is none.
   * INCLU cards are kept where they are.
   */
  private ControlSection section(Lines src) {
    int n = src.lineCount();
    boolean[] kept = new boolean[n];
    IntList listed = new IntList();
    RowWalker w = new RowWalker(table);
    int i = 0;
    int end = 0;
    while (i < n) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int len = src.contentLength(i);
      long word = LineBytes.headerWord(a, off, len);
      if (word == 0) {
        i++;
        if (!LineBytes.isComment(a, off, len) && !LineBytes.isBlank(a, off, len)) {
          end = i;
          listed.add(i - 1);
        }
        continue;
      }
      int g = w.groupAt(src, i);
      if (g < 0 || !"Control".equals(table.entry(table.group(g)[0]).category())) break;
      int next = w.skipCard(src, i);
      int last = next;
      while (last > i + 1 && (LineBytes.isComment(src.bytes(last - 1), src.start(last - 1), src.contentLength(last - 1))
          || LineBytes.isBlank(src.bytes(last - 1), src.start(last - 1), src.contentLength(last - 1)))) last--;
      if (word == INCLU) { // kept where it is, and no end of the section
        Arrays.fill(kept, i, last, true);
      } else {
        listed.add(i);
        end = last;
      }
      i = next;
    }
    return new ControlSection(src, end, kept, listed);
  }

  /** {@code src} with the plan's edits and added lines; the plan's line {@code i} is line {@code lines[i]}. */
  private static Lines applied(Lines src, RenamePlan p, int[] lines) {
    Lines.Builder b = new Lines.Builder(src.lineCount() + 8, 64 * src.lineCount() + 64);
    int e = 0;
    int add = 0;
    for (int i = 0; i < src.lineCount(); i++) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int raw = src.length(i);
      if (e < p.count() && lines[p.at()[3 * e]] == i) {
        Out o = new Out();
        int pos = 0;
        while (e < p.count() && lines[p.at()[3 * e]] == i) {
          int s = p.at()[3 * e + 1];
          o.put(Arrays.copyOfRange(a, off + pos, off + s));
          o.put(p.texts()[e]);
          pos = p.at()[3 * e + 2];
          e++;
        }
        o.put(Arrays.copyOfRange(a, off + pos, off + raw));
        byte[] l = o.bytes();
        b.add(l, 0, l.length);
      } else {
        b.add(a, off, raw);
      }
      while (add < p.addCount() && lines[p.addAt()[add]] == i) {
        byte[] cr = Arrays.copyOfRange(a, off + src.contentLength(i), off + raw);
        for (byte[] l : p.adds()[add]) {
          byte[] x = Arrays.copyOf(l, l.length + cr.length);
          System.arraycopy(cr, 0, x, l.length, cr.length);
          b.add(x, 0, x.length);
        }
        add++;
      }
    }
    return b.build();
  }

  /** The file's bytes, the lines of {@code drop}'s control section that are not kept left out. */
  private static byte[] bytes(LineSource src, ControlSection drop, boolean terminated) {
    Out o = new Out();
    for (int i = 0; i < src.lineCount(); i++) {
      if (drop != null && i < drop.end() && !drop.kept()[i]) continue;
      o.line(src, i, terminated);
    }
    return o.bytes();
  }

  /** The first deck's control section, then an INCLU line per deck (in the first deck's line ending). */
  private static byte[] master(List<Tree> trees, ControlSection c, Path out) {
    Out o = new Out();
    byte[] cr = new byte[0];
    if (c != null) {
      Lines l = c.lines();
      for (int i = 0; i < c.end(); i++) {
        if (c.kept()[i]) continue;
        o.put(l.bytes(i), l.start(i), l.length(i));
        o.nl();
      }
      if (l.lineCount() > 0 && l.length(0) > l.contentLength(0)) cr = new byte[] {'\r'};
    }
    for (Tree t : trees) {
      String name = out.relativize(t.outFolder().resolve(t.files.get(0).rel)).toString().replace('\\', '/');
      o.put(("INCLU / " + name).getBytes(StandardCharsets.UTF_8));
      o.put(cr);
      o.nl();
    }
    return o.bytes();
  }

  /** Writes every output to a temporary file beside its target, then moves them all into place. */
  private static List<Path> write(List<Output> outputs) throws IOException {
    List<Path> temps = new ArrayList<>();
    List<Path> written = new ArrayList<>();
    try {
      for (Output x : outputs) {
        Files.createDirectories(x.target().getParent());
        Path tmp = x.target().resolveSibling("." + x.target().getFileName() + ".nvimpam-merge");
        temps.add(tmp);
        if (x.bytes() != null) {
          try (OutputStream o = Files.newOutputStream(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            o.write(x.bytes());
          }
        } else {
          Files.copy(x.from(), tmp, StandardCopyOption.REPLACE_EXISTING);
        }
      }
      for (int i = 0; i < outputs.size(); i++) {
        Files.move(temps.get(i), outputs.get(i).target(), StandardCopyOption.ATOMIC_MOVE);
        written.add(outputs.get(i).target());
      }
      temps.clear();
    } finally {
      for (Path t : temps) Files.deleteIfExists(t);
    }
    return written;
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
        Files.delete(d);
        return FileVisitResult.CONTINUE;
      }
    });
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

  /** A growable byte array. */
  private static final class Out {
    byte[] a = new byte[256];
    int size;

    void put(byte[] b) {
      put(b, 0, b.length);
    }

    void put(byte[] b, int off, int n) {
      if (n <= 0) return;
      if (size + n > a.length) a = Arrays.copyOf(a, Math.max(size + n, a.length * 2));
      System.arraycopy(b, off, a, size, n);
      size += n;
    }

    void nl() {
      put(new byte[] {'\n'});
    }

    void line(LineSource l, int i, boolean lastTerminated) {
      put(l.bytes(i), l.start(i), l.length(i));
      if (i < l.lineCount() - 1 || lastTerminated) nl();
    }

    byte[] bytes() {
      return Arrays.copyOf(a, size);
    }
  }
}
