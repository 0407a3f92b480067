package org.nvimpam.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code nvimpam.jar} entry point: one subcommand per way of using nvimpam. */
@Command(
    name = "nvimpam",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Folding for PAM-CRASH input decks in Neovim.",
    subcommands = {CommandLine.HelpCommand.class, FoldsCommand.class})
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs a command line and returns its exit code; errors in the arguments give 2. */
  public static int run(String... args) {
    CommandLine cli = new CommandLine(new Main());
    cli.setExitCodeExceptionMapper(e -> 1);
    return cli.execute(args);
  }
}
