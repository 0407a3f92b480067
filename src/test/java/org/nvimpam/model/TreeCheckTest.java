package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckProblems;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.ProblemItems;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.ids.BufferIds;

/**
 * A deck streamed in pieces by {@link TreeCheck}, with any number of workers, gives what the
 * plugin's model gives the whole deck read at once: {@link DeckProblems} for the fields and
 * {@link BufferIds} for the ids, problem by problem (line, columns, severity, code, message).
 */
class TreeCheckTest {
  @TempDir Path dir;

  /** A gen deck of several pieces with random breakage: fields, tabs, nodes gone and doubled. */
  private Path mutated(long seed, int lines) throws Exception {
    String[] l = new String(new DeckGenerator(seed).generate(lines), StandardCharsets.ISO_8859_1).split("\n", -1);
    Random rnd = new Random(seed);
    List<String> out = new ArrayList<>();
    for (String s : l) {
      int r = rnd.nextInt(2000);
      if (r == 0 && s.length() > 20) out.add(s.substring(0, 18) + "x" + s.substring(19));
      else if (r == 1 && s.startsWith("NODE")) out.add("$" + s);
      else if (r == 2) out.add(s + "\t");
      else if (r == 3 && s.startsWith("NODE")) {
        out.add(s);
        out.add(s);
      } else out.add(s);
    }
    Path p = dir.resolve("deck" + seed + ".pc");
    Files.writeString(p, String.join("\n", out), StandardCharsets.ISO_8859_1);
    return p;
  }

  private static List<String> whole(Path p) throws Exception {
    Deck deck = DeckFile.read(p, 1 << 20, Files.size(p));
    CardLayouts table = CardLayouts.bundled();
    int v = DeckVersion.declared(deck);
    DeckProblems fields = new DeckProblems(table);
    fields.checkAll(deck, v > 0 ? v : table.newestVersion());
    List<String> out = new ArrayList<>();
    for (int i = 0; i < fields.total(); i++) {
      out.add(fields.line(i) + ":" + fields.col(i) + "-" + fields.end(i) + " " + fields.severity(i) + " "
          + fields.code(i).code() + " " + new String(fields.message(i, deck), StandardCharsets.UTF_8));
    }
    BufferIds ids = new BufferIds();
    ids.build(deck);
    ids.tree(List.of(), List.of(), !DeckVersion.fragment(deck), -1, deck);
    ids.check(deck);
    ProblemItems s = ids.snapshot(deck, Integer.MAX_VALUE);
    for (int k = 0; k < s.messages().length; k++) {
      out.add(s.at()[4 * k] + ":" + s.at()[4 * k + 1] + "-" + s.at()[4 * k + 2] + " " + s.at()[4 * k + 3] + " "
          + s.codes()[k].code() + " " + new String(s.messages()[k], StandardCharsets.UTF_8));
    }
    out.sort(null);
    return out;
  }

  private static List<String> streamed(Path p, int threads) throws Exception {
    TreeCheck.Result r = new TreeCheck(new TreeCheck.Options(-1, false, Integer.MAX_VALUE, threads), null).check(p);
    List<String> out = new ArrayList<>();
    for (TreeCheck.Problem x : r.problems()) {
      out.add(x.line() + ":" + x.col() + "-" + x.end() + " " + x.severity() + " " + x.code().code() + " " + x.message());
    }
    assertEquals(out.size(), r.errors() + r.warnings());
    out.sort(null);
    return out;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void aStreamedDeckGetsWhatTheWholeDeckGets(int threads) throws Exception {
    Path p = mutated(40 + threads, 250_000);
    assertTrue(Files.size(p) > 3 * (4 << 20), "several pieces");
    List<String> want = whole(p);
    assertTrue(want.stream().anyMatch(x -> x.contains(" id-undefined ")), "a node gone");
    assertTrue(want.stream().anyMatch(x -> x.contains(" id-duplicate ")), "a node twice");
    assertTrue(want.stream().anyMatch(x -> x.contains(" tab ")), "a tab");
    assertEquals(want, streamed(p, threads));
  }
}
