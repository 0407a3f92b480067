package org.nvimpam.model.diff;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The semantic diff of two decks and their include trees: what the solver reads, not the lines.
 * Cards that define an id are matched by its kind and id; the others by keyword and title (the
 * NAME row), identical cards first, then in the order the solver reads them. Matched cards are
 * compared field by field, values as the solver reads them ({@link Values}); a float tolerance
 * (relative) may be given. Cards that moved to another file are moves, not changes.
 */
public final class DeckDiff {
  private DeckDiff() {}

  /** A place in a tree: the file as reports name it, its path (null: a buffer without a file), a 0-based line. */
  public record Place(String file, Path path, int line) {}

  /**
   * An added or removed card: {@code what} names it ({@code NODE 12}); kind and id for an id card,
   * else null. A removed card's {@code near} is a place in the new tree next to where it was: the
   * card matched to the old card before it (the new root's first line when there is none); null
   * for an added card.
   */
  public record Card(String what, String keyword, String kind, String id, Place place, Place near) {}

  /** One field's change: its name ({@code X}, {@code X#2} for the second), the old and new values as written ("" blank). */
  public record FieldChange(String field, String oldValue, String newValue, Place old, Place now) {}

  /** A changed card, with its changed fields. */
  public record Change(String what, String keyword, String kind, String id, Place old, Place now, List<FieldChange> fields) {}

  /** A card, unchanged, in another file. */
  public record Move(String what, Place old, Place now) {}

  /** How many cards moved from one file to another: the files as places at their first line. */
  public record MoveGroup(Place from, Place to, int count) {}

  /**
   * What differs; the lists in file order (removed cards by their old place, the others by their
   * new). {@code moved} makes each move when asked (a split deck moves most of its cards);
   * {@code moveGroups} counts them by files.
   */
  public record Result(List<Card> added, List<Card> removed, List<Change> changed, List<Move> moved,
      List<MoveGroup> moveGroups, int oldCards, int newCards) {
    /** Whether the two decks are the same model (moves between files are none of its changes). */
    public boolean same() {
      return added.isEmpty() && removed.isEmpty() && changed.isEmpty();
    }
  }

  /** One side, its cards walked. */
  public static final class Side {
    final Cards cards;

    private Side(Cards cards) {
      this.cards = cards;
    }

    public DiffTree tree() {
      return cards.tree;
    }

    public int cards() {
      return cards.count;
    }
  }

  /** Walks every card of a tree: the whole-deck pass, on bytes. */
  public static Side index(DiffTree tree) {
    return new Side(Cards.index(tree));
  }

  /** Compares two indexed sides; {@code tol}: the relative difference of two floats read as equal (0: exact). */
  public static Result compare(Side oldSide, Side newSide, double tol) {
    if (!(tol >= 0)) throw new IllegalArgumentException("tolerance must be 0 or more, not " + tol);
    Cards a = oldSide.cards;
    Cards b = newSide.cards;
    int[] pair = new int[b.count]; // the old card of each new card, or -1
    Arrays.fill(pair, -1);
    boolean[] used = new boolean[a.count];
    // identical cards first: the same key and values. Most are in the same order on both sides
    // (a split into include files keeps it): paired in one pass, with a card added or removed
    // stepped over; the rest through a hash table.
    int unpaired = b.count;
    for (int i = 0, j = 0; i < a.count && j < b.count; ) {
      if (same(a, i, b, j)) {
        pair[j++] = i;
        used[i++] = true;
        unpaired--;
      } else if (i + 1 < a.count && same(a, i + 1, b, j)) {
        i++; // old card i is left for the table
      } else {
        j++;
      }
    }
    int left = 0;
    for (int i = 0; i < a.count; i++) {
      if (!used[i]) left++;
    }
    if (unpaired > 0 && left > 0) {
      Chains exact = new Chains(left, a.count);
      for (int i = 0; i < a.count; i++) {
        if (!used[i]) exact.add(Values.mix(a.key[i], 7, a.hash[i]), i);
      }
      for (int j = 0; j < b.count; j++) {
        if (pair[j] >= 0) continue;
        int i = exact.take(Values.mix(b.key[j], 7, b.hash[j]), used);
        if (i >= 0) {
          pair[j] = i;
          used[i] = true;
          left--;
        }
      }
    }
    // then the rest by key, in order
    Chains byKey = new Chains(left, a.count);
    for (int i = 0; i < a.count; i++) {
      if (!used[i]) byKey.add(a.key[i], i);
    }
    List<Change> changed = new ArrayList<>();
    int[] moves = new int[16]; // pairs: old card, new card
    int nMoves = 0;
    List<Card> added = new ArrayList<>();
    for (int j = 0; j < b.count; j++) {
      int i = pair[j];
      if (i < 0) {
        i = byKey.take(b.key[j], used);
        if (i >= 0) {
          used[i] = true;
          pair[j] = i;
        } else {
          added.add(card(b, j, null));
          continue;
        }
      }
      boolean otherFile = !fileId(a, i).equals(fileId(b, j));
      if (a.hash[i] != b.hash[j]) {
        Change c = change(a, i, b, j, tol);
        if (c != null) {
          changed.add(c);
          continue;
        }
      }
      if (otherFile) {
        if (2 * nMoves + 2 > moves.length) moves = Arrays.copyOf(moves, moves.length * 2);
        moves[2 * nMoves] = i;
        moves[2 * nMoves + 1] = j;
        nMoves++;
      }
    }
    List<Card> removed = new ArrayList<>();
    int[] newOf = new int[a.count];
    Arrays.fill(newOf, -1);
    for (int j = 0; j < b.count; j++) {
      if (pair[j] >= 0) newOf[pair[j]] = j;
    }
    DiffTree.File root = b.tree.root();
    Place near = new Place(root.name(), root.path(), 0);
    for (int i = 0; i < a.count; i++) {
      if (newOf[i] >= 0) near = place(b, newOf[i], b.line[newOf[i]]);
      if (!used[i]) removed.add(card(a, i, near));
    }
    int[] mv = moves;
    int count = nMoves;
    List<Move> moved = new java.util.AbstractList<>() {
      @Override
      public Move get(int k) {
        int i = mv[2 * k];
        int j = mv[2 * k + 1];
        return new Move(b.describe(j), place(a, i, a.line[i]), place(b, j, b.line[j]));
      }

      @Override
      public int size() {
        return count;
      }
    };
    Map<Long, int[]> groups = new LinkedHashMap<>();
    for (int k = 0; k < count; k++) {
      groups.computeIfAbsent(((long) a.file[mv[2 * k]] << 32) | b.file[mv[2 * k + 1]], x -> new int[1])[0]++;
    }
    List<MoveGroup> moveGroups = new ArrayList<>();
    for (Map.Entry<Long, int[]> e : groups.entrySet()) {
      DiffTree.File from = a.tree.files().get((int) (e.getKey() >>> 32));
      DiffTree.File to = b.tree.files().get((int) (long) e.getKey());
      moveGroups.add(new MoveGroup(new Place(from.name(), from.path(), 0), new Place(to.name(), to.path(), 0), e.getValue()[0]));
    }
    return new Result(added, removed, changed, moved, moveGroups, a.count, b.count);
  }

