package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.nvimpam.bench.ReportJson;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.model.TreeCheck;
import org.nvimpam.model.TreeCheck.Problem;
import org.nvimpam.plugin.Version;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nvimpam check DECK...}: the plugin's checks of decks and their include trees, headless. */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Checks PAM-CRASH decks and the files they include as the Neovim plugin does: fields, tabs and "
          + "text past column 80, ids undefined and defined twice, include files missing, unreadable, "
          + "binary or in a cycle.",
      "A file with no control section (no INPUTVERSION and no RUNEND in its first 200 lines: an include "
          + "fragment) is checked as the plugin checks an include file opened alone: its references to ids "
          + "it does not define are counted in the summary, not reported, unless --top."},
    footer = {
      "",
      "Output (stdout), one line per problem with --format text:",
      "  FILE:LINE:COL: SEVERITY: MESSAGE [CODE]",
      "SEVERITY is error, warning or info (a hint, never counted as a warning); FILE is the deck as given, or an include file relative to it; LINE and "
          + "COL are 1-based (COL counts bytes). Neovim's 'errorformat' reads it: :cexpr system('java -jar "
          + "nvimpam.jar check deck.pc'), or :compiler pamcrash | make.",
      "--format json: one array of {file, line, col, end_col, severity, code, message}, 1-based, end_col "
          + "exclusive. --format sarif: a SARIF 2.1.0 log, one rule per code.",
      "A summary per deck goes to stderr. Codes: --list-codes, or :help nvimpam-codes.",
      "",
      "Exit status: 0 no error; 1 errors found (or warnings, with --warnings-as-errors); 2 bad usage or "
          + "a deck that cannot be read."})
public final class CheckCommand implements Callable<Integer> {
  enum Format { text, json, sarif }

  @Spec private CommandSpec spec;

