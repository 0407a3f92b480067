package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FoldsCommandTest {
  private static final String DECK = String.join("\n",
      "TITLE /  box",
      "NODE  /        1              0.              0.              0.",
      "NODE  /        2              0.              0.              0.",
      "junk",
      "NODE  /        3              0.              0.              0.",
      "") ;

  @TempDir Path dir;

  static CliRun run(String... args) {
    return CliRun.of(args);
  }

  private Path deck() throws Exception {
    Path p = dir.resolve("deck.pc");
    Files.writeString(p, DECK, StandardCharsets.ISO_8859_1);
    return p;
  }

  @Test
  void jsonListsTheFoldsLikeTheVectorsWithoutOneLineFolds() throws Exception {
    CliRun r = run("folds", "--format", "json", deck().toString());
    assertEquals(0, r.code());
    assertEquals("[\n  [2, 5, 2, \" 2 Nodes \"],\n  [2, 3, 1, \" 2 lines: Node \"]\n]\n", r.out());
  }

  @Test
  void oneLineIncludesOneLineFolds() throws Exception {
    CliRun r = run("folds", "--format", "json", "--one-line", deck().toString());
    assertEquals("[\n  [1, 1, 1, \" 1 lines: TITLE \"],\n  [2, 5, 2, \" 2 Nodes \"],\n"
        + "  [2, 3, 1, \" 2 lines: Node \"],\n  [5, 5, 1, \" 1 lines: Node \"]\n]\n", r.out());
  }

  @Test
  void compatLeavesUnknownCardsUnfolded() throws Exception {
    CliRun r = run("folds", "--format", "json", "--one-line", "--compat", deck().toString());
    assertEquals("[\n  [2, 5, 2, \" 2 Nodes \"],\n"
        + "  [2, 3, 1, \" 2 lines: Node \"],\n  [5, 5, 1, \" 1 lines: Node \"]\n]\n", r.out());
  }

  @Test
  void textPrintsOneAlignedFoldPerLine() throws Exception {
    CliRun r = run("folds", deck().toString());
    assertEquals(0, r.code());
    assertEquals("2-5  L2  2 Nodes\n2-3  L1  2 lines: Node\n", r.out().replace(System.lineSeparator(), "\n"));
  }

  @Test
  void missingFileGivesExitCode2AndAMessageOnStderr() {
    CliRun r = run("folds", dir.resolve("missing.pc").toString());
    assertEquals(2, r.code());
    assertEquals("", r.out());
    assertTrue(r.err().contains("cannot read") && r.err().contains("missing.pc"), r.err());
  }

  @Test
  void emptyFileHasNoFolds() throws Exception {
    Path p = dir.resolve("empty.pc");
    Files.write(p, new byte[0]);
    CliRun r = run("folds", "--format", "json", p.toString());
    assertEquals(0, r.code());
    assertEquals("[]\n", r.out());
  }
}
