package org.nvimpam.fold;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable fold set: level-1 folds (FOLDS.md §7) and the level-2 folds derived from them (§8),
 * held in primitive arrays. Lines are 0-based and inclusive here; {@link Fold} and
 * {@link FoldPlan} use Neovim's 1-based numbering.
 */
public final class FoldSet {
  private static final int[] NONE = new int[0];

  private final int[] start1;
  private final int[] end1;
  private final int[] name1;
  private final int[] start2;
  private final int[] end2;
  private final int[] name2;
  private final int[] members2;
  private final String[] names;

  /** Takes ownership of exact-length level-1 arrays (sorted, disjoint) and derives level 2. */
  FoldSet(int[] start1, int[] end1, int[] name1, String[] names) {
    this.start1 = start1;
    this.end1 = end1;
    this.name1 = name1;
    this.names = names;
    int runs = 0;
    for (int i = 1; i < name1.length; i++) {
      if (name1[i] == name1[i - 1] && (i == 1 || name1[i - 1] != name1[i - 2])) runs++;
    }
    start2 = runs == 0 ? NONE : new int[runs];
    end2 = runs == 0 ? NONE : new int[runs];
    name2 = runs == 0 ? NONE : new int[runs];
    members2 = runs == 0 ? NONE : new int[runs];
    int r = 0;
    for (int i = 0; i < name1.length; ) {
      int j = i + 1;
      while (j < name1.length && name1[j] == name1[i]) j++;
      if (j - i >= 2) {
        start2[r] = start1[i];
        end2[r] = end1[j - 1];
        name2[r] = name1[i];
        members2[r] = j - i;
        r++;
      }
      i = j;
    }
  }

  static FoldSet empty(String[] names) {
    return new FoldSet(NONE, NONE, NONE, names);
  }

  public int level1Count() {
    return start1.length;
  }

  /** 0-based first line of level-1 fold {@code i}; folds are ordered by start. */
  public int level1Start(int i) {
    return start1[i];
  }

  /** 0-based last line (inclusive) of level-1 fold {@code i}. */
  public int level1End(int i) {
    return end1[i];
  }

  /** Name id of level-1 fold {@code i}; see {@link #name(int)}. */
  public int level1Name(int i) {
    return name1[i];
  }

  public int level2Count() {
    return start2.length;
  }

  public int level2Start(int i) {
    return start2[i];
  }

  public int level2End(int i) {
    return end2[i];
  }

  public int level2Name(int i) {
    return name2[i];
  }

  /** Number of level-1 folds in the run that level-2 fold {@code i} groups. */
  public int level2Members(int i) {
    return members2[i];
  }

  /** The name of a name id: a keyword name such as {@code PartShell}, or a header word. */
  public String name(int id) {
    return names[id];
  }

  // The arrays themselves, for splicing in FoldEngine; must not be modified.
  int[] starts1() {
    return start1;
  }

  int[] ends1() {
    return end1;
  }

  int[] names1() {
    return name1;
  }

  /** The names table, index = name id; shared, must not be modified. */
  String[] names() {
    return names;
  }

  /** Text of level-1 fold {@code i}: {@code " N lines: Name "}. */
  public String level1Text(int i) {
    return level1Text(end1[i] - start1[i] + 1, names[name1[i]]);
  }

  /** Text of level-2 fold {@code i}: {@code " K Names "}. */
  public String level2Text(int i) {
    return level2Text(members2[i], names[name2[i]]);
  }

  static String level1Text(int lines, String name) {
    return " " + lines + " lines: " + name + " ";
  }

  static String level2Text(int members, String name) {
    return " " + members + " " + name + "s ";
  }

  /**
   * All folds, 1-based, ordered by start ascending and end descending (a level-2 fold comes right
   * before its first member), one-line folds included: the order of the test vectors.
   */
  public List<Fold> toList() {
    List<Fold> out = new ArrayList<>(start1.length + start2.length);
    int j = 0;
    for (int i = 0; i < start1.length; i++) {
      if (j < start2.length && start2[j] == start1[i]) {
        out.add(new Fold(start2[j] + 1, end2[j] + 1, 2, level2Text(j)));
        j++;
      }
      out.add(new Fold(start1[i] + 1, end1[i] + 1, 1, level1Text(i)));
    }
    return out;
  }

  /** The folds to send to Neovim, in creation order (FOLDS.md §10). */
  public FoldPlan plan(boolean sendOneLineFolds) {
    return FoldPlan.of(this, sendOneLineFolds);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) return true;
    if (!(o instanceof FoldSet other)) return false;
    if (!Arrays.equals(start1, other.start1) || !Arrays.equals(end1, other.end1)) return false;
    for (int i = 0; i < name1.length; i++) {
      if (!names[name1[i]].equals(other.names[other.name1[i]])) return false;
    }
    return true; // level 2 is derived from level 1
  }

  @Override
  public int hashCode() {
    int h = Arrays.hashCode(start1) * 31 + Arrays.hashCode(end1);
    for (int id : name1) h = h * 31 + names[id].hashCode();
    return h;
  }

  @Override
  public String toString() {
    return "FoldSet" + toList();
  }
}
