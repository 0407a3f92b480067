package org.nvimpam.ids;

import java.util.Arrays;
import org.nvimpam.deck.LineSource;

/**
 * The ids one deck defines, in line order (three primitive arrays: 9 bytes a definition), and how
 * many times each is defined ({@link IdCounts}). Kept up to date across edits: an edit scans
 * again only from the card header at or before it to the next card header after it, and shifts
 * the lines below. Its monitor is a leaf lock (nothing is called while it is held), so that
 * another buffer's checks may count its ids; the line-order accessors are for the owner, who holds
 * its deck's lock.
 */
public final class DefTable {
  private int[] lines = new int[64];
  private int[] ids = new int[64];
  private byte[] kinds = new byte[64];
  private int size;
  private IdCounts counts = new IdCounts();
  // A build in steps counts what it reads as it goes: in its last step, the count of all of them
  // (4.6M at 10M lines) held the buffer's lock longest.
  private IdCounts nCounts = new IdCounts();
  private int nDuplicated;
  private long generation; // bumped whenever the set of defined keys (or their counts) changes
  private int duplicated; // keys defined more than once

  // scratch of an edit
  private int[] nLines = new int[16];
  private int[] nIds = new int[16];
  private byte[] nKinds = new byte[16];
  private int nSize;
  private int buildPos = -1; // a build in steps: the next line to read; -1: none
  // Per block of 256 definitions: the least and greatest id and the kinds in it, so that a lookup
  // reads only the blocks that may hold the id (ids mostly ascend with the lines). Valid for the
  // first `summarized` blocks; an edit that changes the number of definitions cuts that back.
  private static final int BLOCK_BITS = 8;
  private int[] bMin = new int[0];
  private int[] bMax = new int[0];
  private int[] bKinds = new int[0];
  private int summarized;
  private long[] touched = new long[8];
  private int touchedCount;

  public int size() {
    return size;
  }

  public int line(int d) {
    return lines[d];
  }

  public int id(int d) {
    return ids[d];
  }

  public int kind(int d) {
    return kinds[d];
  }

  public long key(int d) {
    return IdKinds.key(kinds[d], ids[d]);
  }

  /** The greatest id of kind {@code kind} (a code of {@link IdKinds}) this deck defines, or 0. */
  public synchronized int maxId(int kind) {
    int max = 0;
    for (int d = 0; d < size; d++) {
      if (kinds[d] == kind && ids[d] > max) max = ids[d];
    }
    return max;
  }

  /** How many times this deck defines {@code key}. */
  public synchronized int count(long key) {
    return counts.get(key);
  }

  /** Changes whenever what is defined changes. */
  public synchronized long generation() {
    return generation;
  }

  /** Keys this deck defines more than once. */
  public int duplicated() {
    return duplicated;
  }

  /** The keys this deck defines more than once. */
  public synchronized long[] multiples() {
    return counts.multiples();
  }

  public long heapBytes() {
    return 9L * lines.length + counts.heapBytes() + nCounts.heapBytes() + 9L * nLines.length + 12L * bMin.length + 64;
  }

  /** Reads every definition of {@code deck}. */
  public synchronized void build(LineSource deck, int version, IdScanner scanner) {
    buildPos = -1;
    buildStep(deck, version, scanner, Integer.MAX_VALUE);
  }

  /**
   * Reads the definitions of the next cards of a build in steps (about {@code lines} lines; the
   * caller lets go of the deck between steps); true when the deck is read and the table replaced.
   * The table stays as it was until then. {@link #abandonBuild} starts over (the deck changed).
   */
  public synchronized boolean buildStep(LineSource deck, int version, IdScanner scanner, int lines) {
    if (buildPos < 0) {
      nSize = 0;
      nCounts.clear();
      nDuplicated = 0;
      buildPos = 0;
    }
    int n = deck.lineCount();
    int end = IdScanner.cardEnd(deck, (int) Math.min(n, (long) buildPos + Math.max(1, lines)));
    int from = nSize;
    scanner.scan(deck, buildPos, end, version, false, this::collect);
    countScratch(from, nSize, 1);
    buildPos = end;
    if (end < n) return false;
    buildPos = -1;
    swap();
    IdCounts old = counts;
    counts = nCounts;
    nCounts = old;
    nCounts.clear();
    duplicated = nDuplicated;
    summarized = 0;
    prepare();
    generation++;
    return true;
  }

