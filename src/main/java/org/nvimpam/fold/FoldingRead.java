package org.nvimpam.fold;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckChunk;
import org.nvimpam.deck.DeckFile;

/**
 * Reads a deck file and folds it at the same time: the calling thread reads and scans the file
 * ({@link DeckFile}) and hands each segment's lines to a thread of its own, which appends them to
 * the deck and updates the folds ({@link FoldEngine#append}), so that the fold parse (0.4 s of a
 * 10M-line deck) runs while the file is still being read instead of after it. The folds equal a
 * parse of the whole deck. A few segments wait at most, so memory stays bounded when the fold
 * falls behind; the reader never waits on a fold thread that failed.
 */
public final class FoldingRead {
  /** The deck read, and the engine holding its folds. */
  public record Result(Deck deck, FoldEngine engine) {}

  private static final Object END = new Object();
  private static final long FOLD_WAIT_SECONDS = 120;

  private final ArrayBlockingQueue<Object> queue = new ArrayBlockingQueue<>(4);
  private final Deck deck;
  private final Supplier<FoldOptions> optionsSource;
  private final Thread folder;
  private volatile FoldEngine engine;
  private volatile Throwable failure;

  private FoldingRead(int expectedLines, Supplier<FoldOptions> options) {
    this.deck = Deck.withCapacity(expectedLines);
    this.optionsSource = options;
    this.folder = new Thread(new Runnable() {
      @Override
      public void run() {
        fold();
      }
    }, "nvimpam-fold-while-reading");
    folder.setDaemon(true);
  }

  /**
   * Reads {@code file} ({@code fileBytes} of it, about {@code expectedLines}) and folds it with
   * the options {@code options} gives once the first lines are read.
   */
  public static Result read(Path file, long fileBytes, int expectedLines, Supplier<FoldOptions> options)
      throws IOException {
    FoldingRead r = new FoldingRead(expectedLines, options);
    r.folder.start();
    try {
      DeckFile.read(file, fileBytes, false, new DeckFile.ChunkSink() {
        @Override
        public void take(DeckChunk next) throws IOException {
          r.hand(next);
        }
      });
      r.hand(END);
      return r.result();
    } finally {
      r.folder.interrupt(); // done, or the read failed: the fold thread stops
    }
  }

  /** Queues {@code item} for the fold thread; gives up when that thread has failed. */
  private void hand(Object item) throws IOException {
    try {
      while (!queue.offer(item, 50, TimeUnit.MILLISECONDS)) {
        if (failure != null || !folder.isAlive()) throw failed();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading a deck");
    }
  }

  private Result result() throws IOException {
    try {
      folder.join(TimeUnit.SECONDS.toMillis(FOLD_WAIT_SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while folding a deck");
    }
    if (folder.isAlive()) throw new IOException("folding the deck took longer than " + FOLD_WAIT_SECONDS + " s");
    if (failure != null) throw failed();
    return new Result(deck, engine);
  }

  /** The fold thread's failure, as the reader reports it: thrown here when unchecked. */
  private IOException failed() {
    Throwable t = failure;
    if (t instanceof OutOfMemoryError oom) throw oom;
    if (t instanceof RuntimeException re) throw re;
    return new IOException("folding the deck failed: " + t, t);
  }

  /** The fold thread: appends each chunk to the deck and updates the folds, until END. */
  private void fold() {
    try {
      Object item = queue.take();
      FoldEngine e = new FoldEngine(optionsSource.get());
      e.load(deck);
      while (item != END) {
        e.append((DeckChunk) item);
        item = queue.take();
      }
      engine = e;
    } catch (InterruptedException e) {
      // the read failed and stopped us; it reports why
    } catch (RuntimeException | OutOfMemoryError e) {
      failure = e;
    }
  }
}
