package org.nvimpam.fold;

/**
 * The folds sent to Neovim (FOLDS.md §10), in creation order: end ascending, then start descending
 * (children before their parent). Every level-2 fold is included; one-line level-1 folds only when
 * asked. Lines are 1-based and inclusive, as {@code :{start},{end}fold} takes them.
 *
 * <p>The folds are one flat int array of {@value #STRIDE} ints per fold (start, end, level, name
 * index, count), so that an encoder can loop over it and write ints straight into its buffer.
 */
public final class FoldPlan {
  /** Ints per fold in {@link #flat()}: start, end, level, name index, count. */
  public static final int STRIDE = 5;

  private final int[] flat;
  private final int size;
  private final String[] names;

  private FoldPlan(int[] flat, int size, String[] names) {
    this.flat = flat;
    this.size = size;
    this.names = names;
  }

  /** Merges the sorted level-1 folds with the level-2 folds, each right after its last member. */
  static FoldPlan of(FoldSet set, boolean sendOneLineFolds) {
    int n1 = set.level1Count();
    int n2 = set.level2Count();
    int sent1 = n1;
    if (!sendOneLineFolds) {
      for (int i = 0; i < n1; i++) if (set.level1Start(i) == set.level1End(i)) sent1--;
    }
    int size = sent1 + n2;
    int[] flat = new int[size * STRIDE];
    int w = 0;
    int j = 0;
    for (int i = 0; i < n1; i++) {
      int s = set.level1Start(i);
      int e = set.level1End(i);
      if (s != e || sendOneLineFolds) {
        w = put(flat, w, s, e, 1, set.level1Name(i), 0);
      }
      if (j < n2 && set.level2End(j) == e) {
        w = put(flat, w, set.level2Start(j), e, 2, set.level2Name(j), set.level2Members(j));
        j++;
      }
    }
    return new FoldPlan(flat, size, set.names());
  }

  private static int put(int[] flat, int w, int start, int end, int level, int name, int count) {
    flat[w] = start + 1;
    flat[w + 1] = end + 1;
    flat[w + 2] = level;
    flat[w + 3] = name;
    flat[w + 4] = count;
    return w + STRIDE;
  }

  public int size() {
    return size;
  }

  /** First line, 1-based. */
  public int start(int i) {
    return flat[i * STRIDE];
  }

  /** Last line, 1-based, inclusive. */
  public int end(int i) {
    return flat[i * STRIDE + 1];
  }

  public int level(int i) {
    return flat[i * STRIDE + 2];
  }

  /** Index into {@link #names()}. */
  public int nameIndex(int i) {
    return flat[i * STRIDE + 3];
  }

  /** Level 2: the number of level-1 folds it groups; level 1: 0. */
  public int count(int i) {
    return flat[i * STRIDE + 4];
  }

  /**
   * The folds as {@link #size()} × {@value #STRIDE} ints; shared, must not be modified. The cheapest
   * way to stream the plan into an encoder.
   */
  public int[] flat() {
    return flat;
  }

  /** The names table, index = {@link #nameIndex}; shared, must not be modified. */
  public String[] names() {
    return names;
  }
}
