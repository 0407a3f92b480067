package org.nvimpam.plugin;

import java.util.concurrent.CompletableFuture;
import org.nvimpam.nvim.Nvim;

/** What the JVM tells the user in Neovim on its own: progress, errors of background work. */
final class Messages {
  private Messages() {}

  /**
   * Echoes and redraws at once, so that a big deck is no silent pause. Not awaited: Neovim may be
   * waiting for our reply to the request that does the work.
   */
  static void progress(Nvim nvim, String message) {
    lua(nvim, "vim.api.nvim_echo({{...}}, false, {}) vim.cmd('redraw')", message);
  }

  /** An ERROR notification, for failures of work no command waits for (live folding). */
  static void error(Nvim nvim, String message) {
    lua(nvim, "vim.notify(..., vim.log.levels.ERROR, { title = 'nvimpam' })", message);
  }

  /** 1000000 → "1,000,000"; by hand: String.format's first use costs a cold JVM 10–20 ms. */
  static String grouped(long n) {
    String digits = Long.toString(Math.abs(n));
    StringBuilder b = new StringBuilder(n < 0 ? "-" : "");
    for (int i = 0; i < digits.length(); i++) {
      if (i > 0 && (digits.length() - i) % 3 == 0) b.append(',');
      b.append(digits.charAt(i));
    }
    return b.toString();
  }

  private static CompletableFuture<Object> lua(Nvim nvim, String code, String message) {
    return nvim.execLua(code, out -> {
      out.packArrayHeader(1);
      out.packString(message);
    });
  }
}
