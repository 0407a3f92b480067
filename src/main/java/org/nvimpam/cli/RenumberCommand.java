package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.model.Renumber;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nvimpam renumber DECK -o OUTDIR --offset KIND=N}: every id of some kinds moved across an include tree, headless. */
@Command(
    name = "renumber",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Offsets (--offset) or renumbers densely in deck order (--start) every id of some kinds across a deck "
          + "and the files it includes, and writes the whole tree under OUTDIR with the same relative paths. "
          + "Every definition and every reference the card-layout table describes changes: id fields, GES "
          + "items and ranges (a range is split where its new ids are no longer one run, continued on new "
          + "selection lines past column 80). Only those values change: every other byte stays.",
      "Everything is checked first, and nothing is written when anything is refused; the refusals are "
          + "all listed: a new id that does not fit its field or is no id, a reference --start cannot map "
          + "(defined nowhere), a line or field the table does not describe that holds a changed id, an "
          + "include file missing, an output file that cannot be written or that is one of the deck's own "
          + "(--in-place overwrites them)."},
    footer = {
      "",
      "Examples:",
      "  java -jar nvimpam.jar renumber seat.pc -o seat_moved --offset node=1000000,element=1000000,part=1000",
      "  java -jar nvimpam.jar renumber model.pc --in-place --start material=1",
      "",
      "Refusals go to stdout, one a line: FILE:LINE:COL: error: MESSAGE (1-based, as check writes them); "
          + "a summary to stderr.",
      "",
      "Exit status: 0 written; 1 refused (nothing written); 2 bad usage or a deck that cannot be read."})
public final class RenumberCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(paramLabel = "DECK", arity = "0..1", description = "The deck whose tree to renumber.")
  private Path deck;

  @Option(names = {"-o", "--out"}, paramLabel = "OUTDIR", description = "Where the tree goes (default with --in-place: the deck's folder).")
  private Path out;

  @Option(names = "--offset", paramLabel = "KIND=N", split = ",", description = "Add N (may be negative) to every id of KIND.")
  private List<String> offsets = new ArrayList<>();

  @Option(names = "--start", paramLabel = "KIND=N", split = ",", description = "Renumber KIND densely from N, in the order the definitions come in the tree.")
  private List<String> starts = new ArrayList<>();

  @Option(names = "--in-place", description = "Allow overwriting the deck's own files (each is replaced whole, once all are written).")
  private boolean inPlace;

  @Option(names = "--threads", paramLabel = "N", description = "Worker threads (default: the processors available).")
  private Integer threads;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (deck == null) return usage(err, "no DECK given");
    if (out == null && !inPlace) return usage(err, "no OUTDIR given (-o OUTDIR, or --in-place to overwrite the deck's files)");
    if (offsets.isEmpty() && starts.isEmpty()) return usage(err, "nothing to change: give --offset KIND=N or --start KIND=N");
    if (threads != null && threads < 1) return usage(err, "--threads must be 1 or more, not " + threads);
    List<Renumber.Change> changes = new ArrayList<>();
    try {
      for (String s : offsets) changes.add(change(s, false));
      for (String s : starts) changes.add(change(s, true));
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    }
    int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
    Renumber.Result r;
    try (CheckProgress progress = CheckProgress.start(err, "reading")) {
      try {
        r = new Renumber(new Renumber.Options(changes, out, inPlace, n), progress).run(deck);
      } catch (IllegalArgumentException e) {
        progress.clear();
        return usage(err, e.getMessage());
      } catch (IncludeFiles.Unreadable e) {
        progress.clear();
        err.println("nvimpam renumber: " + deck + " " + e.getMessage());
        err.flush();
        return 2;
      } catch (IOException e) {
        progress.clear();
        err.println("nvimpam renumber: " + e.getMessage() + " (nothing written)");
        err.flush();
        return 2;
      }
    }
    if (r.refused()) {
      for (Renumber.Refusal x : r.refusals()) {
        String file = x.file() == null ? deck.toString() : CheckCommand.display(deck, r.deck(), x.file());
        stdout.println(file + ":" + (x.line() + 1) + ":" + (x.col() + 1) + ": error: " + x.message());
      }
      stdout.flush();
      err.println("nvimpam renumber: " + deck + ": refused, " + r.refusals().size() + " reason" + (r.refusals().size() == 1 ? "" : "s")
          + " (above); nothing written");
      err.flush();
      return 1;
    }
    StringBuilder s = new StringBuilder("nvimpam renumber: ").append(deck).append(": ");
    for (int i = 0; i < changes.size(); i++) {
      if (i > 0) s.append(", ");
      s.append(r.changed()[i]).append(' ').append(IdKinds.name(changes.get(i).kind())).append(" values");
    }
    s.append(" changed in ").append(r.files().size()).append(" file").append(r.files().size() == 1 ? "" : "s")
        .append(" (").append(r.lines()).append(" lines), written to ").append(r.written().get(0).getParent());
    err.println(s);
    err.flush();
    return 0;
  }

  private static Renumber.Change change(String spec, boolean dense) {
    int eq = spec.indexOf('=');
    if (eq <= 0) throw new IllegalArgumentException("\"" + spec + "\" is no KIND=N");
    String kind = spec.substring(0, eq).trim();
    long amount;
    try {
      amount = Long.parseLong(spec.substring(eq + 1).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("\"" + spec + "\": " + spec.substring(eq + 1) + " is no integer");
    }
    return Renumber.change(kind, amount, dense);
  }

  private int usage(PrintWriter err, String why) {
    err.println("nvimpam renumber: " + why);
    err.println("Usage: java -jar nvimpam.jar renumber DECK -o OUTDIR --offset KIND=N[,KIND=N...] | --start KIND=N  (help renumber: the options)");
    err.flush();
    return 2;
  }
}
