package org.nvimpam.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemorySamplingTest {
  @TempDir Path root;

  private void kdamond(String name, String state, String operations, String sampleUs) throws IOException {
    Path k = root.resolve(name);
    Files.createDirectories(k.resolve("contexts/0/monitoring_attrs/intervals"));
    Files.writeString(k.resolve("state"), state + "\n");
    Files.writeString(k.resolve("contexts/0/operations"), operations + "\n");
    Files.writeString(k.resolve("contexts/0/monitoring_attrs/intervals/sample_us"), sampleUs + "\n");
  }

  @Test
  void onlyARunningKdamondThatSamplesPhysicalMemoryCounts() throws IOException {
    kdamond("0", "on", "paddr", "500000");
    kdamond("1", "off", "paddr", "5000");
    kdamond("2", "on", "vaddr", "5000"); // the address spaces of chosen processes, not the machine's memory
    assertEquals(List.of(500.0), MemorySampling.periodsMs(root));
  }

  @Test
  void noDamonIsNothingToName() throws IOException {
    assertEquals(List.of(), MemorySampling.periodsMs(root.resolve("absent")), "a kernel without DAMON");
    kdamond("0", "on", "paddr", "not a number");
    assertEquals(List.of(), MemorySampling.periodsMs(root), "a period that cannot be read");
    kdamond("1", "on", "paddr", "5000");
    Files.delete(root.resolve("1/state"));
    assertEquals(List.of(), MemorySampling.periodsMs(root), "a kdamond whose state cannot be read");
  }
}
