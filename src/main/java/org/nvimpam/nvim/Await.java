package org.nvimpam.nvim;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waiting for Neovim with a deadline. A Neovim at a prompt, stopped or busy must never park one of
 * our threads forever: every wait names what it waited for, so that the message says which call
 * did not come back.
 */
public final class Await {
  /**
   * The deadline of one call into Neovim: far above any single call we make (10M lines arrive in
   * chunks of a few seconds each), short enough that a stuck Neovim shows up as an error.
   */
  public static final Duration CALL = Duration.ofSeconds(60);

  /**
   * How long :NvimpamFoldAttach (and :NvimpamFold on a buffer still loading) waits for a live
   * buffer's load and first push: a whole deck of chunk replies, then the folds.
   */
  public static final Duration ATTACH = Duration.ofSeconds(60);

  private Await() {}

  /**
   * The value of {@code future}; its failure is rethrown as a {@link CompletionException} (as
   * {@code join()} does), so callers keep their catch blocks.
   *
   * @throws DeadlineException when it did not complete within {@code deadline}, or the wait was
   *     interrupted
   */
  public static <T> T within(CompletableFuture<T> future, Duration deadline, String what) {
    try {
      return future.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new CompletionException(e.getCause());
    } catch (TimeoutException e) {
      throw new DeadlineException(what + ": no answer from Neovim within " + seconds(deadline)
          + " (is it waiting at a prompt, or stopped?)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DeadlineException(what + ": interrupted while waiting for Neovim", e);
    }
  }

  /** {@link #within(CompletableFuture, Duration, String)} with {@link #CALL}. */
  public static <T> T call(CompletableFuture<T> future, String what) {
    return within(future, CALL, what);
  }

  static String seconds(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
  }

  /** A wait for Neovim that passed its deadline or was interrupted. */
  public static final class DeadlineException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DeadlineException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
