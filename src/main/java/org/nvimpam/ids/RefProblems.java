package org.nvimpam.ids;

import java.util.Arrays;
import org.nvimpam.lines.LineSource;

/**
 * The references of one deck to ids no deck of its tree defines, in line order, kept up to date
 * across edits like {@link DefTable}: an edit checks again the cards it touched; a key that became
 * defined drops its problems; a key that became undefined is looked for in the whole deck (on
 * demand, off Neovim's main loop). Guarded by the owner's lock.
 */
public final class RefProblems {
  private int[] lines = new int[16];
  private int[] froms = new int[16];
  private int[] tos = new int[16];
  private long[] keys = new long[16];
  private int[] metas = new int[16]; // entry << 12 | (row + 1) << 6 | (field + 1)
  private int size;
  /** At most this many problems are kept; the others are only counted. */
  static final int CAP = 100_000;
  private int dropped;

  // scratch
  private final RefProblems region;
  private IdScanner scanner;
  private IdLookup lookup;
  private long[] wanted; // a targeted scan: only these keys
  private int wantedCount;
  private RefProblems into;
  // A search in steps for the references to keys that lost their last definition: its finds so
  // far, in a list of its own that follows the edits like a whole check; null: none under way.
  private RefProblems search;
  private long[] only; // a search's own list: the keys it looks for
  private int onlyCount;

  public RefProblems() {
    region = new RefProblems(false);
  }

  private RefProblems(boolean unused) {
    region = null;
  }

  public int size() {
    return size;
  }

  /** Problems found beyond {@link #CAP}, counted but not kept: edits then check the whole deck again. */
  public int dropped() {
    return dropped;
  }

  public int line(int p) {
    return lines[p];
  }

  public int from(int p) {
    return froms[p];
  }

  public int to(int p) {
    return tos[p];
  }

  public long key(int p) {
    return keys[p];
  }

  /** The entry of the card, its row (-1: a GES line) and field (-1: a GES item). */
  public int entry(int p) {
    return metas[p] >>> 12;
  }

  public int row(int p) {
    return ((metas[p] >>> 6) & 63) - 1;
  }

  public int field(int p) {
    return (metas[p] & 63) - 1;
  }

  public long heapBytes() {
    return 28L * lines.length + (region == null ? 0 : region.heapBytes()) + (search == null ? 0 : search.heapBytes());
  }

  public void clear() {
    size = 0;
    dropped = 0;
    search = null;
  }

  /** Checks every reference of {@code deck}. */
  public void checkAll(LineSource deck, int version, IdScanner sc, IdLookup lk) {
    size = 0;
    dropped = 0;
    search = null; // a whole check finds what it looked for
    run(deck, 0, deck.lineCount(), version, sc, lk, null, 0, this);
  }

  private int checkPos = -1; // a whole check in steps: the next line; -1: none

  /**
   * A whole check in steps of about {@code lines} lines (the caller lets go of the deck between
   * them); true when it is done. Until then the list is partial. {@link #abandonCheck} starts over.
   */
  public boolean checkStep(LineSource deck, int version, IdScanner sc, IdLookup lk, int lines) {
    if (checkPos < 0) {
      size = 0;
      dropped = 0;
      checkPos = 0;
      search = null; // a whole check finds what it looked for
    }
    int n = deck.lineCount();
    int end = IdScanner.cardEnd(deck, (int) Math.min(n, (long) checkPos + Math.max(1, lines)));
    run(deck, checkPos, end, version, sc, lk, only, onlyCount, this);
    checkPos = end;
    if (end < n) return false;
    checkPos = -1;
    return true;
  }

  /** Forgets a check in steps (the deck changed under it), and a search: a whole check follows. */
  public void abandonCheck() {
    checkPos = -1;
    search = null;
  }

  /** Whether a whole check in steps is under way. */
  public boolean checking() {
    return checkPos >= 0;
  }

  /**
   * An edit of lines {@code [first, lastOld)} into {@code count} lines: checks the cards it touched.
   * During a whole check in steps, only in the part already checked: the steps to come check the rest.
   */
  public void edit(LineSource deck, int first, int lastOld, int count, int version, IdScanner sc, IdLookup lk) {
    if (search != null) search.edit(deck, first, lastOld, count, version, sc, lk);
    if (checkPos >= 0 && first >= checkPos) {
      // Nothing checked changed, but the card that ends at checkPos may now go on past it.
      if (first == checkPos && checkPos > 0) {
        checkPos = IdScanner.cardStart(deck, checkPos - 1);
        size = org.nvimpam.deck.SortedLines.firstAtOrAfter(lines, size, checkPos);
      }
      return;
    }
    int delta = count - (lastOld - first);
    int s = IdScanner.cardStart(deck, first);
    int e = IdScanner.cardEnd(deck, first + count);
    region.size = 0;
    run(deck, s, e, version, sc, lk, only, onlyCount, region);
    splice(s, e - delta, region, delta);
    if (checkPos >= 0) checkPos = e - delta >= checkPos ? e : checkPos + delta; // still where a card begins
  }

  /** {@code key} is defined now: its problems go. */
  public void defined(long key) {
    if (search != null) search.defined(key);
    int w = 0;
    for (int p = 0; p < size; p++) {
      if (keys[p] == key) continue;
      if (w != p) copy(p, w);
      w++;
    }
    size = w;
  }

  /** {@code n} keys are defined nowhere now: finds every reference to them in the whole deck. */
  public void undefined(LineSource deck, int version, IdScanner sc, IdLookup lk, long[] ks, int n) {
    if (n == 0) return;
    region.size = 0;
    run(deck, 0, deck.lineCount(), version, sc, lk, ks, n, region);
    if (region.size == 0) return;
    merge(region, ks, n);
  }

