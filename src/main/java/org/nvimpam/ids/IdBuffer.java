package org.nvimpam.ids;

import java.nio.file.Path;
import java.util.function.BiFunction;
import org.nvimpam.lines.LineSource;

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

  /** One step of long work: about {@code lines} more lines; true when the work is done. */
  @FunctionalInterface
  interface Step {
    boolean step(BufferIds ids, LineSource deck, int lines);
  }

  /**
   * Runs {@code step} under the buffer's lock until it returns true, or the buffer is not live:
   * long work in steps of about {@link StepSize#TARGET_NANOS} each, the lock let go between them. A
   * live buffer's edits and their refolds go first.
   */
  default void inSteps(Step step) {
    StepSize size = new StepSize();
    while (true) {
      Boolean done = withIds((ids, deck) -> {
        long t0 = StepSize.now();
        boolean d = step.step(ids, deck, size.lines());
        size.took(StepSize.now() - t0);
        return d;
      });
      if (done == null || done) return;
    }
  }
}
