package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.nvimpam.bench.ReportJson;
import org.nvimpam.model.diff.DeckDiff;
import org.nvimpam.model.diff.DiffTree;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nvimpam diff OLD NEW}: the semantic diff of two decks and their include trees, headless. */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Compares two PAM-CRASH decks and the files they include as models, not lines: cards that define "
          + "an id are matched by kind and id, the others by keyword and title, then in order; values are "
          + "compared as the solver reads them (1., 1.0 and 1.0E0 are equal; blank is the field's default).",
      "Alignment, comments, $# headers, blank lines, the order of cards and their split into include "
          + "files are no changes. A card that moved to another file is reported as a move."},
    footer = {
      "",
      "Output (stdout) with --format text, one line per difference (the new deck's place; the old one's for a removed card):",
      "  FILE:LINE: changed CARD FIELD: OLD -> NEW (was OLDFILE:LINE)",
      "  FILE:LINE: added CARD",
      "  OLDFILE:LINE: removed CARD",
      "  moved: N cards from OLDFILE to FILE",
      "--format json: {old, new, same, added, removed, changed, moved}; :help nvimpam-diff describes it.",
      "A summary goes to stderr.",
      "",
      "Exit status: 0 the same model; 1 different; 2 bad usage, or a deck or include file that cannot be read."})
