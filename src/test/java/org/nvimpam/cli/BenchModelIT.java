package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.testutil.EmbeddedNvim;

/**
 * {@code bench-model} on a small generated deck in the test's Neovim: one row per model command,
 * each done without an error, in turns of the main loop, and the timer's largest gap at least the
 * longest turn (no tick can come while a turn holds the loop).
 */
class BenchModelIT {
  @TempDir Path dir;

  @Test
  void everyModelCommandIsARowOfTurnsAndGaps() {
    CliRun r = CliRun.of("bench-model", "--lines", "20000", "--dir", dir.toString(), "--nvim", EmbeddedNvim.executable(),
        "--root", EmbeddedNvim.root().toString());
    assertEquals(0, r.code(), r.out() + r.err());
    List<String[]> rows = new ArrayList<>();
    for (String line : r.out().split("\n")) {
      if (line.startsWith("| :")) rows.add(line.substring(2, line.length() - 2).split(" \\| "));
    }
    List<String> commands = new ArrayList<>();
    for (String[] row : rows) commands.add(row[0]);
    assertEquals(List.of(":NvimpamOffset node 1000000", ":NvimpamRenumber node 1", ":NvimpamTransform translate 0 0 1"),
        commands, r.out());
    for (String[] row : rows) {
      String what = String.join(" | ", row);
      double wallS = Double.parseDouble(row[1]);
      long turns = Long.parseLong(row[2]);
      double[] longest = pair(row[3]);
      double[] gap = numbers(row[4]); // wall, CPU, stolen (- where the system does not tell it)
      assertEquals("-", row[7], what);
      assertTrue(turns > 0, what);
      assertTrue(longest[0] > 0 && longest[1] >= 0 && wallS * 1000 >= longest[0], what);
      assertTrue(gap[0] + 0.1 >= longest[0] && gap[1] >= 0, what);
      assertTrue(gap.length == 3 && (Double.isNaN(gap[2]) || gap[2] >= 0), what);
      double[] over = numbers(row[5]); // gaps over a frame; of them those over a frame of Neovim's CPU, and those but for steal
      assertTrue(over[0] >= over[1] && over[1] >= 0 && over[0] >= over[2] && over[2] >= 0, what);
      assertTrue(row[6].equals("-") || Double.parseDouble(row[6]) >= 0 && Double.parseDouble(row[6]) <= 100, what);
    }
  }

  /** "12.3 (4.5)" as {12.3, 4.5}. */
  private static double[] pair(String cell) {
    double[] n = numbers(cell);
    assertEquals(2, n.length, cell);
    return n;
  }

  /** "12.3 (4.5, 6)" or "3 (1 / 0)" as its numbers, a "-" as NaN. */
  private static double[] numbers(String cell) {
    String[] p = cell.replaceAll("[(),/]", " ").trim().split(" +");
    double[] n = new double[p.length];
    for (int i = 0; i < p.length; i++) n[i] = p[i].equals("-") ? Double.NaN : Double.parseDouble(p[i]);
    return n;
  }
}
