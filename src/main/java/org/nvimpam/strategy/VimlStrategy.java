package org.nvimpam.strategy;

import java.util.concurrent.CompletableFuture;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;

/**
 * {@code nvimpam#apply()} in autoload/nvimpam.vim with the plan's folds as ONE newline-separated
 * string of prebuilt {@code S,Efold} commands, which {@code nvimpam#execute_lines()} runs from C,
 * as fast as Neovim creates folds at all. A msgpack list of the commands instead costs as much to
 * receive as splitting the string costs on 0.7.2, and more than {@code nvim_exec2()} on 0.12.
 * The plan itself (for the fold texts and fold states) is staged in Lua by a request written just
 * before, read as one binary string; both travel pipelined.
 */
final class VimlStrategy extends SingleCallStrategy {
  static final String NAME = "viml";
  private static final String STAGE = "require('nvimpam.folds').stage(...)";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  CompletableFuture<?> call(Nvim nvim, Buffer buffer, FoldPlan plan) {
    CompletableFuture<?> staged = nvim.execLua(STAGE, out -> {
      out.packArrayHeader(1);
      PlanPayload.packForLua(out, buffer.id(), plan);
    });
    FoldCommands commands = new FoldCommands();
    CompletableFuture<?> applied = nvim.callFunction("nvimpam#apply", out -> {
      out.packArrayHeader(2);
      out.packLong(buffer.id());
      commands.packJoined(out, plan, 0, plan.size(), (byte) '\n');
    });
    // The apply's error names the fold; a failed staging makes the apply fail too, so report that.
    return staged.thenCombine(applied, (a, b) -> b);
  }
}
