package org.nvimpam.model;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.nvimpam.deck.ChunkLines;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IncludeFiles;

/**
 * The headless transform of a deck's include tree, from files, streamed as renumber's offset is:
 * each file is read twice in pieces of whole cards ({@link CardPieces}), each piece handled on a
 * worker, so that only a few pieces are held at a time. The first pass finds the node lines, the
 * elements (when a mirror reverses them or parts choose the nodes) and the cards with geometry of
 * their own; the second writes each piece's new bytes, in order, to a temporary file beside its
 * target. Only when nothing is refused, the first pass's refusals and the second's together, are
 * the temporary files moved into place.
 */
public final class TransformStream {
  /**
   * What a run did: the tree's files in include order, where each goes, the refusals (nothing
   * written when any), the cards not transformed, the nodes moved, the elements reversed, the
   * files with a changed line, and the files written.
   */
  public record Result(Path root, List<Path> files, List<Path> targets, List<Transform.Note> refusals, List<Transform.Note> untouched,
      int nodes, int reversed, int changedFiles, List<Path> written) {
    public boolean refused() {
      return !refusals.isEmpty();
    }
  }

  /** One file of the tree: what its first pass found. */
  private static final class FileIn {
    final Path path;
    int version = -1;
    boolean lastTerminated = true;
    final Transform.Scan scan = new Transform.Scan();
    final List<IncludeLine> includes = new ArrayList<>();

    FileIn(Path path) {
      this.path = path;
    }
  }

  /** A piece's new bytes and what its second pass found. */
  private record Out(byte[] bytes, int size, Transform.Changed changed, boolean differs) {}

  private final Transform.Op op;
  private final boolean parts;
  private final int threads;
  private final ThreadLocal<Transform> scanners;
  // the new bytes of pieces once written, for the next pieces: less garbage, fewer pages touched
  private final java.util.concurrent.ConcurrentLinkedQueue<byte[]> spares = new java.util.concurrent.ConcurrentLinkedQueue<>();

  private TransformStream(Transform.Op op, boolean parts, int threads) {
    this.op = op;
    this.parts = parts;
    this.threads = threads;
    // the first pass reads only what the scope's kind needs: which file a range is in is known later
    Transform.Scope kind = parts ? new Transform.Parts(new int[0], false) : new Transform.All();
    this.scanners = ThreadLocal.withInitial(() -> new Transform(kind, op));
  }

  /**
   * Transforms the tree of {@code deck} into {@code out} (the deck's folder when null, with
   * {@code inPlace}). {@code scopeOf} gives the scope once the tree's files are known (it may throw
   * IllegalArgumentException, for a range in no file of the tree); {@code parts}: it is a
   * {@link Transform.Parts}. A deck that cannot be read throws why; a failed read or write throws
   * (and leaves no file written).
   */
  public static Result run(Path deck, Path out, boolean inPlace, Transform.Op op, boolean parts,
      Function<List<Path>, Transform.Scope> scopeOf, int threads) throws IncludeFiles.Unreadable, IOException {
    return new TransformStream(op, parts, threads).run(deck, out, inPlace, scopeOf);
  }

