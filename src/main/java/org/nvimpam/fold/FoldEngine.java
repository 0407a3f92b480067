package org.nvimpam.fold;

import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckChunk;
import org.nvimpam.deck.Keywords;
import org.nvimpam.lines.Lines;

/**
 * A buffer's deck and its current fold set, kept equal to a full parse across edits (FOLDS.md §11).
 *
 * <p>An edit re-parses only a region: from the start S of the last fold before the edit that is safe
 * to restart at (inside a gathered run: its last card header before the edit), until the new folds
 * line up again with the old ones shifted by δ. Folds before the region are kept, folds after it
 * are shifted, and level 2 is derived again from level 1. Not thread-safe; the fold sets it returns
 * are immutable.
 */
public final class FoldEngine {
  private final FoldOptions options;
  private final NameTable names = new NameTable();
  private Deck deck = Deck.of(Lines.empty());
  private FoldSet folds = FoldSet.empty(names.snapshot());

  public FoldEngine(FoldOptions options) {
    this.options = options;
  }

  /** Replaces the whole buffer, as the initial {@code nvim_buf_lines_event} does, and parses it. */
  public FoldSet reset(Lines all) {
    deck = Deck.of(all);
    folds = FoldParser.parse(deck, options, names);
    return folds;
  }

  /** Takes over a deck loaded elsewhere (e.g. chunk by chunk from Neovim) and parses it. */
  public FoldSet load(Deck loaded) {
    deck = loaded;
    folds = FoldParser.parse(deck, options, names);
    return folds;
  }

  /**
   * Replaces lines {@code first <= i < last} (0-based, old numbering) by {@code replacement} and
   * updates the folds; the result equals a full parse of the new buffer.
   */
  public FoldSet apply(int first, int last, Lines replacement) {
    deck.replace(first, last, replacement);
    return update(first, last, replacement.count());
  }

  /**
   * Appends the lines of {@code c} (a file's next lines, as it is read) and updates the folds:
   * {@link #apply} of an insertion at the end, without copying the lines.
   */
  public FoldSet append(DeckChunk c) {
    int first = deck.lineCount();
    deck.append(c);
    return update(first, first, c.count());
  }

  /** The folds after old lines {@code [first, last)} became {@code k} lines, already in the deck. */
  private FoldSet update(int first, int last, int k) {
    FoldSet old = folds;
    int delta = k - (last - first);

    FoldParser parser = new FoldParser(deck, options, names, 16);
    int restart = restartFold(old, first, parser.walker());
    int keep = Math.max(restart, 0); // old folds [0, keep) stay as they are
    parser.syncWith(old, delta, first + k, keep);
    if (restart < 0) {
      parser.run(0, -1, -1);
    } else {
      int s = old.level1Start(restart);
      int kw = old.level1Name(restart);
      int limit = Math.min(first - 1, old.level1End(restart));
      boolean run = kw < Keywords.COUNT && Keywords.gathered(kw);
      int card = run ? lastCardBefore(parser.walker(), kw, s, limit) : s;
      parser.run(card, card == s ? -1 : s, card == s ? -1 : kw);
    }
    folds = splice(old, keep, parser, delta);
    return folds;
  }

  /**
   * The index of the old fold to restart at (§11, "Start"): the last fold beginning before line
   * {@code first} on a known keyword line, or a later generic fold when no PART card before it is
   * still searching for its END_PART. -1 when there is none: restart at the top.
   */
  private static int restartFold(FoldSet old, int first, CardWalker walker) {
    int j = lastStartingBefore(old, first);
    if (j < 0) return -1;
    if (old.level1Name(j) < Keywords.COUNT) return j;
    int k = j - 1;
    while (k >= 0 && old.level1Name(k) >= Keywords.COUNT) k--;
    if (k < 0 || !Keywords.isPart(old.level1Name(k))) return j;
    // A PART card that ended at END_PART searches no further; one that was counted searched up to
    // the next keyword line, past the generic folds after it, and an edit may give it an END_PART.
    return walker.isEndPart(old.level1End(k)) ? j : k;
  }

  private static int lastStartingBefore(FoldSet set, int line) {
    int lo = 0;
    int hi = set.level1Count() - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (set.level1Start(mid) < line) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /**
   * The last card header of a gathered run of keyword {@code kw} that began at {@code runStart},
   * at or before line {@code limit}: every keyword line inside the run is one of its cards.
   */
  private static int lastCardBefore(CardWalker walker, int kw, int runStart, int limit) {
    for (int i = limit; i > runStart; i--) {
      if (walker.keyword(i) == kw) return i;
    }
    return runStart;
  }

  /** Old folds before the region, the region's new folds, then the old folds after it, shifted. */
  private FoldSet splice(FoldSet old, int keep, FoldParser parser, int delta) {
    int found = parser.foundCount();
    int resume = parser.resumeOld();
    int tail = resume < 0 ? 0 : old.level1Count() - resume;
    int n = keep + found + tail;
    // An edit that moved no fold (a value, a title, a comment) keeps the set: nothing to copy. A
    // large change in parts (an offset of 10M lines, 100k edits) copied every fold per edit.
    if (delta == 0 && n == old.level1Count() && old.names() == names.snapshot() && parser.foundAre(old, keep)) {
      return old;
    }
    int[] starts = new int[n];
    int[] ends = new int[n];
    int[] ids = new int[n];
    System.arraycopy(old.starts1(), 0, starts, 0, keep);
    System.arraycopy(old.ends1(), 0, ends, 0, keep);
    System.arraycopy(old.names1(), 0, ids, 0, keep);
    parser.copyFound(starts, ends, ids, keep);
    int[] oldStarts = old.starts1();
    int[] oldEnds = old.ends1();
    System.arraycopy(old.names1(), resume < 0 ? 0 : resume, ids, keep + found, tail);
    for (int i = 0, w = keep + found; i < tail; i++, w++) {
      starts[w] = oldStarts[resume + i] + delta;
      ends[w] = oldEnds[resume + i] + delta;
    }
    return new FoldSet(starts, ends, ids, names.snapshot());
  }

  public FoldOptions options() {
    return options;
  }

  public FoldSet folds() {
    return folds;
  }

  public Deck deck() {
    return deck;
  }
}
