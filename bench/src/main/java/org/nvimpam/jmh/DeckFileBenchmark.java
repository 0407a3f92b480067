package org.nvimpam.jmh;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.gen.DeckGenerator;
import org.openjdk.jmh.annotations.*;

/**
 * Reading a 1M-line deck file (the `gen` card mix, 59 MB, in the page cache) into a deck, against
 * the floor of the same read that only counts the LFs, with the JIT flags the plugin's JVM runs
 * with (C1 only, the serial collector).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx2g", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
    "-XX:PretenureSizeThreshold=1m", "-XX:NewRatio=4"})
public class DeckFileBenchmark {
  private Path file;
  private long size;
  private int lines;

  @Setup
  public void setup() throws IOException {
    file = Files.createTempFile("nvimpam-jmh", ".pc");
    try (OutputStream out = Files.newOutputStream(file)) {
      new DeckGenerator(1).write(out, 1_000_000);
    }
    size = Files.size(file);
    lines = DeckFile.read(file, 1 << 20, size).lineCount();
  }

  @TearDown
  public void tearDown() throws IOException {
    Files.deleteIfExists(file);
  }

  /** The floor: the file read in 4 MiB blocks, its LFs counted a byte at a time. */
  @Benchmark
  public int readAndCountNewlines() throws IOException {
    byte[] b = new byte[Deck.SEGMENT_BYTES];
    int n = 0;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      int k;
      while ((k = ch.read(ByteBuffer.wrap(b))) > 0) n += count(b, k);
    }
    return n;
  }

  private static int count(byte[] b, int k) {
    int n = 0;
    for (int i = 0; i < k; i++) if (b[i] == '\n') n++;
    return n;
  }

  @Benchmark
  public Deck read() throws IOException {
    return DeckFile.read(file, lines, size);
  }
}