  /**
   * Lines {@code [first, lastOld)} were replaced by {@code count} lines (0-based, old numbering)
   * while a build in steps is under way: the definitions read so far follow (the cards the edit
   * touched are read again), so that the build goes on instead of starting over.
   */
  public synchronized void buildEdited(LineSource deck, int first, int lastOld, int count, int version, IdScanner scanner) {
    if (buildPos < 0) return;
    if (first >= buildPos) {
      // Nothing read changed, but the card that ends at buildPos may now go on past it.
      if (first == buildPos && buildPos > 0) {
        buildPos = IdScanner.cardStart(deck, buildPos - 1);
        int keep = org.nvimpam.deck.SortedLines.firstAtOrAfter(nLines, nSize, buildPos);
        countScratch(keep, nSize, -1);
        nSize = keep;
      }
      return;
    }
    int delta = count - (lastOld - first);
    int s = IdScanner.cardStart(deck, first);
    int e = IdScanner.cardEnd(deck, first + count);
    int a = org.nvimpam.deck.SortedLines.firstAtOrAfter(nLines, nSize, s);
    int b = org.nvimpam.deck.SortedLines.firstAtOrAfter(nLines, nSize, e - delta);
    int before = nSize;
    scanner.scan(deck, s, e, version, false, this::collect); // appended after what was read
    countScratch(a, b, -1);
    countScratch(before, nSize, 1);
    int r = nSize - before;
    int[] rLines = Arrays.copyOfRange(nLines, before, nSize);
    int[] rIds = Arrays.copyOfRange(nIds, before, nSize);
    byte[] rKinds = Arrays.copyOfRange(nKinds, before, nSize);
    int tail = before - b; // read below the edit: moved by it
    System.arraycopy(nLines, b, nLines, a + r, tail);
    System.arraycopy(nIds, b, nIds, a + r, tail);
    System.arraycopy(nKinds, b, nKinds, a + r, tail);
    if (delta != 0) {
      for (int i = a + r; i < a + r + tail; i++) nLines[i] += delta;
    }
    System.arraycopy(rLines, 0, nLines, a, r);
    System.arraycopy(rIds, 0, nIds, a, r);
    System.arraycopy(rKinds, 0, nKinds, a, r);
    nSize = a + r + tail;
    buildPos = e - delta >= buildPos ? e : buildPos + delta; // still where a card begins
  }

  /** Adds {@code d} to the build's counts of the read definitions {@code [from, to)}. */
  private void countScratch(int from, int to, int d) {
    for (int k = from; k < to; k++) {
      int c = nCounts.add(IdKinds.key(nKinds[k], nIds[k]), d);
      if (d > 0 && c == 2) nDuplicated++;
      if (d < 0 && c == 1) nDuplicated--;
    }
  }

  /** Forgets a build in steps (the deck changed under it). */
  public synchronized void abandonBuild() {
    buildPos = -1;
    nSize = 0;
    nCounts.clear();
    nDuplicated = 0;
  }

  /**
   * Lines {@code [first, lastOld)} were replaced by {@code count} lines (0-based, old numbering;
   * the deck holds the new ones): reads the cards they touch again. Returns whether what is
   * defined changed.
   */
  public synchronized boolean edit(LineSource deck, int first, int lastOld, int count, int version, IdScanner scanner) {
    int delta = count - (lastOld - first);
    int s = IdScanner.cardStart(deck, first);
    int e = IdScanner.cardEnd(deck, first + count);
    nSize = 0;
    scanner.scan(deck, s, e, version, false, this::collect);
    int a = firstAtOrAfter(s);
    int b = firstAtOrAfter(e - delta);
    boolean changed = b - a != nSize;
    for (int k = 0; k < nSize && !changed; k++) {
      changed = ids[a + k] != nIds[k] || kinds[a + k] != nKinds[k];
    }
    touchedCount = 0;
    for (int d = a; d < b; d++) {
      long k = key(d);
      int c = counts.add(k, -1);
      if (c == 1) duplicated--;
      if (changed && c == 0) touch(k, false);
    }
    for (int k = 0; k < nSize; k++) {
      long key = IdKinds.key(nKinds[k], nIds[k]);
      int c = counts.add(key, 1);
      if (c == 2) duplicated++;
      if (changed && c == 1) touch(key, true);
    }
    int tail = size - b;
    int n = a + nSize + tail;
    if (n > lines.length) grow(n);
    int dst = a + nSize;
    if (dst != b) { // the definitions below move only when the edit changed their number
      System.arraycopy(lines, b, lines, dst, tail);
      System.arraycopy(ids, b, ids, dst, tail);
      System.arraycopy(kinds, b, kinds, dst, tail);
    }
    if (delta != 0) {
      for (int i = dst; i < dst + tail; i++) lines[i] += delta;
    }
    System.arraycopy(nLines, 0, lines, a, nSize);
    System.arraycopy(nIds, 0, ids, a, nSize);
    System.arraycopy(nKinds, 0, kinds, a, nSize);
    size = n;
    if (b - a == nSize) {
      for (int k = a >>> BLOCK_BITS; k < summarized && (k << BLOCK_BITS) < a + nSize; k++) summarize(k);
    } else {
      summarized = Math.min(summarized, a >>> BLOCK_BITS);
    }
    if (nLines.length > 1024) shrinkScratch();
    if (changed) generation++;
    return changed;
  }

