package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.model.Transform;
import org.nvimpam.model.TransformStream;
import org.nvimpam.model.TreeFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code nvimpam transform DECK -o OUTDIR translate DX DY DZ}: nodes moved across an include tree, headless. */
@Command(
    name = "transform",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Translates, rotates, scales or mirrors the nodes of a deck and the files it includes (all of them, "
          + "those of some parts' elements with --part, or the NODE cards of some lines with --lines), and "
          + "writes the whole tree under OUTDIR with the same relative paths.",
      "Each coordinate is computed in decimal and written in its field with the most significant digits "
          + "the field holds; a coordinate the transform leaves equal keeps its bytes, and so does every "
          + "other byte. A mirror (or a negative scale) also reverses the node order of each element whose "
          + "nodes all move (quad 1234 -> 1432, triangle 123 -> 132, hexahedron 1234/5678 -> 1432/5876, "
          + "pentahedron 123/456 -> 132/465, tetrahedron 1234 -> 1324, pyramid 12345 -> 14325; lines and "
          + "links keep theirs), so that normals and volumes keep their sign.",
      "Everything is checked first, and nothing is written when anything is refused; the refusals are "
          + "all listed: a coordinate that would not fit its field or is no number, an element with only "
          + "some of its nodes mirrored (or a quadratic one, whose order is not reversed), nodes --part "
          + "shares with other parts (--shared moves them too), a file that cannot be written. The cards "
          + "with geometry of their own that are not transformed (FRAME vectors, MASS offsets, PLANE "
          + "normals, RBODY centre nodes that do not move) are listed."},
    footer = {
      "",
      "Examples:",
      "  java -jar nvimpam.jar transform seat.pc -o seat_up translate 0 0 30",
      "  java -jar nvimpam.jar transform car.pc -o car_rot --part 100,101 rotate z 90 1000 0 0",
      "  java -jar nvimpam.jar transform door.pc -o door_right mirror y",
      "",
      "Refusals go to stdout, one a line: FILE:LINE:COL: error: MESSAGE (1-based); the cards not "
          + "transformed as FILE:LINE:COL: note: MESSAGE; a summary to stderr.",
      "",
      "Exit status: 0 written; 1 refused (nothing written); 2 bad usage or a deck that cannot be read."})
