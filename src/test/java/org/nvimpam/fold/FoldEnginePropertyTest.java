package org.nvimpam.fold;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nvimpam.lines.Lines;
import org.nvimpam.testutil.RandomDecks;

/**
 * D13 as a property: after every edit of random edit sequences on random decks, the engine's folds
 * equal a full parse of the resulting lines, in both modes. Seeds are fixed; a failure prints the
 * seed, the deck before the edit and the edit.
 */
class FoldEnginePropertyTest {
  private static final int SEQUENCES = 1500;
  private static final int EDITS = 25;

  @Test
  void incrementalUpdatesEqualAFullParseInGenericMode() {
    runSequences(FoldOptions.GENERIC, 1_000);
  }

  @Test
  void incrementalUpdatesEqualAFullParseInCompatibleMode() {
    runSequences(FoldOptions.COMPATIBLE, 2_000_000);
  }

  private static void runSequences(FoldOptions options, long firstSeed) {
    for (long seed = firstSeed; seed < firstSeed + SEQUENCES; seed++) {
      runSequence(options, seed);
    }
  }

  private static void runSequence(FoldOptions options, long seed) {
    RandomDecks gen = new RandomDecks(seed);
    Random r = gen.random();
    List<byte[]> model = gen.deck(1 + r.nextInt(25));
    FoldEngine engine = new FoldEngine(options);
    engine.reset(lines(model));
    for (int step = 0; step < EDITS; step++) {
      int n = model.size();
      int first;
      int last;
      List<byte[]> repl;
      switch (r.nextInt(8)) {
        case 0 -> { // delete a range
          first = r.nextInt(n + 1);
          last = Math.min(n, first + 1 + r.nextInt(4));
          repl = List.of();
        }
        case 1 -> { // mutate one line in place
          if (n == 0) {
            first = last = 0;
            repl = gen.snippet();
          } else {
            first = r.nextInt(n);
            last = first + 1;
            repl = List.of(gen.mutate(model.get(first)));
          }
        }
        case 2 -> { // at the start or end of the buffer
          first = r.nextBoolean() ? 0 : n;
          last = first == 0 ? Math.min(n, r.nextInt(3)) : n;
          repl = gen.snippet();
        }
        case 3 -> { // delete everything, as Neovim does: one empty line remains
          if (r.nextInt(6) != 0) {
            first = last = r.nextInt(n + 1);
            repl = gen.snippet();
          } else {
            first = 0;
            last = n;
            repl = List.of(new byte[0]);
          }
        }
        default -> { // replace a range by a snippet
          first = r.nextInt(n + 1);
          last = Math.min(n, first + r.nextInt(3));
          repl = gen.snippet();
        }
      }
      List<byte[]> before = List.copyOf(model);
      model.subList(first, last).clear();
      model.addAll(first, repl);
      FoldSet incremental = engine.apply(first, last, lines(repl));
      FoldSet full = FoldParser.parse(lines(model), options);
      if (!incremental.equals(full)) {
        fail(report(options, seed, step, before, first, last, repl, full, incremental));
      }
    }
  }

  private static Lines lines(List<byte[]> l) {
    Lines.Builder b = new Lines.Builder(l.size(), 64 * l.size());
    for (byte[] line : l) b.add(line, 0, line.length);
    return b.build();
  }

  private static String report(
      FoldOptions options, long seed, int step, List<byte[]> deck, int first, int last,
      List<byte[]> repl, FoldSet full, FoldSet incremental) {
    StringBuilder sb = new StringBuilder();
    sb.append("mode ").append(options.genericCards() ? "generic" : "compatible")
        .append(", seed ").append(seed).append(", step ").append(step).append('\n');
    sb.append("deck before the edit:\n");
    for (int i = 0; i < deck.size(); i++) sb.append(i).append(": ").append(RandomDecks.show(deck.get(i))).append('\n');
    sb.append("edit: replace [").append(first).append(", ").append(last).append(") by\n");
    for (byte[] l : repl) sb.append("  ").append(RandomDecks.show(l)).append('\n');
    sb.append("full parse:  ").append(full.toList()).append('\n');
    sb.append("incremental: ").append(incremental.toList()).append('\n');
    return sb.toString();
  }
}
