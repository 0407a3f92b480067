package org.nvimpam.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a soak run found: edits by kind, checks made, the JVM's heap after GC and thread counts
 * sampled along the run, and the first failure if any.
 *
 * @param heapBytes heap in use after a full GC, at each sample; the first is the baseline
 * @param threads the JVM's thread count at the same samples
 * @param deckLines the lines of all buffers together at the same samples
 * @param errorMessages error messages the plugin showed the user
 * @param mismatches windows whose folds differed from a full parse although the plugin had refolded
 *     their buffer at its last text change (each put right later, or the run would have stopped)
 * @param lagging buffers, summed over the checks, whose folds were not applied at their last text
 *     change within the settling time (the JVM does not push folds that did not change)
 * @param failure what stopped the run, or null
 */
public record SoakReport(SoakSettings settings, int editsMade, Map<String, Integer> editKinds, int checks,
    int windowsChecked, List<Long> heapBytes, List<Integer> threads, List<Long> deckLines, long nvimRssStartKib, long nvimRssEndKib,
    double seconds, List<String> errorMessages, List<String> mismatches, int lagging, String failure) {

  /**
   * Growth of the heap's floor after GC over the run, e.g. 0.02 for 2 %: the smallest sample of the
   * last third against the smallest of the first third. Single samples swing by megabytes as each
   * deck's append-only arena fills its spare room and is compacted; a leak raises the floor.
   */
  public double heapGrowth() {
    if (heapBytes.size() < 3) {
      return 0;
    }
    return (double) (heapFloor(false) - heapFloor(true)) / heapFloor(true);
  }

  /** The smallest heap sample of the first or of the last third of the run. */
  public long heapFloor(boolean first) {
    int third = Math.max(1, heapBytes.size() / 3);
    List<Long> part = first ? heapBytes.subList(0, third) : heapBytes.subList(heapBytes.size() - third, heapBytes.size());
    return part.stream().mapToLong(Long::longValue).min().orElse(0);
  }

  /**
   * True when no sample has more threads than the first one plus one: the RPC worker pool may keep
   * one idle thread for a minute after a request from Neovim.
   */
  public boolean threadsConstant() {
    return threads.isEmpty() || threads.stream().mapToInt(Integer::intValue).max().orElse(0) <= threads.get(0) + 1;
  }

  /**
   * Every check passed, the plugin showed no error, the heap grew less than allowed and the thread
   * count did not grow.
   */
  public boolean passed() {
    return failure == null && errorMessages.isEmpty() && mismatches.isEmpty() && heapGrowth() < settings.maxHeapGrowth() && threadsConstant();
  }

  /** The report as lines of text. */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    out.add(String.format(Locale.ROOT, "soak: %,d edits across %d live buffers in %d windows (seed %d) in %.0f s",
        editsMade, settings.buffers(), settings.windows(), settings.seed(), seconds));
    out.add("  edits: " + editKinds);
    out.add(String.format(Locale.ROOT, "  checks: %,d (every %,d edits), %,d window fold trees compared with a full parse%s",
        checks, settings.checkEvery(), windowsChecked,
        failure == null && mismatches.isEmpty() ? ": all equal" : ", " + mismatches.size() + " different"));
    for (String m : mismatches.subList(0, Math.min(5, mismatches.size()))) {
      out.add("    " + m);
    }
    out.add(String.format(Locale.ROOT, "  buffers not marked refolded at their last text change at a check: %,d of %,d",
        lagging, checks * settings.buffers()));
    if (!heapBytes.isEmpty()) {
      long min = heapBytes.stream().mapToLong(Long::longValue).min().orElse(0);
      long max = heapBytes.stream().mapToLong(Long::longValue).max().orElse(0);
      out.add(String.format(Locale.ROOT,
          "  JVM heap after GC: floor %.2f MB in the first third of the run, %.2f MB in the last (%+.1f %%; limit %+.0f %%);"
              + " %.2f MB at the first check, %.2f MB at the end, min %.2f, max %.2f MB over %d samples",
          mb(heapFloor(true)), mb(heapFloor(false)), 100 * heapGrowth(), 100 * settings.maxHeapGrowth(),
          mb(heapBytes.get(0)), mb(heapBytes.get(heapBytes.size() - 1)), mb(min), mb(max), heapBytes.size()));
    }
    if (!heapBytes.isEmpty()) {
      StringBuilder trend = new StringBuilder("  samples (heap MB / threads / lines of all buffers):");
      for (int i = 0; i < heapBytes.size(); i++) {
        trend.append(String.format(Locale.ROOT, " %.2f/%d/%,d", mb(heapBytes.get(i)), threads.get(i), deckLines.get(i)));
      }
      out.add(trend.toString());
    }
    if (!threads.isEmpty()) {
      int min = threads.stream().mapToInt(Integer::intValue).min().orElse(0);
      int max = threads.stream().mapToInt(Integer::intValue).max().orElse(0);
      out.add(String.format(Locale.ROOT, "  JVM threads: %d at the first check, %d at the end (min %d, max %d)",
          threads.get(0), threads.get(threads.size() - 1), min, max));
    }
    out.add(String.format(Locale.ROOT, "  Neovim resident memory: %.1f MB at the first check, %.1f MB at the end",
        nvimRssStartKib / 1024.0, nvimRssEndKib / 1024.0));
    out.add("  error messages shown by the plugin: " + errorMessages.size());
    for (String e : errorMessages.subList(0, Math.min(5, errorMessages.size()))) {
      out.add("    " + e);
    }
    if (failure != null) {
      out.add("  FAILED: " + failure);
    } else if (!errorMessages.isEmpty() || !mismatches.isEmpty()) {
      out.add("  FAILED: " + (mismatches.isEmpty() ? "the plugin showed error messages"
          : "windows differed from a full parse after the plugin had refolded them"));
    } else if (!passed()) {
      out.add("  FAILED: " + (threadsConstant() ? "the heap grew too much" : "the thread count grew"));
    }
    return out;
  }

  private static double mb(long bytes) {
    return bytes / 1e6;
  }
}
