package org.nvimpam.ids;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The titles of the ids that are names (a GROUP's title, {@code GRP 'title'}), each held under a
 * small positive number, so that a name is keyed as a numeric id is ({@link IdKinds#key}) and the
 * index, counts and checks need nothing else. One table for the whole JVM, not one per deck: a
 * title has the same number in every deck, so the decks of a tree count each other's
 * definitions. Titles are kept for the JVM's life (one entry per distinct title ever read: a
 * deck's groups, and what edits typed). Looked up from the bytes in place, without a String.
 * Thread-safe.
 */
public final class IdNames {
  private static byte[][] names = new byte[64][]; // by number; 0 is no name
  private static int[] slots = new int[128]; // open addressing by hash: numbers, 0 empty
  private static int count;

  private IdNames() {}

  /** The number of the title in bytes {@code [s, e)} (taken as they are), made on first sight; 0 when empty. */
  public static synchronized int intern(byte[] a, int s, int e) {
    if (s >= e) return 0;
    int mask = slots.length - 1;
    for (int i = hash(a, s, e) & mask; ; i = (i + 1) & mask) {
      int n = slots[i];
      if (n == 0) {
        n = ++count;
        if (n == names.length) names = Arrays.copyOf(names, n * 2);
        names[n] = Arrays.copyOfRange(a, s, e);
        slots[i] = n;
        if (2 * count > slots.length) rehash();
        return n;
      }
      if (Arrays.equals(names[n], 0, names[n].length, a, s, e)) return n;
    }
  }

  /** The number of a title given as text (UTF-8, as Neovim sends it); 0 when empty. */
  public static int intern(String title) {
    byte[] b = title.getBytes(StandardCharsets.UTF_8);
    return intern(b, 0, b.length);
  }

  /** The title's bytes as the deck has them; empty for a number never handed out. */
  public static synchronized byte[] bytes(int n) {
    return n > 0 && n <= count ? names[n] : new byte[0];
  }

  /** The title as text. */
  public static String text(int n) {
    return new String(bytes(n), StandardCharsets.UTF_8);
  }

  private static int hash(byte[] a, int s, int e) {
    int h = 0x811c9dc5;
    for (int i = s; i < e; i++) h = (h ^ a[i]) * 0x01000193;
    return h ^ (h >>> 16);
  }

  private static void rehash() {
    int[] t = new int[slots.length * 2];
    int mask = t.length - 1;
    for (int n = 1; n <= count; n++) {
      int i = hash(names[n], 0, names[n].length) & mask;
      while (t[i] != 0) i = (i + 1) & mask;
      t[i] = n;
    }
    slots = t;
  }
}
