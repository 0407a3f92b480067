package org.nvimpam.ids;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.nvimpam.deck.LineSource;
import org.nvimpam.deck.IncludeLine;

/**
 * A deck and the files it includes, nested, each once: live buffers where a buffer shows the file
 * (its text wins), else the file as on disk. A relative name resolves against the folder of the
 * file that names it, then against the folder of the tree's root deck. Problems (a file not
 * found, unreadable, binary, a cycle) are kept per INCLU line.
 */
public final class IdTree {
  /** One deck of the tree: a live buffer or a file read from disk. */
  public record Member(Path path, IdBuffer live, IncludeFiles.Entry disk) {
    public String label() {
      return path == null ? "buffer " + live.bufferId() : path.getFileName().toString();
    }
  }

  /**
   * A problem on INCLU line {@code at} of {@code in}; {@code top} is the root's INCLU line through
   * which {@code in} was reached ({@code at} itself in the root).
   */
  public record Problem(Member in, IncludeLine at, IncludeLine top, String message) {}

  private final List<Member> members = new ArrayList<>();
  private final List<Problem> problems = new ArrayList<>();
  private final int version;

  private IdTree(int version) {
    this.version = version;
  }

  public List<Member> members() {
    return members;
  }

  public List<Problem> problems() {
    return problems;
  }

  /** The root's version, which included files that declare none take. */
  public int version() {
    return version;
  }

  public Member root() {
    return members.get(0);
  }

  /** The member showing {@code b}, or null. */
  public Member memberOf(IdBuffer b) {
    for (Member m : members) {
      if (m.live == b) return m;
    }
    return null;
  }

  /** Whether the tree holds {@code file}. */
  public boolean holds(Path file) {
    if (file == null) return false;
    for (Member m : members) {
      if (file.equals(m.path)) return true;
    }
    return false;
  }

  /** What the tree needs from the plugin: the buffer showing a file, if any. */
  public interface Buffers {
    IdBuffer showing(Path file);
  }

  /** The tree whose root is the live buffer {@code root}. */
  public static IdTree of(IdBuffer root, Buffers buffers, IncludeFiles files) {
    Integer v = root.withIds((ids, deck) -> ids.built() ? ids.version() : -1);
    IdTree t = new IdTree(v == null ? -1 : v);
    Member m = new Member(root.file(), root, null);
    t.members.add(m);
    Set<Path> seen = new HashSet<>();
    if (root.file() != null) seen.add(root.file());
    List<Path> stack = new ArrayList<>();
    t.walk(m, root.file() == null ? null : root.file().getParent(), buffers, files, seen, stack, 0, null);
    return t;
  }

  private void walk(Member m, Path rootDir, Buffers buffers, IncludeFiles files, Set<Path> seen, List<Path> stack,
      int depth, IncludeLine top) {
    List<IncludeLine> lines = includesOf(m);
    if (lines.isEmpty()) return;
    stack.add(m.path);
    Path dir = m.path == null ? rootDir : m.path.getParent();
    for (IncludeLine il : lines) {
      IncludeLine via = top == null ? il : top;
      Path p = resolve(il.name(), dir, rootDir);
      if (p == null) {
        problems.add(new Problem(m, il, via, "include file " + il.name() + " not found"
            + (dir == null ? "" : " (looked in " + dir + (rootDir != null && !rootDir.equals(dir) ? " and " + rootDir : "") + ")")));
        continue;
      }
      if (stack.contains(p)) {
        StringBuilder chain = new StringBuilder();
        for (int k = stack.indexOf(p); k < stack.size(); k++) chain.append(name(stack.get(k))).append(" -> ");
        chain.append(name(p));
        problems.add(new Problem(m, il, via, "include cycle: " + chain));
        continue;
      }
      if (!seen.add(p)) continue;
      IdBuffer live = buffers.showing(p);
      Member next;
      if (live != null) {
        next = new Member(p, live, null);
      } else {
        IncludeFiles.Entry e = files.get(p, version);
        if (e.error() != null) {
          problems.add(new Problem(m, il, via, "include file " + il.name() + " " + e.error()));
          continue;
        }
        next = new Member(p, null, e);
      }
      members.add(next);
      if (depth < 64) walk(next, rootDir, buffers, files, seen, stack, depth + 1, via);
    }
    stack.remove(stack.size() - 1);
  }

  private static String name(Path p) {
    return p == null ? "(buffer)" : String.valueOf(p.getFileName());
  }

  static List<IncludeLine> includesOf(Member m) {
    if (m.disk != null) return m.disk.includes();
    m.live.inSteps((ids, deck) -> ids.includesStep(deck, IdService.STEP_LINES)); // a first read
    List<IncludeLine> l = m.live.withIds((ids, deck) -> List.copyOf(ids.includes(deck)));
    return l == null ? List.of() : l;
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

  /** Runs {@code f} on a member's deck and ids: a live buffer under its lock, a file as read. */
  public static <T> T read(Member m, java.util.function.BiFunction<LineSource, DefTable, T> f) {
    if (m.disk != null) return f.apply(m.disk.deck(), m.disk.defs());
    return m.live.withIds((ids, deck) -> ids.built() ? f.apply(deck, ids.defs()) : null);
  }

  /** A member's definitions, or null while a live buffer's are not built. */
  public static DefTable defs(Member m) {
    if (m.disk != null) return m.disk.defs();
    return m.live.withIds((ids, deck) -> ids.built() ? ids.defs() : null);
  }

  /** A member's version. */
  public static int version(Member m) {
    if (m.disk != null) return m.disk.version();
    Integer v = m.live.withIds((ids, deck) -> ids.version());
    return v == null ? 0 : v;
  }
}
