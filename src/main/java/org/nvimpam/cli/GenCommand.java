package org.nvimpam.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.nvimpam.gen.DeckGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code gen}: writes a realistic synthetic PAM-CRASH deck to a file or to stdout. */
@Command(
    name = "gen",
    mixinStandardHelpOptions = true,
    description = {
      "Writes a synthetic PAM-CRASH deck with the card mix of a vehicle model.",
      "The same seed and line count always give the same deck; any size streams in little memory."
    })
public final class GenCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--lines", required = true, paramLabel = "N", description = "Lines to write (>= 0).")
  private long lines;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
      description = "Random seed (default: ${DEFAULT-VALUE}).")
  private long seed;

  @Option(names = "--out", paramLabel = "FILE", description = "Write to FILE instead of stdout.")
  private Path out;

  @Option(names = "--gen-version", paramLabel = "V", defaultValue = "" + DeckGenerator.VERSION,
      description = "Generator version: 2 (the default) writes decks whose cards all follow the card-layout table,"
          + " with ids that resolve; 1 writes the decks of the first generator, for comparing earlier figures.")
  private int genVersion;

  @Option(names = "--includes", paramLabel = "K", defaultValue = "0",
      description = "Split the deck over K include files next to --out (NAME_1.inc, ...), which INCLU lines of"
          + " the main file name; the ids stay consistent across the files (default: ${DEFAULT-VALUE}).")
  private int includes;

  @Override
  public Integer call() {
    if (lines < 0) {
      throw new ParameterException(spec.commandLine(), "--lines must be 0 or more, was " + lines);
    }
    if (genVersion < 1 || genVersion > DeckGenerator.VERSION) {
      throw new ParameterException(spec.commandLine(),
          "--gen-version must be 1 to " + DeckGenerator.VERSION + ", was " + genVersion);
    }
    DeckGenerator generator = new DeckGenerator(seed, genVersion);
    if (includes < 0) throw new ParameterException(spec.commandLine(), "--includes must be 0 or more, was " + includes);
    if (includes > 0) {
      if (out == null) throw new ParameterException(spec.commandLine(), "--includes needs --out (the include files go next to it)");
      try {
        org.nvimpam.gen.IncludeSplit.write(generator, lines, out, includes);
        return 0;
      } catch (IOException e) {
        spec.commandLine().getErr().println("gen: writing " + out + " and its include files failed: " + reason(e));
        return 1;
      }
    }
    if (out == null) return toStdout(generator);
    OutputStream file;
    try {
      file = Files.newOutputStream(out);
    } catch (IOException e) {
      throw new ParameterException(spec.commandLine(), "cannot write " + out + ": " + reason(e));
    }
    try (file) {
      generator.write(file, lines);
      return 0;
    } catch (IOException e) {
      spec.commandLine().getErr().println("gen: writing " + out + " failed: " + reason(e));
      return 1;
    }
  }

  private int toStdout(DeckGenerator generator) {
    // System.out is looked up now, not when the command was built, so callers may redirect it.
    PrintStream stdout = System.out;
    try {
      generator.write(stdout, lines);
    } catch (IOException e) {
      spec.commandLine().getErr().println("gen: writing to stdout failed: " + reason(e));
      return 1;
    }
    // A PrintStream reports its own write errors only through checkError().
    if (stdout.checkError()) {
      spec.commandLine().getErr().println("gen: writing to stdout failed");
      return 1;
    }
    return 0;
  }

  /** What went wrong, in words; the caller names the file. */
  private static String reason(IOException e) {
    if (e instanceof NoSuchFileException) return "no such file or directory";
    if (e instanceof AccessDeniedException) return "permission denied";
    if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }
}
