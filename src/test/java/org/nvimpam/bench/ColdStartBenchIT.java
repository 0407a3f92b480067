package org.nvimpam.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;

/** bench-cold opens the bundled deck in fresh Neovims and reads the start trace of each run. */
class ColdStartBenchIT {
  @Test
  void aTracedRunTimesTheOpenAndItsPhasesInOrder() throws Exception {
    Path root = EmbeddedNvim.root();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    ColdStartBench.Result r = new ColdStartBench(EmbeddedNvim.executable(), new PrintStream(log, true))
        .run(List.of(root), root.resolve("src/main/resources/decks/example.pc"), 1, true);
    ColdStartBench.Row row = r.rows().get(0);
    assertEquals(1, row.openMs().length);
    assertTrue(row.openMs()[0] > 0, "open → folds " + row.openMs()[0]);
    // a JVM cannot start in less than 10 ms of CPU; Neovim's :edit may take less than a tick
    assertTrue(row.jvmCpuMs()[0] >= 10 && row.nvimCpuMs()[0] >= 0, "CPU " + row.jvmCpuMs()[0] + " / " + row.nvimCpuMs()[0]);
    Map<String, List<Double>> p = row.phases();
    for (String phase : List.of("JVM: main", "JVM: early read: folded", "JVM: attach", "JVM: loaded",
        "Neovim: folds in place")) {
      assertNotNull(p.get(phase), phase + " in " + p.keySet());
    }
    double main = p.get("JVM: main").get(0);
    double attach = p.get("JVM: attach").get(0);
    double folds = p.get("Neovim: folds in place").get(0);
    assertTrue(0 < main && main < attach && attach < folds, "main " + main + ", attach " + attach + ", folds " + folds);
    ByteArrayOutputStream table = new ByteArrayOutputStream();
    ColdStartBench.print(r, new PrintStream(table, true, StandardCharsets.UTF_8));
    assertTrue(table.toString(StandardCharsets.UTF_8).contains("| JVM: early read: folded |"), table::toString);
    assertTrue(table.toString(StandardCharsets.UTF_8).contains("| floor: that CPU on "), table::toString);
  }
}
