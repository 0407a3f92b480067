package org.nvimpam.strategy;

import java.util.concurrent.CompletionException;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;

/** One {@code nvim_call_function} call to {@code nvimpam#apply()} in autoload/nvimpam.vim. */
final class VimlStrategy implements FoldStrategy {
  static final String NAME = "viml";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void apply(Nvim nvim, Buffer buffer, FoldPlan plan) {
    try {
      nvim.callFunction("nvimpam#apply", out -> {
        out.packArrayHeader(1);
        PlanPayload.packForViml(out, buffer.id(), plan);
      }).join();
    } catch (CompletionException e) {
      throw SingleCallFailure.of(NAME, plan, e.getCause());
    }
  }
}
