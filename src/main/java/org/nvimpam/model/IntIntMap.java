package org.nvimpam.model;

import java.util.Arrays;

/**
 * From ints to ints >= 0 (-1 for a missing key), on int arrays: the node and part indexes of the
 * parts table and the old-to-new ids of a renumber, millions of entries without a boxed one. A
 * deck's ids are mostly runs of consecutive numbers: keys >= 0 go to pages of 4096 values, one
 * array access, as long as the pages hold at most 4 slots per key they hold (4 bytes a key where
 * open addressing takes 16); keys past that, and negative ones, go to an open-addressing table.
 */
final class IntIntMap {
  private static final int PAGE_BITS = 12, PAGE = 1 << PAGE_BITS;
  private static final int FREE_PAGES = 16; // pages allowed before the density rule

  private int[][] pages = new int[0][]; // value + 1, 0 for none
  private long paged; // keys in the pages
  private long pageSlots; // slots of the pages made
  private boolean noMorePages; // once the density rule said no: a key's place never changes
  private int[] keys = new int[1024];
  private int[] values = new int[1024];
  private boolean hasZero;
  private int zero;
  private int size;

  int size() {
    return size;
  }

  int get(int k) {
    if (k >= 0) {
      int p = k >>> PAGE_BITS;
      if (p < pages.length && pages[p] != null) return pages[p][k & (PAGE - 1)] - 1;
    }
    if (k == 0) return hasZero ? zero : -1;
    int mask = keys.length - 1;
    for (int s = slot(k, mask); keys[s] != 0; s = (s + 1) & mask) {
      if (keys[s] == k) return values[s];
    }
    return -1;
  }

  void put(int k, int v) {
    int[] page = page(k);
    if (page != null) {
      int i = k & (PAGE - 1);
      if (page[i] == 0) paged++;
      page[i] = v + 1;
      return;
    }
    if (k == 0) {
      hasZero = true;
      zero = v;
      return;
    }
    if (2 * (size + 1) > keys.length) grow();
    int mask = keys.length - 1;
    int s = slot(k, mask);
    while (keys[s] != 0 && keys[s] != k) s = (s + 1) & mask;
    if (keys[s] == 0) size++;
    keys[s] = k;
    values[s] = v;
  }

  /** The value of {@code k}; when it has none, {@code v} becomes its value and -1 is returned. */
  int putIfAbsent(int k, int v) {
    int[] page = page(k);
    if (page != null) {
      int i = k & (PAGE - 1);
      if (page[i] != 0) return page[i] - 1;
      paged++;
      page[i] = v + 1;
      return -1;
    }
    if (k == 0) {
      if (hasZero) return zero;
      put(0, v);
      return -1;
    }
    if (2 * (size + 1) > keys.length) grow();
    int mask = keys.length - 1;
    int s = slot(k, mask);
    while (keys[s] != 0) {
      if (keys[s] == k) return values[s];
      s = (s + 1) & mask;
    }
    size++;
    keys[s] = k;
    values[s] = v;
    return -1;
  }

  /** The page of {@code k}, made if the pages stay dense; null: {@code k} is in the table. */
  private int[] page(int k) {
    if (k < 0) return null;
    int p = k >>> PAGE_BITS;
    if (p < pages.length && pages[p] != null) return pages[p];
    if (noMorePages) return null;
    if (pageSlots + PAGE > 4 * (paged + 1) + (long) FREE_PAGES * PAGE) {
      noMorePages = true;
      return null;
    }
    if (p >= pages.length) pages = Arrays.copyOf(pages, Math.max(p + 1, Math.min(2 * pages.length, 1 << (31 - PAGE_BITS))));
    pageSlots += PAGE;
    return pages[p] = new int[PAGE];
  }

  private void grow() {
    int[] ok = keys;
    int[] ov = values;
    keys = new int[ok.length * 2];
    values = new int[ok.length * 2];
    size = 0;
    for (int i = 0; i < ok.length; i++) {
      if (ok[i] != 0) putInTable(ok[i], ov[i]);
    }
  }

  private void putInTable(int k, int v) {
    int mask = keys.length - 1;
    int s = slot(k, mask);
    while (keys[s] != 0) s = (s + 1) & mask;
    size++;
    keys[s] = k;
    values[s] = v;
  }

  /**
   * Runs of 16 consecutive keys go to 16 consecutive slots, a cache line of keys: a walk over
   * nearby ids stays in a few lines of the table instead of one per key.
   */
  private static int slot(int k, int mask) {
    int h = (k >>> 4) * 0x9E3779B9;
    return (((h ^ (h >>> 16)) << 4) | (k & 15)) & mask;
  }
}
