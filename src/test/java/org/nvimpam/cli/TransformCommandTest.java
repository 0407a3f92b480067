package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The headless {@code transform}: what it writes, its refusals (nothing written), its usage errors and exit codes. */
class TransformCommandTest {
  @TempDir Path dir;

  private static final String DECK = String.join("\n", "INPUTVERSION 2011", "INCLU / sub/a.inc",
      "NODE  /        1             1.5              0.              0.", "SHELL /        1      10       1       2       3       4") + "\n";
  private static final String INC = String.join("\n", "NODE  /        2              2.              0.              0.\r",
      "NODE  /        3              2.              1.              0.", "NODE  /        4              1.              1.              0.");

  private Path deck() throws IOException {
    Path d = dir.resolve("deck.pc");
    Files.writeString(d, DECK, StandardCharsets.ISO_8859_1);
    Files.createDirectories(dir.resolve("sub"));
    Files.writeString(dir.resolve("sub/a.inc"), INC, StandardCharsets.ISO_8859_1); // CRLF on one line, no final newline
    return d;
  }

  @Test
  void writesTheTreeUnderOutdirWithOnlyTheCoordinatesChanged() throws IOException {
    Path d = deck();
    Path out = dir.resolve("out");
    CliRun r = CliRun.of("transform", d.toString(), "-o", out.toString(), "translate", "-1.5", "0", "0");
    assertEquals(0, r.code(), r.err());
    assertEquals(DECK.replace("             1.5              0.              0.", "              0.              0.              0."),
        Files.readString(out.resolve("deck.pc"), StandardCharsets.ISO_8859_1));
    assertEquals(INC.replace("              2.              0.              0.\r", "             0.5              0.              0.\r")
        .replace("              2.              1.", "             0.5              1.")
        .replace("              1.              1.", "            -0.5              1."),
        Files.readString(out.resolve("sub/a.inc"), StandardCharsets.ISO_8859_1));
    assertTrue(r.err().contains("translate -1.5 0 0: 4 nodes moved in 2 of 2 files"), r.err());
    assertEquals(DECK, Files.readString(d, StandardCharsets.ISO_8859_1));
  }

  @Test
  void refusalsWriteNothing() throws IOException {
    Path d = deck();
    Path out = dir.resolve("out");
    CliRun r = CliRun.of("transform", d.toString(), "-o", out.toString(), "scale", "1E308", "0", "0", "0");
    assertEquals(1, r.code(), r.err());
    assertTrue(r.out().contains("sub/a.inc:1:17: error: node 2's X would become 2.000000000000000E+308"), r.out());
    assertFalse(Files.exists(out));
    CliRun mine = CliRun.of("transform", d.toString(), "-o", dir.toString(), "translate", "0", "0", "1");
    assertEquals(1, mine.code());
    assertTrue(mine.out().contains("is a file of the deck's tree: --in-place is needed to overwrite it"), mine.out());
    assertArrayEquals(DECK.getBytes(StandardCharsets.ISO_8859_1), Files.readAllBytes(d));
    CliRun partial = CliRun.of("transform", d.toString(), "-o", out.toString(), "--lines", "sub/a.inc:1-2", "mirror", "x");
    assertEquals(1, partial.code());
    assertTrue(partial.out().contains("deck.pc:4:1: error: SHELL 1 has 2 of its 4 nodes moved"), partial.out());
    assertFalse(Files.exists(out));
  }

  @Test
  void badUsageIsExitTwo() throws IOException {
    Path d = deck();
    String o = dir.resolve("o").toString();
    assertEquals(2, CliRun.of("transform", d.toString(), "translate", "1", "0", "0").code()); // no OUTDIR
    assertEquals(2, CliRun.of("transform", d.toString(), "-o", o, "translate", "1", "0").code());
    assertEquals(2, CliRun.of("transform", d.toString(), "-o", o, "spin", "x").code());
    assertEquals(2, CliRun.of("transform", d.toString(), "-o", o, "--lines", "other.inc:1-2", "mirror", "x").code());
    assertEquals(2, CliRun.of("transform", d.toString(), "-o", o, "--part", "10", "--lines", "deck.pc:1-2", "mirror", "x").code());
    assertEquals(2, CliRun.of("transform", dir.resolve("none.pc").toString(), "-o", o, "mirror", "x").code());
    assertFalse(Files.exists(dir.resolve("o")));
  }
}
