package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link IntIntMap} against a HashMap, on the keys a deck has: runs of consecutive ids, ids in
 * strides (every 16th, every 4096th: all in one slot of a run), random ids, 0 and negatives; with
 * put and putIfAbsent mixed, through the table's growth.
 */
class IntIntMapTest {
  @Test
  void keysAfterSparseOnesGoToTheTable() {
    // every 2^20th id first: the pages stop being made; 0, negatives and a dense run go to the table
    IntIntMap m = new IntIntMap();
    Map<Integer, Integer> want = new HashMap<>();
    int[] keys = new int[2000 + 3 + 5000];
    for (int i = 0; i < 2000; i++) keys[i] = (i + 1) << 20;
    keys[2000] = 0;
    keys[2001] = -1;
    keys[2002] = Integer.MIN_VALUE;
    for (int i = 0; i < 5000; i++) keys[2003 + i] = 7_000_001 + i;
    for (int i = 0; i < keys.length; i++) {
      m.put(keys[i], i);
      want.put(keys[i], i);
    }
    assertEquals(-1, m.putIfAbsent(5, 1));
    want.put(5, 1);
    for (Map.Entry<Integer, Integer> e : want.entrySet()) assertEquals(e.getValue(), m.get(e.getKey()), "key " + e.getKey());
    assertEquals(-1, m.get(1));
    assertEquals(-1, m.get(7_000_000));
    assertEquals(want.size(), m.size());
    // -1 takes a value away, in the table and in the pages alike (a renumber marks keys done so)
    IntIntMap dense = new IntIntMap();
    for (int k : new int[] {0, 3, 4}) dense.put(k, 1);
    for (IntIntMap x : List.of(m, dense)) {
      int n = x.size();
      x.put(0, -1);
      x.put(x == m ? -1 : 3, -1);
      assertEquals(n - 2, x.size());
      assertEquals(-1, x.get(0));
      assertEquals(-1, x.putIfAbsent(0, 9));
      assertEquals(9, x.get(0));
      assertEquals(n - 1, x.size());
    }
  }

  @Test
  void everyKeySetIsFoundAndNoOtherIs() {
    Random r = new Random(36);
    for (int round = 0; round < 40; round++) {
      IntIntMap m = new IntIntMap();
      Map<Integer, Integer> want = new HashMap<>();
      int n = 1 + r.nextInt(20_000);
      int stride = new int[] {1, 1, 16, 17, 4096, 1 << 20}[r.nextInt(6)];
      int base = r.nextInt(1_000_000) - 500_000;
      for (int i = 0; i < n; i++) {
        int k = switch (r.nextInt(4)) {
          case 0 -> r.nextInt();
          case 1 -> r.nextInt(3) - 1; // 0 and its neighbours
          default -> base + stride * r.nextInt(n);
        };
        int v = r.nextInt(Integer.MAX_VALUE);
        if (r.nextBoolean()) {
          m.put(k, v);
          want.put(k, v);
        } else {
          Integer had = want.putIfAbsent(k, v);
          assertEquals(had == null ? -1 : had, m.putIfAbsent(k, v), "putIfAbsent " + k);
        }
      }
      for (Map.Entry<Integer, Integer> e : want.entrySet()) assertEquals(e.getValue(), m.get(e.getKey()), "key " + e.getKey());
      assertEquals(want.size(), m.size(), "size");
      for (int i = 0; i < 2000; i++) {
        int k = base + stride * r.nextInt(2 * n) + (r.nextBoolean() ? 0 : r.nextInt());
        assertEquals(want.getOrDefault(k, -1), m.get(k), "key " + k);
      }
    }
  }
}
