package org.nvimpam.strategy;

import java.util.List;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Nvim;

/**
 * {@code "S,Efold|S,Efold|…"} command lines of a bounded number of folds each. Neovim moves the
 * rest of the line after every command of a {@code |} chain, so one unbounded line is quadratic.
 */
final class PipeStrategy extends CommandStreamStrategy {
  static final String NAME = "pipe";
  /**
   * Folds per command line. At 100k folds (Neovim 0.7.2, 2 loaded cores, fastest of 11 runs in 3
   * rounds): 100 → 95–122 ms, 250 → 97–107, 500 → 115–124, 1000 → 151–163, 2000 → 228–249.
   */
  static final int DEFAULT_CHUNK = 250;
  private final int chunk;

  PipeStrategy(int chunk) {
    if (chunk < 1) {
      throw new IllegalArgumentException("chunk must be at least 1, got " + chunk);
    }
    this.chunk = chunk;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  void send(Nvim nvim, FoldPlan plan, List<Sent> sent) {
    FoldCommands commands = new FoldCommands();
    for (int from = 0; from < plan.size(); from += chunk) {
      int first = from;
      int to = Math.min(plan.size(), from + chunk);
      sent.add(new Sent(nvim.call("nvim_command", out -> {
        out.packArrayHeader(1);
        commands.packJoined(out, plan, first, to);
      }, Replies.IGNORE), first, to - first));
    }
  }
}
