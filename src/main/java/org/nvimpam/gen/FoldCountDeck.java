package org.nvimpam.gen;

import static org.nvimpam.gen.DeckLineWriter.ascii;

import java.io.IOException;

/**
 * Writes a deck with an exact number of folds: see {@link DeckGenerator#foldCountDeck(int)} for
 * the layout and its arithmetic.
 */
final class FoldCountDeck {
  /** Cards in each gathered NODE or SHELL run, so that each run is a multi-line fold. */
  private static final int RUN_LENGTH = 4;
  /** RBODY cards in a full group: 4 level-1 folds and 1 level-2 fold. */
  private static final int GROUP_SIZE = 4;
  /** Folds in a full block: a NODE run, a SHELL run and a full RBODY group. */
  private static final int FOLDS_PER_BLOCK = 2 + GROUP_SIZE + 1;

  private static final byte[] RIGID = ascii("RIGID_BODY");
  private static final long[] PART_ONE = {1};

  private final CardWriter cards;
  private final long[] nodes = new long[8];
  private long nextNode = 1;
  private long nextElement = 1;
  private long nextRbody = 1;

  private FoldCountDeck(DeckLineWriter w) {
    this.cards = new CardWriter(w);
  }

  static void write(DeckLineWriter w, int folds) throws IOException {
    if (folds < 0) throw new IllegalArgumentException("fold count must be >= 0, was " + folds);
    new FoldCountDeck(w).blocks(folds);
  }

  /** Level-2 folds in a deck of {@code folds} folds; the rest are level 1. */
  static int levelTwoFolds(int folds) {
    int rest = folds % FOLDS_PER_BLOCK;
    return folds / FOLDS_PER_BLOCK + (rest >= FOLDS_PER_BLOCK - 2 ? 1 : 0);
  }

  /**
   * Greedy: each step takes as many folds as are left, at most a full block. With r folds left
   * after the two runs, a group of g = min(4, r − 1) cards (r ≥ 3) takes g + 1 = at most r folds;
   * with r ≤ 2 a single card takes 1, and the next block's NODE run takes a last one.
   */
  private void blocks(int folds) throws IOException {
    int left = folds;
    while (left > 0) {
      nodeRun();
      if (--left == 0) break;
      shellRun();
      if (--left == 0) break;
      int group = left >= 3 ? Math.min(GROUP_SIZE, left - 1) : 1;
      rbodyGroup(group);
      left -= group + (group >= 2 ? 1 : 0);
    }
  }

  private void nodeRun() throws IOException {
    cards.nodeColumns();
    for (int i = 0; i < RUN_LENGTH; i++) {
      long id = nextNode++;
      cards.node(id, id * 10_000_000, 0, 0);
    }
  }

  private void shellRun() throws IOException {
    cards.elementColumns(false);
    for (int i = 0; i < RUN_LENGTH; i++) {
      for (int k = 0; k < 4; k++) nodes[k] = Math.max(1, nextNode - 1 - k);
      cards.element(ElementType.SHELL, nextElement++, 1, nodes);
    }
  }

  private void rbodyGroup(int size) throws IOException {
    for (int i = 0; i < size; i++) {
      long cog = Math.max(1, nextNode - 1);
      cards.rbody(nextRbody, 0, cog, RIGID, CardWriter.SELECT_PART, PART_ONE, 1);
      nextRbody++;
    }
  }
}
