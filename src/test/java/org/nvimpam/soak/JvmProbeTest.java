package org.nvimpam.soak;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The probe reads a real JVM from outside: this one, through jcmd and /proc. */
class JvmProbeTest {
  private final JvmProbe self = new JvmProbe(ProcessHandle.current().pid(), JvmProbe.defaultJcmd());

  @Test
  void theHeapAfterAFullGcHoldsWhatIsReachable() throws Exception {
    long before = self.heapAfterGc();
    byte[] kept = new byte[64 << 20];

    long after = self.heapAfterGc();

    assertTrue(after - before >= kept.length, before + " -> " + after);
    kept[1] = 1;
  }

  @Test
  void theThreadCountIsTheKernelsForThatProcess() throws Exception {
    int java = Thread.getAllStackTraces().size();

    int threads = self.threads();

    assertTrue(threads >= java, threads + " threads in /proc, " + java + " Java threads"); // plus GC and compiler threads
  }
}
