package org.nvimpam.soak;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.nvim.Window;

/**
 * A window's folds as (start, end, depth) triples sorted by start, then end descending: read from
 * Neovim, or computed by a full parse of the buffer's lines. The soak compares the two.
 */
record WindowFolds(int[] triples) {
  private static final String READ = resource("/soak/window_folds.lua");

  /** The tree a full parse of {@code lines} gives: level-2 folds at depth 1, their members at 2. */
  static WindowFolds parse(Lines lines, FoldOptions options) {
    FoldPlan plan = FoldParser.parse(lines, options).plan(false);
    int n = plan.size();
    long[] keyed = new long[n]; // start, then end descending, then depth: one sortable long each
    int parentStart = -1;
    int parentEnd = -1;
    for (int i = n - 1; i >= 0; i--) { // post-order: a parent comes after its members
      int s = plan.start(i);
      int e = plan.end(i);
      int depth;
      if (plan.level(i) == 2) {
        parentStart = s;
        parentEnd = e;
        depth = 1;
      } else {
        depth = s >= parentStart && e <= parentEnd ? 2 : 1;
      }
      keyed[i] = ((long) s << 34) | ((long) (0x3fff_ffff - e) << 4) | depth;
    }
    Arrays.sort(keyed);
    int[] t = new int[3 * n];
    for (int i = 0; i < n; i++) {
      t[3 * i] = (int) (keyed[i] >>> 34);
      t[3 * i + 1] = 0x3fff_ffff - (int) ((keyed[i] >>> 4) & 0x3fff_ffff);
      t[3 * i + 2] = (int) (keyed[i] & 0xf);
    }
    return new WindowFolds(t);
  }

  /** What a full parse of {@code buffer}'s current lines gives. */
  static WindowFolds expected(Nvim nvim, Buffer buffer, FoldOptions options) {
    return parse(Await.call(nvim.bufGetLines(buffer, 0, -1, false), "reading the folds"), options);
  }

  /** The folds Neovim shows in {@code window}. */
  static WindowFolds read(Nvim nvim, Window window) {
    Object flat = Await.call(nvim.execLua(READ, out -> {
      out.packArrayHeader(1);
      nvim.writeWindow(out, window);
    }), "reading the folds");
    List<?> l = (List<?>) flat;
    int[] t = new int[l.size()];
    for (int i = 0; i < t.length; i++) {
      t[i] = ((Number) l.get(i)).intValue();
    }
    return new WindowFolds(t);
  }

  int size() {
    return triples.length / 3;
  }

  /** Null when equal; else the counts and the first difference, in words. */
  String difference(WindowFolds got) {
    if (Arrays.equals(triples, got.triples)) {
      return null;
    }
    int i = 0;
    while (3 * i < Math.min(triples.length, got.triples.length)
        && Arrays.equals(triples, 3 * i, 3 * i + 3, got.triples, 3 * i, 3 * i + 3)) {
      i++;
    }
    return got.size() + " folds instead of " + size() + "; first difference at fold " + (i + 1) + ": "
        + got.show(i) + " instead of " + show(i);
  }

  private String show(int i) {
    return 3 * i < triples.length
        ? "lines " + triples[3 * i] + "-" + triples[3 * i + 1] + " at depth " + triples[3 * i + 2]
        : "none";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WindowFolds w && Arrays.equals(triples, w.triples);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(triples);
  }

  @Override
  public String toString() {
    return size() + " folds";
  }

  private static String resource(String name) {
    try (InputStream in = WindowFolds.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
