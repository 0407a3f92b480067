package org.nvimpam.rpc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The future of a call. Results are completed on the connection's reader thread, so dependent
 * stages added with the non-async methods run there too; if such a stage waits for another
 * result it would wait for itself. This future turns that deadlock into an
 * {@link IllegalStateException}: waiting on an unfinished result from the reader thread fails at
 * once. Stages that call Neovim and wait should use the {@code *Async} variants.
 */
final class RpcFuture<T> extends CompletableFuture<T> {
  private final Thread reader;

  RpcFuture(Thread reader) {
    this.reader = reader;
  }

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new RpcFuture<>(reader);
  }

  @Override
  public T join() {
    guard();
    return super.join();
  }

  @Override
  public T get() throws InterruptedException, ExecutionException {
    guard();
    return super.get();
  }

  @Override
  public T get(long timeout, TimeUnit unit)
      throws InterruptedException, ExecutionException, TimeoutException {
    guard();
    return super.get(timeout, unit);
  }

  private void guard() {
    if (!isDone() && Thread.currentThread() == reader) {
      throw new IllegalStateException("waiting for an RPC result on the connection's reader thread"
          + " would deadlock; use the *Async variants for stages that wait for Neovim");
    }
  }
}