  private void touch(long key, boolean defined) {
    if (touchedCount == touched.length) touched = Arrays.copyOf(touched, touchedCount * 2);
    touched[touchedCount++] = defined ? key : ~key;
  }

  /**
   * After {@link #edit}: how many keys it made defined (none before) or undefined (none left), and
   * each of them; {@link #touchedKey} gives the key, {@link #touchedDefined} which way.
   */
  public int touchedCount() {
    return touchedCount;
  }

  public long touchedKey(int i) {
    long k = touched[i];
    return k < 0 ? ~k : k;
  }

  public boolean touchedDefined(int i) {
    return touched[i] >= 0;
  }

  /** The first definition at or after {@code line}. */
  public int firstAtOrAfter(int line) {
    return org.nvimpam.deck.SortedLines.firstAtOrAfter(lines, size, line);
  }

  /** The lines defining {@code key}, ascending, at most {@code max}. */
  public synchronized int[] linesOf(long key, int max) {
    int[] out = indicesOf(key, max);
    for (int i = 0; i < out.length; i++) out[i] = lines[out[i]];
    return out;
  }

  /** The definitions of {@code key} (as {@link #line} numbers them), ascending, at most {@code max}. */
  public synchronized int[] indicesOf(long key, int max) {
    int kind = IdKinds.kindOf(key);
    int id = IdKinds.idOf(key);
    int c = Math.min(max, counts.get(key));
    int[] out = new int[c];
    if (c == 0) return out;
    int blocks = prepare();
    int bit = IdKinds.bit(kind);
    int n = 0;
    for (int k = 0; k < blocks && n < c; k++) {
      if ((bKinds[k] & bit) == 0 || id < bMin[k] || id > bMax[k]) continue;
      int end = Math.min(size, (k + 1) << BLOCK_BITS);
      for (int d = k << BLOCK_BITS; d < end && n < c; d++) {
        if (ids[d] == id && kinds[d] == kind) out[n++] = d;
      }
    }
    return n == c ? out : Arrays.copyOf(out, n);
  }

  /**
   * Brings the per-block summaries of lookups up to date (after a build, or an edit that changed
   * the number of definitions); returns the number of blocks. The checks call it off Neovim's main
   * loop, so that a goto finds them ready.
   */
  public synchronized int prepare() {
    int blocks = (size + (1 << BLOCK_BITS) - 1) >>> BLOCK_BITS;
    if (bMin.length < blocks) {
      int cap = Math.max(blocks, bMin.length + (bMin.length >> 1) + 16);
      bMin = Arrays.copyOf(bMin, cap);
      bMax = Arrays.copyOf(bMax, cap);
      bKinds = Arrays.copyOf(bKinds, cap);
    }
    for (int k = summarized; k < blocks; k++) summarize(k);
    summarized = blocks;
    return blocks;
  }

  private void summarize(int k) {
    int lo = Integer.MAX_VALUE;
    int hi = Integer.MIN_VALUE;
    int ks = 0;
    int end = Math.min(size, (k + 1) << BLOCK_BITS);
    for (int d = k << BLOCK_BITS; d < end; d++) {
      lo = Math.min(lo, ids[d]);
      hi = Math.max(hi, ids[d]);
      ks |= IdKinds.bit(kinds[d]);
    }
    bMin[k] = lo;
    bMax[k] = hi;
    bKinds[k] = ks;
  }

  private void collect(int line, int from, int to, int kind, int lo, int hi, boolean def) {
    if (!def) return;
    if (nSize == nLines.length) {
      int c = nSize * 2;
      nLines = Arrays.copyOf(nLines, c);
      nIds = Arrays.copyOf(nIds, c);
      nKinds = Arrays.copyOf(nKinds, c);
    }
    nLines[nSize] = line;
    nIds[nSize] = lo;
    nKinds[nSize] = (byte) kind;
    nSize++;
  }

  /** A whole build: the scratch arrays become the table. */
  private void swap() {
    // Room for the definitions that edits add: exactly sized, the first edit that adds one grew
    // (copied) the whole table, 61 MB for a 10M-line deck, and its refold waited 0.4 s for it.
    int room = nSize + Math.max(64, nSize >> 6);
    lines = nLines.length == room ? nLines : Arrays.copyOf(nLines, room);
    ids = Arrays.copyOf(nIds, lines.length);
    kinds = Arrays.copyOf(nKinds, lines.length);
    size = nSize;
    nLines = new int[16];
    nIds = new int[16];
    nKinds = new byte[16];
    nSize = 0;
  }

  private void shrinkScratch() {
    nLines = new int[16];
    nIds = new int[16];
    nKinds = new byte[16];
  }

  private void grow(int n) {
    int c = Math.max(n, lines.length + (lines.length >> 1) + 16);
    lines = Arrays.copyOf(lines, c);
    ids = Arrays.copyOf(ids, c);
    kinds = Arrays.copyOf(kinds, c);
  }
}