  /** Whether a search begun by {@link #undefinedStep} is under way. */
  public boolean searching() {
    return search != null;
  }

  /**
   * As {@link #undefined}, in steps of about {@code lines} lines (the caller lets go of the deck
   * between them; at 10M lines the whole search held it for seconds): the first call begins the
   * search for the keys {@code ks[0, n)}, later calls go on with it; true once the problems hold
   * every reference to them. The edits between steps are followed.
   */
  public boolean undefinedStep(LineSource deck, int version, IdScanner sc, IdLookup lk, long[] ks, int n, int lines) {
    if (search == null) {
      if (n == 0) return true;
      search = new RefProblems();
      search.only = Arrays.copyOf(ks, n);
      search.onlyCount = n;
    }
    if (!search.checkStep(deck, version, sc, lk, lines)) return false;
    RefProblems found = search;
    search = null;
    dropped += found.dropped;
    merge(found, found.only, found.onlyCount);
    return true;
  }

  /** Drops ours of the keys {@code ks[0, n)} (a region check may have found them already) and merges {@code found}'s in by line. */
  private void merge(RefProblems found, long[] ks, int n) {
    int w = 0;
    for (int p = 0; p < size; p++) {
      if (contains(ks, n, keys[p])) continue;
      if (w != p) copy(p, w);
      w++;
    }
    size = w;
    RefProblems merged = new RefProblems(false);
    merged.ensure(size + found.size);
    int i = 0;
    int j = 0;
    while (i < size || j < found.size) {
      boolean ours = j >= found.size || (i < size && (lines[i] < found.lines[j]
          || (lines[i] == found.lines[j] && froms[i] <= found.froms[j])));
      if (ours) merged.addFrom(this, i++);
      else merged.addFrom(found, j++);
    }
    lines = merged.lines;
    froms = merged.froms;
    tos = merged.tos;
    keys = merged.keys;
    metas = merged.metas;
    size = merged.size;
  }

  private static boolean contains(long[] ks, int n, long k) {
    for (int i = 0; i < n; i++) {
      if (ks[i] == k) return true;
    }
    return false;
  }

  private void run(LineSource deck, int from, int to, int version, IdScanner sc, IdLookup lk, long[] ks, int n,
      RefProblems out) {
    scanner = sc;
    lookup = lk;
    wanted = ks;
    wantedCount = n;
    into = out;
    try {
      int kinds = -1;
      if (ks != null) {
        kinds = 0;
        for (int i = 0; i < n; i++) kinds |= IdKinds.bit(IdKinds.kindOf(ks[i]));
      }
      sc.scan(deck, from, to, version, true, kinds, this::ref);
    } finally {
      scanner = null;
      lookup = null;
      wanted = null;
      into = null;
    }
  }

  private void ref(int line, int from, int to, int kind, int lo, int hi, boolean def) {
    if (def || lo != hi) return; // ranges select what exists: no problem
    long key = IdKinds.key(kind, lo);
    if (wanted != null && !contains(wanted, wantedCount, key)) return;
    if (lookup.count(key) > 0) return;
    int meta = (scanner.entry() << 12) | ((scanner.row() + 1) << 6) | (scanner.field() + 1);
    into.add(line, from, to, key, meta);
  }

  private void add(int line, int from, int to, long key, int meta) {
    if (size >= CAP && region != null) {
      dropped++;
      return;
    }
    ensure(size + 1);
    lines[size] = line;
    froms[size] = from;
    tos[size] = to;
    keys[size] = key;
    metas[size] = meta;
    size++;
  }

  private void addFrom(RefProblems o, int p) {
    add(o.lines[p], o.froms[p], o.tos[p], o.keys[p], o.metas[p]);
  }

  private void copy(int p, int w) {
    lines[w] = lines[p];
    froms[w] = froms[p];
    tos[w] = tos[p];
    keys[w] = keys[p];
    metas[w] = metas[p];
  }

  private void ensure(int n) {
    if (n <= lines.length) return;
    int c = Math.max(n, lines.length * 2);
    lines = Arrays.copyOf(lines, c);
    froms = Arrays.copyOf(froms, c);
    tos = Arrays.copyOf(tos, c);
    keys = Arrays.copyOf(keys, c);
    metas = Arrays.copyOf(metas, c);
  }

  private int firstAtOrAfter(int line) {
    return org.nvimpam.deck.SortedLines.firstAtOrAfter(lines, size, line);
  }

  private void splice(int from, int oldTo, RefProblems with, int delta) {
    int a = firstAtOrAfter(from);
    int b = firstAtOrAfter(oldTo);
    int tail = size - b;
    int n = a + with.size + tail;
    ensure(n);
    int dst = a + with.size;
    System.arraycopy(lines, b, lines, dst, tail);
    System.arraycopy(froms, b, froms, dst, tail);
    System.arraycopy(tos, b, tos, dst, tail);
    System.arraycopy(keys, b, keys, dst, tail);
    System.arraycopy(metas, b, metas, dst, tail);
    if (delta != 0) {
      for (int i = dst; i < dst + tail; i++) lines[i] += delta;
    }
    System.arraycopy(with.lines, 0, lines, a, with.size);
    System.arraycopy(with.froms, 0, froms, a, with.size);
    System.arraycopy(with.tos, 0, tos, a, with.size);
    System.arraycopy(with.keys, 0, keys, a, with.size);
    System.arraycopy(with.metas, 0, metas, a, with.size);
    size = n;
  }
}