public final class TransformCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "DECK", arity = "0..1", description = "The deck whose tree to transform.")
  private Path deck;

  @Parameters(index = "1..*", paramLabel = "TRANSFORM", description = Transform.USAGE)
  private List<String> words = new ArrayList<>();

  @Option(names = {"-o", "--out"}, paramLabel = "OUTDIR", description = "Where the tree goes (default with --in-place: the deck's folder).")
  private Path out;

  @Option(names = "--part", paramLabel = "IDS", split = ",", description = "Only the nodes of these parts' elements.")
  private List<Integer> parts = new ArrayList<>();

  @Option(names = "--shared", description = "With --part: move the nodes other parts' elements use too.")
  private boolean shared;

  @Option(names = "--lines", paramLabel = "FILE:A-B", description = "Only the NODE cards on lines A to B (1-based) of FILE, a file of the tree.")
  private String lines;

  @Option(names = "--threads", paramLabel = "N", description = "Worker threads (default: the processors available).")
  private Integer threads;

  @Option(names = "--in-place", description = "Allow overwriting the deck's own files (each is replaced whole, once all are written).")
  private boolean inPlace;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (deck == null) return usage(err, "no DECK given");
    if (out == null && !inPlace) return usage(err, "no OUTDIR given (-o OUTDIR, or --in-place to overwrite the deck's files)");
    if (!parts.isEmpty() && lines != null) return usage(err, "--part and --lines: give one of them");
    if (shared && parts.isEmpty()) return usage(err, "--shared goes with --part");
    if (threads != null && threads < 1) return usage(err, "--threads must be 1 or more, not " + threads);
    Transform.Op op;
    try {
      op = Transform.parse(words);
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    }
    TransformStream.Result r;
    try {
      r = TransformStream.run(deck, out, inPlace, op, !parts.isEmpty(), this::scope, threads != null ? threads : Runtime.getRuntime().availableProcessors());
    } catch (IncludeFiles.Unreadable e) {
      err.println("nvimpam transform: " + deck + " " + e.getMessage());
      err.flush();
      return 2;
    } catch (IllegalArgumentException e) {
      return usage(err, e.getMessage());
    } catch (IOException | java.io.UncheckedIOException e) {
      err.println("nvimpam transform: " + e.getMessage() + " (nothing written)");
      err.flush();
      return 2;
    }
    for (Transform.Note n : r.untouched()) stdout.println(where(r, n) + ": note: " + n.message());
    if (r.refused()) {
      for (Transform.Note n : r.refusals()) stdout.println(where(r, n) + ": error: " + n.message());
      stdout.flush();
      err.println("nvimpam transform: " + deck + ": refused, " + r.refusals().size() + " reason" + (r.refusals().size() == 1 ? "" : "s")
          + " (above); nothing written");
      err.flush();
      return 1;
    }
    stdout.flush();
    int files = r.files().size();
    err.println("nvimpam transform: " + deck + ": " + op.text() + ": " + r.nodes() + " node" + (r.nodes() == 1 ? "" : "s") + " moved"
        + (r.reversed() > 0 ? ", " + r.reversed() + " element" + (r.reversed() == 1 ? "" : "s") + " reversed" : "")
        + " in " + r.changedFiles() + " of " + files + " file" + (files == 1 ? "" : "s")
        + ", written to " + r.targets().get(0).getParent()
        + (r.untouched().isEmpty() ? "" : "; " + r.untouched().size() + " card" + (r.untouched().size() == 1 ? "" : "s")
            + " with geometry of their own not transformed (notes above)"));
    err.flush();
    return 0;
  }

  /** The scope, once the tree's files are known; else why not. */
  private Transform.Scope scope(List<Path> files) {
    if (!parts.isEmpty()) return new Transform.Parts(parts.stream().mapToInt(Integer::intValue).toArray(), shared);
    if (lines == null) return new Transform.All();
    int[] r = lineRange(files.get(0), files, lines);
    return new Transform.Lines(r[0], r[1], r[2]);
  }

  /** {@code --lines FILE:A-B}: the index of FILE in the tree, and lines A and B 0-based; else why not. */
  static int[] lineRange(TreeFiles.Tree tree, String lines) {
    List<Path> files = new ArrayList<>();
    for (TreeFiles.File f : tree.files()) files.add(f.path());
    return lineRange(tree.root(), files, lines);
  }

  /** As {@link #lineRange(TreeFiles.Tree, String)}, for the tree of {@code root} whose files are {@code files}. */
  static int[] lineRange(Path root, List<Path> files, String lines) {
    int colon = lines.lastIndexOf(':');
    int dash = colon < 0 ? -1 : lines.indexOf('-', colon);
    if (colon <= 0 || dash < 0) throw new IllegalArgumentException("--lines " + lines + ": not FILE:A-B");
    Path file = Path.of(lines.substring(0, colon));
    int a;
    int b;
    try {
      a = Integer.parseInt(lines.substring(colon + 1, dash).trim());
      b = Integer.parseInt(lines.substring(dash + 1).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--lines " + lines + ": A and B are line numbers");
    }
    if (a < 1 || b < a) throw new IllegalArgumentException("--lines " + lines + ": lines from 1, A up to B");
    Path dir = root.getParent();
    for (Path candidate : List.of(file.toAbsolutePath().normalize(), dir.resolve(file).normalize())) {
      for (int i = 0; i < files.size(); i++) {
        if (files.get(i).equals(candidate)) return new int[] {i, a - 1, b - 1};
      }
    }
    throw new IllegalArgumentException("--lines: " + file + " is no file of the deck's tree");
  }

  private String where(TransformStream.Result r, Transform.Note n) {
    String file = n.file() < 0 ? deck.toString() : CheckCommand.display(deck, r.root(), r.files().get(n.file()));
    return file + ":" + (n.line() + 1) + ":" + (n.col() + 1);
  }

  private int usage(PrintWriter err, String why) {
    err.println("nvimpam transform: " + why);
    err.println("Usage: java -jar nvimpam.jar transform DECK -o OUTDIR [--part IDS [--shared] | --lines FILE:A-B] " + Transform.USAGE
        + "  (help transform: the options)");
    err.flush();
    return 2;
  }
}
