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
  private long paged; // keys with a value in the pages
  private long pageSlots; // slots of the pages made
  private boolean noMorePages; // once the density rule said no: a key's place never changes
  private int[] keys = new int[1024];
  private int[] values = new int[1024];
  private boolean hasZero;
  private int zero;
  private int size; // keys in the table
  private int valued; // keys in the table and 0 with a value

  /** How many keys have a value (-1 is none: putting -1 takes a key's value away). */
  int size() {
    return valued + (int) paged;
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
      int had = page[i];
      page[i] = v + 1;
      if (had == 0 && v != -1) paged++;
      else if (had != 0 && v == -1) paged--;
      return;
    }
    if (k == 0) {
      if (hasZero && zero != -1) valued--;
      hasZero = true;
      zero = v;
      if (v != -1) valued++;
      return;
    }
    if (2 * (size + 1) > keys.length) grow();
    int mask = keys.length - 1;
    int s = slot(k, mask);
    while (keys[s] != 0 && keys[s] != k) s = (s + 1) & mask;
    if (keys[s] == 0) size++;
    else if (values[s] != -1) valued--;
    keys[s] = k;
    values[s] = v;
    if (v != -1) valued++;
  }

  /** The value of {@code k}; when it has none, {@code v} becomes its value and -1 is returned. */
  int putIfAbsent(int k, int v) {
    int[] page = page(k);
    if (page != null) {
      int i = k & (PAGE - 1);
      if (page[i] != 0) return page[i] - 1;
      page[i] = v + 1;
      if (v != -1) paged++;
      return -1;
    }
    if (k == 0) {
      if (hasZero && zero != -1) return zero;
      put(0, v);
      return -1;
    }
    if (2 * (size + 1) > keys.length) grow();
    int mask = keys.length - 1;
    int s = slot(k, mask);
    while (keys[s] != 0) {
      if (keys[s] == k) {
        if (values[s] != -1) return values[s];
        values[s] = v;
        if (v != -1) valued++;
        return -1;
      }
      s = (s + 1) & mask;
    }
    size++;
    keys[s] = k;
    values[s] = v;
    if (v != -1) valued++;
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
