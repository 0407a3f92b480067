package org.nvimpam.ids;

import java.util.Arrays;

/**
 * Definitions in line order (line, id, kind), kept in segments of at most {@link #SEGMENT}
 * entries, so that neither an edit nor a build ever copies or shifts them all: a contiguous table
 * of a 10M-line deck (9M definitions, 82 MB) held the buffer's lock 50-80 ms for each edit that
 * added or removed one (the move and the shift of every definition below it), and 0.2-0.4 s when it
 * grew or was copied into place. A segment's lines are stored less its {@code shift}, which moves
 * them all at once. An edit inside one segment with room left changes it in place; one that spans
 * segments or fills one makes them anew, with room. Each segment keeps a range that holds its ids
 * and the kinds it holds, for lookups by id (an edit in place may leave them wider, never
 * narrower). Segments are large enough for the JVM to place them among the old objects at once
 * (over 1 MB): as small arrays, a 10M-line deck's 82 MB of them were copied by the first young
 * collection, a pause of 1.5-4.4 s on a busy machine. Not thread-safe.
 */
final class DefRun {
  /** The most entries of a segment: its line array is over 1 MB. */
  static final int SEGMENT = 1 << 18;

  private final int cap;
  private final int fill; // what a build or a new segment fills, the rest is room for edits
  private Seg[] segs = new Seg[4];
  private int nSegs;
  private int[] starts = new int[5]; // the index of each segment's first entry; starts[nSegs] == size
  private int size;

  private static final class Seg {
    int[] lines;
    int[] ids;
    byte[] kinds;
    int n;
    int shift; // added to every stored line
    int min = Integer.MAX_VALUE;
    int max = Integer.MIN_VALUE;
    int kindBits;

    Seg(int capacity) {
      lines = new int[capacity];
      ids = new int[capacity];
      kinds = new byte[capacity];
    }

    void add(int line, int id, byte kind) {
      lines[n] = line - shift;
      ids[n] = id;
      kinds[n] = kind;
      n++;
      min = Math.min(min, id);
      max = Math.max(max, id);
      kindBits |= IdKinds.bit(kind);
    }
  }

  DefRun() {
    this(SEGMENT);
  }

  /** With segments of at most {@code cap} entries (small ones in tests, to cross their bounds). */
  DefRun(int cap) {
    this.cap = cap;
    this.fill = Math.max(1, cap - cap / 8);
  }

  int size() {
    return size;
  }

  int segments() {
    return nSegs;
  }

  /** The segment holding entry {@code d} ({@code 0 <= d < size}). */
  private int segOf(int d) {
    int lo = 0;
    int hi = nSegs - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (starts[mid] <= d) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  int line(int d) {
    int k = segOf(d);
    Seg s = segs[k];
    return s.lines[d - starts[k]] + s.shift;
  }

  int id(int d) {
    int k = segOf(d);
    return segs[k].ids[d - starts[k]];
  }

  byte kind(int d) {
    int k = segOf(d);
    return segs[k].kinds[d - starts[k]];
  }

  /** Appends an entry after the last (its line at or after the last one's). */
  void add(int line, int id, byte kind) {
    Seg last = nSegs == 0 ? null : segs[nSegs - 1];
    if (last == null || last.n >= fill) {
      last = new Seg(Math.min(cap, 16));
      addSeg(last);
    } else if (last.n == last.lines.length) { // a small deck's one segment grows as it needs
      int c = Math.min(cap, 2 * last.n);
      last.lines = Arrays.copyOf(last.lines, c);
      last.ids = Arrays.copyOf(last.ids, c);
      last.kinds = Arrays.copyOf(last.kinds, c);
    }
    last.add(line, id, kind);
    size++;
    starts[nSegs] = size;
  }

  private void addSeg(Seg s) {
    if (nSegs == segs.length) {
      segs = Arrays.copyOf(segs, nSegs * 2);
      starts = Arrays.copyOf(starts, nSegs * 2 + 1);
    }
    segs[nSegs++] = s;
    starts[nSegs] = size;
  }

  void clear() {
    segs = new Seg[4];
    starts = new int[5];
    nSegs = 0;
    size = 0;
  }

  /** The first entry whose line is at or after {@code line}, or {@link #size}. */
  int firstAtOrAfter(int line) {
    int lo = 0;
    int hi = nSegs; // the first segment whose last line is at or after `line`
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      Seg s = segs[mid];
      if (s.lines[s.n - 1] + s.shift < line) lo = mid + 1;
      else hi = mid;
    }
    if (lo == nSegs) return size;
    Seg s = segs[lo];
    return starts[lo] + org.nvimpam.deck.SortedLines.firstAtOrAfter(s.lines, s.n, line - s.shift);
  }

