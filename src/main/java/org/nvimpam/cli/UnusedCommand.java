package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.nvimpam.bench.ReportJson;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.model.Unused;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nvimpam unused DECK}: the definitions nothing references across an include tree, listed or removed, headless. */
@Command(
    name = "unused",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Lists the definitions of a deck and the files it includes that nothing references: nodes no "
          + "element, constraint, rigid body, load, output or GES item or range (NOD 3:9) uses; parts no element "
          + "names; materials (MATER, THMAT, VAMAT, PFMAT, MMAT), functions, groups and frames nothing names. A "
          + "reference inside a card that is itself unused does not count. Rows the card-layout table does not "
          + "describe that hold a number (or a group's title) that is an unused id are warnings: an id there "
          + "would be missed.",
      "--remove writes the tree under OUTDIR without the removable definitions: a NODE line, a whole PART, "
          + "MATER, FUNCT, GROUP or FRAME card (through its last line that is no comment or blank). Every other "
          + "byte stays. Nothing is written when a warning stands, an include file cannot be read, or a file "
          + "cannot be written (all listed, as errors)."},
    footer = {
      "",
      "Examples:",
      "  java -jar nvimpam.jar unused model.pc",
      "  java -jar nvimpam.jar unused model.pc --remove -o clean",
      "",
      "Output (stdout), one line per definition with --format text: FILE:LINE:COL: info: unused node 17 "
          + "(1-based; 'errorformat' reads it: :cexpr system('java -jar nvimpam.jar unused deck.pc')); warnings "
          + "as FILE:LINE:COL: warning: MESSAGE. --format json: one array of {file, line, col, end_col, severity, "
          + "kind, id, removable, message}, 1-based (id: a group's title).",
      "",
      "Exit status: 0 nothing unused (--remove: written); 1 some unused (--remove: refused, nothing written); "
          + "2 bad usage or a deck that cannot be read."})
public final class UnusedCommand implements Callable<Integer> {
  enum Format { text, json }

  @Spec private CommandSpec spec;

  @Parameters(paramLabel = "DECK", arity = "0..1", description = "The deck whose tree to read.")
  private Path deck;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "text or json; default: ${DEFAULT-VALUE}.")
  private Format format;

  @Option(names = "--remove", description = "Write the tree without the unused definitions (needs -o OUTDIR or --in-place).")
  private boolean remove;

  @Option(names = {"-o", "--out"}, paramLabel = "OUTDIR", description = "Where --remove writes the tree (default with --in-place: the deck's folder).")
  private Path out;

  @Option(names = "--in-place", description = "Allow --remove to overwrite the deck's own files (each is replaced whole, once all are written).")
  private boolean inPlace;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (deck == null) return usage(err, "no DECK given");
    if (!remove && (out != null || inPlace)) return usage(err, "-o and --in-place go with --remove");
    if (remove && out == null && !inPlace) return usage(err, "no OUTDIR given (-o OUTDIR, or --in-place to overwrite the deck's files)");
    Unused.Result r;
    Unused.Removal removal = null;
    try (CheckProgress progress = CheckProgress.start(err, "reading")) {
      try {
        r = Unused.find(deck, progress);
        if (remove) removal = Unused.remove(r, out, inPlace);
      } catch (IncludeFiles.Unreadable e) {
        progress.clear();
        err.println("nvimpam unused: " + deck + " " + e.getMessage());
        err.flush();
        return 2;
      } catch (IOException e) {
        progress.clear();
        err.println("nvimpam unused: " + e.getMessage() + (remove ? " (nothing written)" : ""));
        err.flush();
        return 2;
      }
    }
    Path root = deck.toAbsolutePath().normalize();
    List<Path> files = r.files();
    String[] shown = new String[files.size()]; // each file as the user reaches it, once
    for (int i = 0; i < shown.length; i++) shown[i] = CheckCommand.display(deck, root, files.get(i));
    if (removal != null && removal.refused()) {
      for (Unused.Warning w : removal.refusals()) {
        stdout.println(shown[w.file()] + ":" + (w.line() + 1) + ":" + (w.col() + 1) + ": error: "
            + w.message());
      }
      stdout.flush();
      int n = removal.refusals().size();
      err.println("nvimpam unused: " + deck + ": refused, " + n + " reason" + (n == 1 ? "" : "s") + " (above); nothing written");
      err.flush();
      return 1;
    }
    if (removal != null) {
      int n = r.removable().size();
      err.println("nvimpam unused: " + deck + ": " + n + " unused definition" + (n == 1 ? "" : "s") + " removed (" + removal.lines()
          + " line" + (removal.lines() == 1 ? "" : "s") + ") from " + files.size() + " file" + (files.size() == 1 ? "" : "s")
          + ", written to " + removal.written().get(0).getParent());
      err.flush();
      return 0;
    }
    int count = 0;
    if (format == Format.json) stdout.print("[");
    for (Unused.Item it : r.items()) {
      String file = shown[it.file()];
      if (format == Format.text) {
        stdout.println(file + ":" + (it.line() + 1) + ":" + (it.col() + 1) + ": info: " + it.message());
      } else {
        String id = IdKinds.named(it.kind()) ? ReportJson.quoted(it.name()) : Integer.toString(it.id());
        stdout.print((count == 0 ? "\n" : ",\n") + "  {\"file\": " + ReportJson.quoted(file) + ", \"line\": " + (it.line() + 1)
            + ", \"col\": " + (it.col() + 1) + ", \"end_col\": " + (it.end() + 1) + ", \"severity\": \"info\", \"kind\": \""
            + IdKinds.name(it.kind()) + "\", \"id\": " + id + ", \"removable\": " + it.removable() + ", \"message\": "
            + ReportJson.quoted(it.message()) + "}");
      }
      count++;
    }
    for (Unused.Warning w : r.warnings()) {
      String file = shown[w.file()];
      if (format == Format.text) {
        stdout.println(file + ":" + (w.line() + 1) + ":" + (w.col() + 1) + ": warning: " + w.message());
      } else {
        stdout.print((count == 0 ? "\n" : ",\n") + "  {\"file\": " + ReportJson.quoted(file) + ", \"line\": " + (w.line() + 1)
            + ", \"col\": " + (w.col() + 1) + ", \"severity\": \"warning\", \"message\": " + ReportJson.quoted(w.message()) + "}");
      }
      count++;
    }
    if (format == Format.json) stdout.println(count == 0 ? "]" : "\n]");
    stdout.flush();
    int n = r.items().size();
    err.println("nvimpam unused: " + deck + ": " + n + " unused definition" + (n == 1 ? "" : "s") + " in " + files.size() + " file"
        + (files.size() == 1 ? "" : "s") + " (" + r.lines() + " lines)" + (r.warnings().isEmpty() ? ""
        : ", " + r.warnings().size() + " warning" + (r.warnings().size() == 1 ? "" : "s")));
    err.flush();
    return n == 0 && r.warnings().isEmpty() ? 0 : 1;
  }

  private int usage(PrintWriter err, String why) {
    err.println("nvimpam unused: " + why);
    err.println("Usage: java -jar nvimpam.jar unused DECK [--format text|json] [--remove -o OUTDIR | --remove --in-place]  (help unused: the options)");
    err.flush();
    return 2;
  }
}
