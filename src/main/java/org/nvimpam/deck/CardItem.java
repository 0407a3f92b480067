package org.nvimpam.deck;

/**
 * One item of a known card, in the notation of FOLDS.md §4 ("Lines after the header") and §5.5:
 * what the card walker does at the current line. A {@link Keyword} lists its items in order.
 *
 * <p>The items are data of the deck format, so they live here with the keywords; walking them into
 * card extents is the fold package's job ({@code fold.CardWalker}), and deck never depends on fold.
 *
 * @param kind what the item does
 * @param firstColumn for the items that read a number: the first column of its range, 1-based as
 *     in the specification; 0 otherwise
 * @param lastColumn the last column of that range, inclusive; 0 otherwise
 * @param equals for the items that set flag c: the number that makes it true; 0 otherwise
 */
public record CardItem(Kind kind, int firstColumn, int lastColumn, int equals) {
  public enum Kind {
    /** PART only, before anything else (§5.5): an END_PART line ends the card there. */
    END_PART_SEARCH,
    /** Sets flag c from the header line: the number in the column range equals {@code equals}. */
    HEADER_SETS_C,
    /** {@code L} or {@code NAME}: consumes the current line, whatever it holds. */
    LINE,
    /** {@code L:c=(column 81 is &)}. */
    LINE_SETS_C_AMP81,
    /** {@code L:c=(columns … equal v)}. */
    LINE_SETS_C,
    /** {@code L:n=(columns …)}: no number counts as 0. */
    LINE_SETS_N,
    /** {@code [L if c]}. */
    LINE_IF_C,
    /** {@code n×L}: up to n lines, stopping before a known keyword line. */
    N_LINES,
    /** A General Entity Selection (§5.3). */
    GES,
    /** The OTMCO block (§5.6): lines up to and including the first END_OTMCO line. */
    OTMCO_BLOCK,
    /** The optional GROUP META block (§5.7). */
    META_BLOCK,
  }

  public static final CardItem L = of(Kind.LINE);
  /** A line meant to hold {@code NAME …}; its content is not checked, so it is an {@link #L}. */
  public static final CardItem NAME = L;
  public static final CardItem L_SETS_C_AMP81 = of(Kind.LINE_SETS_C_AMP81);
  public static final CardItem L_IF_C = of(Kind.LINE_IF_C);
  public static final CardItem N_LINES = of(Kind.N_LINES);
  public static final CardItem GES = of(Kind.GES);
  public static final CardItem OTMCO_BLOCK = of(Kind.OTMCO_BLOCK);
  public static final CardItem META_BLOCK = of(Kind.META_BLOCK);
  public static final CardItem END_PART_SEARCH = of(Kind.END_PART_SEARCH);

  public CardItem {
    boolean ranged = kind == Kind.HEADER_SETS_C || kind == Kind.LINE_SETS_C || kind == Kind.LINE_SETS_N;
    if (ranged ? firstColumn < 1 || lastColumn < firstColumn : firstColumn != 0 || lastColumn != 0) {
      throw new IllegalArgumentException(kind + " with columns " + firstColumn + "-" + lastColumn);
    }
  }

  private static CardItem of(Kind kind) {
    return new CardItem(kind, 0, 0, 0);
  }

  /** The header sets {@code c = (columns first–last equal v)}. */
  public static CardItem headerSetsC(int firstColumn, int lastColumn, int v) {
    return new CardItem(Kind.HEADER_SETS_C, firstColumn, lastColumn, v);
  }

  /** {@code L:c=(columns first–last equal v)}. */
  public static CardItem lineSetsC(int firstColumn, int lastColumn, int v) {
    return new CardItem(Kind.LINE_SETS_C, firstColumn, lastColumn, v);
  }

  /** {@code L:n=(columns first–last)}. */
  public static CardItem lineSetsN(int firstColumn, int lastColumn) {
    return new CardItem(Kind.LINE_SETS_N, firstColumn, lastColumn, 0);
  }

  /** The byte offset where the column range starts (the {@code from} of {@link LineBytes#number}). */
  public int fromByte() {
    return firstColumn - 1;
  }
}
