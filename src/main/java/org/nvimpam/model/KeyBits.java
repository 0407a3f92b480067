package org.nvimpam.model;

import org.nvimpam.ids.IdKinds;

/**
 * A set of id keys ({@link IdKinds#key}) as bits, in pages of 65536 ids made when first touched:
 * a whole deck's definitions and references are marked at a few ns each, with no object per id.
 * Not thread-safe: each worker marks its own, merged at the end.
 */
final class KeyBits {
  private static final int KINDS = IdKinds.NAMES.size();
  private static final int PAGE_BITS = 16;
  private static final int WORDS = 1 << (PAGE_BITS - 6);
  private final long[][][] pages = new long[KINDS][][];

  // By kind, the page marked last: ids mostly ascend with the lines, so most marks fall in it (a
  // SHELL line marks a part, then nodes: one page each).
  private final int[] lastPage = new int[KINDS];
  private final long[][] lastWords = new long[KINDS][];

  /** Marks {@code key}; false when it was marked already. */
  boolean add(long key) {
    return add(IdKinds.kindOf(key), IdKinds.idOf(key));
  }

  /** Marks id {@code id} of kind {@code kind} (the key not built: a worker marks every id it reads). */
  boolean add(int kind, int id) {
    int p = id >>> PAGE_BITS;
    long[] w = lastWords[kind];
    if (w == null || lastPage[kind] != p) {
      w = lastWords[kind] = page(kind, p, true);
      lastPage[kind] = p;
    }
    int i = (id >>> 6) & (WORDS - 1);
    long bit = 1L << id;
    long old = w[i];
    w[i] = old | bit;
    return (old & bit) == 0;
  }

  boolean has(long key) {
    int id = IdKinds.idOf(key);
    long[] w = page(IdKinds.kindOf(key), id >>> PAGE_BITS, false);
    return w != null && (w[(id >>> 6) & (WORDS - 1)] & (1L << id)) != 0;
  }

  private long[] page(int kind, int p, boolean make) {
    long[][] k = pages[kind];
    if (k == null) {
      if (!make) return null;
      k = pages[kind] = new long[1 << (31 - PAGE_BITS)][];
    }
    long[] w = k[p];
    if (w == null && make) w = k[p] = new long[WORDS];
    return w;
  }

  /** Whether no key is marked. */
  boolean isEmpty() {
    return count() == 0;
  }

  /** How many keys are marked. */
  long count() {
    long n = 0;
    for (long[][] k : pages) {
      if (k == null) continue;
      for (long[] w : k) {
        if (w == null) continue;
        for (long x : w) n += Long.bitCount(x);
      }
    }
    return n;
  }

  /** The kinds with a key marked, as the scans' kind masks hold them ({@link IdKinds#bit}). */
  int kinds() {
    int m = 0;
    for (int kind = 0; kind < KINDS; kind++) {
      long[][] k = pages[kind];
      if (k == null) continue;
      outer:
      for (long[] w : k) {
        if (w == null) continue;
        for (long x : w) {
          if (x != 0) {
            m |= IdKinds.bit(kind);
            break outer;
          }
        }
      }
    }
    return m;
  }

  /**
   * Adds the keys of {@code other} to this set; keys both hold are added to {@code both} (the
   * definitions of two workers meet: the second is a duplicate).
   */
  void addAll(KeyBits other, KeyBits both) {
    for (int kind = 0; kind < KINDS; kind++) {
      long[][] o = other.pages[kind];
      if (o == null) continue;
      for (int p = 0; p < o.length; p++) {
        long[] ow = o[p];
        if (ow == null) continue;
        long[] w = page(kind, p, true);
        long[] bw = null;
        for (int i = 0; i < WORDS; i++) {
          long common = w[i] & ow[i];
          if (common != 0 && both != null) {
            if (bw == null) bw = both.page(kind, p, true);
            bw[i] |= common;
          }
          w[i] |= ow[i];
        }
      }
    }
  }

  /** The keys of this set that {@code other} does not hold. */
  KeyBits minus(KeyBits other) {
    KeyBits out = new KeyBits();
    for (int kind = 0; kind < KINDS; kind++) {
      long[][] k = pages[kind];
      if (k == null) continue;
      long[][] o = other.pages[kind];
      for (int p = 0; p < k.length; p++) {
        long[] w = k[p];
        if (w == null) continue;
        long[] ow = o == null ? null : o[p];
        long[] dst = null;
        for (int i = 0; i < WORDS; i++) {
          long x = ow == null ? w[i] : w[i] & ~ow[i];
          if (x == 0) continue;
          if (dst == null) dst = out.page(kind, p, true);
          dst[i] = x;
        }
      }
    }
    return out;
  }
}
