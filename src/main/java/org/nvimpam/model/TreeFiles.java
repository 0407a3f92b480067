package org.nvimpam.model;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.lines.LineSource;

/**
 * A deck's include tree read whole from files, edited line by line and written under a folder of
 * its own with the same relative paths (or over itself, when allowed): how the headless
 * {@code extract} writes; the headless {@code transform} ({@link TransformStream}, which streams
 * the files) shares the targets. Every target is checked before anything is written; the files
 * go to temporary files beside their targets, all moved into place at the end ({@link TreeWrite}).
 */
public final class TreeFiles {
  /** One file of the tree, read whole; {@code version} its INPUTVERSION (the root's where it declares none). */
  public record File(Path path, Deck deck, boolean lastTerminated, int version) implements Transform.Source {
    @Override
    public String label() {
      return path.getFileName().toString();
    }

    @Override
    public <T> T read(Function<LineSource, T> f) {
      return f.apply(deck);
    }
  }

  /** The root's files in include order; {@code problems} the INCLU lines that could not be followed. */
  public record Tree(Path root, List<File> files, List<Transform.Note> problems) {}

  private TreeFiles() {}

  /** Reads {@code deck} and its include tree. A deck that cannot be read throws why. */
  public static Tree read(Path deck) throws IncludeFiles.Unreadable, IOException {
    Path root = deck.toAbsolutePath().normalize();
    IncludeFiles.readable(root);
    List<File> files = new ArrayList<>();
    List<Transform.Note> problems = new ArrayList<>();
    File top = file(root, -1);
    files.add(top);
    TreeWalk.walk(top, files, new TreeWalk.Members<File>() {
      @Override
      public Path path(File f) {
        return f.path();
      }

      @Override
      public List<IncludeLine> includes(File f) {
        return IncludeLine.of(f.deck());
      }

      @Override
      public File open(Path p) throws IOException {
        return file(p, top.version());
      }

      @Override
      public void problem(File in, IncludeLine at, ProblemCode code, String message) {
        problems.add(new Transform.Note(files.indexOf(in), at.line(), at.from(), message));
      }
    });
    return new Tree(root, files, problems);
  }

  private static File file(Path p, int treeVersion) throws IOException {
    long size = Files.size(p);
    Deck d = DeckFile.read(p, DeckFile.estimateLines(p, size), size);
    boolean terminated = FileBytes.lastTerminated(p, size);
    return new File(p, d, terminated, DeckVersion.readAs(d, treeVersion));
  }

  /**
   * Where each file of {@code tree} goes under {@code out} (the deck's folder when null), by index;
   * why one may not be written goes to {@code refusals}.
   */
  public static List<Path> targets(Tree tree, Path out, boolean inPlace, List<Transform.Note> refusals) {
    List<Path> paths = new ArrayList<>();
    for (File f : tree.files()) paths.add(f.path());
    return targets(tree.root(), paths, out, inPlace, refusals);
  }

  /** As {@link #targets(Tree, Path, boolean, List)}, for the tree of {@code root} whose files are {@code paths}. */
  public static List<Path> targets(Path root, List<Path> paths, Path out, boolean inPlace, List<Transform.Note> refusals) {
    Path rootDir = root.getParent();
    Path dir = out == null ? rootDir : out.toAbsolutePath().normalize();
    List<Path> inputs = new ArrayList<>();
    for (Path p : paths) inputs.add(TreeWrite.real(p));
    List<Path> targets = new ArrayList<>();
    for (int i = 0; i < paths.size(); i++) {
      Path path = paths.get(i);
      Path rel = rootDir.relativize(path);
      Path target;
      if (rel.startsWith("..") || rel.isAbsolute()) {
        if (!inPlace) {
          refusals.add(new Transform.Note(i, 0, 0, path + " lies outside the deck's folder, so it has no place under " + dir
              + " (--in-place changes it where it is)"));
        }
        target = path;
      } else {
        target = dir.resolve(rel).normalize();
      }
      targets.add(target);
      if (!inPlace && inputs.contains(TreeWrite.real(target))) {
        refusals.add(new Transform.Note(i, 0, 0, target + " is a file of the deck's tree: --in-place is needed to overwrite it"));
        continue;
      }
      String why = TreeWrite.unwritable(target);
      if (why != null) refusals.add(new Transform.Note(i, 0, 0, target + " cannot be written: " + why));
    }
    return targets;
  }

  /** What one file of the output holds: its lines with edits made, written by {@code write}. */
  public interface Content {
    void write(OutputStream o) throws IOException;
  }

  /** Writes each content to a temporary file beside its target, then moves them all into place. */
  public static List<Path> write(List<Path> targets, List<Content> contents) throws IOException {
    return TreeWrite.write(targets, "write", (i, o) -> contents.get(i).write(o));
  }
}
