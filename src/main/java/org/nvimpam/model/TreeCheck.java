package org.nvimpam.model;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.ChunkLines;
import org.nvimpam.deck.DeckChunk;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckProblems;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdMessages;
import org.nvimpam.ids.IdScanner;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.ids.IncludeWalk;
import org.nvimpam.lines.LineSource;

/**
 * The checks of a deck and its include tree as the plugin makes them, from files: the field
 * checks ({@link DeckProblems}), the include tree ({@link IncludeWalk}), ids undefined and
 * defined twice ({@link IdScanner}, {@link IdMessages}). Files are streamed in pieces that end
 * where a card begins (as the plugin's checks in steps cut them), and the pieces are checked by
 * worker threads while the next are read. Ids are marked as bits in a first pass; only when some
 * are undefined or defined twice are the files read again to say where.
 */
public final class TreeCheck {
  public static final int ERROR = 1;
  public static final int WARNING = 2;
  /** A hint (vim.diagnostic's HINT): told as "info", counted apart from the warnings. */
  public static final int INFO = 4;

  /** One problem: 0-based {@code line}, byte columns {@code [col, end)}, severity {@link #ERROR}, {@link #WARNING} or {@link #INFO}. */
  public record Problem(Path file, int line, int col, int end, int severity, ProblemCode code, String message) {}

  /**
   * {@code version}: the INPUTVERSION to check as, or -1 for each deck's own (as the plugin does);
   * {@code top}: a deck without control section is a whole model too (its undefined references are
   * reported); {@code keep}: problems kept per deck, the others only counted; {@code threads}:
   * workers.
   */
  public record Options(int version, boolean top, int keep, int threads) {
    public Options {
      if (threads < 1) throw new IllegalArgumentException("threads: " + threads);
    }
  }

  /**
   * What a deck's check found: the first {@code keep} problems (the tree's files in the order they
   * are included, each by line); counts of all of them; {@code undefinedIds}: ids a fragment
   * references and does not define, counted but not reported.
   */
  public record Result(Path deck, List<Path> files, List<Problem> problems, long errors, long warnings,
      long infos, long undefinedIds, boolean fragment, long lines) {}

  /** Told how far the work got. */
  public interface Progress {
    void read(Path file, long bytes, long lines);
  }

  private final Options options;
  private final Progress progress;

  public TreeCheck(Options options, Progress progress) {
    this.options = options;
    this.progress = progress;
  }

  /**
   * Checks {@code deck} and the files it includes. A deck that cannot be read throws why (as an
   * include file's problem would say it); a failed read of a file found readable throws.
   */
  public Result check(Path deck) throws IncludeFiles.Unreadable, IOException {
    Path root = deck.toAbsolutePath().normalize();
    IncludeFiles.readable(root);
    Workers w = new Workers(options.threads);
    try {
      return run(root, w);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } finally {
      w.stop();
    }
  }

  private Result run(Path root, Workers w) throws IOException {
    List<FileRun> files = new ArrayList<>();
    FileRun top = new FileRun(root, true);
    files.add(top);
    IncludeWalk.walk(top, new IncludeWalk.Members<FileRun>() {
      @Override
      public Path path(FileRun f) {
        return f.path;
      }

      @Override
      public List<IncludeLine> includes(FileRun f) {
        try {
          stream(f, w, 1, top.version);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        return f.includes;
      }

      @Override
      public FileRun open(Path p) throws IncludeFiles.Unreadable {
        IncludeFiles.readable(p);
        FileRun f = new FileRun(p, false);
        files.add(f);
        return f;
      }

      @Override
      public void problem(FileRun in, IncludeLine at, IncludeLine via, ProblemCode code, String message) {
        in.problems.add(new Problem(in.path, at.line(), at.from(), at.to(), ERROR, code, message));
        in.errors++;
      }
    });
    w.drain();
    KeyBits defs = new KeyBits();
    KeyBits dups = new KeyBits();
    KeyBits refs = new KeyBits();
    for (Worker k : w.workers) {
      defs.addAll(k.defs, dups);
      dups.addAll(k.dups, null);
      refs.addAll(k.refs, null);
    }
    boolean reportRefs = options.top || !top.fragment;
    KeyBits undefined = refs.minus(defs);
    long undefinedIds = reportRefs ? 0 : undefined.count();
    if (!reportRefs) undefined = new KeyBits();
    if (!undefined.isEmpty() || !dups.isEmpty()) {
      Pass2 p2 = new Pass2(undefined, dups);
      for (Worker k : w.workers) k.pass2 = p2;
      for (FileRun f : files) stream(f, w, 2, top.version);
      w.drain();
      Map<Long, int[]> counts = new HashMap<>();
      for (Worker k : w.workers) {
        for (Map.Entry<Long, int[]> e : k.dupCounts.entrySet()) counts.computeIfAbsent(e.getKey(), x -> new int[1])[0] += e.getValue()[0];
      }
      for (FileRun f : files) {
        for (Piece p : f.pieces2) {
          for (Dup d : p.dups) {
            p.problems.add(new Problem(f.path, d.line, d.col, d.end, ERROR, ProblemCode.ID_DUPLICATE,
                IdMessages.duplicate(d.word, d.key, counts.get(d.key)[0])));
          }
          f.errors += p.errors + p.dups.size();
        }
      }
    }
    List<Problem> kept = new ArrayList<>();
    long errors = 0;
    long warnings = 0;
    long infos = 0;
    long lines = 0;
    List<Path> paths = new ArrayList<>();
    for (FileRun f : files) {
      paths.add(f.path);
      List<Problem> all = new ArrayList<>(f.problems);
      for (Piece p : f.pieces) {
        all.addAll(p.problems);
        errors += p.errors;
        warnings += p.warnings;
        infos += p.infos;
      }
      for (Piece p : f.pieces2) all.addAll(p.problems);
      errors += f.errors;
      lines += f.lines;
      all.sort(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::col));
      for (Problem p : all) {
        if (kept.size() >= options.keep) break;
        kept.add(p);
      }
    }
    return new Result(root, paths, kept, errors, warnings, infos, undefinedIds, top.fragment, lines);
  }