  /**
   * Replaces entries {@code [a, b)} by the {@code n} entries of {@code lines}, {@code ids}, {@code
   * kinds} (at {@code a}, in line order) and adds {@code delta} to the lines of the entries after
   * them. Reads and writes only the segments that held {@code [a, b)} and the new entries; the
   * segments below take {@code delta} as their shift.
   */
  void replace(int a, int b, int[] lines, int[] ids, byte[] kinds, int n, int delta) {
    if (nSegs == 0) {
      for (int k = 0; k < n; k++) add(lines[k], ids[k], kinds[k]);
      return;
    }
    int sa = segOf(Math.min(a, size - 1)); // a == size: the entries go at the end of the last segment
    int sb = b > a ? segOf(b - 1) : sa;
    int after;
    if (sa == sb && segs[sa].n + n - (b - a) <= segs[sa].lines.length && segs[sa].n + n - (b - a) > 0) {
      inPlace(sa, a - starts[sa], b - starts[sa], lines, ids, kinds, n, delta);
      after = sa + 1;
    } else {
      after = remake(sa, sb, a, b, lines, ids, kinds, n, delta);
    }
    if (delta != 0) {
      for (int k = after; k < nSegs; k++) segs[k].shift += delta;
    }
    size += n - (b - a);
    for (int k = sa; k < nSegs; k++) starts[k + 1] = starts[k] + segs[k].n;
  }

  /** Replaces entries {@code [i, j)} of segment {@code k}, which has room for the new ones. */
  private void inPlace(int k, int i, int j, int[] lines, int[] ids, byte[] kinds, int n, int delta) {
    Seg s = segs[k];
    int tail = s.n - j;
    System.arraycopy(s.lines, j, s.lines, i + n, tail);
    System.arraycopy(s.ids, j, s.ids, i + n, tail);
    System.arraycopy(s.kinds, j, s.kinds, i + n, tail);
    if (delta != 0) {
      for (int x = i + n; x < i + n + tail; x++) s.lines[x] += delta;
    }
    s.n = i;
    for (int x = 0; x < n; x++) s.add(lines[x], ids[x], kinds[x]); // widens the segment's id range and kinds
    s.n = i + n + tail;
  }

