package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code renumber}'s command line: its exit codes, refusals on stdout, a summary and usage errors on stderr. */
class RenumberCommandTest {
  @TempDir Path dir;

  private Path deck() throws Exception {
    Path d = dir.resolve("d.pc");
    Files.writeString(d, "INPUTVERSION 2011\n"
        + "NODE  /        1              0.              0.              0.\n"
        + "NODE  /        2              0.              0.              0.\n"
        + "GROUP / g\n        NOD 1:2\n        END\n");
    return d;
  }

  @Test
  void anOffsetIsWrittenAndSummed() throws Exception {
    Path d = deck();
    Path out = dir.resolve("out");
    CliRun r = CliRun.of("renumber", d.toString(), "-o", out.toString(), "--offset", "node=10");
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.out());
    assertTrue(r.err().startsWith("nvimpam renumber: " + d + ": 3 node values changed in 1 file (6 lines), written to " + out), r.err());
    assertTrue(Files.readString(out.resolve("d.pc")).contains("NODE  /       11 ") && Files.readString(out.resolve("d.pc")).contains("        NOD 11:12\n"));
  }

  @Test
  void aRefusalIsListedOnStdoutAndNothingIsWritten() throws Exception {
    Path d = deck();
    Path out = dir.resolve("out");
    CliRun r = CliRun.of("renumber", d.toString(), "-o", out.toString(), "--offset", "node=99999999");
    assertEquals(1, r.code());
    assertEquals(d + ":2:9: error: node 1 would become 100000000, which does not fit the 8 columns of NODE / IDNOD\n"
        + d + ":3:9: error: node 2 would become 100000001, which does not fit the 8 columns of NODE / IDNOD\n", r.out());
    assertTrue(r.err().contains("refused, 2 reasons (above); nothing written"), r.err());
    assertFalse(Files.exists(out));
  }

  @Test
  void badUsageExitsWith2() throws Exception {
    Path d = deck();
    assertEquals(2, CliRun.of("renumber", d.toString(), "--offset", "node=1").code()); // no OUTDIR
    CliRun g = CliRun.of("renumber", d.toString(), "-o", dir.resolve("o").toString(), "--start", "group=1");
    assertEquals(2, g.code());
    assertTrue(g.err().startsWith("nvimpam renumber: groups are named by their titles, not numbered"), g.err());
    assertEquals(2, CliRun.of("renumber", d.toString(), "-o", dir.resolve("o").toString(), "--offset", "node=x").code());
    CliRun missing = CliRun.of("renumber", dir.resolve("none.pc").toString(), "-o", dir.resolve("o").toString(), "--offset", "node=1");
    assertEquals(2, missing.code());
    assertTrue(missing.err().contains("none.pc not found"), missing.err());
    assertFalse(Files.exists(dir.resolve("o")));
  }
}
