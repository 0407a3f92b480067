package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.model.Merge;
import org.nvimpam.model.Renumber;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nvimpam merge DECK... -o OUTDIR}: decks joined into one model, their ids made disjoint, headless. */
@Command(
    name = "merge",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Merges decks into one model under OUTDIR: each deck's include tree goes to a folder of its own "
          + "(its relative paths kept), and " + Merge.MASTER + " holds the first deck's control section and "
          + "an INCLU line per deck. The ids of every kind (groups aside) are moved by an offset per deck, "
          + "as renumber --offset moves them, so that no two decks define the same id; a group title that "
          + "an earlier deck defines too gets a suffix ('clamp' -> 'clamp_2'), with every reference to it. "
          + "The other decks' control sections (the lines before their first card, and the control cards "
          + "up to the first other card) are left out, and listed. An INCLU name that would no longer reach "
          + "its file is rewritten; a file outside its deck's folder (an absolute name, or one leaving it) "
          + "is copied to the deck's outside/ folder, and listed. Only those values change: every other "
          + "byte stays.",
      "Everything is checked first, and nothing is written when anything is refused; the refusals are "
          + "all listed: decks of different INPUTVERSION or UNIT (both named), ids two decks define after "
          + "the offsets, a value that no longer fits its field, a line the table does not describe that "
          + "holds a moved id, an include file missing, an output file that exists or cannot be written."},
    footer = {
      "",
      "Examples:",
      "  java -jar nvimpam.jar merge car.pc seat.pc -o car_seat",
      "  java -jar nvimpam.jar merge car.pc seat.pc barrier.pc -o run1 --offset node=1000000",
      "",
      "Offsets: auto (the default) keeps the first deck's ids and moves each other deck's ids of a kind "
          + "by the next round number above the highest the earlier decks define (10626 -> +20000), where "
          + "they would meet; KIND=N moves the KIND ids of deck k (the first is 0) by k*N, the kinds not "
          + "named as auto does. The offsets are printed.",
      "",
      "Output on stdout, one a line: each deck's offsets, renamed groups, control lines left out "
          + "(FILE:LINE: left out: TEXT), copied files; refusals as FILE:LINE:COL: error: MESSAGE (1-based, "
          + "as check writes them). A summary on stderr.",
      "",
      "Exit status: 0 written; 1 refused (nothing written); 2 bad usage, a deck that cannot be read, or "
          + "a failed write."})
public final class MergeCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(paramLabel = "DECK", arity = "0..*", description = "The decks to merge, the first one's control section kept.")
  private List<Path> decks = new ArrayList<>();

  @Option(names = {"-o", "--out"}, paramLabel = "OUTDIR", description = "Where the merged model goes (no file there is overwritten).")
  private Path out;

  @Option(names = "--offset", paramLabel = "auto|KIND=N", split = ",", description = "auto (default), or deck k's KIND ids moved by k*N.")
  private List<String> offsets = new ArrayList<>();

  @Option(names = "--threads", paramLabel = "N", description = "Worker threads (default: the processors available).")
  private Integer threads;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (decks.size() < 2) return usage(err, decks.isEmpty() ? "no DECK given" : "one DECK is no merge: give two or more");
    if (out == null) return usage(err, "no OUTDIR given (-o OUTDIR)");
    if (threads != null && threads < 1) return usage(err, "--threads must be 1 or more, not " + threads);
    Map<Integer, Long> steps = new HashMap<>();
    try {
      for (String s : offsets) {
        if (s.trim().equals("auto")) continue;
        Renumber.Change c = Merge.step(s);
        if (steps.put(c.kind(), c.amount()) != null) return usage(err, IdKinds.name(c.kind()) + " is given twice");
      }
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    }
    for (Path d : decks) {
      try {
        IncludeFiles.readable(d);
      } catch (IncludeFiles.Unreadable e) {
        err.println("nvimpam merge: " + d + " " + e.getMessage());
        err.flush();
        return 2;
      }
    }
    int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
    Merge.Result r;
    try (CheckProgress progress = CheckProgress.start(err, "reading")) {
      try {
        r = new Merge(new Merge.Options(decks, out, steps, n), progress).run();
      } catch (IncludeFiles.Unreadable e) {
        progress.clear();
        err.println("nvimpam merge: a DECK " + e.getMessage()); // changed since it was looked at
        err.flush();
        return 2;
      } catch (IOException e) {
        progress.clear();
        err.println("nvimpam merge: " + e.getMessage() + " (nothing written)");
        err.flush();
        return 2;
      }
    }
    Path cwd = Path.of("").toAbsolutePath();
    for (Merge.Note x : Merge.notes(r, cwd)) stdout.println(x.print(cwd));
    if (r.refused()) {
      for (Renumber.Refusal x : r.refusals()) {
        String at = x.file() == null ? "" : shown(x.file()) + ":" + (x.line() + 1) + ":" + (x.col() + 1) + ": ";
        stdout.println(at + "error: " + x.message());
      }
      stdout.flush();
      err.println("nvimpam merge: refused, " + r.refusals().size() + " reason" + (r.refusals().size() == 1 ? "" : "s") + " (above); nothing written");
      err.flush();
      return 1;
    }
    stdout.flush();
    err.println("nvimpam merge: " + r.members().size() + " decks merged into " + shown(r.master()) + " (" + r.written().size() + " files written)");
    err.flush();
    return 0;
  }

  /** A path as given: relative to the working folder when it lies in it. */
  private static String shown(Path p) {
    return Merge.shown(p, Path.of("").toAbsolutePath());
  }

  private int usage(PrintWriter err, String why) {
    err.println("nvimpam merge: " + why);
    err.println("Usage: java -jar nvimpam.jar merge DECK... -o OUTDIR [--offset auto|KIND=N,...]  (help merge: the options)");
    err.flush();
    return 2;
  }
}
