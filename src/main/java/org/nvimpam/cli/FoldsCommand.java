package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.nvimpam.fold.Fold;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.lines.Lines;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nvimpam folds FILE}: prints the fold set of a deck file. */
@Command(
    name = "folds",
    mixinStandardHelpOptions = true,
    description = "Prints the folds of a PAM-CRASH deck, 1-based inclusive, ordered by start and then end descending.")
public final class FoldsCommand implements Callable<Integer> {
  enum Format { text, json }

  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The deck file.")
  private Path file;

  @Option(names = "--format", defaultValue = "text", description = "text (aligned table) or json ([start, end, level, \"text\"] arrays); default: ${DEFAULT-VALUE}.")
  private Format format;

  @Option(names = "--compat", description = "Compatible mode: no folds for unknown cards (generic cards off).")
  private boolean compat;

  @Option(names = "--one-line", description = "Include one-line level-1 folds, which are left out by default.")
  private boolean oneLine;

  @Override
  public Integer call() {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      String why = e instanceof NoSuchFileException ? "no such file" : e.toString();
      spec.commandLine().getErr().println("nvimpam folds: cannot read " + file + ": " + why);
      return 2;
    }
    FoldOptions options = new FoldOptions(!compat);
    PrintWriter out = spec.commandLine().getOut();
    List<Fold> folds = FoldParser.parse(Lines.split(bytes), options).toList().stream()
        .filter(f -> oneLine || f.level() == 2 || f.start() != f.end())
        .toList();
    if (format == Format.json) {
      printJson(out, folds);
    } else {
      printText(out, folds);
    }
    out.flush();
    return 0;
  }

  private static void printJson(PrintWriter out, List<Fold> folds) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < folds.size(); i++) {
      Fold f = folds.get(i);
      // Fold texts are ASCII letters, digits, '_', ':' and spaces: nothing to escape.
      sb.append(i == 0 ? "\n  [" : ",\n  [").append(f.start()).append(", ").append(f.end())
          .append(", ").append(f.level()).append(", \"").append(f.text()).append("\"]");
    }
    out.println(sb.append(folds.isEmpty() ? "]" : "\n]"));
  }

  private static void printText(PrintWriter out, List<Fold> folds) {
    int width = 1;
    for (Fold f : folds) width = Math.max(width, Integer.toString(f.end()).length());
    String row = "%" + width + "d-%-" + width + "d  L%d %s%n";
    for (Fold f : folds) out.printf(row, f.start(), f.end(), f.level(), f.text().stripTrailing());
  }
}
