package org.nvimpam.ids;

/** A growable int array, read through its fields: what the id readers collect per line or id. */
public final class IntList {
  public int[] a = new int[16];
  public int size;

  public void add(int v) {
    if (size == a.length) a = java.util.Arrays.copyOf(a, size * 2);
    a[size++] = v;
  }
}