  /** One file of the tree and what its pieces found. */
  private static final class FileRun {
    final Path path;
    final boolean root;
    int version = -1;
    boolean fragment;
    long lines;
    long errors; // its include problems and, after the second pass, its id problems
    final List<IncludeLine> includes = new ArrayList<>();
    final List<Problem> problems = new ArrayList<>(); // include problems
    final List<Piece> pieces = new ArrayList<>();
    final List<Piece> pieces2 = new ArrayList<>();

    FileRun(Path path, boolean root) {
      this.path = path;
      this.root = root;
    }
  }

  /** Reads {@code f} in pieces that begin where a card begins, and hands them to the workers. */
  private void stream(FileRun f, Workers w, int pass, int treeVersion) throws IOException {
    long size = FileBytes.size(f.path);
    Splitter s = new Splitter(f, w, pass, treeVersion);
    DeckFile.read(f.path, size, false, s::take);
    s.end();
  }

  private final class Splitter {
    final FileRun f;
    final Workers w;
    final int pass;
    final int treeVersion;
    final CardPieces pieces = new CardPieces(this::emit);
    long base; // the file's line of the next piece's first line
    long bytes;

    Splitter(FileRun f, Workers w, int pass, int treeVersion) {
      this.f = f;
      this.w = w;
      this.pass = pass;
      this.treeVersion = treeVersion;
    }

    void take(DeckChunk c) {
      if (f.version < 0) first(c);
      bytes += c.byteSize();
      pieces.take(c);
    }

    /** The file's version and whether it is a fragment, from its first lines. */
    private void first(DeckChunk c) {
      LineSource head = ChunkLines.of(c);
      f.version = options.version > 0 ? options.version : DeckVersion.readAs(head, f.root ? 0 : treeVersion);
      f.fragment = DeckVersion.fragment(head);
    }

    void end() {
      pieces.end();
      if (pass == 1) f.lines = base;
    }

    /** One piece of whole cards: checked on a worker. */
    private void emit(ChunkLines lines) {
      Piece p = new Piece(f, pass, lines, (int) base);
      if (pass == 1) {
        List<IncludeLine> found = new ArrayList<>();
        if (lines.someLineBegins((byte) 'I')) IncludeLine.read(lines, 0, lines.lineCount(), found);
        for (IncludeLine il : found) f.includes.add(new IncludeLine(il.line() + p.base, il.from(), il.to(), il.name()));
        f.pieces.add(p);
      } else {
        f.pieces2.add(p);
      }
      base += lines.lineCount();
      if (progress != null) progress.read(f.path, bytes, base);
      w.submit(p);
    }
  }

  /** A duplicate definition found by the second pass; its message waits for the tree's count. */
  private record Dup(int line, int col, int end, long key, String word) {}

  /** The keys the second pass looks for. */
  private record Pass2(KeyBits undefined, KeyBits dups) {
    int kinds() {
      return undefined.kinds() | dups.kinds();
    }
  }

  /** Lines of one file, checked by one worker. */
  private final class Piece {
    final FileRun f;
    final int pass;
    ChunkLines lines; // dropped once checked
    final int base;
    final List<Problem> problems = new ArrayList<>();
    final List<Dup> dups = new ArrayList<>();
    long errors;
    long warnings;
    long infos;

