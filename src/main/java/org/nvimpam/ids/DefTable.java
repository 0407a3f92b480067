package org.nvimpam.ids;

import java.util.Arrays;
import org.nvimpam.lines.LineSource;

/**
 * The ids one deck defines, in line order ({@link DefRun}: segments of primitive arrays, 9 bytes a
 * definition), and how many times each is defined ({@link IdCounts}). Kept up to date across
 * edits: an edit scans again only from the card header at or before it to the next card header
 * after it, and the segments below take the lines it added or removed as their shift. Its
 * monitor is a leaf lock (nothing is called while it is held), so that another buffer's checks may
 * count its ids; the line-order accessors are for the owner, who holds its deck's lock.
 */
public final class DefTable {
  private DefRun run;
  private IdCounts counts = new IdCounts();
  // A build in steps reads into a run of its own, counted as it goes: in its last step, the count
  // of all of them (4.6M at 10M lines) held the buffer's lock longest. At its end the two swap.
  private DefRun nRun;
  private IdCounts nCounts = new IdCounts();
  private int nDuplicated;
  private long generation; // bumped whenever the set of defined keys (or their counts) changes
  private int duplicated; // keys defined more than once

  // scratch of an edit: the definitions of the cards it touched
  private int[] nLines = new int[16];
  private int[] nIds = new int[16];
  private byte[] nKinds = new byte[16];
  private int nSize;
  private int buildPos = -1; // a build in steps: the next line to read; -1: none
  private long[] touched = new long[8];
  private int touchedCount;

  public DefTable() {
    this(DefRun.SEGMENT);
  }

  /** With runs of segments of at most {@code segment} definitions (small ones in tests). */
  DefTable(int segment) {
    run = new DefRun(segment);
    nRun = new DefRun(segment);
  }

  public int size() {
    return run.size();
  }

  public int line(int d) {
    return run.line(d);
  }

  public int id(int d) {
    return run.id(d);
  }

  public int kind(int d) {
    return run.kind(d);
  }

  public long key(int d) {
    return IdKinds.key(run.kind(d), run.id(d));
  }

  /** The greatest id of kind {@code kind} (a code of {@link IdKinds}) this deck defines, or 0. */
  public synchronized int maxId(int kind) {
    return run.maxId(kind);
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
    return run.heapBytes() + nRun.heapBytes() + counts.heapBytes() + nCounts.heapBytes() + 9L * nLines.length + 64;
  }

  /** Reads every definition of {@code deck}. */
  public synchronized void build(LineSource deck, int version, IdScanner scanner) {
    abandonBuild();
    buildStep(deck, version, scanner, Integer.MAX_VALUE);
  }

  /**
   * Reads the definitions of the next cards of a build in steps (about {@code lines} lines; the
   * caller lets go of the deck between steps); true when the deck is read and the table replaced.
   * The table stays as it was until then. {@link #abandonBuild} starts over (the deck changed).
   */
  public synchronized boolean buildStep(LineSource deck, int version, IdScanner scanner, int lines) {
    if (buildPos < 0) {
      nRun.clear();
      nCounts.clear();
      nDuplicated = 0;
      buildPos = 0;
    }
    int n = deck.lineCount();
    int end = IdScanner.cardEnd(deck, (int) Math.min(n, (long) buildPos + Math.max(1, lines)));
    int from = nRun.size();
    scanner.scan(deck, buildPos, end, version, false, this::collectBuild);
    nDuplicated += nRun.count(from, nRun.size(), nCounts, 1);
    buildPos = end;
    if (end < n) return false;
    buildPos = -1;
    DefRun r = run;
    run = nRun;
    nRun = r;
    nRun.clear();
    IdCounts old = counts;
    counts = nCounts;
    nCounts = old;
    nCounts.clear();
    duplicated = nDuplicated;
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
        int keep = nRun.firstAtOrAfter(buildPos);
        nDuplicated -= nRun.count(keep, nRun.size(), nCounts, -1);
        nRun.replace(keep, nRun.size(), nLines, nIds, nKinds, 0, 0);
      }
      return;
    }
    int delta = count - (lastOld - first);
    int s = IdScanner.cardStart(deck, first);
    int e = IdScanner.cardEnd(deck, first + count);
    int a = nRun.firstAtOrAfter(s);
    int b = nRun.firstAtOrAfter(e - delta);
    nSize = 0;
    scanner.scan(deck, s, e, version, false, this::collect);
    nDuplicated -= nRun.count(a, b, nCounts, -1);
    for (int k = 0; k < nSize; k++) {
      if (nCounts.add(IdKinds.key(nKinds[k], nIds[k]), 1) == 2) nDuplicated++;
    }
    nRun.replace(a, b, nLines, nIds, nKinds, nSize, delta);
    if (nLines.length > 1024) shrinkScratch();
    buildPos = e - delta >= buildPos ? e : buildPos + delta; // still where a card begins
  }

  /** Forgets a build in steps (the deck changed under it). */
  public synchronized void abandonBuild() {
    buildPos = -1;
    nRun.clear();
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
    int a = run.firstAtOrAfter(s);
    int b = run.firstAtOrAfter(e - delta);
    boolean changed = b - a != nSize;
    for (int k = 0; k < nSize && !changed; k++) {
      changed = run.id(a + k) != nIds[k] || run.kind(a + k) != nKinds[k];
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
    run.replace(a, b, nLines, nIds, nKinds, nSize, delta);
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
    return run.firstAtOrAfter(line);
  }

  /** The lines defining {@code key}, ascending, at most {@code max}. */
  public synchronized int[] linesOf(long key, int max) {
    int[] out = indicesOf(key, max);
    for (int i = 0; i < out.length; i++) out[i] = run.line(out[i]);
    return out;
  }

  /** The definitions of {@code key} (as {@link #line} numbers them), ascending, at most {@code max}. */
  public synchronized int[] indicesOf(long key, int max) {
    int c = Math.min(max, counts.get(key));
    if (c == 0) return new int[0];
    return run.indicesOf(IdKinds.kindOf(key), IdKinds.idOf(key), c);
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

  private void collectBuild(int line, int from, int to, int kind, int lo, int hi, boolean def) {
    if (def) nRun.add(line, lo, (byte) kind);
  }

  private void shrinkScratch() {
    nLines = new int[16];
    nIds = new int[16];
    nKinds = new byte[16];
  }
}
