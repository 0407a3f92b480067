package org.nvimpam.ids;

import java.util.HashMap;
import java.util.Map;

/**
 * How many times each id key is defined, in about one bit per possible id: per kind, pages of
 * 65,536 bits (8 KiB, made when an id in their range is first defined) mark the ids defined at
 * least once, and a small map holds the exact count of the ids defined more than once (rare: a
 * problem the checks report). Deck ids are dense runs, so a 10M-line deck needs a few MB. Not
 * thread-safe.
 */
final class IdCounts {
  private static final int PAGE_BITS = 16;
  private static final int PAGE_MASK = (1 << PAGE_BITS) - 1;

  private final Map<Long, long[]> pages = new HashMap<>(); // kind << 16 | id >>> 16 -> 1024 longs
  private final Map<Long, Integer> multiple = new HashMap<>(); // key -> count, for counts >= 2
  private int size;
  private long lastPageKey = -1; // a one-page cache: the references of a card are mostly near each other
  private long[] lastPage;

  int size() {
    return size;
  }

  long heapBytes() {
    return pages.size() * (8L * (1 << (PAGE_BITS - 6)) + 64) + multiple.size() * 64L + 64;
  }

  private static long pageKey(long key) {
    return (long) IdKinds.kindOf(key) << 16 | (IdKinds.idOf(key) >>> PAGE_BITS);
  }

  /** The count of {@code key} (0 when it is not defined). */
  int get(long key) {
    long pk = pageKey(key);
    long[] p;
    if (pk == lastPageKey) {
      p = lastPage;
    } else {
      p = pages.get(pk);
      lastPageKey = pk;
      lastPage = p;
    }
    if (p == null) return 0;
    int bit = IdKinds.idOf(key) & PAGE_MASK;
    if ((p[bit >>> 6] & (1L << bit)) == 0) return 0;
    Integer m = multiple.get(key);
    return m == null ? 1 : m;
  }

  /** Adds {@code d} (±1) to the count of {@code key}; returns the new count. */
  int add(long key, int d) {
    int old = get(key); // leaves the key's page in the one-page cache
    int c = Math.max(0, old + d);
    int bit = IdKinds.idOf(key) & PAGE_MASK;
    long[] p = lastPage;
    if (c == 0) {
      if (p != null && (p[bit >>> 6] & (1L << bit)) != 0) {
        p[bit >>> 6] &= ~(1L << bit);
        size--;
      }
    } else {
      if (p == null) {
        pages.put(lastPageKey, p = new long[1 << (PAGE_BITS - 6)]);
        lastPage = p;
      }
      if ((p[bit >>> 6] & (1L << bit)) == 0) size++;
      p[bit >>> 6] |= 1L << bit;
    }
    // The map only for counts of two and more: a boxed lookup per definition made a 10M-line
    // deck's first count (4.6M definitions) take half a second.
    if (c >= 2) multiple.put(key, c);
    else if (old >= 2) multiple.remove(key);
    return c;
  }

  /** The keys counted twice or more. */
  long[] multiples() {
    long[] ks = new long[multiple.size()];
    int i = 0;
    for (long k : multiple.keySet()) ks[i++] = k;
    return ks;
  }

  void clear() {
    lastPageKey = -1;
    lastPage = null;
    pages.clear();
    multiple.clear();
    size = 0;
  }
}
