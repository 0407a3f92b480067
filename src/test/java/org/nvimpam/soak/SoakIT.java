package org.nvimpam.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;

/** The soak, short: a few hundred random edits across live buffers and windows, every check passing. */
class SoakIT {
  @Test
  void aShortSoakKeepsEveryWindowEqualToAFullParseWithoutErrorsLeaksOrNewThreads() throws Exception {
    Path jar = Path.of(EmbeddedNvim.jar());
    // 400 edits are too few to tell a leak from the arenas' swing (the 10,000-edit run in the README
    // is the measure, with 10 %): here the heap's floor may move by half, no more.
    SoakSettings settings = new SoakSettings(400, 5, 3, 50, 7, EmbeddedNvim.executable(), jar, 0.50);
    ByteArrayOutputStream progress = new ByteArrayOutputStream();

    SoakReport report = SoakRun.run(settings, new PrintStream(progress, true, StandardCharsets.UTF_8));

    String text = String.join("\n", report.lines());
    System.err.println(text);
    assertEquals(400, report.editsMade(), text);
    assertEquals(8, report.checks(), text);
    assertEquals(24, report.windowsChecked(), text);
    assertTrue(report.passed(), text);
  }
}
