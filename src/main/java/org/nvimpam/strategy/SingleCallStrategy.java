package org.nvimpam.strategy;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.ErrorValue;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.NvimErrorException;

/**
 * The strategies that hand the whole plan to our code inside Neovim in one call. That code
 * frames the refresh itself and returns {@code {ok = n}} or {@code {error = value}}, the value
 * naming the failing fold (see {@link ErrorValue}).
 */
abstract class SingleCallStrategy implements FoldStrategy {
  /** The one call; it completes with its result when Neovim has every fold or none. */
  abstract CompletableFuture<?> call(Nvim nvim, Buffer buffer, FoldPlan plan);

  @Override
  public final void apply(Nvim nvim, Buffer buffer, FoldPlan plan) {
    Object result;
    try {
      result = Await.call(call(nvim, buffer, plan), "the " + name() + " strategy's call");
    } catch (CompletionException | Await.DeadlineException e) {
      Throwable cause = RefreshFrame.cause(e);
      String message = cause instanceof NvimErrorException n ? n.nvimMessage() : String.valueOf(cause.getMessage());
      throw new FoldStrategyException(name(), -1, message, cause);
    }
    failIfError(name(), result);
    if (!(result instanceof Map<?, ?> m && m.get("ok") instanceof Number n && n.intValue() == plan.size())) {
      throw new FoldStrategyException(name(), -1, "Neovim answered " + result + " where it should have made "
          + plan.size() + " folds", null);
    }
  }

  /** Throws the error of a {@code {error = value}} result of our Lua/VimL code. */
  static void failIfError(String strategy, Object result) {
    if (result instanceof Map<?, ?> m && m.get("error") instanceof Map<?, ?> error) {
      throw new FoldStrategyException(strategy, ErrorValue.from(error), null);
    }
  }
}
