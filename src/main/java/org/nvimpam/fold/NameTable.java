package org.nvimpam.fold;

import java.util.Arrays;
import org.nvimpam.deck.Keywords;
import org.nvimpam.deck.LineBytes;

/**
 * Fold names by id: ids below {@link Keywords#COUNT} are the known keywords, later ids the header
 * words of generic cards in the order first seen. One String per distinct name, never per line.
 * Append-only, so that fold sets built earlier keep valid ids.
 */
final class NameTable {
  private String[] names;
  private int count;
  private String[] snapshot; // exact-length copy handed to fold sets; rebuilt when a name is added
  // Open addressing: packed header word (LineBytes.headerWord) -> id.
  private long[] keys = new long[32];
  private int[] ids = new int[32];

  NameTable() {
    names = new String[Keywords.COUNT + 16];
    for (int i = 0; i < Keywords.COUNT; i++) names[i] = Keywords.name(i);
    count = Keywords.COUNT;
  }

  /** The id of a generic card's header word, adding it when new. */
  int intern(long wordKey) {
    int mask = keys.length - 1;
    int s = slot(wordKey, mask);
    while (keys[s] != 0) {
      if (keys[s] == wordKey) return ids[s];
      s = (s + 1) & mask;
    }
    if (count == names.length) names = Arrays.copyOf(names, count + (count >> 1));
    names[count] = LineBytes.wordOf(wordKey);
    keys[s] = wordKey;
    ids[s] = count;
    snapshot = null;
    count++;
    if (2 * (count - Keywords.COUNT) > keys.length) rehash();
    return count - 1;
  }

  private static int slot(long key, int mask) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
  }

  private void rehash() {
    long[] oldKeys = keys;
    int[] oldIds = ids;
    keys = new long[oldKeys.length * 2];
    ids = new int[oldKeys.length * 2];
    int mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] == 0) continue;
      int s = slot(oldKeys[i], mask);
      while (keys[s] != 0) s = (s + 1) & mask;
      keys[s] = oldKeys[i];
      ids[s] = oldIds[i];
    }
  }

  /** All names so far, index = id; the array is shared and must not be modified. */
  String[] snapshot() {
    if (snapshot == null) snapshot = Arrays.copyOf(names, count);
    return snapshot;
  }
}
