package org.nvimpam.testutil;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.nvim.Nvim;

/** A window's fold tree as (start, end, depth) triples, sorted by start, then end descending. */
public record FoldTree(List<List<Integer>> folds) {
  /** The tree a plan must produce: level-2 folds at depth 1, their members at depth 2. */
  public static FoldTree of(FoldPlan plan) {
    List<List<Integer>> out = new ArrayList<>();
    int parentStart = -1;
    int parentEnd = -1;
    // Post-order: a parent comes after its members, so walk backwards to meet it first.
    for (int i = plan.size() - 1; i >= 0; i--) {
      int s = plan.start(i);
      int e = plan.end(i);
      if (plan.level(i) == 2) {
        parentStart = s;
        parentEnd = e;
        out.add(List.of(s, e, 1));
      } else {
        out.add(List.of(s, e, s >= parentStart && e <= parentEnd ? 2 : 1));
      }
    }
    out.sort(Comparator.<List<Integer>>comparingInt(f -> f.get(0)).thenComparing(f -> -f.get(1)));
    return new FoldTree(out);
  }

  /** The current window's folds, read from Neovim (see soak/window_folds.lua). */
  public static FoldTree read(Nvim nvim) throws IOException {
    return read(nvim, 0);
  }

  /** Window {@code win}'s folds (0: the current window), read by the soak's own reader. */
  public static FoldTree read(Nvim nvim, long win) throws IOException {
    Object flat = nvim.execLua(EmbeddedNvim.resource("/soak/window_folds.lua"), out -> out.packArrayHeader(1).packLong(win)).join();
    List<List<Integer>> out = new ArrayList<>();
    List<?> l = (List<?>) flat;
    for (int i = 0; i < l.size(); i += 3) {
      out.add(List.of(num(l.get(i)), num(l.get(i + 1)), num(l.get(i + 2))));
    }
    return new FoldTree(out);
  }

  private static int num(Object o) {
    return ((Number) o).intValue();
  }
}
