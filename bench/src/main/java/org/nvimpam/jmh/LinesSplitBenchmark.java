package org.nvimpam.jmh;

import java.util.concurrent.TimeUnit;
import org.nvimpam.deck.Lines;
import org.openjdk.jmh.annotations.*;

/** Splitting a file's bytes into lines: the cost of loading a deck from disk. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LinesSplitBenchmark {
  private byte[] bytes;

  @Setup
  public void setup() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 100_000; i++) {
      sb.append("NODE  / ").append(String.format("%8d", i)).append("              0.              0.              0.\n");
    }
    bytes = sb.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
  }

  @Benchmark
  public Lines split() {
    return Lines.split(bytes);
  }
}
