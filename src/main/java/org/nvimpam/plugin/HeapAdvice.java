package org.nvimpam.plugin;

import java.util.Locale;

/**
 * What to tell a user whose deck did not fit the JVM's heap: the deck's size, the option, and
 * the value to set it to.
 *
 * <p>The figure is measured (bench/README.md, "Memory"): loading, folding and editing a deck
 * peaks at about 1.3× its bytes of heap, and the JVM itself needs some room; the advice asks for
 * 1.5× plus 100 MB, rounded up to 100 MB, plus what the other live buffers already hold.
 */
final class HeapAdvice {
  private HeapAdvice() {}

  static final double HEAP_PER_DECK_BYTE = 1.5;
  static final long BASE_BYTES = 100L << 20;

  /** The -Xmx, in MB, a deck of {@code deckBytes} needs besides {@code otherBytes} held already. */
  static long suggestedMb(long deckBytes, long otherBytes) {
    double need = deckBytes * HEAP_PER_DECK_BYTE + otherBytes + BASE_BYTES;
    long mb = (long) Math.ceil(need / (1 << 20));
    return (mb + 99) / 100 * 100;
  }

  static String message(long buf, int lines, long deckBytes, long otherBytes, long maxHeapBytes) {
    long mb = suggestedMb(deckBytes, otherBytes);
    return String.format(Locale.ROOT,
        "nvimpam: the JVM ran out of memory loading buffer %d (%,d lines, a %s deck) into a heap of %s; its"
            + " folds are dropped, other buffers keep theirs. Set jvm_args = { '-Xmx%dm' } in"
            + " require('nvimpam').setup{} for this %s deck, then :NvimpamFoldAttach",
        buf, lines, size(deckBytes), size(maxHeapBytes), mb, size(deckBytes));
  }

  /** 588000000 → "588 MB" (decimal, as file sizes are told). */
  static String size(long bytes) {
    long mb = Math.round(bytes / 1e6);
    return mb >= 1 ? mb + " MB" : Math.max(1, Math.round(bytes / 1e3)) + " kB";
  }

  /**
   * The heap now, for :NvimpamFoldInfo and the open benchmark. The peak is the sum of each heap
   * pool's own peak: an upper bound of the real peak (the pools peak at different times).
   */
  static String heapLine() {
    var heap = java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    long peak = 0;
    for (var pool : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == java.lang.management.MemoryType.HEAP && pool.getPeakUsage() != null) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return String.format(Locale.ROOT, "  heap: %d MB used, %d MB committed, peak at most %d MB, max %d MB",
        heap.getUsed() >> 20, heap.getCommitted() >> 20, peak >> 20, Runtime.getRuntime().maxMemory() >> 20);
  }
}
