package org.nvimpam.strategy;

import java.util.List;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Nvim;

/** One {@code nvim_command("S,Efold")} per fold, all written before the first reply is read. */
final class PerCommandStrategy extends CommandStreamStrategy {
  static final String NAME = "per-command";


  @Override
  public String name() {
    return NAME;
  }

  @Override
  void send(Nvim nvim, FoldPlan plan, List<Sent> sent) {
    FoldCommands commands = new FoldCommands();
    for (int i = 0; i < plan.size(); i++) {
      int fold = i;
      sent.add(new Sent(nvim.call("nvim_command", out -> {
        out.packArrayHeader(1);
        commands.pack(out, plan, fold);
      }, Replies.IGNORE), fold, 1));
    }
  }
}
