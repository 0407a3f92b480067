package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.model.Extract;
import org.nvimpam.model.Transform;
import org.nvimpam.model.TreeFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nvimpam extract DECK --part IDS --to FILE -o OUTDIR}: cards moved into a new include file, headless. */
@Command(
    name = "extract",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Moves cards of a deck's include tree into a new include file, and adds its INCLU line to the deck: with "
          + "--part, the PART cards, their elements and the nodes no other element uses (shared nodes stay); "
          + "with --lines, the whole cards those lines touch. Each card moves whole, in the tree's order; "
          + "every other line stays as it was. The whole tree and the new file are written under OUTDIR with "
          + "the same relative paths.",
      "Refused, with nothing written: a part defined nowhere, lines that hold no card, a FILE that exists "
          + "already, a file that cannot be written."},
    footer = {
      "",
      "Examples:",
      "  java -jar nvimpam.jar extract car.pc --part 100,101 --to seat.inc -o car_split",
      "",
      "Exit status: 0 written; 1 refused (nothing written); 2 bad usage or a deck that cannot be read."})
public final class ExtractCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(paramLabel = "DECK", arity = "0..1", description = "The deck whose tree to split.")
  private Path deck;

  @Option(names = "--to", paramLabel = "FILE", description = "The new include file, relative to the deck's folder.")
  private String to;

  @Option(names = {"-o", "--out"}, paramLabel = "OUTDIR", description = "Where the tree goes (default with --in-place: the deck's folder).")
  private Path out;

  @Option(names = "--part", paramLabel = "IDS", split = ",", description = "The parts to move, with their elements and their own nodes.")
  private List<Integer> parts = new ArrayList<>();

  @Option(names = "--lines", paramLabel = "FILE:A-B", description = "The cards lines A to B (1-based) of FILE touch.")
  private String lines;

  @Option(names = "--in-place", description = "Allow overwriting the deck's own files.")
  private boolean inPlace;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (deck == null) return usage(err, "no DECK given");
    if (to == null || to.isBlank()) return usage(err, "no --to FILE given");
    if (out == null && !inPlace) return usage(err, "no OUTDIR given (-o OUTDIR, or --in-place to overwrite the deck's files)");
    if (parts.isEmpty() == (lines == null)) return usage(err, "give --part IDS or --lines FILE:A-B");
    TreeFiles.Tree tree;
    try {
      tree = TreeFiles.read(deck);
    } catch (IncludeFiles.Unreadable e) {
      err.println("nvimpam extract: " + deck + " " + e.getMessage());
      err.flush();
      return 2;
    } catch (IOException e) {
      err.println("nvimpam extract: " + e.getMessage() + " (nothing written)");
      err.flush();
      return 2;
    }
    Path dir = tree.root().getParent();
    Path rel = Path.of(to);
    Path source = dir.resolve(rel).normalize();
    if (rel.isAbsolute() || dir.relativize(source).startsWith("..")) return usage(err, "--to " + to + ": not inside the deck's folder");
    Extract.Scope scope;
    try {
      scope = lines == null ? new Extract.Parts(parts.stream().mapToInt(Integer::intValue).toArray()) : lines(tree);
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    }
    List<Transform.Note> refusals = new ArrayList<>(tree.problems());
    List<Path> targets = TreeFiles.targets(tree, out, inPlace, refusals);
    Path target = (out == null ? dir : out.toAbsolutePath().normalize()).resolve(dir.relativize(source)).normalize();
    if (Files.exists(source)) refusals.add(new Transform.Note(-1, 0, 0, source + " exists already"));
    else if (Files.exists(target)) refusals.add(new Transform.Note(-1, 0, 0, target + " exists already"));
    Extract.Result r = Extract.plan(List.copyOf(tree.files()), scope, dir.relativize(source).toString());
    refusals.addAll(r.refusals());
    if (!refusals.isEmpty()) {
      for (Transform.Note n : refusals) {
        String file = n.file() < 0 ? deck.toString() : CheckCommand.display(deck, tree.root(), tree.files().get(n.file()).path());
        stdout.println(file + ":" + (n.line() + 1) + ":" + (n.col() + 1) + ": error: " + n.message());
      }
      stdout.flush();
      err.println("nvimpam extract: " + deck + ": refused, " + refusals.size() + " reason" + (refusals.size() == 1 ? "" : "s")
          + " (above); nothing written");
      err.flush();
      return 1;
    }
    List<TreeFiles.Content> contents = new ArrayList<>();
    for (int i = 0; i < tree.files().size(); i++) {
      TreeFiles.File f = tree.files().get(i);
      Extract.Removal removal = null;
      for (Extract.Removal x : r.removals()) {
        if (x.file() == i) removal = x;
      }
      Extract.Removal gone = removal;
      byte[] inclu = i == 0 ? r.inclu() : null;
      contents.add(o -> Extract.write(f.deck(), gone, inclu, r.incluAt(), f.lastTerminated(), o));
    }
    targets.add(target);
    contents.add(o -> {
      for (byte[] l : r.lines()) {
        o.write(l);
        o.write('\n');
      }
    });
    try {
      TreeFiles.write(targets, contents);
    } catch (IOException e) {
      err.println("nvimpam extract: " + e.getMessage() + " (nothing written)");
      err.flush();
      return 2;
    }
    err.println("nvimpam extract: " + deck + ": " + r.cards() + " cards (" + r.parts() + " parts, " + r.elements() + " elements, "
        + r.nodes() + " nodes) moved to " + target + ", the tree written to " + targets.get(0).getParent());
    err.flush();
    return 0;
  }

  private Extract.Scope lines(TreeFiles.Tree tree) {
    int[] r = TransformCommand.lineRange(tree, lines);
    return new Extract.Lines(r[0], r[1], r[2]);
  }

  private int usage(PrintWriter err, String why) {
    err.println("nvimpam extract: " + why);
    err.println("Usage: java -jar nvimpam.jar extract DECK --part IDS | --lines FILE:A-B --to FILE -o OUTDIR  (help extract: the options)");
    err.flush();
    return 2;
  }
}
