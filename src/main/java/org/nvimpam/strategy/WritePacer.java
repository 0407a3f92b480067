package org.nvimpam.strategy;

import java.util.concurrent.CompletableFuture;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.Nvim;

/**
 * Paces writes of notifications: at most two windows of {@link NotifiedCommandsStrategy#WINDOW}
 * writes queued in Neovim, so that its other clients (a UI's keys) get their turn. Before every
 * window's first write it asks for an acknowledgement and waits for the one asked a window earlier.
 */
final class WritePacer {
  private final Nvim nvim;
  private int writes;
  private CompletableFuture<?> previousWindow;

  WritePacer(Nvim nvim) {
    this.nvim = nvim;
  }

  /** Call before each write. */
  void beforeWrite() {
    if (writes > 0 && writes % NotifiedCommandsStrategy.WINDOW == 0) {
      CompletableFuture<?> ack = nvim.call("nvim_eval", out -> {
        out.packArrayHeader(1);
        out.packString("0");
      }, Decoders.nil());
      if (previousWindow != null) {
        Await.call(previousWindow, "the fold commands sent so far");
      }
      previousWindow = ack;
    }
    writes++;
  }
}
