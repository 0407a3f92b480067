package org.nvimpam.jmh;

import java.util.concurrent.TimeUnit;
import org.nvimpam.deck.Deck;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldSet;
import org.nvimpam.lines.Lines;
import org.openjdk.jmh.annotations.*;

/** Full parse of a 1M-line deck, against the floor of merely counting its line feeds. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx3g"})
public class ParserBenchmark {
  private byte[] bytes;
  private Deck deck;

  @Setup
  public void setup() {
    bytes = SyntheticDeck.generate(1_000_000);
    deck = Deck.of(Lines.split(bytes));
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
  public FoldSet fullParseGeneric() {
    return FoldParser.parse(deck, FoldOptions.GENERIC);
  }

  @Benchmark
  public FoldSet fullParseCompatible() {
    return FoldParser.parse(deck, FoldOptions.COMPATIBLE);
  }

  /** Loading from file bytes: split into lines, copy into a deck, parse. */
  @Benchmark
  public FoldSet splitLoadAndParse() {
    return FoldParser.parse(Deck.of(Lines.split(bytes)), FoldOptions.GENERIC);
  }
}
