package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.testutil.Json;

/** {@code unused}'s command line: the text and JSON lists, --remove, exit codes, refusals. */
class UnusedCommandTest {
  @TempDir Path dir;

  /** Node 3 and material 9 unused, node 2 used only through a GES range, group 'g' used by a contact's selection. */
  private Path deck() throws Exception {
    Path d = dir.resolve("d.pc");
    Files.writeString(d, "INPUTVERSION 2011\n"
        + "INCLU / inc.inc\n"
        + "NODE  /        1              0.              0.              0.\n"
        + "NODE  /        2              0.              0.              0.\n"
        + "NODE  /        3              0.              0.              0.\n"
        + "GROUP / g\n        NOD 1:2\n        END\n"
        + "MASS  /        0       0\nNAME m\n              1.              1.              1.\n"
        + "              0.              0.              0.\n        GRP 'g'\n        END\n");
    Files.writeString(dir.resolve("inc.inc"), "$ materials\nMATER /        9     101\r\n$ end\n");
    return d;
  }

  @Test
  void theTextListNamesEachUnusedDefinitionAndExitsWith1() throws Exception {
    Path d = deck();
    CliRun r = CliRun.of("unused", d.toString());
    assertEquals(1, r.code(), r.err());
    assertEquals(d + ":5:16: info: unused node 3\n" + dir.resolve("inc.inc") + ":2:16: info: unused material 9\n", r.out());
    assertTrue(r.err().contains("2 unused definitions in 2 files"), r.err());
  }

  @Test
  void theJsonListParsesBack() throws Exception {
    Path d = deck();
    CliRun r = CliRun.of("unused", d.toString(), "--format", "json");
    assertEquals(1, r.code(), r.err());
    List<?> items = (List<?>) Json.parse(r.out());
    assertEquals(2, items.size());
    Map<?, ?> first = (Map<?, ?>) items.get(0);
    assertEquals(d.toString(), first.get("file"));
    assertEquals("node", first.get("kind"));
    assertEquals(3, ((Number) first.get("id")).intValue());
    assertEquals(5, ((Number) first.get("line")).intValue());
    assertEquals(Boolean.TRUE, first.get("removable"));
    assertEquals("material", ((Map<?, ?>) items.get(1)).get("kind"));
  }

  @Test
  void removeWritesTheTreeWithoutThemAndTheResultHasNone() throws Exception {
    Path d = deck();
    Path out = dir.resolve("out");
    CliRun r = CliRun.of("unused", d.toString(), "--remove", "-o", out.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.out());
    assertTrue(r.err().contains("2 unused definitions removed (2 lines) from 2 files"), r.err());
    assertEquals(Files.readString(d).replace("NODE  /        3              0.              0.              0.\n", ""),
        Files.readString(out.resolve("d.pc")));
    assertEquals("$ materials\n$ end\n", Files.readString(out.resolve("inc.inc")));
    CliRun again = CliRun.of("unused", out.resolve("d.pc").toString(), "--format", "json");
    assertEquals(0, again.code(), again.err());
    assertEquals("[]\n", again.out());
  }

  @Test
  void aRefusalIsListedAndNothingIsWritten() throws Exception {
    Path d = deck();
    Files.writeString(dir.resolve("inc.inc"), "$ materials\nMATER /        9     101\nNOSUCH/        3\n");
    Path out = dir.resolve("out");
    CliRun r = CliRun.of("unused", d.toString(), "--remove", "-o", out.toString());
    assertEquals(1, r.code(), r.err());
    assertTrue(r.out().startsWith(dir.resolve("inc.inc") + ":3:1: error: a line the table does not describe holds 3, which may name unused node 3"),
        r.out());
    assertTrue(r.err().contains("refused, 1 reason (above); nothing written"), r.err());
    assertFalse(Files.exists(out));
    CliRun list = CliRun.of("unused", d.toString());
    assertEquals(1, list.code());
    assertTrue(list.out().contains(":3:1: warning: a line the table does not describe holds 3"), list.out());
  }

  @Test
  void badUsageAndUnreadableDecksExitWith2() throws Exception {
    Path d = deck();
    assertEquals(2, CliRun.of("unused").code());
    assertEquals(2, CliRun.of("unused", d.toString(), "--remove").code()); // no OUTDIR
    assertEquals(2, CliRun.of("unused", d.toString(), "-o", dir.resolve("o").toString()).code()); // -o without --remove
    assertEquals(2, CliRun.of("unused", d.toString(), "--format", "xml").code());
    CliRun missing = CliRun.of("unused", dir.resolve("none.pc").toString());
    assertEquals(2, missing.code());
    assertTrue(missing.err().contains("none.pc not found"), missing.err());
    assertFalse(Files.exists(dir.resolve("o")));
  }
}
