package org.nvimpam.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --root DIR}, the checkout whose plugin a command runs in Neovim: declared once for all of them. */
final class RootOption {
  @Option(names = "--root", paramLabel = "DIR", defaultValue = ".",
      description = "The plugin's root (lua/, target/nvimpam.jar); default: the current directory.")
  Path path;
}
