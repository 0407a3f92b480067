package org.nvimpam.jmh;

import java.util.concurrent.TimeUnit;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckProblems;
import org.nvimpam.deck.Lines;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldSet;
import org.nvimpam.gen.DeckGenerator;
import org.openjdk.jmh.annotations.*;

/**
 * The whole-deck field check of a 1M-line vehicle deck (the `gen` card mix), against a bare
 * newline scan of the same bytes and the full fold parse, in the same run. A check reads every
 * byte of every row; the parse reads line starts.
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

  @Setup
  public void setup() {
    bytes = new DeckGenerator(1).generate(1_000_000);
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

  @Benchmark
  public FoldSet fullParse() {
    return FoldParser.parse(deck, FoldOptions.GENERIC);
  }
}
