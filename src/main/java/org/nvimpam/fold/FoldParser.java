package org.nvimpam.fold;

import java.util.Arrays;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.Keywords;
import org.nvimpam.lines.Lines;

/**
 * The main loop of FOLDS.md §7: finds start lines, walks their cards and records level-1 folds.
 *
 * <p>A full parse runs it over the whole deck. {@link FoldEngine} runs it over a region after an
 * edit: it may start inside a gathered run, and it stops as soon as the new folds line up with the
 * old ones shifted by δ (§11), reporting where the old folds take over.
 */
public final class FoldParser {
  private final CardWalker walker;
  private final boolean generic;
  private final NameTable names;

  // Level-1 folds found so far.
  private int[] starts;
  private int[] ends;
  private int[] ids;
  private int count;

  // Resynchronisation with the old folds (none for a full parse).
  private FoldSet old;
  private int delta;
  private int syncLine = Integer.MAX_VALUE;
  private int oldCursor; // first old fold that may contain the next line checked
  private int resumeOld = -1; // after a sync: the first old fold to keep, shifted by delta

  FoldParser(Deck deck, FoldOptions options, NameTable names, int expectedFolds) {
    this.walker = new CardWalker(deck);
    this.generic = options.genericCards();
    this.names = names;
    int cap = Math.max(16, expectedFolds);
    starts = new int[cap];
    ends = new int[cap];
    ids = new int[cap];
  }

  /** A full parse of a deck. */
  public static FoldSet parse(Deck deck, FoldOptions options) {
    return parse(deck, options, new NameTable());
  }

  /** A full parse of lines. */
  public static FoldSet parse(Lines lines, FoldOptions options) {
    return parse(Deck.of(lines), options);
  }

  static FoldSet parse(Deck deck, FoldOptions options, NameTable names) {
    FoldParser p = new FoldParser(deck, options, names, deck.lineCount() >> 6);
    p.run(0, -1, -1);
    return new FoldSet(
        Arrays.copyOf(p.starts, p.count), Arrays.copyOf(p.ends, p.count),
        Arrays.copyOf(p.ids, p.count), names.snapshot());
  }

  /**
   * Enables the stop of §11: at a start or card header line {@code s >= syncLine} whose old line
   * {@code s - delta} starts an old fold, or lies in an old run of the same keyword.
   */
  void syncWith(FoldSet old, int delta, int syncLine, int firstCandidate) {
    this.old = old;
    this.delta = delta;
    this.syncLine = syncLine;
    this.oldCursor = firstCandidate;
  }

  /**
   * Runs the main loop from line {@code from}. When {@code runKeyword >= 0}, {@code from} is a card
   * header inside a gathered run of that keyword that began at line {@code runStart}.
   */
  void run(int from, int runStart, int runKeyword) {
    int i = from;
    if (runKeyword >= 0) {
      i = walkRun(runStart, runKeyword, from);
      if (i < 0) return;
    }
    int n = walker.lineCount();
    while (i < n) {
      int kw = walker.keyword(i);
      if (kw >= 0) {
        if (i >= syncLine && syncAtStart(i)) return;
        if (Keywords.gathered(kw)) {
          i = walkRun(i, kw, i);
          if (i < 0) return;
        } else {
          int end = walker.walkCard(kw, i);
          add(i, end, kw);
          i = end + 1;
        }
        continue;
      }
      long word;
      // Comments never match: they fail both the keyword and the header test.
      if (generic && (word = walker.headerWord(i)) != 0) {
        if (i >= syncLine && syncAtStart(i)) return;
        int end = walker.walkGeneric(i, word);
        add(i, end, names.intern(word));
        i = end + 1;
      } else {
        i++;
      }
    }
  }

  /**
   * Walks a gathered run from its card header {@code h} (§5.8) and records the run's fold; returns
   * the line after it, or -1 when the run synchronised with an old one.
   */
  private int walkRun(int runStart, int kw, int h) {
    int n = walker.lineCount();
    while (true) {
      if (h >= syncLine && syncInRun(runStart, kw, h)) return -1;
      int end = walker.walkCard(kw, h);
      int next = walker.nextNonComment(end + 1);
      if (next < n && walker.keyword(next) == kw) {
        h = next;
      } else {
        add(runStart, end, kw);
        return end + 1;
      }
    }
  }

  /** Moves the cursor to the first old fold that ends at or after old line {@code t}. */
  private int oldFoldReaching(int t) {
    while (oldCursor < old.level1Count() && old.level1End(oldCursor) < t) oldCursor++;
    return oldCursor;
  }

  private boolean syncAtStart(int s) {
    int q = oldFoldReaching(s - delta);
    if (q < old.level1Count() && old.level1Start(q) == s - delta) {
      resumeOld = q;
      return true;
    }
    return false;
  }

  /** The run continues as the old run holding old line {@code h - delta} did, to its shifted end. */
  private boolean syncInRun(int runStart, int kw, int h) {
    int t = h - delta;
    int q = oldFoldReaching(t);
    if (q < old.level1Count() && old.level1Start(q) <= t && old.level1Name(q) == kw) {
      add(runStart, old.level1End(q) + delta, kw);
      resumeOld = q + 1;
      return true;
    }
    return false;
  }

  private void add(int start, int end, int id) {
    if (count == starts.length) {
      int cap = count + (count >> 1) + 16;
      starts = Arrays.copyOf(starts, cap);
      ends = Arrays.copyOf(ends, cap);
      ids = Arrays.copyOf(ids, cap);
    }
    starts[count] = start;
    ends[count] = end;
    ids[count] = id;
    count++;
  }

  int foundCount() {
    return count;
  }

  /** Whether the folds found are those of {@code old} from index {@code at} on, unmoved. */
  boolean foundAre(FoldSet old, int at) {
    for (int i = 0; i < count; i++) {
      int j = at + i;
      if (old.level1Start(j) != starts[i] || old.level1End(j) != ends[i] || old.level1Name(j) != ids[i]) return false;
    }
    return true;
  }

  /** Copies the folds found into the arrays, from index {@code at}. */
  void copyFound(int[] toStarts, int[] toEnds, int[] toIds, int at) {
    System.arraycopy(starts, 0, toStarts, at, count);
    System.arraycopy(ends, 0, toEnds, at, count);
    System.arraycopy(ids, 0, toIds, at, count);
  }

  /** After {@link #run}: the first old fold that follows the new ones, or -1 when none do. */
  int resumeOld() {
    return resumeOld;
  }

  CardWalker walker() {
    return walker;
  }

}
