package org.nvimpam.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The share of the machine's CPU time its hypervisor gave to others (Linux's {@code steal} in
 * /proc/stat): on a shared virtual machine, a process that is on the CPU in its own kernel's view
 * may still wait tens of milliseconds. A gap in a benchmark that Neovim's own CPU time does not
 * explain is told apart by it.
 */
final class CpuSteal {
  private static final Path STAT = Path.of("/proc/stat");

  private CpuSteal() {}

  /** The machine's {total, steal} CPU ticks so far, or null where the system does not tell them. */
  static long[] sample() {
    try {
      return parse(Files.readAllLines(STAT).get(0));
    } catch (IOException | RuntimeException e) {
      return null; // not Linux, or no /proc: the figure is then unknown
    }
  }

  /** {total, steal} of /proc/stat's first line ({@code cpu user nice system idle iowait irq softirq steal ...}), or null. */
  static long[] parse(String cpuLine) {
    String[] f = cpuLine.trim().split("\\s+");
    if (f.length < 9 || !f[0].equals("cpu")) return null;
    long total = 0;
    for (int i = 1; i < Math.min(f.length, 9); i++) total += Long.parseLong(f[i]); // guest time is in user already
    return new long[] {total, Long.parseLong(f[8])};
  }

  /** The percentage of the CPU time between two samples that was stolen, NaN when either is unknown. */
  static double percent(long[] before, long[] after) {
    if (before == null || after == null || after[0] <= before[0]) return Double.NaN;
    return 100.0 * (after[1] - before[1]) / (after[0] - before[0]);
  }
}
