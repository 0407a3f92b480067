package org.nvimpam.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.deck.RowWalker;
import org.nvimpam.ids.IntList;
import org.nvimpam.lines.LineSource;

/**
 * Moves cards of a deck's include tree into a new include file: the PART cards of some parts with
 * their elements and the nodes no other element uses, or the whole cards some lines of one file
 * touch. Each card goes whole (its header through its last row; the comments after it stay), in
 * the tree's order; the root deck gets the new file's INCLU line where its first moved card was,
 * else after its last INCLU line. No Neovim here: the plan is the lines each file loses, the new
 * file's lines and where the INCLU line goes.
 */
public final class Extract {
  /** Which cards move. */
  public sealed interface Scope permits Parts, Lines {}

  /** The PART cards of {@code ids}, their elements, and the nodes only those elements use. */
  public record Parts(int[] ids) implements Scope {}

  /** The whole cards that lines {@code [from, to]} (0-based) of file {@code file} touch. */
  public record Lines(int file, int from, int to) implements Scope {}

  /** A file's lines that go (ascending, 0-based), with their text as read. */
  public record Removal(int file, int[] lines, byte[][] old) {}

  /**
   * The plan: each file's removals; the new file's lines; the root's INCLU line and the line it
   * goes before, counted after the root's removals; the counts of cards moved by kind; refusals.
   */
  public record Result(List<Removal> removals, List<byte[]> lines, byte[] inclu, int incluAt, int parts, int elements, int nodes,
      int cards, List<Transform.Note> refusals) {
    public boolean refused() {
      return !refusals.isEmpty();
    }
  }

  /** A card: its file, header line, last row's line, role, id, and (an element) its part and nodes. */
  private record Card(int file, int header, int last, int role, int id, int part, int[] nodes) {}

  private Extract() {}

