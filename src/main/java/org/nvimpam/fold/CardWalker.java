package org.nvimpam.fold;

import org.nvimpam.deck.CardItem;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.Keywords;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.lines.LineSource;

/**
 * Walks one card of a deck (FOLDS.md §5, §6.2) and answers the line tests the main loop needs. Every
 * test sees the line without its final CR. Valid until the deck is next edited; not thread-safe (a
 * walk keeps its position in fields).
 */
final class CardWalker {
  private static final byte[] END_PART = LineBytes.ascii("END_PART");
  private static final byte[] END_OTMCO = LineBytes.ascii("END_OTMCO");
  private static final byte[] META = LineBytes.ascii("META");
  private static final byte[] END_META = LineBytes.ascii("END_META");
  /** Each keyword's card items, by id: arrays, so that a walk allocates nothing. */
  private static final CardItem[][] ITEMS = new CardItem[Keywords.COUNT][];

  static {
    for (int id = 0; id < Keywords.COUNT; id++) {
      ITEMS[id] = Keywords.get(id).items().toArray(new CardItem[0]);
    }
  }

  private final Deck deck;
  private final int n;

  // The card being walked (§5.1): its end so far, the current line, flag c and count n.
  private int end;
  private int cur;
  private boolean c;
  private int count;

  CardWalker(Deck deck) {
    this.deck = deck;
    this.n = deck.lineCount();
  }

  int lineCount() {
    return n;
  }

  int off(int i) {
    return deck.start(i);
  }

  /** The array holding line {@code i} (the deck's arena is segmented). */
  byte[] a(int i) {
    return deck.bytes(i);
  }

  int len(int i) {
    return LineSource.contentLength(deck.bytes(i), deck.start(i), deck.length(i));
  }

  boolean isComment(int i) {
    return LineBytes.isComment(a(i), off(i), len(i));
  }

  /** Keyword id of line {@code i}, or -1. */
  int keyword(int i) {
    return Keywords.of(a(i), off(i), len(i));
  }

  /** Packed header word of line {@code i}, or 0 when it is not a card header line. */
  long headerWord(int i) {
    return LineBytes.headerWord(a(i), off(i), len(i));
  }

  boolean startsWith(int i, byte[] prefix) {
    return LineBytes.startsWith(a(i), off(i), len(i), prefix);
  }

  /** The first non-comment line at or after {@code i}, or the line count. */
  int nextNonComment(int i) {
    while (i < n && isComment(i)) i++;
    return i;
  }

  /** Whether the card walker must stop before line {@code i}: end of buffer or a keyword line. */
  private boolean stopsCard(int i) {
    return i >= n || keyword(i) >= 0;
  }

  /** Walks the known card whose header (keyword {@code id}) is line {@code h}; returns its end. */
  int walkCard(int id, int h) {
    CardItem[] items = ITEMS[id];
    // Most cards (NODE, SHELL) are their header line alone; this stays small enough to inline.
    return items.length == 0 ? h : walkItems(items, h);
  }

  /** Applies a card's items from the line after its header {@code h} (§5.1); returns the card's end. */
  private int walkItems(CardItem[] items, int h) {
    end = h;
    cur = nextNonComment(h + 1);
    c = false;
    count = 0;
    // The stop check also runs before the items that read the header (PART, MTOCO): harmless, as a
    // card whose next line stops it ends at its header whatever they find.
    for (CardItem item : items) {
      if (stopsCard(cur) || !apply(item, h)) break;
    }
    return end;
  }

  /** Applies one item at the current line; false when it completed the card. */
  private boolean apply(CardItem item, int h) {
    switch (item.kind()) {
      case END_PART_SEARCH -> {
        int endPart = findEndPart(h);
        if (endPart >= 0) {
          end = endPart;
          return false;
        }
      }
      case HEADER_SETS_C -> c = numberIn(h, item) == item.equals();
      case LINE -> consume();
      case LINE_SETS_C_AMP81 -> {
        c = LineBytes.column81(a(cur), off(cur), len(cur)) == '&'; // FOLDS.md §5.2: & only
        consume();
      }
      case LINE_SETS_C -> {
        c = numberIn(cur, item) == item.equals();
        consume();
      }
      case LINE_SETS_N -> {
        count = Math.max(0, numberIn(cur, item));
        consume();
      }
      case LINE_IF_C -> {
        if (c) consume();
      }
      case N_LINES -> {
        for (int t = 0; t < count && !stopsCard(cur); t++) consume();
      }
      case GES -> consumeGes();
      case OTMCO_BLOCK -> consumeThrough(END_OTMCO);
      case META_BLOCK -> {
        if (startsWith(cur, META)) {
          consume();
          consumeThrough(END_META);
        }
      }
    }
    return true;
  }

  /** Makes the current line the card's end and moves to the next non-comment line. */
  private void consume() {
    end = cur;
    cur = nextNonComment(cur + 1);
  }

  /** Consumes lines up to and including the first that starts with {@code last}, stopping early. */
  private void consumeThrough(byte[] last) {
    while (!stopsCard(cur)) {
      consume();
      if (startsWith(end, last)) return;
    }
  }

  /**
   * Consumes a GES at the current line (§5.3): an END line alone, or the selection lines that follow
   * and the END line after them; nothing when it is neither.
   */
  private void consumeGes() {
    if (gesEnd(cur)) {
      consume();
      return;
    }
    if (!gesSelection(cur)) return; // an empty GES
    do consume(); while (cur < n && gesSelection(cur));
    if (cur < n && gesEnd(cur)) consume();
  }

  private int numberIn(int i, CardItem item) {
    return number(i, item.fromByte(), item.lastColumn());
  }

  /** The END_PART line that ends a PART card (§5.5), or -1 when a keyword line or EOF comes first. */
  private int findEndPart(int h) {
    for (int i = h + 1; i < n; i++) {
      byte[] a = a(i);
      int off = off(i);
      int len = len(i);
      if (LineBytes.isComment(a, off, len)) continue;
      if (LineBytes.startsWith(a, off, len, END_PART)) return i;
      if (Keywords.of(a, off, len) >= 0) return -1;
    }
    return -1;
  }

  private boolean gesEnd(int i) {
    return LineBytes.isGesEnd(a(i), off(i), len(i));
  }

  private boolean gesSelection(int i) {
    return LineBytes.isGesSelection(a(i), off(i), len(i));
  }

  private int number(int i, int from, int to) {
    return LineBytes.number(a(i), off(i), len(i), from, to);
  }

  /**
   * Walks the generic card whose header line {@code h} has the packed word {@code word} (§6.2):
   * up to its {@code END_} line, else to the last non-blank line before the next card header line.
   */
  int walkGeneric(int h, long word) {
    int end = h;
    for (int i = h + 1; i < n; i++) {
      byte[] a = a(i);
      int off = off(i);
      int len = len(i);
      if (LineBytes.isComment(a, off, len)) continue;
      if (LineBytes.headerWord(a, off, len) != 0) break;
      if (LineBytes.startsWithEndOf(a, off, len, word)) return i;
      if (!LineBytes.isBlank(a, off, len)) end = i;
    }
    return end;
  }

  /** Whether line {@code i} starts with END_PART; tells a PART card that ended there (§11). */
  boolean isEndPart(int i) {
    return startsWith(i, END_PART);
  }
}
