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
  /**
   * Fold commands per line of the one string both send, joined by {@code |}, so that split() makes
   * a list item per line, not per fold. {@code bench --folds 10000,100000 --sweep lua=8,20,50
   * --sweep viml=8,20,50}, x floor at 10k / 100k folds, two runs each: 0.7.2: 8 → 1.43-1.44 /
   * 1.35-1.39, 20 → 1.41-1.44 / 1.32-1.34, 50 → 1.39-1.54 / 1.30-1.40; 0.12.4: 8 → 1.47-1.49 /
   * 1.31-1.40, 20 → 1.38-1.42 / 1.32-1.33, 50 → 1.39-1.53 / 1.29-1.37 (lua; viml alike). Against
   * one command per line, side by side at 100k: lua 1.43 → 1.35 on 0.7.2, 1.36 → 1.33 on 0.12.4;
   * viml 1.39 → 1.32 and 1.33 → 1.30. On 0.12.4, running the received string went from 1.65x the
   * floor (split()) or 1.13-1.16x (nvim_exec2()) to 1.09-1.10x. Measured before native folds, when
   * every call ran its commands; now they run only where Neovim cannot create natively, and a
   * sweep measures them only with native folds off: {@code --nvim-arg=--cmd "--nvim-arg=lua
   * require('nvimpam.core.config').set({ native_folds = false })"}.
   */
  static final int DEFAULT_PER_LINE = 20;

  private final String name;
  final int perLine;

  /** The Neovim whose last answer said it creates the folds natively, or null. */
  private volatile Nvim createsNatively;

  SingleCallStrategy(String name, int perLine) {
    if (perLine < 1) {
      throw new IllegalArgumentException("folds per command line must be at least 1, got " + perLine);
    }
    this.name = name;
    this.perLine = perLine;
  }

  @Override
  public final String name() {
    return name;
  }

  /**
   * The one call, with the plan's commands in lines of {@code commandsPerLine}, or none when that
   * is 0; it completes with its result when Neovim has every fold or none.
   */
  abstract CompletableFuture<?> call(Nvim nvim, Buffer buffer, FoldPlan plan, int commandsPerLine);

  /**
   * Sends the commands only while the last answer did not say that Neovim creates the folds
   * natively (lua/nvimpam/fold/native.lua): there the plan's integers are all it needs, 10 bytes per
   * fold instead of about 26. A Neovim that stops creating natively runs commands of its own making
   * once, and says so.
   */
  private CompletableFuture<?> call(Nvim nvim, Buffer buffer, FoldPlan plan) {
    return call(nvim, buffer, plan, createsNatively == nvim ? 0 : perLine).thenApply(answer -> {
      if (answer instanceof Map<?, ?> m && m.containsKey("ok")) {
        createsNatively = Boolean.TRUE.equals(m.get("native")) ? nvim : null;
      }
      return answer;
    });
  }

  @Override
  public final void apply(Nvim nvim, Buffer buffer, FoldPlan plan) {
    Object result = result(name(), call(nvim, buffer, plan), "the " + name() + " strategy's call");
    if (!(result instanceof Map<?, ?> m && m.get("ok") instanceof Number n && n.intValue() == plan.size())) {
      throw new FoldStrategyException(name(), -1, "Neovim answered " + result + " where it should have made "
          + plan.size() + " folds", null);
    }
  }

  /**
   * The result of a call into our Lua/VimL code, which answers a failure with {@code {error =
   * value}}; that value, a failed call or a passed deadline throws, as {@code strategy}'s failure.
   */
  static Object result(String strategy, CompletableFuture<?> call, String what) {
    Object result;
    try {
      result = Await.call(call, what);
    } catch (CompletionException | Await.DeadlineException e) {
      Throwable cause = RefreshFrame.cause(e);
      String message = cause instanceof NvimErrorException n ? n.nvimMessage() : String.valueOf(cause.getMessage());
      throw new FoldStrategyException(strategy, -1, message, cause);
    }
    if (result instanceof Map<?, ?> m && m.get("error") instanceof Map<?, ?> error) {
      throw new FoldStrategyException(strategy, ErrorValue.from(error), null);
    }
    return result;
  }
}
