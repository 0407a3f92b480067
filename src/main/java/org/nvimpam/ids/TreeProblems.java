package org.nvimpam.ids;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.DeckProblems;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.deck.ProblemItems;
import org.nvimpam.lines.LineSource;

/**
 * :NvimpamCheck: every problem of a deck and its include tree as the plugin holds it (open buffers
 * as they are, not as saved; the headless check reads the files: org.nvimpam.model.TreeCheck),
 * file by file (the deck first, then its include files in the order it includes them), each
 * file's by line and column: the field checks (TABs and header shapes among them) and the
 * cross-reference checks (undefined and duplicate ids, include files missing, unreadable, binary
 * or in a cycle). At most {@code cap} with their messages, and the total of all. The plugin sends
 * them to Neovim (org.nvimpam.plugin.Diagnostics).
 */
public final class TreeProblems {
  /** One file of the tree: a live buffer ({@code buffer} > 0) or a file read from disk. */
  public record File(Path path, long buffer) {}

  private final List<File> files = new ArrayList<>();
  /** A problem in {@code files().get(file)}: 0-based line and columns (end exclusive), severity, message, code. */
  public record Item(int file, int lnum, int col, int end, int severity, byte[] message, ProblemCode code) {}

  private final List<Item> items = new ArrayList<>();
  private long total;

  private TreeProblems() {}

  /**
   * Checks the tree {@code b} belongs to. {@code liveFields} gives a live buffer's field problems
   * (kept up to date by the plugin), or null when it has none; they are checked once then.
   */
  public static TreeProblems of(IdService svc, IdBuffer b, int cap, Function<IdBuffer, ProblemItems> liveFields) {
    TreeProblems c = new TreeProblems();
    IdTree tree = svc.treeOf(b);
    for (IdTree.Member m : tree.members()) {
      ProblemItems fields;
      ProblemItems refs;
      if (m.live() != null) {
        refs = svc.refProblems(m.live(), cap); // builds the index first: ids.version() is the deck's then
        fields = liveFields.apply(m.live());
        if (fields == null) fields = m.live().withIds((ids, deck) -> fieldsOnce(deck, ids.version(), cap));
      } else {
        fields = fieldsOnce(m.disk().deck(), m.disk().version(), cap);
        refs = refsOnce(tree, m, cap);
      }
      c.add(new File(m.path(), m.live() == null ? 0 : m.live().bufferId()), fields, refs, cap);
    }
    return c;
  }

  private static ProblemItems fieldsOnce(LineSource deck, int version, int cap) {
    DeckProblems p = new DeckProblems(CardLayouts.bundled());
    p.checkAll(deck, version > 0 ? version : CardLayouts.bundled().newestVersion());
    return p.snapshot(deck, cap);
  }

  /** A file read from disk, checked against the other decks of the tree, with the tree's problems on its lines. */
  private static ProblemItems refsOnce(IdTree tree, IdTree.Member m, int cap) {
    List<DefTable> others = new ArrayList<>();
    for (IdTree.Member o : tree.members()) {
      if (o == m) continue;
      DefTable d = IdTree.defs(o);
      if (d != null) others.add(d);
    }
    List<BufferIds.TreeProblem> mine = new ArrayList<>();
    for (IdTree.Problem p : tree.problems()) {
      if (p.in() == m) mine.add(new BufferIds.TreeProblem(p.at().line(), p.at().from(), p.at().to(), p.code(), p.message()));
    }
    LineSource deck = m.disk().deck();
    BufferIds ids = new BufferIds();
    ids.tree(others, mine, true, tree.version(), deck);
    ids.build(deck);
    ids.check(deck);
    return ids.snapshot(deck, cap);
  }

  /** Merges a file's two lists by line, then column, as long as fewer than {@code cap} are kept. */
  private void add(File f, ProblemItems a, ProblemItems b, int cap) {
    int fi = files.size();
    files.add(f);
    if (a != null) total += a.total();
    if (b != null) total += b.total();
    int na = a == null ? 0 : a.messages().length;
    int nb = b == null ? 0 : b.messages().length;
    int i = 0;
    int j = 0;
    while ((i < na || j < nb) && items.size() < cap) {
      boolean first = j >= nb || (i < na && (a.at()[4 * i] < b.at()[4 * j]
          || (a.at()[4 * i] == b.at()[4 * j] && a.at()[4 * i + 1] <= b.at()[4 * j + 1])));
      ProblemItems s = first ? a : b;
      int k = first ? i++ : j++;
      int[] at = s.at();
      items.add(new Item(fi, at[4 * k], at[4 * k + 1], at[4 * k + 2], at[4 * k + 3], s.messages()[k], s.codes()[k]));
    }
  }

  public List<File> files() {
    return files;
  }

  /** The problems of the whole tree, listed or not. */
  public long total() {
    return total;
  }

  /** The problems listed, file by file, each file's by line and column. */
  public List<Item> items() {
    return items;
  }
}
