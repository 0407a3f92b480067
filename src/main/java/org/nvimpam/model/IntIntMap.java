package org.nvimpam.model;

/**
 * Open addressing from ints to ints >= 0 (-1 for a missing key), on two int arrays: the node and
 * part indexes of the parts table and the old-to-new ids of a renumber, millions of entries
 * without a boxed one.
 */
final class IntIntMap {
  private int[] keys = new int[1024];
  private int[] values = new int[1024];
  private boolean hasZero;
  private int zero;
  private int size;

  int size() {
    return size;
  }

  int get(int k) {
    if (k == 0) return hasZero ? zero : -1;
    int mask = keys.length - 1;
    for (int s = slot(k, mask); keys[s] != 0; s = (s + 1) & mask) {
      if (keys[s] == k) return values[s];
    }
    return -1;
  }

  void put(int k, int v) {
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

  private void grow() {
    int[] ok = keys;
    int[] ov = values;
    keys = new int[ok.length * 2];
    values = new int[ok.length * 2];
    size = 0;
    for (int i = 0; i < ok.length; i++) {
      if (ok[i] != 0) put(ok[i], ov[i]);
    }
  }

  /**
   * Runs of 16 consecutive keys (a deck's ids mostly are) go to 16 consecutive slots, a cache line
   * of keys: a walk over nearby ids stays in a few lines of the table instead of one per key.
   */
  private static int slot(int k, int mask) {
    int h = (k >>> 4) * 0x9E3779B9;
    return (((h ^ (h >>> 16)) << 4) | (k & 15)) & mask;
  }
}