  private Result run(Path deck, Path out, boolean inPlace, Function<List<Path>, Transform.Scope> scopeOf)
      throws IncludeFiles.Unreadable, IOException {
    Path root = deck.toAbsolutePath().normalize();
    IncludeFiles.readable(root);
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "nvimpam-transform");
      t.setDaemon(true);
      return t;
    });
    List<Path> temps = new ArrayList<>();
    List<Path> made = new ArrayList<>(); // folders made for the temporary files
    try {
      List<FileIn> files = new ArrayList<>();
      List<Transform.Note> refusals = new ArrayList<>();
      walk(root, files, refusals, pool);
      List<Path> paths = new ArrayList<>();
      for (FileIn f : files) paths.add(f.path);
      Transform.Scope scope = scopeOf.apply(paths);
      List<Path> targets = TreeFiles.targets(root, paths, out, inPlace, refusals);
      Transform t = new Transform(scope, op);
      List<Transform.Scan> scans = new ArrayList<>();
      for (FileIn f : files) scans.add(f.scan);
      Transform.Moves m = t.moves(scans, refusals);
      List<Transform.Note> untouched = t.untouched(scans, m);
      // what is refused already writes nothing: the second pass still finds its own refusals
      boolean write = refusals.isEmpty();
      int moved = 0;
      int changedFiles = 0;
      for (int i = 0; i < files.size(); i++) {
        Path tmp = null;
        if (write) {
          tmp = TreeWrite.stage(targets.get(i), "write", made);
          temps.add(tmp);
        }
        int[] counts = rewrite(i, files.get(i), tmp, pool, scope, m, refusals);
        moved += counts[0];
        changedFiles += counts[1];
      }
      if (!refusals.isEmpty()) return new Result(root, paths, targets, refusals, untouched, moved, m.reversed, changedFiles, List.of());
      List<Path> written = new ArrayList<>();
      for (int i = 0; i < files.size(); i++) {
        TreeWrite.place(temps.get(i), targets.get(i));
        written.add(targets.get(i));
      }
      temps.clear();
      made.clear();
      return new Result(root, paths, targets, List.of(), untouched, moved, m.reversed, changedFiles, written);
    } finally {
      pool.shutdownNow();
      for (Path tmp : temps) Files.deleteIfExists(tmp);
      TreeWrite.unmake(made);
    }
  }

  /** The include tree from {@code root}, each file's first pass made as it is met. */
  private void walk(Path root, List<FileIn> files, List<Transform.Note> refusals, ExecutorService pool)
      throws IncludeFiles.Unreadable, IOException {
    FileIn top = new FileIn(root);
    files.add(top);
    TreeWalk.walk(top, files, new TreeWalk.Members<FileIn>() {
      @Override
      public Path path(FileIn f) {
        return f.path;
      }

      @Override
      public List<IncludeLine> includes(FileIn f) throws IOException {
        scan(f, top.version, pool);
        return f.includes;
      }

      @Override
      public FileIn open(Path p) {
        return new FileIn(p);
      }

      @Override
      public void problem(FileIn in, IncludeLine at, ProblemCode code, String message) {
        refusals.add(new Transform.Note(files.indexOf(in), at.line(), at.from(), message));
      }
    });
  }

  /** Reads {@code f} in pieces, each piece's first pass made on {@code pool}; its includes and version on the way. */
  private void scan(FileIn f, int topVersion, ExecutorService pool) throws IOException {
    long size = size(f);
    ArrayDeque<Future<Transform.Scan>> ahead = new ArrayDeque<>();
    ArrayDeque<Integer> bases = new ArrayDeque<>();
    int[] base = {0};
    int window = 2 * threads + 1;
    try {
      CardPieces pieces = new CardPieces(l -> {
        int n = l.lineCount();
        List<IncludeLine> found = new ArrayList<>();
        IncludeLine.read(l, 0, n, found);
        for (IncludeLine il : found) f.includes.add(new IncludeLine(il.line() + base[0], il.from(), il.to(), il.name()));
        int version = f.version;
        bases.add(base[0]);
        ahead.add(pool.submit(() -> scanners.get().scan(l, version)));
        base[0] += n;
        while (ahead.size() > window) f.scan.append(get(ahead.poll()), bases.poll());
      });
      read(f, size, topVersion, pieces);
      while (!ahead.isEmpty()) f.scan.append(get(ahead.poll()), bases.poll());
    } finally {
      for (Future<?> x : ahead) x.cancel(true);
    }
  }

  /**
   * Reads {@code f} again in pieces, writes each piece's new bytes in order to {@code tmp}
   * (nothing when null) and adds its refusals; the nodes moved and whether the file changed (0 or 1).
   */
  private int[] rewrite(int index, FileIn f, Path tmp, ExecutorService pool, Transform.Scope scope, Transform.Moves m,
      List<Transform.Note> refusals) throws IOException {
    long size = size(f);
    ArrayDeque<Future<Out>> ahead = new ArrayDeque<>();
    int[] base = {0};
    int[] counts = {0, 0};
    int window = 2 * threads + 1;
    try (OutputStream o = tmp == null ? OutputStream.nullOutputStream()
        : new java.io.BufferedOutputStream(Files.newOutputStream(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE), 1 << 20)) {
      Transform t = new Transform(scope, op);
      CardPieces pieces = new CardPieces(l -> {
        int b = base[0];
        ahead.add(pool.submit(() -> bytes(t, index, l, b, f.scan, m)));
        base[0] += l.lineCount();
        try {
          while (ahead.size() > window) put(ahead.poll(), o, false, refusals, counts);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      read(f, size, -1, pieces);
      while (!ahead.isEmpty()) put(ahead.poll(), o, ahead.isEmpty() && !f.lastTerminated, refusals, counts);
    } finally {
      for (Future<?> x : ahead) x.cancel(true);
    }
    return counts;
  }

  /**
   * The new bytes of piece {@code l} (lines {@code base, …} of the file), each line ended by a
   * newline. {@code t} is only read here: its second pass keeps no state of its own.
   */
  private Out bytes(Transform t, int index, ChunkLines l, int base, Transform.Scan s, Transform.Moves m) {
    Transform.Changed c = t.changes(index, l, base, s, m);
    int n = l.lineCount();
    long cap = 16;
    for (int i = 0; i < n; i++) cap += l.length(i) + 1;
    for (int k = 0; k < c.size(); k++) cap += c.text(k).length;
    byte[] spare = spares.poll();
    byte[] out = spare != null && spare.length >= cap ? spare : new byte[(int) Math.min(Integer.MAX_VALUE - 16, cap + cap / 8)];
    int size = 0;
    int k = 0;
    boolean differs = false;
    for (int i = 0; i < n; i++) {
      byte[] a = l.bytes(i);
      int off = l.start(i);
      int raw = l.length(i);
      if (k < c.size() && c.line(k) == i) {
        byte[] text = c.text(k++);
        int len = l.contentLength(i);
        differs |= !Arrays.equals(a, off, off + len, text, 0, text.length);
        System.arraycopy(text, 0, out, size, text.length);
        size += text.length;
        System.arraycopy(a, off + len, out, size, raw - len); // its CR, where it has one
        size += raw - len;
      } else {
        System.arraycopy(a, off, out, size, raw);
        size += raw;
      }
      out[size++] = '\n';
    }
    return new Out(out, size, c, differs);
  }

  /** Writes a piece's bytes and takes its refusals; {@code unterminated}: the file's last line has no newline. */
  private void put(Future<Out> x, OutputStream o, boolean unterminated, List<Transform.Note> refusals, int[] counts)
      throws IOException {
    Out p = get(x);
    int n = p.size();
    if (unterminated && n > 0 && p.bytes()[n - 1] == '\n') n--;
    o.write(p.bytes(), 0, n);
    if (spares.size() < 2 * threads + 4) spares.add(p.bytes());
    refusals.addAll(p.changed().refusals);
    counts[0] += p.changed().moved;
    if (p.differs()) counts[1] = 1;
  }

  /** {@code f}'s size; whether its last line ends with a newline, on the way. */
  private static long size(FileIn f) throws IOException {
    long size = FileBytes.size(f.path);
    f.lastTerminated = FileBytes.lastTerminated(f.path, size);
    return size;
  }

  /** Reads {@code f}'s chunks into {@code pieces}; its version from its first chunk, when not known yet. */
  private static void read(FileIn f, long size, int topVersion, CardPieces pieces) throws IOException {
    try {
      DeckFile.read(f.path, size, false, c -> {
        if (f.version < 0) f.version = DeckVersion.readAs(ChunkLines.of(c), topVersion, Transform.TABLE.newestVersion());
        pieces.take(c);
      });
      pieces.end();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    if (f.version < 0) f.version = topVersion > 0 ? topVersion : Transform.TABLE.newestVersion();
  }

  private static <T> T get(Future<T> x) {
    try {
      return x.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof UncheckedIOException u) throw u;
      if (c instanceof RuntimeException r) throw r;
      if (c instanceof Error er) throw er;
      throw new IllegalStateException(c);
    }
  }
}
