package org.nvimpam.cli;

import org.nvimpam.nvim.StartTrace;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code nvimpam.jar} entry point: one subcommand per way of using nvimpam. */
@Command(
    name = "nvimpam",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Folding for PAM-CRASH input decks in Neovim.",
    footer = {"", "Examples (help COMMAND for more):",
      "  java -jar nvimpam.jar renumber seat.pc -o out --offset node=1000000,part=1000",
      "  java -jar nvimpam.jar merge car.pc seat.pc -o car_seat",
      "  java -jar nvimpam.jar transform seat.pc -o out translate 0 0 30",
      "  java -jar nvimpam.jar extract car.pc --part 100,101 --to seat.inc -o out",
      "  java -jar nvimpam.jar unused model.pc --remove -o clean"},
    subcommands = {CommandLine.HelpCommand.class, ServeCommand.class, FoldsCommand.class, GenCommand.class, BenchCommand.class,
      BenchOpenCommand.class, BenchModelCommand.class, BenchColdCommand.class, BenchCellsCommand.class, BenchIdsCommand.class, SoakCommand.class, CheckCommand.class,
      PlotCommand.class, DiffCommand.class, PartsCommand.class, RenumberCommand.class, MergeCommand.class, TransformCommand.class,
      ExtractCommand.class, UnusedCommand.class})
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    StartTrace.mark("main");
    // Neovim starts `serve` on every first use of the plugin: skip building picocli's model of
    // all subcommands (most of a 0.3 s start); its two options are read by hand. An early read
    // starts here, before anything else.
    ServeCommand serve = ServeCommand.fromArgs(args);
    // msgpack-core reaches for sun.misc.Unsafe, which JDK 24+ warns about on stderr at first use;
    // its portable buffers avoid that. Read once, when msgpack's classes load: set it before.
    if (javaFeature() >= 24 && System.getProperty("msgpack.universal-buffer") == null) {
      System.setProperty("msgpack.universal-buffer", "true");
    }
    Integer checked = serve == null ? CheckCommand.relaunch(args) : null;
    System.exit(serve != null ? serve.call() : checked != null ? checked : run(args));
  }

  /**
   * The command line with subcommand {@code name} only, or null when {@code name} names none (or
   * {@code help}, which lists them all). picocli reads every option of every subcommand it is
   * given, which costs a run about 0.2 s of its start; the subcommand parses, helps and fails alike
   * under the same parent name.
   */
  static CommandLine only(String name) {
    for (Class<?> c : Main.class.getAnnotation(Command.class).subcommands()) {
      Command sub = c.getAnnotation(Command.class);
      if (c == CommandLine.HelpCommand.class || sub == null || !name.equals(sub.name())) continue;
      CommandLine cli = new CommandLine(new Lean());
      cli.addSubcommand(new CommandLine(c));
      return cli;
    }
    return null;
  }

  /** {@link Main}'s name, version and standard options, without its subcommands. */
  @Command(name = "nvimpam", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class)
  static final class Lean {}

  /** The Java feature version; not Runtime.version(), whose parse costs a cold start 15 ms. */
  private static int javaFeature() {
    String v = System.getProperty("java.specification.version", "17");
    int n = 0;
    for (int i = 0; i < v.length() && Character.isDigit(v.charAt(i)); i++) n = n * 10 + (v.charAt(i) - '0');
    return n;
  }

  /** Runs a command line and returns its exit code; errors in the arguments give 2. */
  public static int run(String... args) {
    CommandLine cli = args.length > 0 ? only(args[0]) : null;
    if (cli == null) cli = new CommandLine(new Main());
    cli.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException ? 2 : 1);
    return cli.execute(args);
  }
}
