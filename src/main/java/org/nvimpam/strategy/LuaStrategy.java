package org.nvimpam.strategy;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;

/**
 * One {@code nvim_exec_lua} call handing the whole plan, as one argument, to lua/nvimpam/folds.lua.
 * Where Lua creates the folds by calling Neovim's foldCreate() (lua/nvimpam/native.lua), the plan
 * is all it needs; elsewhere the plan comes with its commands prebuilt in one string of {@code
 * |}-joined lines that Lua passes on to {@code execute()}. Every answer says which of the two the
 * next call needs, so only the first call to a Neovim that creates natively carries commands.
 */
final class LuaStrategy extends SingleCallStrategy {
  static final String NAME = "lua";
  private static final String APPLY = "return require('nvimpam.folds').apply(...)";

  /** The Neovim whose last answer said it creates the folds natively, or null. */
  private volatile Nvim createsNatively;

  LuaStrategy(int perLine) {
    super(perLine);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  CompletableFuture<?> call(Nvim nvim, Buffer buffer, FoldPlan plan) {
    int commandsPerLine = createsNatively == nvim ? 0 : perLine;
    return nvim.execLua(APPLY, out -> {
      out.packArrayHeader(1);
      PlanPayload.packForLua(out, buffer.id(), plan, -1, commandsPerLine);
    }).thenApply(answer -> {
      if (answer instanceof Map<?, ?> m && m.containsKey("ok")) {
        createsNatively = Boolean.TRUE.equals(m.get("native")) ? nvim : null;
      }
      return answer;
    });
  }
}
