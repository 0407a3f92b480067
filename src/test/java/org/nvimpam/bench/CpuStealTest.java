package org.nvimpam.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CpuStealTest {
  @Test
  void theFirstLineOfProcStatGivesTheTotalOfItsFirstEightColumnsAndTheSteal() {
    // user nice system idle iowait irq softirq steal guest guest_nice: guest time is counted in user already
    assertArrayEquals(new long[] {1000 + 5 + 200 + 3000 + 7 + 1 + 2 + 90, 90},
        CpuSteal.parse("cpu  1000 5 200 3000 7 1 2 90 40 0"));
    assertNull(CpuSteal.parse("cpu0 1 2 3 4 5 6 7 8"), "a single CPU's line is not the machine's");
    assertNull(CpuSteal.parse("cpu 1 2 3"), "a kernel too old to tell steal");
  }

  @Test
  void theShareIsOfTheTicksBetweenTwoSamples() {
    assertEquals(20.0, CpuSteal.percent(new long[] {1000, 50}, new long[] {1500, 150}), 1e-9);
    assertTrue(Double.isNaN(CpuSteal.percent(null, new long[] {1, 0})));
    assertTrue(Double.isNaN(CpuSteal.percent(new long[] {5, 0}, new long[] {5, 0})), "no tick between them");
  }
}
