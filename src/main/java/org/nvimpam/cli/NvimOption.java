package org.nvimpam.cli;

import picocli.CommandLine.Option;

/** {@code --nvim PATH}, the Neovim a command starts: declared once for every command that starts one. */
final class NvimOption {
  @Option(names = "--nvim", paramLabel = "PATH", defaultValue = "nvim",
      description = "The Neovim to run (default: ${DEFAULT-VALUE}).")
  String path;
}
