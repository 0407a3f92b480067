package org.nvimpam.ids;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.lines.LineSource;

/**
 * A deck and the files it includes, nested, each once ({@link IncludeWalk}): live buffers where a
 * buffer shows the file (its text wins), else the file as on disk. Problems (a file not found,
 * unreadable, binary, a cycle) are kept per INCLU line.
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
  public record Problem(Member in, IncludeLine at, IncludeLine top, ProblemCode code, String message) {}

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
    t.walk(m, buffers, files);
    return t;
  }

  /** The tree whose root is the file {@code root} as read from disk (no buffer shows it). */
  public static IdTree of(IncludeFiles.Entry root, Buffers buffers, IncludeFiles files) {
    IdTree t = new IdTree(root.version());
    Member m = new Member(root.path(), null, root);
    t.members.add(m);
    t.walk(m, buffers, files);
    return t;
  }

  private void walk(Member m, Buffers buffers, IncludeFiles files) {
    IdTree t = this;
    IncludeWalk.walk(m, new IncludeWalk.Members<Member>() {
      @Override
      public Path path(Member x) {
        return x.path;
      }

      @Override
      public List<IncludeLine> includes(Member x) {
        return includesOf(x);
      }

      @Override
      public Member open(Path p) throws IncludeFiles.Unreadable {
        IdBuffer live = buffers.showing(p);
        Member next;
        if (live != null) {
          next = new Member(p, live, null);
        } else {
          IncludeFiles.Entry e = files.get(p, t.version);
          if (e.error() != null) throw e.error();
          next = new Member(p, null, e);
        }
        t.members.add(next);
        return next;
      }

      @Override
      public void problem(Member in, IncludeLine at, IncludeLine top, ProblemCode code, String message) {
        t.problems.add(new Problem(in, at, top, code, message));
      }
    });
  }

  static List<IncludeLine> includesOf(Member m) {
    if (m.disk != null) return m.disk.includes();
    m.live.inSteps(BufferIds::includesStep); // a first read
    List<IncludeLine> l = m.live.withIds((ids, deck) -> List.copyOf(ids.includes(deck)));
    return l == null ? List.of() : l;
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
