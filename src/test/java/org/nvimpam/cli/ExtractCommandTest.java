package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The headless {@code extract}: the cards a range touches move whole; refusals write nothing; usage errors exit 2. */
class ExtractCommandTest {
  @TempDir Path dir;

  private static final List<String> DECK = List.of("INPUTVERSION 2011",
      "NODE  /        1              0.              0.              0.", "$ a comment after node 1",
      "SOLID /        1      10", "                       1       1       1       1       1       1       1       1",
      "$ kept", "NODE  /        2              0.              0.              0.", "ENDDATA");

  private Path deck() throws IOException {
    Path d = dir.resolve("deck.pc");
    Files.write(d, DECK, StandardCharsets.ISO_8859_1);
    return d;
  }

  @Test
  void aRangeMovesTheWholeCardsItTouches() throws IOException {
    Path d = deck();
    Path out = dir.resolve("out");
    CliRun r = CliRun.of("extract", d.toString(), "--lines", "deck.pc:3-4", "--to", "inc/solid.inc", "-o", out.toString());
    assertEquals(0, r.code(), r.err() + r.out());
    assertEquals(List.of("INPUTVERSION 2011", "NODE  /        1              0.              0.              0.", "$ a comment after node 1",
        "INCLU / inc/solid.inc", "$ kept", "NODE  /        2              0.              0.              0.", "ENDDATA"),
        Files.readAllLines(out.resolve("deck.pc"), StandardCharsets.ISO_8859_1));
    assertEquals(DECK.subList(3, 5), Files.readAllLines(out.resolve("inc/solid.inc"), StandardCharsets.ISO_8859_1));
    assertEquals(DECK, Files.readAllLines(d, StandardCharsets.ISO_8859_1));
  }

  @Test
  void refusalsWriteNothingAndBadUsageIsExitTwo() throws IOException {
    Path d = deck();
    Path out = dir.resolve("out");
    Files.writeString(dir.resolve("taken.inc"), "$\n");
    CliRun r = CliRun.of("extract", d.toString(), "--part", "10,11", "--to", "taken.inc", "-o", out.toString());
    assertEquals(1, r.code());
    assertTrue(r.out().contains("taken.inc exists already"), r.out());
    assertTrue(r.out().contains("part 10 is defined nowhere in the tree"), r.out());
    assertFalse(Files.exists(out));
    assertEquals(2, CliRun.of("extract", d.toString(), "--part", "10", "-o", out.toString()).code()); // no --to
    assertEquals(2, CliRun.of("extract", d.toString(), "--to", "x.inc", "-o", out.toString()).code()); // neither --part nor --lines
    assertEquals(2, CliRun.of("extract", d.toString(), "--part", "10", "--to", "../x.inc", "-o", out.toString()).code());
    assertFalse(Files.exists(out));
  }
}
