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

  @Test
  void theLogGivesAWindowTheStealOfTheSamplesAroundItAndNothingBeforeItsFirst() throws InterruptedException {
    long before = System.nanoTime();
    try (StealLog log = new StealLog()) {
      Thread.sleep(30);
      long from = System.nanoTime();
      Thread.sleep(30);
      long to = System.nanoTime();
      Thread.sleep(30);
      assertTrue(Double.isNaN(log.stolenMs(before - 1, to)), "no sample at or before the window's start");
      if (CpuSteal.sample() != null) {
        double ms = log.stolenMs(from, to);
        assertTrue(ms >= 0 && ms % 10 == 0, "whole ticks of 10 ms: " + ms);
      } else {
        assertTrue(Double.isNaN(log.stolenMs(from, to)), "no /proc/stat, no figure");
      }
    }
  }
}