public final class DiffCommand implements Callable<Integer> {
  enum Format { text, json }

  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "OLD", description = "The deck compared against.")
  private Path oldDeck;

  @Parameters(index = "1", paramLabel = "NEW", description = "The deck compared.")
  private Path newDeck;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "text or json; default: ${DEFAULT-VALUE}.")
  private Format format;

  @Option(names = "--tol", paramLabel = "REL", defaultValue = "0",
      description = "Floats that differ by at most REL relative (|a-b| <= REL*max(|a|,|b|)) are equal; default: exact.")
  private double tol;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!(tol >= 0) || Double.isInfinite(tol)) return fail(err, "--tol must be a number 0 or more, not " + tol);
    DeckDiff.Result r;
    DeckDiff.Side a;
    DeckDiff.Side b;
    try {
      // the two sides are read and walked at once, one thread each
      CompletableFuture<DeckDiff.Side> old = CompletableFuture.supplyAsync(() -> side(oldDeck));
      b = side(newDeck);
      a = old.join();
      r = DeckDiff.compare(a, b, tol);
    } catch (CompletionException e) {
      return fail(err, e.getCause() instanceof Failure f ? f.getMessage() : String.valueOf(e.getCause()));
    } catch (Failure e) {
      return fail(err, e.getMessage());
    } catch (RuntimeException | OutOfMemoryError e) {
      return fail(err, "failed: " + e);
    }
    Names names = new Names(a.tree(), b.tree());
    if (format == Format.json) json(out, r, names);
    else text(out, r, names);
    out.flush();
    err.println("nvimpam diff: " + oldDeck + " -> " + newDeck + ": " + summary(r) + " (" + r.oldCards() + " and "
        + r.newCards() + " cards)");
    err.flush();
    return r.same() ? 0 : 1;
  }

  /** Why a side cannot be compared: the message names the file. */
  private static final class Failure extends RuntimeException {
    Failure(String message) {
      super(message, null, false, false);
    }
  }

  private static DeckDiff.Side side(Path deck) {
    try {
      return DeckDiff.index(DiffTree.read(deck));
    } catch (DiffTree.Unreadable e) {
      throw new Failure(e.getMessage());
    } catch (IOException e) {
      throw new Failure(deck + " cannot be read (" + e.getMessage() + ")");
    } catch (OutOfMemoryError e) {
      throw new Failure(deck + " is too big for the JVM's heap (-Xmx)");
    }
  }

  private static int fail(PrintWriter err, String why) {
    err.println("nvimpam diff: " + why);
    err.flush();
    return 2;
  }

  static String summary(DeckDiff.Result r) {
    int fields = 0;
    for (DeckDiff.Change c : r.changed()) fields += c.fields().size();
    return r.changed().size() + " changed (" + fields + " field" + (fields == 1 ? "" : "s") + "), " + r.added().size()
        + " added, " + r.removed().size() + " removed, " + r.moved().size() + " moved between files";
  }

  /** Files as given on the command line: the deck as given, an include file relative to it. */
  private final class Names {
    final DiffTree old;
    final DiffTree now;

    Names(DiffTree old, DiffTree now) {
      this.old = old;
      this.now = now;
    }

    // by path: a split deck moves most of its cards, and a name is made once per file
    final Map<Path, String> olds = new java.util.HashMap<>();
    final Map<Path, String> nows = new java.util.HashMap<>();

    String old(DeckDiff.Place p) {
      return olds.computeIfAbsent(p.path(), f -> CheckCommand.display(oldDeck, old.root().path(), f));
    }

    String now(DeckDiff.Place p) {
      return nows.computeIfAbsent(p.path(), f -> CheckCommand.display(newDeck, now.root().path(), f));
    }
  }

  private static String shown(String v) {
    return v.isEmpty() ? "(blank)" : v;
  }

  private static void text(PrintWriter out, DeckDiff.Result r, Names n) {
    for (DeckDiff.Change c : r.changed()) {
      for (DeckDiff.FieldChange f : c.fields()) {
        out.println(n.now(f.now()) + ":" + (f.now().line() + 1) + ": changed " + c.what() + " " + f.field() + ": "
            + shown(f.oldValue()) + " -> " + shown(f.newValue()) + " (was " + n.old(f.old()) + ":" + (f.old().line() + 1) + ")");
      }
    }
    for (DeckDiff.Card c : r.added()) out.println(n.now(c.place()) + ":" + (c.place().line() + 1) + ": added " + c.what());
    for (DeckDiff.Card c : r.removed()) out.println(n.old(c.place()) + ":" + (c.place().line() + 1) + ": removed " + c.what());
    for (DeckDiff.MoveGroup g : r.moveGroups()) {
      out.println("moved: " + g.count() + " card" + (g.count() == 1 ? "" : "s") + " from " + n.old(g.from()) + " to " + n.now(g.to()));
    }
  }

  private void json(PrintWriter out, DeckDiff.Result r, Names n) {
    StringBuilder s = new StringBuilder(1 << 12);
    s.append("{\"old\": ").append(q(oldDeck.toString())).append(", \"new\": ").append(q(newDeck.toString()))
        .append(", \"same\": ").append(r.same()).append(",\n \"added\": [");
    cards(s, r.added(), n, false);
    s.append("],\n \"removed\": [");
    cards(s, r.removed(), n, true);
    s.append("],\n \"changed\": [");
    for (int i = 0; i < r.changed().size(); i++) {
      DeckDiff.Change c = r.changed().get(i);
      s.append(i == 0 ? "\n  " : ",\n  ");
      head(s, c.what(), c.keyword(), c.kind(), c.id());
      s.append(", \"old\": ");
      place(s, n.old(c.old()), c.old());
      s.append(", \"new\": ");
      place(s, n.now(c.now()), c.now());
      s.append(", \"fields\": [");
      List<DeckDiff.FieldChange> fs = c.fields();
      for (int k = 0; k < fs.size(); k++) {
        DeckDiff.FieldChange f = fs.get(k);
        s.append(k == 0 ? "" : ", ").append("{\"field\": ").append(q(f.field())).append(", \"old\": ").append(q(f.oldValue()))
            .append(", \"new\": ").append(q(f.newValue())).append(", \"old_at\": ");
        place(s, n.old(f.old()), f.old());
        s.append(", \"new_at\": ");
        place(s, n.now(f.now()), f.now());
        s.append('}');
      }
      s.append("]}");
      if (s.length() > 1 << 16) {
        out.print(s);
        s.setLength(0);
      }
    }
    s.append("],\n \"moved\": [");
    for (int i = 0; i < r.moved().size(); i++) {
      DeckDiff.Move m = r.moved().get(i);
      s.append(i == 0 ? "\n  " : ",\n  ").append("{\"card\": ").append(q(m.what())).append(", \"old\": ");
      place(s, n.old(m.old()), m.old());
      s.append(", \"new\": ");
      place(s, n.now(m.now()), m.now());
      s.append('}');
      if (s.length() > 1 << 16) {
        out.print(s);
        s.setLength(0);
      }
    }
    s.append("]}");
    out.println(s);
  }

  private static void cards(StringBuilder s, List<DeckDiff.Card> cs, Names n, boolean old) {
    for (int i = 0; i < cs.size(); i++) {
      DeckDiff.Card c = cs.get(i);
      s.append(i == 0 ? "\n  " : ",\n  ");
      head(s, c.what(), c.keyword(), c.kind(), c.id());
      s.append(", \"at\": ");
      place(s, old ? n.old(c.place()) : n.now(c.place()), c.place());
      s.append('}');
    }
  }

  private static void head(StringBuilder s, String what, String keyword, String kind, String id) {
    s.append("{\"card\": ").append(q(what)).append(", \"keyword\": ").append(q(keyword)).append(", \"kind\": ")
        .append(kind == null ? "null" : q(kind)).append(", \"id\": ").append(id == null ? "null" : q(id));
  }

  private static void place(StringBuilder s, String file, DeckDiff.Place p) {
    s.append("{\"file\": ").append(q(file)).append(", \"line\": ").append(p.line() + 1).append('}');
  }

  private static String q(String s) {
    return ReportJson.quoted(s);
  }
}