  /** The plan that moves {@code scope}'s cards of the tree {@code files} (the root first) to a file the root names {@code include}. */
  public static Result plan(List<Transform.Source> files, Scope scope, String include) {
    List<List<Card>> cards = new ArrayList<>();
    for (int f = 0; f < files.size(); f++) {
      int file = f;
      Transform.Source s = files.get(f);
      cards.add(s.read(src -> cards(src, s.version(), file)));
    }
    List<Transform.Note> refusals = new ArrayList<>();
    List<Set<Integer>> moving = new ArrayList<>(); // by file: header lines of the cards that move
    for (int f = 0; f < files.size(); f++) moving.add(new HashSet<>());
    int[] counts = new int[4]; // parts, elements, nodes, cards
    if (scope instanceof Parts p) {
      Set<Integer> parts = new HashSet<>();
      for (int id : p.ids()) parts.add(id);
      Set<Integer> found = new HashSet<>();
      Set<Integer> mine = new HashSet<>();
      Set<Integer> others = new HashSet<>();
      for (List<Card> l : cards) {
        for (Card c : l) {
          if (c.role() != Transform.ELEMENT) continue;
          boolean in = parts.contains(c.part());
          for (int n : c.nodes()) {
            if (n != 0) (in ? mine : others).add(n);
          }
        }
      }
      for (List<Card> l : cards) {
        for (Card c : l) {
          boolean take = switch (c.role()) {
            case Transform.PART -> parts.contains(c.id());
            case Transform.ELEMENT -> parts.contains(c.part());
            case Transform.NODE -> mine.contains(c.id()) && !others.contains(c.id());
            default -> false;
          };
          if (!take) continue;
          if (c.role() == Transform.PART) found.add(c.id());
          counts[c.role() == Transform.PART ? 0 : c.role() == Transform.ELEMENT ? 1 : 2]++;
          moving.get(c.file()).add(c.header());
        }
      }
      for (int id : new TreeSet<>(parts)) {
        if (!found.contains(id)) refusals.add(new Transform.Note(-1, 0, 0, "part " + id + " is defined nowhere in the tree"));
      }
    } else if (scope instanceof Lines l) {
      for (Card c : cards.get(l.file())) {
        if (c.last() >= l.from() && c.header() <= l.to()) moving.get(l.file()).add(c.header());
      }
      if (moving.get(l.file()).isEmpty()) refusals.add(new Transform.Note(l.file(), l.from(), 0, "the lines hold no card"));
    }
    // the cards, whole, in the tree's order: their lines go to the new file
    List<Removal> removals = new ArrayList<>();
    List<byte[]> lines = new ArrayList<>();
    int firstRootLine = -1;
    for (int f = 0; f < files.size(); f++) {
      Set<Integer> m = moving.get(f);
      if (m.isEmpty()) continue;
      int file = f;
      List<Card> fileCards = cards.get(f);
      Removal r = files.get(f).read(src -> {
        IntList at = new IntList();
        List<byte[]> old = new ArrayList<>();
        for (Card c : fileCards) {
          if (!m.contains(c.header())) continue;
          for (int i = c.header(); i <= c.last(); i++) {
            byte[] text = Arrays.copyOfRange(src.bytes(i), src.start(i), src.start(i) + src.contentLength(i));
            at.add(i);
            old.add(text);
            lines.add(text);
          }
        }
        return new Removal(file, Arrays.copyOf(at.a, at.size), old.toArray(byte[][]::new));
      });
      counts[3] += m.size();
      removals.add(r);
      if (f == 0) firstRootLine = r.lines()[0];
    }
    byte[] inclu = ("INCLU / " + include).getBytes(StandardCharsets.ISO_8859_1);
    int before;
    if (firstRootLine >= 0) {
      before = firstRootLine;
    } else {
      before = files.get(0).read(Extract::afterLastInclude);
    }
    int removedBefore = 0;
    for (Removal r : removals) {
      if (r.file() != 0) continue;
      for (int l : r.lines()) {
        if (l < before) removedBefore++;
      }
    }
    if (include.length() > 72) refusals.add(new Transform.Note(0, before, 0, "the INCLU line of " + include + " would pass column 80"));
    if (!refusals.isEmpty()) return new Result(List.of(), List.of(), inclu, 0, counts[0], counts[1], counts[2], counts[3], refusals);
    return new Result(removals, lines, inclu, before - removedBefore, counts[0], counts[1], counts[2], counts[3], List.of());
  }

  /** The line after the root's last INCLU line; with none, its ENDDATA line, else its end. */
  private static int afterLastInclude(LineSource src) {
    List<org.nvimpam.deck.IncludeLine> inc = org.nvimpam.deck.IncludeLine.of(src);
    if (!inc.isEmpty()) return inc.get(inc.size() - 1).line() + 1;
    byte[] end = LineBytes.ascii("ENDDATA");
    for (int i = src.lineCount() - 1; i >= 0; i--) {
      if (LineBytes.startsWith(src.bytes(i), src.start(i), src.contentLength(i), end)) return i;
    }
    return src.lineCount();
  }

  /** The cards of one file that an extract may move: nodes, elements, parts; and every other card, for a range. */
  private static List<Card> cards(LineSource src, int version, int file) {
    List<Card> out = new ArrayList<>();
    RowWalker walker = new RowWalker(Transform.TABLE);
    int[] picks = Transform.TABLE.picks(version);
    int n = src.lineCount();
    int i = 0;
    double[] v = new double[Transform.S_COG + 1];
    int[] last = {0};
    while (i < n) {
      int g = walker.groupAt(src, i);
      if (g < 0) {
        int end = walker.skipCard(src, i);
        if (LineBytes.isComment(src.bytes(i), src.start(i), src.contentLength(i))) {
          i = Math.max(end, i + 1);
          continue;
        }
        out.add(new Card(file, i, lastRow(src, i, end), Transform.OTHER, 0, 0, new int[0]));
        i = Math.max(end, i + 1);
        continue;
      }
      int e = picks[g] >= 0 ? picks[g] : Transform.TABLE.group(g)[0];
      int role = Transform.ROLES[e];
      int[][] f = Transform.FIELDS[e];
      Arrays.fill(v, Double.NaN);
      last[0] = i;
      int header = i;
      int end = walker.walkCard(src, i, e, (line, code) -> {
        if (code != RowWalker.COMMENT && code != RowWalker.EXTRA && code != RowWalker.NONE) last[0] = line;
        if (code < 0 || f == null || code >= f.length) return;
        int[] fr = f[code];
        byte[] a = walker.lineBytes();
        int off = walker.lineStart();
        int len = walker.lineLength();
        for (int k = 0; k < fr.length; k += 3) {
          if (fr[k] == Transform.S_GEO) continue;
          v[fr[k]] = DeckNumber.read(a, off, len, fr[k + 1], fr[k + 2], 0);
        }
      });
      int[] nodes = new int[0];
      if (role == Transform.ELEMENT) {
        nodes = new int[20];
        for (int k = 0; k < 20; k++) nodes[k] = id(v[Transform.S_NODE1 + k]);
      }
      out.add(new Card(file, header, last[0], role, id(v[Transform.S_ID]), id(v[Transform.S_PART]), nodes));
      i = end;
    }
    return out;
  }

