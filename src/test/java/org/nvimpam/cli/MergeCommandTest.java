package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code merge}'s command line: what it prints, its exit codes, refusals on stdout, a summary and usage errors on stderr. */
class MergeCommandTest {
  @TempDir Path dir;

  private Path deck(String name, String version, String title) throws Exception {
    Path d = dir.resolve(name);
    Files.createDirectories(d.getParent());
    Files.writeString(d, "INPUTVERSION " + version + "\n"
        + "TITLE /  " + title + "\n"
        + "NODE  /        1              0.              0.              0.\n"
        + "NODE  /        2              0.              0.              0.\n"
        + "GROUP / clamp\n        NOD 1:2\n        END\n");
    return d;
  }

  @Test
  void offsetsRenamesAndLeftOutCardsArePrintedAndTheModelWritten() throws Exception {
    Path a = deck("a/car.pc", "2011", "car");
    Path b = deck("b/seat.pc", "2011", "seat");
    Path out = dir.resolve("out");
    CliRun r = CliRun.of("merge", a.toString(), b.toString(), "-o", out.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals(a + ": ids kept, into " + out.resolve("car") + "\n"
        + b + ": offsets node +3 (auto), into " + out.resolve("seat") + "\n"
        + b + ": group 'clamp' renamed 'clamp_2'\n"
        + b + ":1: left out: INPUTVERSION 2011\n"
        + b + ":2: left out: TITLE /  seat\n", r.out());
    assertTrue(r.err().startsWith("nvimpam merge: 2 decks merged into " + out.resolve("master.pc") + " (3 files written)"), r.err());
    assertEquals("INPUTVERSION 2011\nTITLE /  car\nINCLU / car/car.pc\nINCLU / seat/seat.pc\n", Files.readString(out.resolve("master.pc")));
    assertTrue(Files.readString(out.resolve("seat/seat.pc")).contains("GROUP / clamp_2\n        NOD 4:5\n"));
    CliRun c = CliRun.of("check", out.resolve("master.pc").toString());
    assertEquals(0, c.code(), c.out() + c.err());
  }

  @Test
  void aRefusalIsListedOnStdoutAndNothingIsWritten() throws Exception {
    Path a = deck("a/car.pc", "2011", "car");
    Path b = deck("b/seat.pc", "2017", "seat");
    Path out = dir.resolve("out");
    CliRun r = CliRun.of("merge", a.toString(), b.toString(), "-o", out.toString(), "--offset", "node=1");
    assertEquals(1, r.code());
    assertTrue(r.out().endsWith(b + ":1:1: error: seat.pc declares INPUTVERSION 2017, car.pc INPUTVERSION 2011: decks of different versions are not merged\n"
        + "error: 1 node id of seat.pc (offset 1) is defined by car.pc (offset 0) too: 2 (choose another --offset node=N, or auto)\n"), r.out());
    assertTrue(r.err().contains("refused, 2 reasons (above); nothing written"), r.err());
    assertFalse(Files.exists(out));
  }

  @Test
  void badUsageExitsWith2() throws Exception {
    Path a = deck("a/car.pc", "2011", "car");
    Path b = deck("b/seat.pc", "2011", "seat");
    String o = dir.resolve("o").toString();
    assertEquals(2, CliRun.of("merge", a.toString(), b.toString()).code()); // no OUTDIR
    CliRun one = CliRun.of("merge", a.toString(), "-o", o);
    assertEquals(2, one.code());
    assertTrue(one.err().startsWith("nvimpam merge: one DECK is no merge"), one.err());
    CliRun g = CliRun.of("merge", a.toString(), b.toString(), "-o", o, "--offset", "group=1");
    assertEquals(2, g.code());
    assertTrue(g.err().startsWith("nvimpam merge: groups are named by their titles, not numbered"), g.err());
    assertEquals(2, CliRun.of("merge", a.toString(), b.toString(), "-o", o, "--offset", "node=0").code());
    assertEquals(2, CliRun.of("merge", a.toString(), b.toString(), "-o", o, "--offset", "node=x").code());
    CliRun missing = CliRun.of("merge", a.toString(), dir.resolve("none.pc").toString(), "-o", o);
    assertEquals(2, missing.code());
    assertTrue(missing.err().contains("not found"), missing.err());
    assertFalse(Files.exists(dir.resolve("o")));
  }
}
