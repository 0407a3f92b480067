package org.nvimpam.fold;

import static org.nvimpam.fold.CardItems.GES;
import static org.nvimpam.fold.CardItems.L;
import static org.nvimpam.fold.CardItems.L_IF_C;
import static org.nvimpam.fold.CardItems.L_SET_C_AMP81;
import static org.nvimpam.fold.CardItems.L_SET_C_EQ1;
import static org.nvimpam.fold.CardItems.L_SET_N;
import static org.nvimpam.fold.CardItems.META_BLOCK;
import static org.nvimpam.fold.CardItems.N_LINES;
import static org.nvimpam.fold.CardItems.OTMCO_BLOCK;

import org.nvimpam.deck.Deck;
import org.nvimpam.deck.Keywords;
import org.nvimpam.deck.LineBytes;

/**
 * Walks one card of a deck (FOLDS.md §5, §6.2) and answers the line tests the main loop needs. Every
 * test sees the line without its final CR. Valid until the deck is next edited.
 */
final class CardWalker {
  private static final byte[] END_PART = LineBytes.ascii("END_PART");
  private static final byte[] END_OTMCO = LineBytes.ascii("END_OTMCO");
  private static final byte[] META = LineBytes.ascii("META");
  private static final byte[] END_META = LineBytes.ascii("END_META");
  private static final int MTOCO = Keywords.byName("Mtoco");

  private final Deck deck;
  private final int n;

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
    return LineBytes.contentLength(deck.bytes(i), deck.start(i), deck.length(i));
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
    boolean c = false;
    if (Keywords.isPart(id)) {
      int endPart = findEndPart(h);
      if (endPart >= 0) return endPart;
      c = number(h, 24, 32) == 0;
    } else if (id == MTOCO) {
      c = number(h, 41, 49) == 1;
    }
    int[] items = CardItems.program(id);
    int end = h;
    int cur = nextNonComment(h + 1);
    int count = 0;
    for (int pc = 0; pc < items.length; pc++) {
      if (stopsCard(cur)) return end;
      switch (items[pc]) {
        case L -> {
          end = cur;
          cur = nextNonComment(cur + 1);
        }
        case L_SET_C_AMP81 -> {
          c = len(cur) > 80 && a(cur)[off(cur) + 80] == '&';
          end = cur;
          cur = nextNonComment(cur + 1);
        }
        case L_IF_C -> {
          if (c) {
            end = cur;
            cur = nextNonComment(cur + 1);
          }
        }
        case L_SET_C_EQ1 -> {
          c = number(cur, items[pc + 1], items[pc + 2]) == 1;
          pc += 2;
          end = cur;
          cur = nextNonComment(cur + 1);
        }
        case L_SET_N -> {
          count = Math.max(0, number(cur, items[pc + 1], items[pc + 2]));
          pc += 2;
          end = cur;
          cur = nextNonComment(cur + 1);
        }
        case N_LINES -> {
          for (int t = 0; t < count; t++) {
            if (stopsCard(cur)) return end;
            end = cur;
            cur = nextNonComment(cur + 1);
          }
        }
        case GES -> {
          int last = walkGes(cur);
          if (last >= 0) {
            end = last;
            cur = nextNonComment(last + 1);
          }
        }
        case OTMCO_BLOCK -> {
          while (!stopsCard(cur)) {
            end = cur;
            cur = nextNonComment(cur + 1);
            if (startsWith(end, END_OTMCO)) break;
          }
        }
        case META_BLOCK -> {
          if (startsWith(cur, META)) {
            end = cur;
            cur = nextNonComment(cur + 1);
            while (!stopsCard(cur)) {
              end = cur;
              cur = nextNonComment(cur + 1);
              if (startsWith(end, END_META)) break;
            }
          }
        }
        default -> throw new IllegalStateException("unknown card item " + items[pc]);
      }
    }
    return end;
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

  /** Walks a GES starting at line {@code cur} (§5.3); returns its last line, or -1 when empty. */
  private int walkGes(int cur) {
    if (gesEnd(cur)) return cur;
    int last = -1;
    while (cur < n && gesSelection(cur)) {
      last = cur;
      cur = nextNonComment(cur + 1);
    }
    if (last >= 0 && cur < n && gesEnd(cur)) last = cur;
    return last;
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