  private static boolean same(Cards a, int i, Cards b, int j) {
    return a.key[i] == b.key[j] && a.hash[i] == b.hash[j];
  }

  /** The file of a card as moves compare it: the root decks are one file, whatever their names. */
  private static String fileId(Cards c, int card) {
    return c.file[card] == 0 ? "" : c.tree.files().get(c.file[card]).name();
  }

  private static Place place(Cards c, int card, int line) {
    DiffTree.File f = c.tree.files().get(c.file[card]);
    return new Place(f.name(), f.path(), line);
  }

  private static Card card(Cards c, int i, Place near) {
    String kw = keyword(c, i);
    return new Card(c.describe(i), kw, c.kind(i), c.id(i), place(c, i, c.line[i]), near);
  }

  private static String keyword(Cards c, int i) {
    if (c.entry[i] == Cards.PREAMBLE) return "";
    var s = c.tree.files().get(c.file[i]).lines();
    int l = c.line[i];
    return org.nvimpam.deck.LineBytes.wordOf(org.nvimpam.deck.LineBytes.headerWord(s.bytes(l), s.start(l), s.contentLength(l)));
  }

  /** The fields in which two matched cards differ, or null when the solver reads them alike. */
  private static Change change(Cards a, int i, Cards b, int j, double tol) {
    List<Cards.Field> fa = a.fields(i);
    List<Cards.Field> fb = b.fields(j);
    Map<String, Cards.Field> old = new LinkedHashMap<>();
    for (Cards.Field f : fa) old.put(f.label(), f);
    List<FieldChange> out = new ArrayList<>();
    for (Cards.Field f : fb) {
      Cards.Field o = old.remove(f.label());
      if (o == null) {
        if (f.text().isEmpty()) continue; // a field of the new layout only, left blank
        out.add(new FieldChange(f.label(), "", f.text(), place(a, i, a.line[i]), place(b, j, f.line())));
      } else if (!o.same(f, tol)) {
        out.add(new FieldChange(f.label(), o.text(), f.text(), place(a, i, o.line()), place(b, j, f.line())));
      }
    }
    for (Cards.Field o : old.values()) {
      if (o.text().isEmpty()) continue;
      out.add(new FieldChange(o.label(), o.text(), "", place(a, i, o.line()), place(b, j, b.line[j])));
    }
    if (out.isEmpty()) return null;
    return new Change(b.describe(j), keyword(b, j), b.kind(j), b.id(j), place(a, i, a.line[i]), place(b, j, b.line[j]), out);
  }

  /**
   * Cards by key, each key's in order, taken from the front: open addressing on primitive arrays
   * (a 1M-line deck has most of a million cards).
   */
  private static final class Chains {
    private final long[] keys;
    private final int[] head;
    private final int[] tail;
    private final int[] next;
    private final int mask;

    /** Room for {@code keys} cards of {@code cards} (their indices below it). */
    Chains(int keys, int cards) {
      int cap = Integer.highestOneBit(Math.max(16, keys * 2 + 1)) << 1;
      this.keys = new long[cap];
      head = new int[cap];
      tail = new int[cap];
      Arrays.fill(head, -1);
      next = new int[Math.max(1, cards)];
      mask = cap - 1;
    }

    private int slot(long k) {
      int s = (int) ((k * 0x9E3779B97F4A7C15L) >>> 37) & mask;
      while (head[s] != -1 && keys[s] != k) s = (s + 1) & mask;
      return s;
    }

    void add(long k, int card) {
      int s = slot(k);
      next[card] = -1;
      if (head[s] == -1) {
        keys[s] = k;
        head[s] = card;
      } else {
        next[tail[s]] = card;
      }
      tail[s] = card;
    }

    /** The first card of key {@code k} not used yet (and drops the used ones before it), or -1. */
    int take(long k, boolean[] used) {
      int s = slot(k);
      int c = head[s];
      while (c >= 0 && used[c]) c = next[c];
      if (c < 0) {
        if (head[s] != -1) head[s] = -2; // emptied, but still a key: later probes go past it
        return -1;
      }
      head[s] = next[c] < 0 ? -2 : next[c];
      return c;
    }
  }
}
