package org.nvimpam.model.diff;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.model.TreeWalk;
import org.nvimpam.lines.LineSource;

/**
 * One side of a diff: a deck and the files it includes, in the order the solver reads them
 * ({@link IncludeWalk}), each with its lines and the version its cards are read as.
 */
public final class DiffTree {
  /**
   * One file of the tree: {@code name} is how reports call it (relative to the root's folder),
   * {@code path} its absolute path, or null for a buffer without a file.
   */
  public record File(Path path, String name, LineSource lines, int version) {}

  /** Why a tree cannot be compared: a file that cannot be read, an include that cannot be followed. */
  public static final class Unreadable extends Exception {
    public Unreadable(String message) {
      super(message, null, false, false);
    }
  }

  private final List<File> files;

  public DiffTree(List<File> files) {
    if (files.isEmpty()) throw new IllegalArgumentException("a diff tree has its root deck at least");
    this.files = List.copyOf(files);
  }

  public List<File> files() {
    return files;
  }

  public File root() {
    return files.get(0);
  }

  /** The name of {@code file} in reports: relative to the root's folder. */
  public static String name(Path root, Path file) {
    if (file == null) return "";
    if (file.equals(root)) return String.valueOf(root.getFileName());
    Path dir = root == null ? null : root.getParent();
    return (dir == null ? file : dir.relativize(file)).toString();
  }

  /**
   * Reads {@code deck} and the files it includes from disk. A file that cannot be read, an include
   * file not found, unreadable, binary or in a cycle: an {@link Unreadable} naming the file and line.
   */
  public static DiffTree read(Path deck) throws Unreadable, IOException {
    Path root = deck.toAbsolutePath().normalize();
    try {
      IncludeFiles.readable(root);
    } catch (IncludeFiles.Unreadable e) {
      throw new Unreadable(deck + " " + e.getMessage());
    }
    return walk(List.of(load(root, root, -1)), root);
  }

  /**
   * The tree of a root already read ({@code first}, for a buffer's own text), the files it includes
   * read from disk unless {@code opened} has them (the buffers showing them).
   */
  public static DiffTree walk(List<File> first, Path rootPath) throws Unreadable, IOException {
    List<File> out = new ArrayList<>(first.subList(0, 1));
    List<String> problems = new ArrayList<>();
    int rootVersion = first.get(0).version();
    TreeWalk.walk(first.get(0), out, new TreeWalk.Members<File>() {
      @Override
      public Path path(File f) {
        return f.path();
      }

      @Override
      public List<IncludeLine> includes(File f) {
        return IncludeLine.of(f.lines());
      }

      @Override
      public File open(Path p) throws IOException {
        for (File o : first) {
          if (p.equals(o.path())) return o;
        }
        return load(rootPath, p, rootVersion);
      }

      @Override
      public void problem(File in, IncludeLine at, ProblemCode code, String message) {
        problems.add(in.name() + ":" + (at.line() + 1) + ": " + message);
      }
    });
    if (!problems.isEmpty()) throw new Unreadable(String.join("; ", problems));
    return new DiffTree(out);
  }

  private static File load(Path root, Path p, int inherited) throws IOException {
    BasicFileAttributes at;
    try {
      at = IncludeFiles.attributes(p);
    } catch (IncludeFiles.Unreadable e) {
      throw new IOException(p + " " + e.getMessage());
    }
    LineSource lines = DeckFile.read(p, DeckFile.estimateLines(p, at.size()), at.size());
    return new File(p, name(root, p), lines, DeckVersion.readAs(lines, inherited));
  }

}
