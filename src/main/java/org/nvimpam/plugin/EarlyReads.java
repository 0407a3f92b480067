package org.nvimpam.plugin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldingRead;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.FileStamp;
import org.nvimpam.nvim.StartTrace;

/**
 * Decks read before Neovim has read them: lua/nvimpam/host/filestate.lua announces a deck at
 * BufReadPre, and its file is read and folded here, on a thread of its own, while Neovim reads
 * it. The buffer's load then takes the read ({@link BufferLoad.EarlyFile}), which it uses only
 * when the buffer's file state as Neovim read it equals the one read here; otherwise it reads
 * the file again or fetches the lines over RPC, as without an early read.
 */
public final class EarlyReads {
  /** An early read nobody took (the buffer never attached) is dropped this long after it ended. */
  private static final long UNCLAIMED_MS = 60_000;

  private final Map<Long, Read> reads = new ConcurrentHashMap<>();
  private static final Object ONE_AT_A_TIME = new Object(); // two decks opened at once are read in turn
  // From here (four segments), a second thread folds the file while it is read; a smaller one is
  // read before a cold JVM could start that thread.
  private static final long FOLD_WHILE_READING = 16L << 20;

  /** The default fold options, when no host asks for its own. */
  private static final class DefaultOptions implements Supplier<FoldOptions> {
    @Override
    public FoldOptions get() {
      return Settings.DEFAULTS.foldOptions();
    }
  }

  private volatile Supplier<FoldOptions> options; // the host's once it runs; null: the defaults

  /** What one early read found: a deck folded by its own engine, or why there is none. */
  record Result(Deck deck, FoldEngine engine, FoldOptions options, FileStamp stamp, double readMs, double parseMs,
      String failed) {}

  /** One early read of a buffer's file, running or done. */
  static final class Read implements BufferLoad.EarlyFile {
    private final Path path;
    private volatile CompletableFuture<Result> result; // null once taken: a discarded deck is garbage at once
    private volatile Result taken;

    Read(Path path, CompletableFuture<Result> result) {
      this.path = path;
      this.result = result;
    }

    @Override
    public Taken take(String bufferPath, FileStamp stamp, Duration deadline) {
      CompletableFuture<Result> f = result;
      result = null;
      if (f == null) return new Taken(null, "it was taken before", 0);
      if (!Path.of(bufferPath).toAbsolutePath().normalize().equals(path)) {
        return new Taken(null, "it read another file", 0);
      }
      Result r;
      try {
        r = Await.within(f, deadline, "the early read of " + path);
      } catch (Await.DeadlineException e) {
        return new Taken(null, "it took longer than " + deadline.toMillis() + " ms", 0);
      }
      if (r.failed() != null) return new Taken(null, r.failed(), 0);
      if (!r.stamp().sameAs(stamp)) return new Taken(null, "the file changed between the two reads", 0);
      taken = r;
      return new Taken(r.deck(), null, r.readMs());
    }

    /** The engine that folded {@code deck} when it is this read's and was folded with {@code options}. */
    FoldEngine engineOf(Deck deck, FoldOptions options) {
      Result r = taken;
      // not the record's equals(): its first call bootstraps an invokedynamic, 10 ms of a cold start
      return r != null && r.deck() == deck && r.options().genericCards() == options.genericCards() ? r.engine() : null;
    }

    /** How long the read and its parse took, once taken. */
    Result taken() {
      return taken;
    }
  }

  /** Where the fold options of the reads come from (until set: the defaults). */
  void options(Supplier<FoldOptions> o) {
    options = o;
  }

  /**
   * Starts reading {@code path} for buffer {@code buf}, replacing a read of it nobody took; a path
   * that is none is not read.
   */
  public void start(long buf, String path) {
    Path p;
    try {
      p = Path.of(path).toAbsolutePath().normalize();
    } catch (java.nio.file.InvalidPathException e) {
      return; // nothing to read; the load that follows says why its file cannot be read
    }
    Supplier<FoldOptions> o = options;
    CompletableFuture<Result> result = new CompletableFuture<>();
    Read r = new Read(p, result);
    reads.put(buf, r);
    // A thread of its own, started at once (a pool's first task started 10 ms later in a cold JVM):
    // it reads (one read at a time), then drops the read if nobody took it meanwhile.
    Thread t = new Thread(new Runnable() {
      @Override
      public void run() {
        synchronized (ONE_AT_A_TIME) {
          result.complete(read(p, o));
        }
        try {
          Thread.sleep(UNCLAIMED_MS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt(); // the JVM is ending
        }
        reads.remove(buf, r);
      }
    }, "nvimpam-early-read");
    t.setDaemon(true);
    t.start();
  }

  /** Whether a read was started and not taken yet. */
  boolean any() {
    return !reads.isEmpty();
  }

  /** The early read of buffer {@code buf}, handed over once: null when there is none. */
  Read take(long buf) {
    return reads.remove(buf);
  }

  /**
   * Reads and folds {@code p}: a big file is folded while it is read, a small one after the read,
   * and only then are the options asked for (the defaults cost a contract's parse).
   */
  private static Result read(Path p, Supplier<FoldOptions> o) {
    StartTrace.mark("early read");
    long t0 = System.nanoTime();
    try {
      Supplier<FoldOptions> source = o != null ? o : new DefaultOptions();
      FileStamp before = FileStamp.of(p);
      int lines = DeckFile.estimateLines(p, before.size());
      Deck deck;
      FoldEngine engine;
      double readMs;
      double parseMs;
      if (before.size() >= FOLD_WHILE_READING) {
        FoldingRead.Result r = FoldingRead.read(p, before.size(), lines, source);
        deck = r.deck();
        engine = r.engine();
        readMs = (System.nanoTime() - t0) / 1e6;
        parseMs = 0; // it ran alongside the read
        StartTrace.mark("early read: read and folded");
      } else {
        deck = DeckFile.read(p, lines, before.size());
        long t1 = System.nanoTime();
        readMs = (t1 - t0) / 1e6;
        StartTrace.mark("early read: read");
        engine = new FoldEngine(source.get());
        engine.load(deck);
        parseMs = (System.nanoTime() - t1) / 1e6;
        StartTrace.mark("early read: folded");
      }
      if (!FileStamp.of(p).sameAs(before)) return failed("the file changed while it was read");
      return new Result(deck, engine, engine.options(), before, readMs, parseMs, null);
    } catch (java.io.IOException | RuntimeException e) {
      return failed("it could not read the file: " + e.getMessage());
    } catch (OutOfMemoryError e) {
      return failed("it ran out of memory");
    }
  }

  private static Result failed(String why) {
    return new Result(null, null, null, null, 0, 0, why);
  }
}
