package org.nvimpam.model;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.ChunkLines;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.deck.RowLayout;
import org.nvimpam.ids.GesLine;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdScanner;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.ids.IncludeWalk;
import org.nvimpam.ids.IntList;
import org.nvimpam.ids.RenamePlan;
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

  /** Lines {@code [first, last)} of a source become {@code lines}. */
  public record Hunk(int first, int last, byte[][] lines) {}

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

  private final Options options;
  private final TreeCheck.Progress progress;
  private final CardLayouts table = CardLayouts.bundled();
  private final int nk = IdKinds.NAMES.size();
  private final int[] changeOf = new int[nk]; // by kind: the index of its change, -1 none
  private final long[] offsetOf = new long[nk]; // by kind: its offset (0: none, or dense)
  private int mask;
  private Scope scope = Scope.ALL;
  // the new bytes of streamed pieces once written, for the next pieces: less garbage, fewer pages touched
  private final java.util.concurrent.ConcurrentLinkedQueue<byte[]> spares = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private final int[][][] columns = columns(table); // by entry, row: [from, to) of each field, 0-based
  private final ThreadLocal<IdScanner> scanners = ThreadLocal.withInitial(() -> new IdScanner(table));

  public Renumber(Options options, TreeCheck.Progress progress) {
    this.options = options;
    this.progress = progress;
    Arrays.fill(changeOf, -1);
    for (int i = 0; i < options.changes().size(); i++) {
      Change c = options.changes().get(i);
      if (changeOf[c.kind()] >= 0) throw new IllegalArgumentException(IdKinds.name(c.kind()) + " is changed twice");
      changeOf[c.kind()] = i;
      if (!c.dense()) offsetOf[c.kind()] = c.amount();
      mask |= IdKinds.bit(c.kind());
    }
  }

  /** One file of the tree, read whole; or, for a plan, a source's lines. */
  private static final class FileIn {
    final Path path;
    final LineSource deck; // null while a file is streamed
    boolean lastTerminated;
    final boolean plan; // only the changed lines are kept, each with its terminator
    int index;
    int version = -1;
    Path target;
    final List<Piece> pieces = new ArrayList<>();
    final List<IncludeLine> includes = new ArrayList<>(); // a streamed file's

    FileIn(Path path, LineSource deck, boolean lastTerminated, boolean plan) {
      this.path = path;
      this.deck = deck;
      this.lastTerminated = lastTerminated;
      this.plan = plan;
    }

    Refusal refusal(int line, int col, String message) {
      return new Refusal(path, line, col, message, index);
    }
  }

  /**
   * Renumbers the tree of {@code deck}. A deck that cannot be read throws why; a failed read or
   * write of a file found readable throws (and leaves no file written).
   */
  public Result run(Path deck) throws IncludeFiles.Unreadable, IOException {
    Path root = deck.toAbsolutePath().normalize();
    IncludeFiles.readable(root);
    if (options.changes().stream().noneMatch(Change::dense)) return stream(root);
    List<Refusal> refusals = new ArrayList<>();
    List<FileIn> files = readTree(root, refusals);
    long lines = 0;
    for (FileIn f : files) lines += f.deck.lineCount();
    targets(files, refusals);
    long[] changed = rewrite(files, refusals);
    List<Path> paths = new ArrayList<>();
    for (FileIn f : files) paths.add(f.path);
    if (!refusals.isEmpty()) return new Result(root, paths, List.of(), changed, refusals, lines);
    return new Result(root, paths, write(files), changed, List.of(), lines);
  }

  /**
   * The changes of the tree {@code sources} (its root first, each file once) within {@code scope},
   * as hunks of new lines per source; nothing is written. The checks are those of {@link #run},
   * and the new ids of a scope must not be ids defined outside it.
   */
  public Plan plan(List<Source> sources, Scope scope) throws IOException {
    this.scope = scope;
    List<FileIn> files = new ArrayList<>();
    for (Source s : sources) {
      FileIn f = new FileIn(s.path(), s.lines(), true, true);
      f.index = files.size();
      f.version = s.version();
      files.add(f);
    }
    List<Refusal> refusals = new ArrayList<>();
    long[] changed = rewrite(files, refusals);
    List<List<Hunk>> hunks = new ArrayList<>();
    for (FileIn f : files) hunks.add(hunks(f)); // also when refused: where a change would go may be refused too
    return new Plan(hunks, changed, refusals);
  }

  /** Cuts the files, finds their definitions and rewrites them; the values changed per change. */
  private long[] rewrite(List<FileIn> files, List<Refusal> refusals) throws IOException {
    int threads = options.threads();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "nvimpam-renumber");
      t.setDaemon(true);
      return t;
    });
    try {
      for (FileIn f : files) cut(f, threads);
      int[][] subset = subset(files);
      // an offset's map needs no definitions: they are gathered while the values are rewritten;
      // a scope's new ids are checked against the definitions first
      boolean first = subset != null || options.changes().stream().anyMatch(Change::dense);
      if (first) runAll(pool, files, p -> p.pass1());
      Maps maps = first ? maps(files, subset, refusals) : new Maps(null);
      if (subset != null) clashes(files, maps, refusals);
      for (FileIn f : files) {
        for (Piece p : f.pieces) p.maps = maps;
      }
      runAll(pool, files, p -> p.pass2(!first));
      undescribed(files, first ? maps : maps(files, null, refusals), refusals);
    } finally {
      pool.shutdownNow();
    }
    long[] changed = new long[options.changes().size()];
    for (FileIn f : files) {
      for (Piece p : f.pieces) {
        refusals.addAll(p.refusals);
        for (int i = 0; i < changed.length; i++) changed[i] += p.changed[i];
      }
    }
    return changed;
  }

  /** The ids of each changed kind the scope takes, sorted and unique; null for all of them. */
  private int[][] subset(List<FileIn> files) {
    if (scope.source() < 0 && scope.parts() == null) return null;
    IntList[] ids = new IntList[nk];
    for (Change c : options.changes()) ids[c.kind()] = new IntList();
    IdScanner s = scanners.get();
    if (scope.parts() == null) {
      LineSource d = files.get(scope.source()).deck;
      int from = IdScanner.cardStart(d, scope.from());
      int to = IdScanner.cardEnd(d, Math.max(scope.to(), from + 1));
      s.scan(d, from, to, files.get(scope.source()).version, false, mask, (line, a, b, kind, lo, hi, def) -> {
        if (def && ids[kind] != null) ids[kind].add(lo);
      });
    } else {
      int[] parts = Arrays.copyOf(scope.parts(), scope.parts().length);
      Arrays.sort(parts);
      for (Change c : options.changes()) {
        if (c.kind() != IdKinds.NODE && c.kind() != IdKinds.ELEMENT && c.kind() != IdKinds.PART) {
          throw new IllegalArgumentException("part= takes the parts, their elements and their nodes: not " + IdKinds.name(c.kind()));
        }
      }
      if (ids[IdKinds.PART] != null) {
        for (int p : parts) ids[IdKinds.PART].add(p);
      }
      int kinds = IdKinds.bit(IdKinds.NODE) | IdKinds.bit(IdKinds.ELEMENT) | IdKinds.bit(IdKinds.PART);
      for (FileIn f : files) {
        PartElements pe = new PartElements(s, parts, ids[IdKinds.ELEMENT], ids[IdKinds.NODE]);
        s.scan(f.deck, 0, f.deck.lineCount(), f.version, true, kinds, pe);
        pe.end();
      }
    }
    int[][] out = new int[nk][];
    for (int k = 0; k < nk; k++) {
      if (ids[k] == null) continue;
      int[] v = Arrays.copyOf(ids[k].a, ids[k].size);
      Arrays.sort(v);
      int u = 0;
      for (int i = 0; i < v.length; i++) {
        if (i == 0 || v[i] != v[i - 1]) v[u++] = v[i];
      }
      out[k] = Arrays.copyOf(v, u);
    }
    return out;
  }

  /**
   * The elements of some parts and their nodes, from a scan of element cards: an element's
   * definition opens it, the part and node references after it in the same card are its own.
   */
  private final class PartElements implements IdScanner.Sink {
    final IdScanner s;
    final int[] parts;
    final IntList elements;
    final IntList nodes;
    final IntList own = new IntList(); // the open element's nodes
    int element; // the open element, 0 none
    int entry = -1;
    int part;

    PartElements(IdScanner s, int[] parts, IntList elements, IntList nodes) {
      this.s = s;
      this.parts = parts;
      this.elements = elements;
      this.nodes = nodes;
    }

    @Override
    public void id(int line, int a, int b, int kind, int lo, int hi, boolean def) {
      if (element != 0 && s.entry() != entry) end();
      if (def && kind == IdKinds.ELEMENT) {
        end();
        element = lo;
        entry = s.entry();
        return;
      }
      if (element == 0 || def) return;
      if (kind == IdKinds.PART) part = lo;
      else if (kind == IdKinds.NODE) {
        for (long n = lo; n <= hi; n++) own.add((int) n);
      }
    }

    void end() {
      if (element != 0 && part != 0 && Arrays.binarySearch(parts, part) >= 0) {
        if (elements != null) elements.add(element);
        if (nodes != null) {
          for (int i = 0; i < own.size; i++) nodes.add(own.a[i]);
        }
      }
      element = 0;
      part = 0;
      own.size = 0;
    }
  }

  /** The new ids of a scope that are ids defined outside it: each a refusal, where that id is defined. */
  private void clashes(List<FileIn> files, Maps maps, List<Refusal> refusals) {
    for (Change c : options.changes()) {
      int kind = c.kind();
      int[] in = maps.subset[kind];
      IntIntMap clash = new IntIntMap(); // the id defined elsewhere -> the id of the scope that would become it
      for (int id : in) {
        if (!maps.defined(kind, id)) continue;
        long v = maps.map(kind, id);
        if (v > 0 && v != id && maps.defined(kind, (int) v) && Arrays.binarySearch(in, (int) v) < 0 && clash.get((int) v) < 0) {
          clash.put((int) v, id);
        }
      }
      if (clash.size() == 0) continue;
      for (FileIn f : files) {
        for (Piece p : f.pieces) {
          IntList d = p.defs[changeOf[kind]];
          IntList at = p.defLines[changeOf[kind]];
          for (int i = 0; i < d.size; i++) {
            int old = clash.get(d.a[i]);
            if (old < 0) continue;
            refusals.add(f.refusal(at.a[i], 0, IdKinds.name(kind) + " " + old + " would become " + d.a[i]
                + ", which is defined already, outside what is renumbered"));
            clash.put(d.a[i], -1);
          }
        }
      }
    }
  }

  /**
   * The changed lines of a plan's file, merged into hunks of consecutive lines that stay one line
   * each; a GES line continued on new lines is a hunk of its own (so that a hunk of as many lines
   * as it replaces can be applied a part at a time).
   */
  private static List<Hunk> hunks(FileIn f) {
    List<Hunk> out = new ArrayList<>();
    int first = -1;
    int last = -1;
    List<byte[]> lines = new ArrayList<>();
    List<byte[]> one = new ArrayList<>();
    for (Piece p : f.pieces) {
      IntList c = p.changedLines;
      for (int i = 0; i < c.size; i += 3) {
        int line = c.a[i];
        one.clear();
        for (int k = c.a[i + 1], s = k; k < c.a[i + 2]; k++) {
          if (p.out.a[k] != '\n') continue;
          one.add(Arrays.copyOfRange(p.out.a, s, k));
          s = k + 1;
        }
        if (line != last || one.size() != 1) {
          if (first >= 0) out.add(new Hunk(first, last, lines.toArray(new byte[0][])));
          first = -1;
          lines.clear();
        }
        if (one.size() != 1) {
          out.add(new Hunk(line, line + 1, one.toArray(new byte[0][])));
          continue;
        }
        if (first < 0) first = line;
        last = line + 1;
        lines.add(one.get(0));
      }
    }
    if (first >= 0) out.add(new Hunk(first, last, lines.toArray(new byte[0][])));
    return out;
  }

  /**
   * An offset, which needs no definitions before it rewrites: each file is read in pieces of whole
   * cards, rewritten on the workers and written to its temporary file piece by piece, in order,
   * each piece dropped once written; the files are moved into place when nothing is refused.
   */
  private Result stream(Path root) throws IOException {
    List<Refusal> refusals = new ArrayList<>();
    List<FileIn> files = new ArrayList<>();
    Maps maps = new Maps(null);
    int threads = options.threads();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "nvimpam-renumber");
      t.setDaemon(true);
      return t;
    });
    Path rootDir = root.getParent();
    Path out = options.outDir() == null ? rootDir : options.outDir().toAbsolutePath().normalize();
    List<Path> temps = new ArrayList<>();
    List<Path> made = new ArrayList<>(); // folders made for the temporary files
    long[] lines = {0};
    try {
      FileIn top = new FileIn(root, null, true, false);
      files.add(top);
      try {
        IncludeWalk.walk(top, new IncludeWalk.Members<FileIn>() {
          @Override
          public Path path(FileIn f) {
            return f.path;
          }

          @Override
          public List<IncludeLine> includes(FileIn f) {
            try {
              Path rel = rootDir.relativize(f.path);
              Path target = rel.startsWith("..") || rel.isAbsolute() ? (options.inPlace() ? f.path : null) : out.resolve(rel).normalize();
              Path tmp = null;
              if (target != null && TreeWrite.unwritable(target) == null) {
                tmp = TreeWrite.stage(target, TAG, made);
                temps.add(tmp);
              }
              lines[0] += streamFile(f, top.version, tmp, pool, maps);
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
            return f.includes;
          }

          @Override
          public FileIn open(Path p) throws IncludeFiles.Unreadable {
            IncludeFiles.readable(p);
            FileIn f = new FileIn(p, null, true, false);
            files.add(f);
            return f;
          }

          @Override
          public void problem(FileIn in, IncludeLine at, IncludeLine via, ProblemCode code, String message) {
            refusals.add(new Refusal(in.path, at.line(), at.from(), message + ": the ids of the tree cannot all be renumbered without it"));
          }
        });
      } catch (java.io.UncheckedIOException e) {
        throw e.getCause();
      }
      targets(files, refusals);
      undescribed(files, maps(files, null, refusals), refusals);
      long[] changed = new long[options.changes().size()];
      for (FileIn f : files) {
        for (Piece p : f.pieces) {
          refusals.addAll(p.refusals);
          for (int i = 0; i < changed.length; i++) changed[i] += p.changed[i];
        }
      }
      List<Path> paths = new ArrayList<>();
      for (FileIn f : files) paths.add(f.path);
      if (!refusals.isEmpty()) return new Result(root, paths, List.of(), changed, refusals, lines[0]);
      List<Path> written = new ArrayList<>();
      for (FileIn f : files) {
        Path tmp = TreeWrite.temp(f.target, TAG);
        TreeWrite.place(tmp, f.target);
        temps.remove(tmp);
        written.add(f.target);
      }
      made.clear();
      return new Result(root, paths, written, changed, List.of(), lines[0]);
    } finally {
      pool.shutdownNow();
      for (Path t : temps) Files.deleteIfExists(t);
      TreeWrite.unmake(made);
    }
  }

  /**
   * Reads {@code f} in pieces of whole cards, rewrites them on {@code pool} and writes them in
   * order to {@code tmp} (nothing written when null); its lines.
   */
  private long streamFile(FileIn f, int topVersion, Path tmp, ExecutorService pool, Maps maps) throws IOException {
    long size = FileBytes.size(f.path);
    f.lastTerminated = FileBytes.lastTerminated(f.path, size);
    int window = 2 * options.threads() + 1;
    java.util.ArrayDeque<Future<Piece>> ahead = new java.util.ArrayDeque<>();
    long[] base = {0};
    long[] bytes = {0};
    try (OutputStream o = tmp == null ? OutputStream.nullOutputStream() : new DirectOut(tmp)) {
      CardPieces pieces = new CardPieces(l -> {
        int n = l.lineCount();
        Piece p = new Piece(f, l, (int) base[0], 0, n, false);
        List<IncludeLine> found = new ArrayList<>();
        IncludeLine.read(l, 0, n, found);
        for (IncludeLine il : found) f.includes.add(new IncludeLine(il.line() + p.base, il.from(), il.to(), il.name()));
        base[0] += n;
        p.maps = maps;
        f.pieces.add(p);
        ahead.add(pool.submit(() -> {
          p.pass2(true);
          return p;
        }));
        if (progress != null) progress.read(f.path, bytes[0], base[0]);
        try {
          while (ahead.size() > window) put(ahead.poll(), o, false);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      try {
        DeckFile.read(f.path, size, false, c -> {
          if (f.version < 0) {
            int own = DeckVersion.declared(ChunkLines.of(c));
            f.version = own > 0 ? own : topVersion > 0 ? topVersion : table.newestVersion();
          }
          bytes[0] += c.byteSize();
          pieces.take(c);
        });
        pieces.end();
      } catch (java.io.UncheckedIOException e) {
        throw e.getCause();
      }
      if (f.version < 0) f.version = topVersion > 0 ? topVersion : table.newestVersion();
      while (!ahead.isEmpty()) put(ahead.poll(), o, ahead.isEmpty() && !f.lastTerminated);
    } finally {
      for (Future<Piece> x : ahead) x.cancel(true);
    }
    return base[0];
  }

  /** Writes a rewritten piece and drops its lines; {@code unterminated}: the file's last line has no newline. */
  private static void put(Future<Piece> x, OutputStream o, boolean unterminated) throws IOException {
    Piece p;
    try {
      p = x.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException io) throw io;
      if (c instanceof RuntimeException r) throw r;
      if (c instanceof Error er) throw er;
      throw new IllegalStateException(c);
    }
    int n = p.out.size;
    if (unterminated && n > 0 && p.out.a[n - 1] == '\n') n--;
    o.write(p.out.a, 0, n);
    p.drop();
  }

  private List<FileIn> readTree(Path root, List<Refusal> refusals) throws IOException {
    List<FileIn> files = new ArrayList<>();
    FileIn top = read(root);
    int own = DeckVersion.declared(top.deck);
    top.version = own > 0 ? own : table.newestVersion();
    files.add(top);
    try {
      IncludeWalk.walk(top, new IncludeWalk.Members<FileIn>() {
        @Override
        public Path path(FileIn f) {
          return f.path;
        }

        @Override
        public List<IncludeLine> includes(FileIn f) {
          return IncludeLine.of(f.deck);
        }

        @Override
        public FileIn open(Path p) throws IncludeFiles.Unreadable {
          IncludeFiles.readable(p);
          FileIn f;
          try {
            f = read(p);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          int v = DeckVersion.declared(f.deck);
          f.version = v > 0 ? v : top.version;
          files.add(f);
          return f;
        }

        @Override
        public void problem(FileIn in, IncludeLine at, IncludeLine via, ProblemCode code, String message) {
          refusals.add(new Refusal(in.path, at.line(), at.from(), message + ": the ids of the tree cannot all be renumbered without it"));
        }
      });
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
    return files;
  }

  private FileIn read(Path p) throws IOException {
    long size = Files.size(p);
    Deck d = DeckFile.read(p, DeckFile.estimateLines(p, size), size);
    if (progress != null) progress.read(p, size, d.lineCount());
    return new FileIn(p, d, FileBytes.lastTerminated(p, size), false);
  }

  /** Where each file goes, and whether it may be written there. */
  private void targets(List<FileIn> files, List<Refusal> refusals) {
    List<Path> paths = new ArrayList<>();
    for (FileIn f : files) paths.add(f.path);
    List<TreeWrite.Refusal> cannot = new ArrayList<>();
    List<Path> targets = TreeWrite.targets(paths, options.outDir(), options.inPlace(), "renumbers", cannot);
    for (int i = 0; i < files.size(); i++) files.get(i).target = targets.get(i);
    for (TreeWrite.Refusal x : cannot) refusals.add(new Refusal(paths.get(x.file()), 0, 0, x.message()));
  }

  /** Cuts {@code f} into about {@code 4 * threads} pieces that begin where cards begin. */
  private void cut(FileIn f, int threads) {
    int n = f.deck.lineCount();
    int parts = Math.max(1, Math.min(4 * threads, n / 20_000));
    int from = 0;
    for (int k = 1; k <= parts; k++) {
      int to = k == parts ? n : IdScanner.cardEnd(f.deck, Math.max(from + 1, (int) ((long) n * k / parts)));
      if (to <= from) continue;
      f.pieces.add(new Piece(f, from, to, k == parts || to == n));
      from = to;
    }
    if (f.pieces.isEmpty()) f.pieces.add(new Piece(f, 0, n, true));
  }

  private interface Pass {
    void run(Piece p) throws Exception;
  }

  private static void runAll(ExecutorService pool, List<FileIn> files, Pass pass) throws IOException {
    List<Future<?>> done = new ArrayList<>();
    for (FileIn f : files) {
      for (Piece p : f.pieces) {
        done.add(pool.submit((Callable<Void>) () -> {
          pass.run(p);
          return null;
        }));
      }
    }
    for (Future<?> d : done) {
      try {
        d.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof IOException io) throw io;
        if (c instanceof RuntimeException r) throw r;
        if (c instanceof Error er) throw er;
        throw new IllegalStateException(c);
      }
    }
  }

  /** The old-to-new maps of the changed kinds. */
  private final class Maps {
    final int[][] sorted = new int[nk][]; // by kind: the defined ids, ascending, unique
    final IntIntMap[] dense = new IntIntMap[nk];
    final int[][] subset; // by kind: the ids the scope takes, ascending; null: all

    Maps(int[][] subset) {
      this.subset = subset == null ? new int[nk][] : subset;
    }

    boolean defined(int kind, int id) {
      return sorted[kind] != null && Arrays.binarySearch(sorted[kind], id) >= 0;
    }

    /** Whether {@code id} is an id that changes: defined, and in the scope. */
    boolean changes(int kind, int id) {
      return subset[kind] != null ? Arrays.binarySearch(subset[kind], id) >= 0 : defined(kind, id);
    }

    /**
     * The new id of {@code id}: {@code > 0} ({@code id} itself outside the scope); 0 when it has
     * none (a dense renumber of an id defined nowhere); -1 out of range.
     */
    long map(int kind, int id) {
      if (subset[kind] != null && Arrays.binarySearch(subset[kind], id) < 0) return id;
      IntIntMap d = dense[kind];
      if (d == null) {
        long v = id + offsetOf[kind];
        return v < 1 || v > Integer.MAX_VALUE ? -1 : v;
      }
      int v = d.get(id);
      return v < 0 ? 0 : v;
    }
  }

  private Maps maps(List<FileIn> files, int[][] subset, List<Refusal> refusals) {
    Maps m = new Maps(subset);
    for (Change c : options.changes()) {
      int kind = c.kind();
      IntList all = new IntList();
      IntIntMap map = c.dense() ? new IntIntMap() : null;
      long next = c.amount();
      for (FileIn f : files) {
        for (Piece p : f.pieces) {
          IntList defs = p.defs[changeOf[kind]];
          for (int i = 0; i < defs.size; i++) {
            int id = defs.a[i];
            all.add(id);
            if (map != null && map.get(id) < 0 && (m.subset[kind] == null || Arrays.binarySearch(m.subset[kind], id) >= 0)) {
              if (next > Integer.MAX_VALUE) {
                refusals.add(new Refusal(null, 0, 0, IdKinds.name(kind) + " " + id + " would get an id past " + Integer.MAX_VALUE));
                next = Integer.MIN_VALUE; // told once
              }
              if (next > 0) map.put(id, (int) next++);
            }
          }
        }
      }
      int[] s = Arrays.copyOf(all.a, all.size);
      Arrays.sort(s);
      int u = 0;
      for (int i = 0; i < s.length; i++) {
        if (i == 0 || s[i] != s[i - 1]) s[u++] = s[i];
      }
      m.sorted[kind] = Arrays.copyOf(s, u);
      m.dense[kind] = map;
    }
    return m;
  }

  /** Lines and fields the table does not describe that hold a number that is an id being changed. */
  private void undescribed(List<FileIn> files, Maps maps, List<Refusal> refusals) {
    for (FileIn f : files) {
      for (Piece p : f.pieces) {
        for (Unread u : p.unread) {
          int line = u.line();
          int entry = u.entry();
          String hit = numberNamingId(u, maps);
          if (hit == null) continue;
          String card = entry < 0 ? "a card the card-layout table does not know"
              : table.entry(entry).key() + ", a line its layout does not describe";
          refusals.add(f.refusal(line, 0, "line of " + card + " holds " + hit
              + ": an id there would be missed (describe the card's rows in the table, or edit the line yourself)"));
        }
        IntList uf = p.uncertainFields;
        for (int i = 0; i < uf.size; i += 6) {
          int kind = uf.a[i + 3];
          int value = uf.a[i + 4];
          if (value <= 0 || !maps.changes(kind, value)) continue;
          CardLayout c = table.entry(uf.a[i + 5]);
          refusals.add(f.refusal(uf.a[i], uf.a[i + 1], c.key() + " holds " + value + " in a field that names no id kind in the table, "
              + "but may name " + IdKinds.name(kind) + " " + value + " (edit it yourself, or tell the table its kind)"));
        }
      }
    }
  }

  /**
   * A line the table does not describe: its integers (no part of a real number; blanks, commas and
   * letters around them) that may be ids, up to a run of more digits than an id has ({@code run},
   * which may be ids side by side), kept until the definitions are known.
   */
  private record Unread(int line, int entry, int[] values, String run) {}

  /**
   * The first integer of the line that is a changed id, as {@code "N, which may be a KIND id"};
   * or a run of more digits than an id has; null when none.
   */
  private String numberNamingId(Unread u, Maps maps) {
    for (int v : u.values()) {
      List<String> kinds = new ArrayList<>();
      for (Change c : options.changes()) {
        if (maps.changes(c.kind(), v)) kinds.add(IdKinds.name(c.kind()));
      }
      if (!kinds.isEmpty()) return v + ", which may be a " + String.join(" or ", kinds) + " id";
    }
    return u.run() == null ? null : u.run() + " (digits side by side, which may hold ids)";
  }

  private static Unread unread(LineSource d, int line, int base, int entry) {
    IntList values = new IntList();
    String run = LineIntegers.read(d.bytes(line), d.start(line), d.contentLength(line), values);
    return new Unread(base + line, entry, Arrays.copyOf(values.a, values.size), run);
  }

  /** Writes every file to a temporary file beside its target, then moves them all into place. */
  private static List<Path> write(List<FileIn> files) throws IOException {
    List<Path> targets = new ArrayList<>();
    for (FileIn f : files) targets.add(f.target);
    return TreeWrite.write(targets, TAG, (i, o) -> {
      for (Piece p : files.get(i).pieces) o.write(p.out.a, 0, p.out.size);
    });
  }

  /**
   * Lines {@code [from, to)} of {@code src}, which are lines {@code base + from ...} of a file: its
   * definitions, then its new bytes.
   */
  private final class Piece implements IdScanner.Sink, IdScanner.Undescribed {
    final FileIn f;
    LineSource src; // null once dropped
    final int base;
    final int from;
    final int to;
    final boolean last; // holds the file's last line
    final IntList[] defs = new IntList[options.changes().size()];
    final IntList[] defLines = new IntList[options.changes().size()]; // the line of each of defs
    final IntList changedLines = new IntList(); // a plan's: [line, from, to) of out each
    final List<Unread> unread = new ArrayList<>();
    final IntList uncertainFields = new IntList(); // [line, from, to, kind, value, entry] each
    final List<Refusal> refusals = new ArrayList<>();
    final long[] changed = new long[options.changes().size()];
    Maps maps;
    boolean gather;
    Bytes out;
    IdScanner sc;
    // pass 2: the line being rewritten and its hits, [from, to, kind, lo, hi, fieldFrom, fieldTo, entry, row, field] each (fieldFrom -1: a GES item)
    int next;
    int cur = -1;
    int[] hits = new int[H * 8];
    int nh;
    GesLine ges = new GesLine(); // holds the array of the last GES line it read: dropped with the lines
    byte[][] neu = new byte[16][];

    Piece(FileIn f, int from, int to, boolean last) {
      this(f, f.deck, 0, from, to, last);
    }

    Refusal refusal(int line, int col, String message) {
      return f.refusal(base + line, col, message);
    }

    /** Lets go of the lines and the new bytes (kept for the next piece), once written. */
    void drop() {
      src = null;
      if (spares.size() < 2 * options.threads() + 4) spares.add(out.a);
      out = null;
      hits = null;
      neu = null;
      ges = null;
      sc = null;
    }

    Piece(FileIn f, LineSource src, int base, int from, int to, boolean last) {
      this.f = f;
      this.src = src;
      this.base = base;
      this.from = from;
      this.to = to;
      this.last = last;
      for (int i = 0; i < defs.length; i++) {
        defs[i] = new IntList();
        defLines[i] = new IntList();
      }
    }

    void pass1() {
      IdScanner s = scanners.get();
      s.undescribed(this);
      try {
        s.scan(src, from, to, f.version, false, mask, (line, a, b, kind, lo, hi, def) -> {
          int c = changeOf[kind];
          if (def && c >= 0) {
            defs[c].add(lo);
            defLines[c].add(base + line);
          }
        });
      } finally {
        s.undescribed(null);
      }
    }

    @Override
    public void line(int line, int entry) {
      if (entry >= 0 && "Control".equals(table.entry(entry).category())) return; // solver controls: keywords and values, no ids
      unread.add(unread(src, line, base, entry));
    }

    @Override
    public void field(int line, int a, int b, int kind, int value) {
      if (changeOf[kind] < 0) return;
      uncertainFields.add(base + line);
      uncertainFields.add(a);
      uncertainFields.add(b);
      uncertainFields.add(kind);
      uncertainFields.add(value);
      uncertainFields.add(scanners.get().entry());
    }

    /** The new bytes; with {@code gather}, also what {@link #pass1} finds. */
    void pass2(boolean gather) {
      sc = scanners.get();
      this.gather = gather;
      LineSource d = src;
      long bytes = 0;
      if (!f.plan) {
        for (int i = from; i < to; i++) bytes += d.length(i) + 1;
      }
      long want = bytes + bytes / 64 + 64;
      if (want > 1 << 20) want = (want + (1 << 20) - 1) & -(1 << 20); // whole MiB: a spare of the pieces before fits
      int cap = (int) Math.min(Integer.MAX_VALUE - 16, want);
      byte[] spare = f.plan ? null : spares.poll();
      out = spare != null && spare.length >= cap ? new Bytes(spare) : new Bytes(cap);
      next = from;
      if (gather) sc.undescribed(this);
      try {
        sc.scan(d, from, to, f.version, true, mask, this);
      } finally {
        sc.undescribed(null);
      }
      flush();
      copy(to);
    }

    @Override
    public void id(int line, int a, int b, int kind, int lo, int hi, boolean def) {
      if (changeOf[kind] < 0) return;
      if (def && gather) {
        defs[changeOf[kind]].add(lo);
        defLines[changeOf[kind]].add(base + line);
      }
      if (line != cur) {
        flush();
        copy(line);
        cur = line;
      }
      if (H * nh + H > hits.length) hits = Arrays.copyOf(hits, hits.length * 2);
      int k = H * nh++;
      hits[k] = a;
      hits[k + 1] = b;
      hits[k + 2] = kind;
      hits[k + 3] = lo;
      hits[k + 4] = hi;
      if (sc.field() >= 0) {
        int[] fl = columns[sc.entry()][sc.row()];
        hits[k + 5] = fl[2 * sc.field()];
        hits[k + 6] = fl[2 * sc.field() + 1];
        hits[k + 7] = sc.entry();
        hits[k + 8] = sc.row();
        hits[k + 9] = sc.field();
      } else {
        hits[k + 5] = -1;
      }
    }

    /** Lines {@code [next, upTo)} as they are (a plan keeps none of them). */
    private void copy(int upTo) {
      LineSource d = src;
      for (int i = f.plan ? upTo : next; i < upTo; i++) {
        out.put(d.bytes(i), d.start(i), d.length(i));
        terminate(i);
      }
      next = Math.max(next, upTo);
    }

    private void terminate(int line) {
      if (f.plan || !(last && line == src.lineCount() - 1 && !f.lastTerminated)) out.put((byte) '\n');
    }

    /** The line with hits, written with its new values; a plan keeps it only where it changed. */
    private void flush() {
      if (cur < 0) return;
      int line = cur;
      int s = out.size;
      rewrite();
      if (!f.plan) return;
      LineSource d = src;
      int len = d.length(line);
      if (out.size - s == len + 1 && Arrays.equals(out.a, s, s + len, d.bytes(line), d.start(line), d.start(line) + len)) {
        out.size = s;
        return;
      }
      changedLines.add(line);
      changedLines.add(s);
      changedLines.add(out.size);
    }

    private void rewrite() {
      int line = cur;
      cur = -1;
      int n = nh;
      nh = 0;
      next = line + 1;
      LineSource d = src;
      byte[] a = d.bytes(line);
      int off = d.start(line);
      int raw = d.length(line);
      int len = d.contentLength(line);
      if (hits[5] < 0) {
        gesLine(line, a, off, raw, len, n);
        return;
      }
      int pos = 0;
      for (int h = 0; h < n; h++) {
        int k = H * h;
        int kind = hits[k + 2];
        int old = hits[k + 3];
        long v = maps.map(kind, old);
        if (v <= 0) {
          refuseId(line, hits[k], kind, old, v);
          continue;
        }
        if (v == old) continue;
        int fs = hits[k + 5];
        int fe = hits[k + 6];
        int digits = digits(v);
        if (digits > fe - fs) {
          refusals.add(refusal(line, fs, IdKinds.name(kind) + " " + old + " would become " + v + ", which does not fit the "
              + (fe - fs) + " columns of " + fieldName(hits[k + 7], hits[k + 8], hits[k + 9])));
          continue;
        }
        int w = RenamePlan.numberWidth(fs, fe, hits[k], hits[k + 1], len, digits);
        out.put(a, off + pos, fs - pos);
        if (w < 0) {
          out.number(v, digits);
          out.blanks(-w - digits);
        } else {
          out.blanks(w - digits);
          out.number(v, digits);
        }
        pos = Math.min(fe, len);
        changed[changeOf[kind]]++;
      }
      out.put(a, off + pos, raw - pos);
      terminate(line);
    }

    private String fieldName(int entry, int row, int field) {
      CardLayout c = table.entry(entry);
      return c.key() + " / " + c.rows().get(row).fields().get(field).name();
    }

    private void refuseId(int line, int col, int kind, int old, long v) {
      refusals.add(refusal(line, col, v < 0
          ? IdKinds.name(kind) + " " + old + " would become " + (old + options.changes().get(changeOf[kind]).amount()) + ", which is no id (1 to " + Integer.MAX_VALUE + ")"
          : IdKinds.name(kind) + " " + old + " is referenced but defined nowhere in the tree: its new id cannot be told"));
    }

    private void gesLine(int line, byte[] a, int off, int raw, int len, int n) {
      GesLine g = ges.read(a, off, len);
      int nt = g.count();
      if (neu.length < nt) neu = new byte[nt][];
      Arrays.fill(neu, 0, nt, null);
      boolean refused = false;
      int count = 0;
      for (int h = 0; h < n; h++) {
        int k = H * h;
        int t = g.tokenAt(hits[k]);
        if (t < 0) continue;
        byte[] text = items(line, hits[k], hits[k + 2], hits[k + 3], hits[k + 4]);
        if (text == null) {
          refused = true;
          continue;
        }
        if (text == UNCHANGED) continue;
        if (Arrays.equals(a, off + g.start(t), off + g.end(t), text, 0, text.length)) continue;
        neu[t] = text;
        count++;
        changed[changeOf[hits[k + 2]]]++;
      }
      if (refused || count == 0) {
        out.put(a, off, raw);
        terminate(line);
        return;
      }
      byte[][] texts = Arrays.copyOf(neu, nt);
      switch (g.place(texts)) {
        case IN_PLACE -> {
          int pos = 0;
          for (int t = 0; t < nt; t++) {
            if (texts[t] == null) continue;
            out.put(a, off + pos, g.start(t) - pos);
            out.put(texts[t], 0, texts[t].length);
            pos = g.end(t);
          }
          out.put(a, off + pos, raw - pos);
          terminate(line);
        }
        case TEXT_PAST_END -> refusals.add(refusal(line, GesLine.END,
            "the GES line holds text past column 80, which its new ids would move"));
        case WRAP -> {
          List<byte[]> lines = g.wrap(texts);
          if (lines == null) {
            refusals.add(refusal(line, 0, "the GES line's new ids pass column 80"
                + (g.wrapFailure == GesLine.WrapFailure.TOO_LONG ? ", even continued on a new line" : ", and cannot continue on a new selection line")));
            return;
          }
          for (int k = 0; k < lines.size(); k++) {
            byte[] l = lines.get(k);
            out.put(l, 0, l.length);
            out.put(a, off + len, raw - len); // its CR, where it has one
            if (k + 1 < lines.size()) out.put((byte) '\n');
          }
          terminate(line);
        }
      }
    }

    /** The new text of GES item {@code lo:hi} (an id when equal), {@link #UNCHANGED}, or null when refused. */
    private byte[] items(int line, int col, int kind, int lo, int hi) {
      Change c = options.changes().get(changeOf[kind]);
      boolean all = maps.subset[kind] == null;
      if (!c.dense() && all) {
        long a = maps.map(kind, lo);
        long b = maps.map(kind, hi);
        if (a < 0 || b < 0) {
          refuseId(line, col, kind, a < 0 ? lo : hi, -1);
          return null;
        }
        return ascii(lo == hi ? Long.toString(a) : a + ":" + b);
      }
      if (lo == hi) {
        long v = maps.map(kind, lo);
        if (v <= 0) {
          refuseId(line, col, kind, lo, v);
          return null;
        }
        return v == lo ? UNCHANGED : ascii(Long.toString(v));
      }
      if (!all) return scopedRange(maps, this, line, col, kind, lo, hi);
      int[] s = maps.sorted[kind];
      int i = Arrays.binarySearch(s, lo);
      if (i < 0) i = -i - 1;
      IntList news = new IntList();
      for (; i < s.length && s[i] <= hi; i++) news.add((int) maps.map(kind, s[i]));
      if (news.size == 0) {
        refusals.add(refusal(line, col, "GES range " + lo + ":" + hi + " selects no " + IdKinds.name(kind)
            + " of the tree: its new ids cannot be told"));
        return null;
      }
      int[] v = Arrays.copyOf(news.a, news.size);
      Arrays.sort(v);
      StringBuilder sb = new StringBuilder();
      for (int k = 0; k < v.length;) {
        int e = k;
        while (e + 1 < v.length && v[e + 1] == v[e] + 1) e++;
        if (sb.length() > 0) sb.append(' ');
        sb.append(v[k]);
        if (e > k) sb.append(':').append(v[e]);
        k = e + 1;
      }
      return ascii(sb.toString());
    }
  }

  /**
   * The new text of GES range {@code lo:hi} where a scope takes some ids of its kind: those ids
   * mapped, the rest of the range kept as it is (ids defined nowhere too); {@link #UNCHANGED}
   * when it holds none of the scope's ids; null when refused.
   */
  private byte[] scopedRange(Maps maps, Piece p, int line, int col, int kind, int lo, int hi) {
    int[] sub = maps.subset[kind];
    int i = Arrays.binarySearch(sub, lo);
    if (i < 0) i = -i - 1;
    List<long[]> runs = new ArrayList<>();
    long keep = lo; // the first id of the kept run
    for (; i < sub.length && sub[i] <= hi; i++) {
      int id = sub[i];
      long v = maps.map(kind, id);
      if (v <= 0) {
        p.refuseId(line, col, kind, id, v);
        return null;
      }
      if (v == id) continue;
      if (keep < id) runs.add(new long[] {keep, id - 1});
      runs.add(new long[] {v, v});
      keep = id + 1L;
    }
    if (runs.isEmpty()) return UNCHANGED;
    if (keep <= hi) runs.add(new long[] {keep, hi});
    runs.sort((x, y) -> Long.compare(x[0], y[0]));
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < runs.size();) {
      long a = runs.get(k)[0];
      long b = runs.get(k)[1];
      int e = k + 1;
      while (e < runs.size() && runs.get(e)[0] <= b + 1) b = Math.max(b, runs.get(e++)[1]);
      if (sb.length() > 0) sb.append(' ');
      sb.append(a);
      if (b > a) sb.append(':').append(b);
      k = e;
    }
    return ascii(sb.toString());
  }

  private static final String TAG = "renumber"; // names its temporary files
  private static final int H = 10; // ints per hit
  private static final byte[] UNCHANGED = new byte[0]; // a GES item that keeps its text

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Per entry and row of {@code table}: the columns {@code [from, to)} of each field, 0-based: read for every id. */
  private static int[][][] columns(CardLayouts table) {
    int[][][] c = new int[table.entries().size()][][];
    for (int e = 0; e < c.length; e++) {
      List<RowLayout> rows = table.entry(e).rows();
      c[e] = new int[rows.size()][];
      for (int r = 0; r < rows.size(); r++) {
        List<FieldLayout> fs = rows.get(r).fields();
        int[] a = c[e][r] = new int[2 * fs.size()];
        for (int f = 0; f < fs.size(); f++) {
          a[2 * f] = fs.get(f).from() - 1;
          a[2 * f + 1] = fs.get(f).to();
        }
      }
    }
    return c;
  }

  private static final long[] TENS = new long[19]; // 10^i

  static {
    TENS[0] = 1;
    for (int i = 1; i < TENS.length; i++) TENS[i] = TENS[i - 1] * 10;
  }

  /** The decimal digits of {@code v >= 0}: from its bit length, no division (this runs for every value). */
  static int digits(long v) {
    if (v < 10) return 1;
    int n = ((64 - Long.numberOfLeadingZeros(v)) * 1233) >>> 12; // the digits of 2^bits, less one
    return n + (n < TENS.length && v >= TENS[n] ? 1 : 0);
  }

  private static final byte[] PAIRS = new byte[200]; // "00" to "99"

  static {
    for (int i = 0; i < 100; i++) {
      PAIRS[2 * i] = (byte) ('0' + i / 10);
      PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
    }
  }

  /** A growable byte array. */
  private static final class Bytes {
    byte[] a;
    int size;

    Bytes(int cap) {
      a = new byte[Math.max(16, cap)];
    }

    Bytes(byte[] reuse) {
      a = reuse;
    }

    private void room(int n) {
      if (size + n > a.length) a = Arrays.copyOf(a, Math.max(size + n, a.length + (a.length >> 1)));
    }

    void put(byte b) {
      room(1);
      a[size++] = b;
    }

    void put(byte[] b, int off, int n) {
      if (n <= 0) return;
      room(n);
      System.arraycopy(b, off, a, size, n);
      size += n;
    }

    void blanks(int n) {
      if (n <= 0) return;
      room(n);
      Arrays.fill(a, size, size + n, (byte) ' ');
      size += n;
    }

    void number(long v, int digits) {
      room(digits);
      int x = (int) v; // an id: an int
      int i = size + digits;
      while (x >= 100) { // two digits a step
        int q = x / 100;
        int r = 2 * (x - 100 * q);
        a[--i] = PAIRS[r + 1];
        a[--i] = PAIRS[r];
        x = q;
      }
      if (x >= 10) {
        a[--i] = PAIRS[2 * x + 1];
        a[--i] = PAIRS[2 * x];
      } else {
        a[--i] = (byte) ('0' + x);
      }
      size += digits;
    }
  }

}
