package org.nvimpam.ids;

import java.nio.charset.StandardCharsets;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.lines.LineSource;

/**
 * The messages and columns of the id problems, made once for the plugin's {@code nvimpam.refs}
 * diagnostics ({@link BufferIds}) and {@code check}.
 */
public final class IdMessages {
  private IdMessages() {}

  /**
   * A reference to {@code key}, undefined in the tree, found by {@link IdScanner} in {@code entry}'s
   * card, {@code row} and {@code field} (-1 on a GES line: the selection).
   */
  public static String undefined(CardLayouts table, int entry, int row, int field, long key) {
    CardLayout c = table.entry(entry);
    String where = row < 0 || field < 0 ? c.word() + ": " : c.word() + " / " + c.rows().get(row).fields().get(field).name() + ": ";
    return where + IdKinds.describe(key) + (field < 0 ? " (in the selection)" : "") + " is not defined";
  }

  /** A definition of {@code key} on {@code line}, one of {@code count} in the tree. */
  public static String duplicate(LineSource deck, int line, long key, int count) {
    return duplicate(word(deck, line), key, count);
  }

  /** As {@link #duplicate(LineSource, int, long, int)}, {@code word} the {@link #word} of its line. */
  public static String duplicate(String word, long key, int count) {
    return word + IdKinds.describe(key) + " is defined " + count + " times";
  }

  /** The header word of the card holding {@code line}, with ": " after it. */
  public static String word(LineSource deck, int line) {
    int s = IdScanner.cardStart(deck, line);
    byte[] a = deck.bytes(s);
    int off = deck.start(s);
    int len = Math.min(6, deck.contentLength(s));
    int e = len;
    while (e > 0 && a[off + e - 1] == ' ') e--;
    return new String(a, off, e, StandardCharsets.ISO_8859_1) + ": ";
  }

  /**
   * The columns of the id of {@code key} on its defining line: the first place its digits stand
   * (not inside a longer number), or its title after column 8 (past the keyword).
   */
  public static int[] span(LineSource deck, int line, long key) {
    boolean named = IdKinds.named(IdKinds.kindOf(key));
    byte[] text = named ? IdNames.bytes(IdKinds.idOf(key))
        : Integer.toString(IdKinds.idOf(key)).getBytes(StandardCharsets.US_ASCII);
    byte[] a = deck.bytes(line);
    int off = deck.start(line);
    int len = deck.contentLength(line);
    for (int s = named ? 8 : 0; s + text.length <= len; s++) {
      boolean ok = named || s == 0 || a[off + s - 1] < '0' || a[off + s - 1] > '9';
      for (int k = 0; ok && k < text.length; k++) ok = a[off + s + k] == text[k];
      int e = s + text.length;
      if (ok && (named || e == len || a[off + e] < '0' || a[off + e] > '9')) return new int[] {s, e};
    }
    return new int[] {0, Math.min(len, 8)};
  }
}
