package org.nvimpam.ids;

import java.nio.file.Path;
import java.util.function.BiFunction;
import org.nvimpam.deck.LineSource;

/** A buffer the plugin folds live, as the id features see it. */
public interface IdBuffer {
  /** Neovim's buffer number. */
  long bufferId();

  /** The buffer's file (absolute, normalized), null when unknown. */
  Path file();

  /**
   * Runs {@code f} with the buffer's ids and deck under the buffer's lock (held only for {@code
   * f}); null when the buffer is not live (still loading, or closed).
   */
  <T> T withIds(BiFunction<BufferIds, LineSource, T> f);

  /**
   * Runs {@code step} with {@link #withIds} until it returns true, or the buffer is not live: long
   * work in steps of {@link IdService#STEP_LINES}, the lock let go between them.
   */
  default void inSteps(BiFunction<BufferIds, LineSource, Boolean> step) {
    while (true) {
      Boolean done = withIds(step);
      if (done == null || done) return;
      betweenSteps();
    }
  }

  /**
   * Called between two steps of long work under a buffer's lock (a whole check, a first index
   * build): the lock is not fair, and a thread that takes it again at once keeps an edit waiting
   * for all the steps (seconds at 10M lines). A millisecond lets the waiting thread in.
   */
  static void betweenSteps() {
    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
  }
}
