package org.nvimpam.strategy;

import java.util.concurrent.CompletableFuture;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;

/** One {@code nvim_call_function} call to {@code nvimpam#apply()} in autoload/nvimpam.vim. */
final class VimlStrategy extends SingleCallStrategy {
  static final String NAME = "viml";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  CompletableFuture<?> call(Nvim nvim, Buffer buffer, FoldPlan plan) {
    return nvim.callFunction("nvimpam#apply", out -> {
      out.packArrayHeader(1);
      PlanPayload.packForViml(out, buffer.id(), plan);
    });
  }
}
