package org.nvimpam.fold;

import java.util.ArrayList;
import java.util.List;

/**
 * The folds that differ between two fold sets: those only in the old one (removed) and those only in
 * the new one (added). Folds are compared by start, end, level and name, and for level 2 also by
 * member count, since that changes the fold text.
 */
public final class FoldDiff {
  private final List<Fold> removed;
  private final List<Fold> added;

  private FoldDiff(List<Fold> removed, List<Fold> added) {
    this.removed = removed;
    this.added = added;
  }

  /** Merges both sets in their common order (start ascending, end descending). */
  public static FoldDiff between(FoldSet before, FoldSet after) {
    List<Fold> removed = new ArrayList<>();
    List<Fold> added = new ArrayList<>();
    Cursor a = new Cursor(before);
    Cursor b = new Cursor(after);
    while (a.valid() || b.valid()) {
      int order = !a.valid() ? 1 : !b.valid() ? -1 : a.compareTo(b);
      if (order == 0 && a.sameAs(b)) {
        a.next();
        b.next();
      } else if (order <= 0) {
        removed.add(a.fold());
        a.next();
      } else {
        added.add(b.fold());
        b.next();
      }
    }
    return new FoldDiff(List.copyOf(removed), List.copyOf(added));
  }

  public List<Fold> removed() {
    return removed;
  }

  public List<Fold> added() {
    return added;
  }

  public boolean isEmpty() {
    return removed.isEmpty() && added.isEmpty();
  }

  @Override
  public String toString() {
    return "FoldDiff[removed=" + removed + ", added=" + added + "]";
  }

  /** Walks a fold set's level-1 and level-2 folds in vector order. */
  private static final class Cursor {
    private final FoldSet set;
    private int i1;
    private int i2;

    Cursor(FoldSet set) {
      this.set = set;
    }

    boolean valid() {
      return i1 < set.level1Count();
    }

    /** Level 2 comes first when it starts at the current level-1 fold. */
    private boolean atLevel2() {
      return i2 < set.level2Count() && set.level2Start(i2) == set.level1Start(i1);
    }

    int start() {
      return set.level1Start(i1);
    }

    int end() {
      return atLevel2() ? set.level2End(i2) : set.level1End(i1);
    }

    int level() {
      return atLevel2() ? 2 : 1;
    }

    String name() {
      return set.name(atLevel2() ? set.level2Name(i2) : set.level1Name(i1));
    }

    int members() {
      return atLevel2() ? set.level2Members(i2) : 0;
    }

    int compareTo(Cursor o) {
      if (start() != o.start()) return Integer.compare(start(), o.start());
      return Integer.compare(o.end(), end());
    }

    boolean sameAs(Cursor o) {
      return level() == o.level() && members() == o.members() && name().equals(o.name());
    }

    Fold fold() {
      return atLevel2()
          ? new Fold(start() + 1, end() + 1, 2, set.level2Text(i2))
          : new Fold(start() + 1, end() + 1, 1, set.level1Text(i1));
    }

    void next() {
      if (atLevel2()) i2++;
      else i1++;
    }
  }
}
