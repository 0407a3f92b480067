package org.nvimpam.strategy;

import java.util.concurrent.CompletableFuture;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;

/**
 * One {@code nvim_exec_lua} call handing the whole plan, as one argument, to lua/nvimpam/fold/init.lua.
 * Where Lua creates the folds by calling Neovim's foldCreate() (lua/nvimpam/fold/native.lua), the plan
 * is all it needs; elsewhere the plan comes with its commands prebuilt in one string of {@code
 * |}-joined lines that Lua passes on to {@code execute()}.
 */
final class LuaStrategy extends SingleCallStrategy {
  static final String NAME = "lua";

  LuaStrategy(int perLine) {
    super(NAME, perLine);
  }

  @Override
  CompletableFuture<?> call(Nvim nvim, Buffer buffer, FoldPlan plan, int commandsPerLine) {
    return LuaEntry.FOLDS_APPLY.call(nvim, out -> PlanPayload.packForLua(out, buffer.id(), plan, -1, commandsPerLine));
  }
}
