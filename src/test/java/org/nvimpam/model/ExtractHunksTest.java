package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nvimpam.lines.Lines;

/**
 * {@link Extract#hunks} is the change {@link Extract#write} makes, as Lua applies hunks in parts
 * (nvimpam.tree.hunks: top down, each hunk's first lines replacing its old ones, the rest
 * inserted, the old ones beyond deleted): random files, removals and INCLU places.
 */
class ExtractHunksTest {
  /** The lines after applying {@code hunks} top down, as nvimpam.tree.hunks does. */
  static List<String> applied(List<String> lines, List<Renumber.Hunk> hunks) {
    List<String> out = new ArrayList<>(lines);
    int delta = 0;
    for (Renumber.Hunk h : hunks) {
      int at = h.first() + delta;
      int span = h.last() - h.first();
      int n = h.count();
      for (int j = 0; j < n; j++) {
        String l = new String(h.lines().line(j), StandardCharsets.ISO_8859_1);
        if (j < span) out.set(at + j, l);
        else out.add(at + j, l);
      }
      for (int j = n; j < span; j++) out.remove(at + n);
      delta += n - span;
    }
    return out;
  }

  @Test
  void hunksMakeWhatWriteWrites() throws IOException {
    Random r = new Random(35);
    for (int round = 0; round < 2000; round++) {
      int count = 1 + r.nextInt(30);
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < count; i++) lines.add("line " + i);
      List<Integer> gone = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        if (r.nextInt(3) == 0) gone.add(i);
      }
      int[] g = gone.stream().mapToInt(Integer::intValue).toArray();
      Extract.Removal removal = g.length == 0 && r.nextBoolean() ? null : new Extract.Removal(0, g, new byte[g.length][]);
      byte[] inclu = r.nextInt(4) == 0 ? null : "INCLU / new.inc".getBytes(StandardCharsets.ISO_8859_1);
      int incluAt = r.nextInt(count - g.length + 2);
      Lines src = Lines.ofLatin1(lines.toArray(String[]::new));
      ByteArrayOutputStream o = new ByteArrayOutputStream();
      Extract.write(src, removal, inclu, incluAt, false, o);
      List<String> want = o.size() == 0 ? List.of() : List.of(o.toString(StandardCharsets.ISO_8859_1).split("\n", -1));
      List<String> got = applied(lines, Extract.hunks(count, removal, inclu, incluAt));
      assertEquals(want, got, "round " + round + ": removed " + gone + ", INCLU " + (inclu != null) + " at " + incluAt);
    }
  }
}
