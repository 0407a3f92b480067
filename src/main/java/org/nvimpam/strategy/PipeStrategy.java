package org.nvimpam.strategy;

import java.util.concurrent.CompletableFuture;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.Nvim;

/**
 * {@code nvim_command("S,Efold|S,Efold|…")}: Ex command lines of a bounded number of folds each.
 * Neovim moves the rest of the line after every command of a {@code |} chain, so one unbounded
 * line is quadratic.
 */
final class PipeStrategy extends CommandStreamStrategy {
  static final String NAME = "pipe";
  /**
   * Folds per command line. At 100k folds (fastest of 11 runs, 3 rounds): 100 → 95-122 ms,
   * 250 → 98-107 ms, 500 → 115-124 ms, 1000 → 151-163 ms, 2000 → 229-249 ms.
   */
  static final int DEFAULT_CHUNK = 250;

  PipeStrategy(String name, int chunk) {
    super(name, chunk);
  }

  @Override
  CompletableFuture<?> sendChunk(Nvim nvim, FoldPlan plan, FoldCommands commands, int from, int to) {
    return nvim.call("nvim_command", out -> {
      out.packArrayHeader(1);
      commands.packJoined(out, plan, from, to);
    }, Decoders.nil());
  }
}
