package org.nvimpam.jmh;

import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldSet;
import org.nvimpam.lines.Lines;

/**
 * Heap held by a FoldEngine over a synthetic deck, against the deck's file size: measured as used
 * heap after GC with and without the engine, and estimated from the arrays' sizes.
 * Run: {@code java -cp bench/target/benchmarks.jar org.nvimpam.jmh.DeckHeap [lines]}.
 */
public final class DeckHeap {
  private DeckHeap() {}

  public static void main(String[] args) {
    int lines = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    long baseline = usedAfterGc();
    long[] fileBytes = new long[1];
    FoldEngine engine = load(lines, fileBytes);
    long withEngine = usedAfterGc();
    FoldSet folds = engine.folds();
    long estimate = engine.deck().heapBytes() + 12L * folds.level1Count() + 16L * folds.level2Count();
    System.out.printf("deck: %d lines, %d file bytes, %d level-1 folds%n", lines, fileBytes[0], folds.level1Count());
    System.out.printf("array estimate (arena + index + folds): %d bytes = %.3f x file bytes%n",
        estimate, (double) estimate / fileBytes[0]);
    long held = withEngine - baseline;
    System.out.printf("measured (used heap after GC, after load - before load): %d bytes = %.3f x file bytes%n",
        held, (double) held / fileBytes[0]);
  }

  /** Loads in its own frame, so that the file bytes are garbage when it returns. */
  private static FoldEngine load(int lines, long[] fileBytes) {
    byte[] bytes = SyntheticDeck.generate(lines);
    fileBytes[0] = bytes.length;
    FoldEngine engine = new FoldEngine(FoldOptions.GENERIC);
    engine.reset(Lines.split(bytes));
    return engine;
  }

  private static long usedAfterGc() {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 4; i++) {
      System.gc();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return rt.totalMemory() - rt.freeMemory();
  }
}
