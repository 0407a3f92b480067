package org.nvimpam.strategy;

import java.util.concurrent.CompletableFuture;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;

/**
 * {@code nvimpam#apply()} in autoload/nvimpam.vim with the plan's folds as ONE string of prebuilt
 * {@code S,Efold} commands, {@link #DEFAULT_PER_LINE} per {@code |}-joined line, which {@code
 * nvimpam#execute_lines()} runs from C, as fast as Neovim runs commands at all. A msgpack list of
 * single commands instead cost as much to receive as splitting one per line cost on 0.7.2.
 * The plan itself (for the fold texts and fold states) is staged in Lua by a request written just
 * before, read as one binary string; both travel pipelined. Where Neovim's foldCreate() can be
 * called (lua/nvimpam/fold/native.lua), nvimpam#apply() has Lua create the folds from the staged plan
 * instead, and the JVM sends an empty string for the commands once an answer has said so.
 */
final class VimlStrategy extends SingleCallStrategy {
  static final String NAME = "viml";

  VimlStrategy(int perLine) {
    super(NAME, perLine);
  }

  @Override
  CompletableFuture<?> call(Nvim nvim, Buffer buffer, FoldPlan plan, int commandsPerLine) {
    CompletableFuture<?> staged = LuaEntry.FOLDS_STAGE.call(nvim, out -> PlanPayload.packForLua(out, buffer.id(), plan));
    CompletableFuture<?> applied = nvim.callFunction(LuaEntry.VIML_APPLY.name(), out -> {
      out.packArrayHeader(2);
      out.packLong(buffer.id());
      if (commandsPerLine > 0) {
        new FoldCommands().packLines(out, plan, 0, plan.size(), commandsPerLine);
      } else {
        out.packString("");
      }
    });
    // The apply's error names the fold; a failed staging makes the apply fail too, so report that.
    return staged.thenCombine(applied, (a, b) -> b);
  }
}
