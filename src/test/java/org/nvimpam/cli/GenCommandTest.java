package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.gen.DeckGenerator;

class GenCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** Runs {@code nvimpam args} with stdout and stderr captured. */
  private int run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    System.setOut(new PrintStream(out, true));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      return Main.run(args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void writesTheDeckOfTheSeedToStdout() {
    assertEquals(0, run("gen", "--lines", "500", "--seed", "4"));
    assertArrayEquals(new DeckGenerator(4).generate(500), out.toByteArray());
  }

  @Test
  void defaultSeedIsFixed() {
    assertEquals(0, run("gen", "--lines", "300"));
    assertArrayEquals(new DeckGenerator(1).generate(300), out.toByteArray());
  }

  @Test
  void writesToTheOutFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("deck.pc");
    assertEquals(0, run("gen", "--lines", "1000", "--seed", "8", "--out", file.toString()));
    assertArrayEquals(new DeckGenerator(8).generate(1000), Files.readAllBytes(file));
    assertEquals(0, out.size(), "nothing on stdout");
  }

  @Test
  void genVersionOneWritesTheFirstGeneratorsDeckAndTheDefaultIsTheNewest() {
    assertEquals(0, run("gen", "--lines", "3000", "--seed", "6", "--gen-version", "1"));
    assertArrayEquals(new DeckGenerator(6, 1).generate(3000), out.toByteArray());
    out.reset();
    assertEquals(0, run("gen", "--lines", "3000", "--seed", "6"));
    assertArrayEquals(new DeckGenerator(6, DeckGenerator.VERSION).generate(3000), out.toByteArray());
    assertFalse(java.util.Arrays.equals(new DeckGenerator(6, 1).generate(3000), out.toByteArray()));
  }

  @Test
  void anUnknownGenVersionIsAUsageError() {
    assertEquals(2, run("gen", "--lines", "10", "--gen-version", "3"));
    assertTrue(stderr().contains("--gen-version must be 1 to 2, was 3"), stderr());
  }

  @Test
  void negativeLineCountIsAUsageError() {
    assertEquals(2, run("gen", "--lines", "-3"));
    assertTrue(stderr().contains("--lines must be 0 or more, was -3"), stderr());
  }

  @Test
  void missingOrMalformedLineCountIsAUsageError() {
    assertEquals(2, run("gen"));
    assertTrue(stderr().contains("--lines"), stderr());
    assertEquals(2, run("gen", "--lines", "many"));
    assertEquals(2, run("gen", "--lines", "10", "--seed", "x"));
  }

  @Test
  void unwritableFileIsAUsageErrorNamingTheFile(@TempDir Path dir) {
    Path file = dir.resolve("missing").resolve("deck.pc");
    assertEquals(2, run("gen", "--lines", "10", "--out", file.toString()));
    assertTrue(stderr().contains("cannot write " + file + ": no such file or directory"), stderr());
    assertEquals(2, run("gen", "--lines", "10", "--out", dir.toString()));
  }
}
