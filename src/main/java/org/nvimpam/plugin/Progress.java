package org.nvimpam.plugin;

import org.nvimpam.nvim.Nvim;

/** Messages on Neovim's command line while long work runs, so that a big deck is no silent pause. */
final class Progress {
  private Progress() {}

  /** Echoes and redraws at once; does not wait for Neovim (it may be busy waiting for us). */
  static void show(Nvim nvim, String message) {
    nvim.call("nvim_exec_lua", out -> {
      out.packArrayHeader(2);
      out.packString("vim.api.nvim_echo({{...}}, false, {}) vim.cmd('redraw')");
      out.packArrayHeader(1);
      out.packString(message);
    }, in -> {
      in.skipValue();
      return null;
    });
  }

  /** 1000000 → "1,000,000". */
  static String grouped(long n) {
    return String.format(java.util.Locale.ROOT, "%,d", n);
  }
}
