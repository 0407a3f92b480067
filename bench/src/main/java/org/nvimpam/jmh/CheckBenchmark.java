package org.nvimpam.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckProblems;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldSet;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.lines.Lines;
import org.nvimpam.model.TreeCheck;
import org.openjdk.jmh.annotations.*;

/**
 * The whole-deck field check of a 1M-line vehicle deck (the `gen` card mix), against a bare
 * newline scan of the same bytes and the full fold parse, in the same run. A check reads every
 * byte of every row; the parse reads line starts. {@code checkTree} is {@code check}'s work on the
 * same deck as a file (page cache): streamed, fields and ids, one worker thread (the floor's one
 * core), and {@code checkTree2} with two.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx3g"})
public class CheckBenchmark {
  private byte[] bytes;
  private Deck deck;
  private DeckProblems problems;
  private int version;
  private Path file;

  @Setup
  public void setup() throws IOException {
    bytes = new DeckGenerator(1).generate(1_000_000);
    file = Files.createTempFile("nvimpam-check", ".pc");
    Files.write(file, bytes);
    deck = Deck.of(Lines.split(bytes));
    CardLayouts table = CardLayouts.bundled();
    problems = new DeckProblems(table);
    version = table.newestVersion();
  }

  /** The floor: one pass over the same bytes that only counts LFs. */
  @Benchmark
  public int newlineScan() {
    int n = 0;
    for (byte b : bytes) {
      if (b == '\n') n++;
    }
    return n;
  }

  @Benchmark
  public int checkAll() {
    problems.checkAll(deck, version);
    return problems.total();
  }

  @TearDown
  public void tearDown() throws IOException {
    Files.deleteIfExists(file);
  }

  @Benchmark
  public long checkTree() throws Exception {
    return new TreeCheck(new TreeCheck.Options(-1, false, 1000, 1), null).check(file).errors();
  }

  @Benchmark
  public long checkTree2() throws Exception {
    return new TreeCheck(new TreeCheck.Options(-1, false, 1000, 2), null).check(file).errors();
  }

  @Benchmark
  public FoldSet fullParse() {
    return FoldParser.parse(deck, FoldOptions.GENERIC);
  }
}