    Piece(FileRun f, int pass, ChunkLines lines, int base) {
      this.f = f;
      this.pass = pass;
      this.lines = lines;
      this.base = base;
    }

    void run(Worker k) {
      if (pass == 1) k.pass1(this);
      else k.pass2(this);
      lines.done();
      lines = null;
    }
  }

  /** One worker thread's checkers and the ids it marked. */
  private final class Worker implements IdScanner.Sink {
    // Made on the worker's thread: the table's first load (a few 100 ms) overlaps the first reads.
    CardLayouts table;
    DeckProblems fields;
    IdScanner scanner;
    DeckProblems.Rows ids; // the scanner, told the rows the field check walks
    final KeyBits defs = new KeyBits();
    final KeyBits dups = new KeyBits();
    final KeyBits refs = new KeyBits();
    final Map<Long, int[]> dupCounts = new HashMap<>();
    Pass2 pass2;

    void pass1(Piece p) {
      LineSource src = p.lines;
      fields.checkAll(src, p.f.version, ids); // the fields and the ids in one walk
      int n = fields.total();
      for (int i = 0; i < n; i++) {
        int sev = fields.severity(i);
        if (sev == ERROR) p.errors++;
        else if (sev == WARNING) p.warnings++;
        else p.infos++;
        if (p.problems.size() < options.keep) {
          p.problems.add(new Problem(p.f.path, p.base + fields.line(i), fields.col(i), fields.end(i), sev,
              fields.code(i), new String(fields.message(i, src), StandardCharsets.UTF_8)));
        }
      }
      fields.clear();
    }

    @Override
    public void id(int line, int from, int to, int kind, int lo, int hi, boolean def) {
      if (def) {
        if (!defs.add(kind, lo)) dups.add(kind, lo);
      } else if (lo == hi) {
        refs.add(kind, lo);
      }
    }

    void pass2(Piece p) {
      LineSource src = p.lines;
      scanner.scan(src, 0, src.lineCount(), p.f.version, true, pass2.kinds(), (line, from, to, kind, lo, hi, def) -> {
        long key = IdKinds.key(kind, lo);
        if (def) {
          if (!pass2.dups.has(key)) return;
          dupCounts.computeIfAbsent(key, x -> new int[1])[0]++;
          int[] span = IdMessages.span(src, line, key);
          p.dups.add(new Dup(p.base + line, span[0], span[1], key, IdMessages.word(src, line)));
        } else if (lo == hi && pass2.undefined.has(key)) {
          p.errors++;
          if (p.problems.size() < options.keep) {
            p.problems.add(new Problem(p.f.path, p.base + line, from, to, ERROR, ProblemCode.ID_UNDEFINED,
                IdMessages.undefined(table, scanner.entry(), scanner.row(), scanner.field(), key)));
          }
        }
      });
    }
  }

  /** The worker threads, fed pieces in file order; at most a few pieces are read ahead. */
  private final class Workers {
    final Worker[] workers;
    final Thread[] threads;
    final BlockingQueue<Piece> queue;
    final Semaphore ahead;
    final AtomicLong pending = new AtomicLong();
    volatile Throwable failed;

    Workers(int n) {
      workers = new Worker[n];
      threads = new Thread[n];
      queue = new ArrayBlockingQueue<>(4 * n + 4);
      ahead = new Semaphore(2 * n + 1);
      for (int i = 0; i < n; i++) {
        Worker k = workers[i] = new Worker();
        Thread t = threads[i] = new Thread(() -> loop(k), "nvimpam-check-" + i);
        t.setDaemon(true);
        t.start();
      }
    }

    private void loop(Worker k) {
      try {
        k.table = CardLayouts.bundled();
        k.fields = new DeckProblems(k.table);
        k.scanner = new IdScanner(k.table);
        k.ids = k.scanner.rows(k);
      } catch (Throwable e) {
        failed = e;
      }
      try {
        while (true) {
          Piece p = queue.take();
          try {
            if (failed == null) p.run(k);
          } catch (Throwable e) {
            failed = e;
          } finally {
            ahead.release();
            synchronized (this) {
              if (pending.decrementAndGet() == 0) notifyAll();
            }
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    void submit(Piece p) {
      ahead.acquireUninterruptibly();
      pending.incrementAndGet();
      try {
        queue.put(p);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }

    /** Waits until every piece handed over is checked. */
    synchronized void drain() {
      while (pending.get() > 0) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted", e);
        }
      }
      if (failed instanceof RuntimeException r) throw r;
      if (failed instanceof Error e) throw e;
      if (failed != null) throw new IllegalStateException(failed);
    }

    void stop() {
      for (Thread t : threads) t.interrupt();
    }
  }
}
