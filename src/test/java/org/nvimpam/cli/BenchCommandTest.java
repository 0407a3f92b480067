package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.lines.Lines;
import org.nvimpam.strategy.FoldStrategies;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.Json;

/** {@code bench} end to end: Main's command line, a real headless Neovim, the report parsed back. */
class BenchCommandTest {
  @TempDir Path dir;

  /** Exit code, stdout and stderr of one command line. */
  record Run(int exit, String out, String err) {}

  static Run bench(String... args) {
    List<String> argv = new ArrayList<>(List.of("bench"));
    if (!List.of(args).contains("--nvim")) {
      argv.addAll(List.of("--nvim", EmbeddedNvim.executable()));
    }
    argv.addAll(List.of(args));
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int exit = Main.run(argv.toArray(String[]::new));
      return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> results(Object report) {
    return (List<Map<String, Object>>) ((Map<String, Object>) report).get("results");
  }

  static double number(Map<String, Object> result, String key) {
    return ((Number) result.get(key)).doubleValue();
  }

  @Test
  @SuppressWarnings("unchecked")
  void jsonHasOneMeasuredResultPerStrategy() {
    Run run = bench("--folds", "50", "--runs", "1", "--warmup", "0", "--format", "json");

    assertEquals(0, run.exit(), run.err());
    Map<String, Object> report = (Map<String, Object>) Json.parse(run.out());
    assertTrue(((String) report.get("nvim")).matches("\\d+\\.\\d+\\.\\d+"), report.get("nvim").toString());
    assertEquals(Runtime.version().toString(), report.get("java"));
    List<Map<String, Object>> results = results(report);
    assertEquals(FoldStrategies.names(), results.stream().map(r -> r.get("strategy")).toList());
    byte[] deck = DeckGenerator.foldCountDeck(50);
    for (Map<String, Object> r : results) {
      assertEquals("50 folds", r.get("deck"));
      assertEquals(50L, r.get("folds"));
      assertEquals((long) Lines.split(deck).count(), r.get("lines"));
      assertEquals((long) deck.length, r.get("bytes"));
      for (String key : List.of("get_lines_ms", "parse_ms", "median_ms", "min_ms", "max_ms", "floor_ms")) {
        assertTrue(number(r, key) > 0, key + " of " + r);
      }
      assertTrue(number(r, "min_ms") <= number(r, "median_ms") && number(r, "median_ms") <= number(r, "max_ms"));
      assertTrue(number(r, "bytes_sent") > 0, r.toString());
    }
    assertTrue(run.err().contains("deck 1/1 (50 folds)"), run.err());
    assertTrue(run.err().contains("lua, run 1 of 1"), run.err());
  }

  @Test
  @SuppressWarnings("unchecked")
  void floorRowAddsTheFloorAndNeovimsOwnPartOfTheStrategies() {
    Run run = bench("--folds", "200", "--runs", "2", "--warmup", "0", "--strategy", "pipe", "--floor-row",
        "--format", "json");

    assertEquals(0, run.exit(), run.err());
    List<Map<String, Object>> results = results(Json.parse(run.out()));
    List<Object> names = results.stream().map(r -> r.get("strategy")).toList();
    assertEquals("pipe", names.get(0));
    assertTrue(String.valueOf(names.get(1)).startsWith("floor: "), names.toString());
    for (String inside : List.of("inside: pipe-lines", "inside: split-execute", "inside: lua-loop",
        "inside: replay-per-command")) {
      assertTrue(names.contains(inside) || names.get(1).equals("floor: " + inside.substring(8)), inside + " in " + names);
    }
    for (Map<String, Object> r : results) {
      assertTrue(number(r, "median_ms") > 0, r.toString());
    }
  }

  @Test
  void unknownStrategyExitsWithTwoAndListsTheValidNames() {
    Run run = bench("--folds", "10", "--strategy", "lua,nope");

    assertEquals(2, run.exit());
    assertTrue(run.err().contains("'nope'"), run.err());
    for (String name : FoldStrategies.names()) {
      assertTrue(run.err().contains(name), name + " missing from: " + run.err());
    }
    assertEquals("", run.out());
  }

  @Test
  void missingNeovimExitsWithTwo() {
    Run run = bench("--nvim", dir.resolve("no-such-nvim").toString(), "--folds", "10");

    assertEquals(2, run.exit());
    assertTrue(run.err().contains("cannot start Neovim"), run.err());
    assertEquals("", run.out());
  }

  @Test
  void badNumbersExitWithTwo() {
    assertEquals(2, bench("--folds", "10", "--runs", "0").exit());
    assertEquals(2, bench("--folds", "0").exit());
    assertEquals(2, bench("--folds", "10", "--format", "xml").exit());
    assertEquals(2, bench(dir.resolve("missing.pc").toString()).exit());
  }

  @Test
  void chartAndTableForTwoDecks() throws IOException {
    Path svg = dir.resolve("chart.svg");
    Run run = bench("--folds", "20,200", "--strategy", "lua,pipe", "--runs", "1", "--warmup", "0",
        "--chart", svg.toString());

    assertEquals(0, run.exit(), run.err());
    String chart = Files.readString(svg);
    assertTrue(chart.contains("<svg") && chart.trim().endsWith("</svg>"), chart);
    assertTrue(chart.contains("lua") && chart.contains("pipe"), chart);
    List<String> table = run.out().lines().toList();
    assertEquals(2 + 4, table.size(), run.out()); // machine line, header, 2 decks x 2 strategies
    assertTrue(table.get(0).startsWith("Neovim "), table.get(0));
    assertTrue(table.get(1).startsWith("deck"), table.get(1));
    assertTrue(table.get(2).startsWith("20 folds") && table.get(2).contains("lua"), table.get(2));
    assertTrue(table.get(5).startsWith("200 folds") && table.get(5).contains("pipe"), table.get(5));
  }

  @Test
  void deckFileToCsvFile() throws IOException {
    Path deck = dir.resolve("my deck.pc");
    Files.write(deck, DeckGenerator.foldCountDeck(30));
    Path csv = dir.resolve("out.csv");
    Run run = bench(deck.toString(), "--strategy", "viml", "--runs", "1", "--warmup", "0", "--format", "csv",
        "--out", csv.toString());

    assertEquals(0, run.exit(), run.err());
    assertEquals("", run.out());
    List<String> rows = Files.readAllLines(csv);
    assertEquals(2, rows.size(), rows.toString());
    assertTrue(rows.get(0).startsWith("deck,"), rows.get(0));
    assertTrue(rows.get(1).startsWith("my deck.pc,") && rows.get(1).contains(",30,") && rows.get(1).contains("viml"),
        rows.get(1));
  }

  @Test
  void aFailingStrategyIsReportedWithoutTimesAndExitsWithOne() throws IOException {
    // An autoload/nvimpam.vim put before ours on 'runtimepath' (through --nvim-arg) breaks `viml`.
    Path broken = dir.resolve("broken");
    Files.createDirectories(broken.resolve("autoload"));
    Files.writeString(broken.resolve("autoload/nvimpam.vim"),
        "function! nvimpam#apply(...) abort\n  throw 'broken on purpose'\nendfunction\n");
    Run run = bench("--folds", "20", "--strategy", "viml,lua", "--runs", "1", "--warmup", "0", "--format", "csv",
        "--nvim-arg", "--cmd", "--nvim-arg", "set rtp^=" + broken);

    assertEquals(1, run.exit(), run.err());
    assertTrue(run.err().contains("strategy 'viml' failed on 20 folds") && run.err().contains("broken on purpose"),
        run.err());
    List<String> rows = run.out().lines().toList();
    assertEquals(3, rows.size(), run.out());
    assertTrue(rows.get(1).contains(",viml,,,,0,"), rows.get(1)); // no times, nothing counted as sent
    assertTrue(rows.get(2).matches("20 folds,.*,lua,[0-9.]+,[0-9.]+,[0-9.]+,[0-9]+,[0-9.]+"), rows.get(2));
  }
}