  /** The last line of {@code [from, to)} that is no comment. */
  private static int lastRow(LineSource src, int from, int to) {
    for (int i = to - 1; i > from; i--) {
      if (!LineBytes.isComment(src.bytes(i), src.start(i), src.contentLength(i))) return i;
    }
    return from;
  }

  private static int id(double d) {
    return Double.isNaN(d) || d < 0 || d > Integer.MAX_VALUE ? 0 : (int) d;
  }

  /**
   * The same change as {@link #write} as hunks in line order, for a change applied in parts: each
   * run of removed lines, and the INCLU line (when not null) before kept line {@code incluAt}.
   */
  public static List<Renumber.Hunk> hunks(int lineCount, Removal removal, byte[] inclu, int incluAt) {
    int[] gone = removal == null ? new int[0] : removal.lines();
    List<Renumber.Hunk> out = new ArrayList<>();
    int at = -1; // where the INCLU line goes, in the file's lines as they are
    if (inclu != null) {
      int kept = 0;
      int k = 0;
      at = lineCount;
      for (int i = 0; i < lineCount; i++) {
        if (k < gone.length && gone[k] == i) {
          k++;
        } else if (kept++ == incluAt) {
          at = i;
          break;
        }
      }
    }
    byte[][] none = new byte[0][];
    int k = 0;
    while (k < gone.length) {
      int j = k;
      while (j + 1 < gone.length && gone[j + 1] == gone[j] + 1) j++;
      if (at >= 0 && at <= gone[k]) {
        out.add(new Renumber.Hunk(at, at, new byte[][] {inclu}));
        at = -1;
      }
      out.add(new Renumber.Hunk(gone[k], gone[j] + 1, none));
      k = j + 1;
    }
    if (at >= 0) out.add(new Renumber.Hunk(at, at, new byte[][] {inclu}));
    return out;
  }

  /** The file's lines without {@code removal}'s (may be null) and, when {@code inclu} is not null, with it before kept line {@code incluAt}. */
  public static void write(LineSource src, Removal removal, byte[] inclu, int incluAt, boolean lastTerminated, java.io.OutputStream o)
      throws java.io.IOException {
    java.io.BufferedOutputStream b = new java.io.BufferedOutputStream(o, 1 << 16);
    int[] gone = removal == null ? new int[0] : removal.lines();
    List<byte[]> out = new ArrayList<>();
    int k = 0;
    int n = src.lineCount();
    for (int i = 0; i < n; i++) {
      if (k < gone.length && gone[k] == i) {
        k++;
        continue;
      }
      out.add(Arrays.copyOfRange(src.bytes(i), src.start(i), src.start(i) + src.length(i)));
    }
    if (inclu != null) out.add(Math.min(incluAt, out.size()), inclu);
    for (int i = 0; i < out.size(); i++) {
      b.write(out.get(i));
      if (i < out.size() - 1 || lastTerminated) b.write('\n');
    }
    b.flush();
  }
}