  /**
   * Makes segments {@code [sa, sb]} anew from their entries with {@code [a, b)} replaced, filled
   * as a build fills them; returns the index of the first segment after them.
   */
  private int remake(int sa, int sb, int a, int b, int[] lines, int[] ids, byte[] kinds, int n, int delta) {
    int from = starts[sa];
    int to = starts[sb + 1];
    int len = (a - from) + n + (to - b);
    int[] l = new int[len];
    int[] v = new int[len];
    byte[] t = new byte[len];
    int j = copyOut(from, a, l, v, t, 0, 0);
    System.arraycopy(lines, 0, l, j, n);
    System.arraycopy(ids, 0, v, j, n);
    System.arraycopy(kinds, 0, t, j, n);
    copyOut(b, to, l, v, t, j + n, delta);
    int parts = len == 0 ? 0 : (len + fill - 1) / fill; // as even as they can be, none over fill
    Seg[] made = new Seg[parts];
    for (int p = 0, x = 0; p < parts; p++) {
      int e = (int) ((long) len * (p + 1) / parts);
      Seg g = new Seg(Math.min(cap, e - x + ((e - x) >> 3) + 16));
      for (int k = x; k < e; k++) g.add(l[k], v[k], t[k]);
      made[p] = g;
      x = e;
    }
    int grow = parts - (sb - sa + 1);
    if (nSegs + grow > segs.length) {
      int c = Math.max(nSegs + grow, nSegs * 2);
      segs = Arrays.copyOf(segs, c);
      starts = Arrays.copyOf(starts, c + 1);
    }
    System.arraycopy(segs, sb + 1, segs, sa + parts, nSegs - sb - 1);
    System.arraycopy(made, 0, segs, sa, parts);
    for (int k = nSegs + grow; k < nSegs; k++) segs[k] = null;
    nSegs += grow;
    return sa + parts;
  }

  /** Copies entries {@code [from, to)} to {@code l, v, t} at {@code at}, their lines plus {@code delta}; returns the next index. */
  private int copyOut(int from, int to, int[] l, int[] v, byte[] t, int at, int delta) {
    if (from >= to) return at;
    int k = segOf(from);
    int d = from;
    while (d < to) {
      Seg s = segs[k];
      int i0 = d - starts[k];
      int i1 = Math.min(s.n, to - starts[k]);
      for (int i = i0; i < i1; i++) {
        l[at] = s.lines[i] + s.shift + delta;
        v[at] = s.ids[i];
        t[at] = s.kinds[i];
        at++;
      }
      d += i1 - i0;
      k++;
    }
    return at;
  }

  /** Adds {@code d} to the counts of the keys of entries {@code [from, to)}; returns how many reached 2 (d > 0) or fell to 1 (d < 0). */
  int count(int from, int to, IdCounts counts, int d) {
    int changed = 0;
    if (from >= to) return 0;
    int k = segOf(from);
    int x = from;
    while (x < to) {
      Seg s = segs[k];
      int i0 = x - starts[k];
      int i1 = Math.min(s.n, to - starts[k]);
      for (int i = i0; i < i1; i++) {
        int c = counts.add(IdKinds.key(s.kinds[i], s.ids[i]), d);
        if ((d > 0 && c == 2) || (d < 0 && c == 1)) changed++;
      }
      x += i1 - i0;
      k++;
    }
    return changed;
  }

  /** The greatest id of kind {@code kind}, or 0. */
  int maxId(int kind) {
    int max = 0;
    int bit = IdKinds.bit(kind);
    for (int k = 0; k < nSegs; k++) {
      Seg s = segs[k];
      if ((s.kindBits & bit) == 0 || s.max <= max) continue;
      for (int i = 0; i < s.n; i++) {
        if (s.kinds[i] == kind && s.ids[i] > max) max = s.ids[i];
      }
    }
    return max;
  }

  /** The entries with {@code kind} and {@code id}, ascending, at most {@code max}, read only in the segments that may hold them. */
  int[] indicesOf(int kind, int id, int max) {
    int[] out = new int[Math.min(max, 16)];
    int n = 0;
    int bit = IdKinds.bit(kind);
    for (int k = 0; k < nSegs && n < max; k++) {
      Seg s = segs[k];
      if ((s.kindBits & bit) == 0 || id < s.min || id > s.max) continue;
      for (int i = 0; i < s.n && n < max; i++) {
        if (s.ids[i] == id && s.kinds[i] == kind) {
          if (n == out.length) out = Arrays.copyOf(out, Math.min(max, n * 2));
          out[n++] = starts[k] + i;
        }
      }
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  long heapBytes() {
    long b = 64 + 24L * segs.length;
    for (int k = 0; k < nSegs; k++) b += 9L * segs[k].lines.length + 64;
    return b;
  }
}
