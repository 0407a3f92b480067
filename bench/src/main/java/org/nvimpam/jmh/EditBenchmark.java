package org.nvimpam.jmh;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldSet;
import org.nvimpam.lines.Lines;
import org.openjdk.jmh.annotations.*;

/**
 * One-line edits in the middle of a deck, each followed by its inverse so that the state stays
 * the same; every invocation is two {@link FoldEngine#apply} calls.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx3g"})
public class EditBenchmark {
  @Param({"10000", "1000000"})
  public int deckLines;

  private FoldEngine engine;
  private int nodeLine; // a line in the middle of a NODE run
  private Lines original;
  private Lines typed;
  private Lines junk;

  @Setup
  public void setup() {
    engine = new FoldEngine(FoldOptions.GENERIC);
    engine.reset(Lines.split(SyntheticDeck.generate(deckLines)));
    nodeLine = (deckLines / 2 / SyntheticDeck.SECTION) * SyntheticDeck.SECTION + 200;
    original = Lines.wrap(engine.deck().line(nodeLine), new int[] {0, engine.deck().length(nodeLine)}, 1);
    byte[] t = engine.deck().line(nodeLine);
    t[t.length - 2] = '7';
    typed = Lines.wrap(t, new int[] {0, t.length}, 1);
    junk = Lines.ofLatin1("junk");
    String head = new String(engine.deck().line(nodeLine), 0, 8, StandardCharsets.ISO_8859_1);
    if (!head.equals("NODE  / ")) throw new IllegalStateException("line " + nodeLine + " is not a NODE card");
  }

  /** Typing in a line: replace it by a changed copy, then restore it. */
  @Benchmark
  public FoldSet typeInLine() {
    engine.apply(nodeLine, nodeLine + 1, typed);
    return engine.apply(nodeLine, nodeLine + 1, original);
  }

  /** Inserting a junk line splits a NODE run in two; deleting it joins them again. */
  @Benchmark
  public FoldSet splitAndJoinRun() {
    engine.apply(nodeLine, nodeLine, junk);
    return engine.apply(nodeLine, nodeLine + 1, Lines.empty());
  }
}
