package org.nvimpam.ids;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;

/**
 * The walk of a deck's include tree, the one rule the plugin ({@link IdTree}) and {@code check}
 * share: depth first, in the order of the INCLU lines, each file once; a relative name resolves
 * against the folder of the file that names it, then against the folder of the root deck (as
 * PAM-CRASH looks for it: the including file's folder, then the folder the run starts in, which is
 * the top deck's). Problems (a file not found, unreadable or binary, a cycle) go to the caller,
 * each on the INCLU line that names the file.
 */
public final class IncludeWalk {
  /** Deeper nesting than this is not followed (a tree that deep is a mistake, not a model). */
  static final int MAX_DEPTH = 64;

  private IncludeWalk() {}

  /** What the walk needs: the members' files and INCLU lines, and a member for each file reached. */
  public interface Members<M> {
    /** The member's file, or null (a buffer with no file). */
    Path path(M m);

    /** The member's INCLU lines, in order. */
    List<IncludeLine> includes(M m);

    /** The member for file {@code p}, first reached now; or why it cannot be read. */
    M open(Path p) throws IncludeFiles.Unreadable;

    /**
     * A problem on INCLU line {@code at} of {@code in}; {@code top} is the root's INCLU line through
     * which {@code in} was reached ({@code at} itself in the root).
     */
    void problem(M in, IncludeLine at, IncludeLine top, ProblemCode code, String message);
  }

  /** Walks the tree of {@code root}. */
  public static <M> void walk(M root, Members<M> members) {
    Path file = members.path(root);
    Set<Path> seen = new HashSet<>();
    if (file != null) seen.add(file);
    walk(root, file == null ? null : file.getParent(), members, seen, new ArrayList<>(), 0, null);
  }

  private static <M> void walk(M m, Path rootDir, Members<M> t, Set<Path> seen, List<Path> stack, int depth,
      IncludeLine top) {
    List<IncludeLine> lines = t.includes(m);
    if (lines.isEmpty()) return;
    Path file = t.path(m);
    stack.add(file);
    Path dir = file == null ? rootDir : file.getParent();
    for (IncludeLine il : lines) {
      IncludeLine via = top == null ? il : top;
      Path p = resolve(il.name(), dir, rootDir);
      if (p == null) {
        t.problem(m, il, via, ProblemCode.INCLUDE_MISSING, "include file " + il.name() + " not found"
            + (dir == null ? "" : " (looked in " + dir + (rootDir != null && !rootDir.equals(dir) ? " and " + rootDir : "") + ")"));
        continue;
      }
      if (stack.contains(p)) {
        StringBuilder chain = new StringBuilder();
        for (int k = stack.indexOf(p); k < stack.size(); k++) chain.append(name(stack.get(k))).append(" -> ");
        chain.append(name(p));
        t.problem(m, il, via, ProblemCode.INCLUDE_CYCLE, "include cycle: " + chain);
        continue;
      }
      if (!seen.add(p)) continue;
      M next;
      try {
        next = t.open(p);
      } catch (IncludeFiles.Unreadable e) {
        t.problem(m, il, via, e.code(), "include file " + il.name() + " " + e.getMessage());
        continue;
      }
      if (depth < MAX_DEPTH) walk(next, rootDir, t, seen, stack, depth + 1, via);
    }
    stack.remove(stack.size() - 1);
  }

  private static String name(Path p) {
    return p == null ? "(buffer)" : String.valueOf(p.getFileName());
  }

  /**
   * Where an INCLU name points: absolute as written; relative, in {@code dir} (the folder of the
   * file holding the line), else in {@code rootDir}; null when no such file exists (a name that is
   * a folder or unreadable resolves, and is reported as what it is).
   */
  public static Path resolve(String name, Path dir, Path rootDir) {
    Path p;
    try {
      p = Path.of(name);
    } catch (InvalidPathException e) {
      return null;
    }
    if (p.isAbsolute()) return Files.exists(p) ? p.normalize() : null;
    if (dir != null) {
      Path q = dir.resolve(p).normalize();
      if (Files.exists(q)) return q;
    }
    if (rootDir != null) {
      Path q = rootDir.resolve(p).normalize();
      if (Files.exists(q)) return q;
    }
    return null;
  }
}
