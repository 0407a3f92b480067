package org.nvimpam.strategy;

import java.util.concurrent.CompletionException;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;

/** One {@code nvim_exec_lua} call handing the whole plan, as one argument, to lua/nvimpam/folds.lua. */
final class LuaStrategy implements FoldStrategy {
  static final String NAME = "lua";
  private static final String APPLY = "return require('nvimpam.folds').apply(...)";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void apply(Nvim nvim, Buffer buffer, FoldPlan plan) {
    try {
      nvim.execLua(APPLY, out -> {
        out.packArrayHeader(1);
        PlanPayload.packForLua(out, buffer.id(), plan);
      }).join();
    } catch (CompletionException e) {
      throw SingleCallFailure.of(NAME, plan, e.getCause());
    }
  }
}
