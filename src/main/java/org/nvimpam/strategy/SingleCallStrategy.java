package org.nvimpam.strategy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.NvimErrorException;

/**
 * The strategies that hand the whole plan to our code inside Neovim in one call. That code
 * frames the refresh itself and names a failing fold as "fold N of M (lines S-E): reason".
 */
abstract class SingleCallStrategy implements FoldStrategy {
  /** The one call; it completes when Neovim has every fold. */
  abstract CompletableFuture<?> call(Nvim nvim, Buffer buffer, FoldPlan plan);

  @Override
  public final void apply(Nvim nvim, Buffer buffer, FoldPlan plan) {
    try {
      Await.call(call(nvim, buffer, plan), "the " + name() + " strategy's call");
    } catch (CompletionException | Await.DeadlineException e) {
      Throwable cause = RefreshFrame.cause(e);
      String message = cause instanceof NvimErrorException n ? n.nvimMessage() : String.valueOf(cause.getMessage());
      throw new FoldStrategyException(name(), PlanPayload.failedFold(message), message, cause);
    }
  }
}