  @Parameters(paramLabel = "DECK", arity = "0..*", description = "Deck files to check.")
  private List<Path> decks = new ArrayList<>();

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "text, json or sarif; default: ${DEFAULT-VALUE}.")
  private Format format;

  @Option(names = "--max", paramLabel = "N", description = "Print at most N problems per deck (the summary counts all).")
  private Integer max;

  @Option(names = "--quiet", description = "Print only the summary.")
  private boolean quiet;

  @Option(names = "--input-version", paramLabel = "V", description = "Check as INPUTVERSION V (default: each deck's own, else the newest the layout table knows).")
  private Integer inputVersion;

  @Option(names = "--top", description = "Each DECK is a whole model: report its undefined references even when it has no control section.")
  private boolean top;

  @Option(names = "--warnings-as-errors", description = "Exit with 1 on warnings too.")
  private boolean warningsAsErrors;

  @Option(names = "--list-codes", description = "List the problem codes with what they mean, and exit.")
  private boolean listCodes;

  @Option(names = "--threads", paramLabel = "N", description = "Worker threads (default: the processors available).")
  private Integer threads;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (listCodes) {
      listCodes(out);
      out.flush();
      return 0;
    }
    if (decks.isEmpty()) return usage(err, "no DECK given");
    if (max != null && max < 0) return usage(err, "--max must be 0 or more, not " + max);
    if (inputVersion != null && inputVersion <= 0) return usage(err, "--input-version must be a positive year, not " + inputVersion);
    if (threads != null && threads < 1) return usage(err, "--threads must be 1 or more, not " + threads);
    int keep = quiet ? 0 : max == null ? Integer.MAX_VALUE : max;
    int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
    TreeCheck.Options options = new TreeCheck.Options(inputVersion == null ? -1 : inputVersion, top, keep, n);
    Output o = new Output(out, format);
    int status = 0;
    long errors = 0;
    long warnings = 0;
    try (CheckProgress progress = CheckProgress.start(err)) {
      TreeCheck check = new TreeCheck(options, progress);
      for (Path deck : decks) {
        TreeCheck.Result r;
        try {
          r = check.check(deck);
        } catch (IncludeFiles.Unreadable e) {
          progress.clear();
          err.println("nvimpam check: " + deck + " " + e.getMessage());
          status = 2;
          continue;
        } catch (IOException e) {
          progress.clear();
          err.println("nvimpam check: " + deck + " cannot be read (" + e.getMessage() + ")");
          status = 2;
          continue;
        }
        progress.clear();
        for (Problem p : r.problems()) o.problem(display(deck, r.deck(), p.file()), p);
        errors += r.errors();
        warnings += r.warnings();
        out.flush(); // the problems before the summary, where both go to one terminal
        err.println(summary(deck, r));
        err.flush();
      }
    }
    o.finish();
    out.flush();
    if (decks.size() > 1) err.println("nvimpam check: " + decks.size() + " decks: " + count(errors, "error") + ", " + count(warnings, "warning"));
    err.flush();
    if (status != 0) return status;
    return errors > 0 || (warningsAsErrors && warnings > 0) ? 1 : 0;
  }

  /** Set in the JVM {@link #relaunch} starts. */
  static final String C1_ONLY = "nvimpam.check.c1";

  /**
   * Runs {@code check} (and {@code diff}, one pass over two decks) in a second JVM that compiles
   * with C1 only, as the plugin's JVM does, and returns its exit status; null to run here (not
   * {@code check} or {@code diff}, not started with {@code -jar},
   * already relaunched, or the user chose the compilers). A check is one pass over every byte of
   * a deck: C2's compiles of its loops cost more CPU than they save (a 10M-line deck: 8.6-8.9 s of
   * CPU with both compilers, 6.8 s with C1 only, on the shared 2-core VM), far more than a JVM's
   * start. So is {@code parts}' (10.0 s and 8.0 s). The JVM options given to this one go to the other.
   */
  static Integer relaunch(String[] args) {
    if (args.length == 0
        || !("check".equals(args[0]) || "diff".equals(args[0]) || "renumber".equals(args[0]) || "parts".equals(args[0]))
        || System.getProperty(C1_ONLY) != null) return null;
    ProcessHandle.Info info = ProcessHandle.current().info();
    if (info.command().isEmpty() || info.arguments().isEmpty()) return null;
    List<String> cmd = new ArrayList<>();
    cmd.add(info.command().get());
    String[] jvm = info.arguments().get();
    int i = 0;
    boolean gcChosen = false;
    for (; i < jvm.length && !"-jar".equals(jvm[i]); i++) {
      if (jvm[i].contains("TieredStopAtLevel") || jvm[i].contains("TieredCompilation")) return null;
      gcChosen |= jvm[i].startsWith("-XX:+Use") && jvm[i].endsWith("GC");
      cmd.add(jvm[i]);
    }
    if (i + 1 >= jvm.length) return null;
    cmd.add("-XX:TieredStopAtLevel=1");
    // parts holds every node and element until the masses are summed: G1 grew its heap to 1.6-2.1
    // GB at 10M lines, and the page faults of that cost a second of system time; the serial
    // collector keeps it at 0.74 GB and ends 8-10% sooner (check: no difference either way)
    if ("parts".equals(args[0]) && !gcChosen) cmd.add("-XX:+UseSerialGC");
    cmd.add("-D" + C1_ONLY + "=true");
    cmd.add("-jar");
    cmd.add(jvm[i + 1]);
    cmd.addAll(List.of(args));
    Process p;
    try {
      p = new ProcessBuilder(cmd).inheritIO().start();
    } catch (IOException e) {
      return null; // this JVM does it
    }
    try {
      return p.waitFor();
    } catch (InterruptedException e) {
      p.destroy();
      Thread.currentThread().interrupt();
      return 130;
    }
  }

  private int usage(PrintWriter err, String why) {
    err.println("nvimpam check: " + why);
    err.println("Usage: java -jar nvimpam.jar check [OPTIONS] DECK...  (help check: the options)");
    err.flush();
    return 2;
  }

  private static String summary(Path deck, TreeCheck.Result r) {
    StringBuilder s = new StringBuilder(deck.toString()).append(": ").append(count(r.errors(), "error"))
        .append(", ").append(count(r.warnings(), "warning")).append(" in ").append(count(r.files().size(), "file"))
        .append(" (").append(count(r.lines(), "line")).append(")");
    if (r.infos() > 0) s.append("; ").append(r.infos()).append(" info");
    long shown = r.problems().size();
    if (shown < r.errors() + r.warnings() + r.infos() && shown > 0) s.append("; ").append(shown).append(" shown");
    if (r.fragment() && r.undefinedIds() > 0) {
      s.append("; an include fragment (no INPUTVERSION, no RUNEND): ").append(count(r.undefinedIds(), "id"))
          .append(" referenced and defined elsewhere (--top reports them)");
    }
    return s.toString();
  }

  private static String count(long n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  /** An include file as the user reaches it: the deck's folder as given, and the file relative to that. */
  static String display(Path given, Path deck, Path file) {
    if (file.equals(deck)) return given.toString();
    Path dir = deck.getParent();
    Path rel = dir == null ? file : dir.relativize(file);
    Path g = given.getParent();
    return (g == null ? rel : g.resolve(rel)).toString();
  }

  private static void listCodes(PrintWriter out) {
    int w = 0;
    for (ProblemCode c : ProblemCode.values()) w = Math.max(w, c.code().length());
    for (ProblemCode c : ProblemCode.values()) {
      out.println(String.format("%-" + w + "s  %s", c.code(), c.description()));
      out.println(" ".repeat(w + 2) + c.help());
    }
  }

  static String severity(int s) {
    return s == TreeCheck.ERROR ? "error" : s == TreeCheck.WARNING ? "warning" : "info";
  }

  /** SARIF's result level: its name for info is "note". */
  static String sarifLevel(int s) {
    return s == TreeCheck.INFO ? "note" : severity(s);
  }

  /** Problems in one format; JSON and SARIF close their document at the end. */
  private static final class Output {
    final PrintWriter out;
    final Format format;
    int count;

    Output(PrintWriter out, Format format) {
      this.out = out;
      this.format = format;
      if (format == Format.json) out.print("[");
      if (format == Format.sarif) sarifHead();
    }

    void problem(String file, Problem p) {
      switch (format) {
        case text -> out.println(file + ":" + (p.line() + 1) + ":" + (p.col() + 1) + ": " + severity(p.severity()) + ": "
            + p.message() + " [" + p.code().code() + "]");
        case json -> {
          out.print(count == 0 ? "\n" : ",\n");
          out.print("  {\"file\": " + quote(file) + ", \"line\": " + (p.line() + 1) + ", \"col\": " + (p.col() + 1)
              + ", \"end_col\": " + (p.end() + 1) + ", \"severity\": \"" + severity(p.severity()) + "\", \"code\": \""
              + p.code().code() + "\", \"message\": " + quote(p.message()) + "}");
        }
        case sarif -> {
          out.print(count == 0 ? "\n" : ",\n");
          out.print("        {\"ruleId\": \"" + p.code().code() + "\", \"ruleIndex\": " + p.code().ordinal()
              + ", \"level\": \"" + sarifLevel(p.severity()) + "\", \"message\": {\"text\": " + quote(p.message())
              + "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": "
              + quote(uri(file)) + "}, \"region\": {\"startLine\": " + (p.line() + 1) + ", \"startColumn\": "
              + (p.col() + 1) + ", \"endColumn\": " + (p.end() + 1) + "}}}]}");
        }
      }
      count++;
    }

    private static String uri(String file) {
      return file.replace('\\', '/');
    }

    private void sarifHead() {
      out.println("{");
      out.println("  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",");
      out.println("  \"version\": \"2.1.0\",");
      out.println("  \"runs\": [{");
      out.println("    \"tool\": {\"driver\": {\"name\": \"nvimpam\", \"version\": " + quote(Version.current())
          + ", \"informationUri\": \"https://github.com/nvimpam/nvimpam\", \"rules\": [");
      ProblemCode[] codes = ProblemCode.values();
      for (int i = 0; i < codes.length; i++) {
        ProblemCode c = codes[i];
        out.print("      {\"id\": \"" + c.code() + "\", \"shortDescription\": {\"text\": " + quote(c.description())
            + "}, \"fullDescription\": {\"text\": " + quote(c.description()) + "}, \"help\": {\"text\": "
            + quote(c.help()) + "}, \"helpUri\": \"https://github.com/nvimpam/nvimpam/blob/main/doc/nvimpam.txt\"}");
        out.println(i + 1 < codes.length ? "," : "");
      }
      out.println("    ]}},");
      out.print("    \"results\": [");
    }

    void finish() {
      if (format == Format.json) out.println(count == 0 ? "]" : "\n]");
      if (format == Format.sarif) {
        out.println(count == 0 ? "]" : "\n    ]");
        out.println("  }]");
        out.println("}");
      }
    }
  }

  private static String quote(String s) {
    return ReportJson.quoted(s);
  }
}
