package org.nvimpam.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Whether the kernel's DAMON samples the machine's physical memory (a kdamond that is on, with
 * {@code paddr} operations), and how often. Each sample clears the access bit of a page in each
 * of its regions, in whatever process maps it; on a virtual machine that costs a process with a
 * large resident set, such as Neovim holding a 10M-line deck, tens of milliseconds of waiting at
 * the sampling period, whatever it runs. A benchmark of gaps in Neovim's main loop names it beside its figures.
 */
final class MemorySampling {
  static final Path KDAMONDS = Path.of("/sys/kernel/mm/damon/admin/kdamonds");

  private MemorySampling() {}

  /** The sampling periods (ms) of the kdamonds under {@code root} that sample physical memory, none when no such. */
  static List<Double> periodsMs(Path root) {
    List<Double> periods = new ArrayList<>();
    if (!Files.isDirectory(root)) return periods;
    try (Stream<Path> kdamonds = Files.list(root)) {
      for (Path k : kdamonds.sorted().toList()) {
        if (!"on".equals(read(k.resolve("state")))) continue;
        try (Stream<Path> contexts = Files.list(k.resolve("contexts"))) {
          for (Path c : contexts.sorted().toList()) {
            if (!"paddr".equals(read(c.resolve("operations")))) continue;
            String us = read(c.resolve("monitoring_attrs/intervals/sample_us"));
            if (us != null && us.matches("[0-9]+")) periods.add(Long.parseLong(us) / 1000.0);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return periods; // what could be read; unreadable parts count as none
    }
    return periods;
  }

  /** A line naming this machine's sampling of physical memory, or null when it has none. */
  static String note() {
    List<Double> periods = periodsMs(KDAMONDS);
    if (periods.isEmpty()) return null;
    StringBuilder ms = new StringBuilder();
    for (double p : periods) ms.append(ms.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", p));
    return "note: the kernel's DAMON samples this machine's physical memory every " + ms + " ms; on a virtual machine"
        + " each sample can hold Neovim up for tens of ms at that period, whatever it runs (turn it off for the"
        + " plugin's own figures: echo off > " + KDAMONDS + "/N/state)";
  }

  private static String read(Path p) {
    try {
      return Files.readString(p).trim();
    } catch (IOException e) {
      return null;
    }
  }
}
