package org.nvimpam.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.DeckProblems;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.ids.DefTable;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdScanner;
import org.nvimpam.ids.RefProblems;
import org.nvimpam.lines.Lines;

/**
 * gen's decks (version 2, the default) are valid: the field checks find no problem, every id a
 * card references is defined, and no id is defined twice; version 1 still writes its old decks,
 * which are not.
 */
class ValidDeckTest {
  private static final CardLayouts TABLE = CardLayouts.bundled();

  /** Every problem the JVM's checks find in {@code deck}: fields, undefined and duplicate ids. */
  static List<String> problems(byte[] deck) {
    Lines lines = Lines.split(deck);
    int declared = DeckVersion.declared(lines);
    int version = declared < 0 ? TABLE.newestVersion() : declared;
    List<String> out = new ArrayList<>();
    DeckProblems fields = new DeckProblems(TABLE);
    fields.checkAll(lines, version);
    for (int i = 0; i < fields.total(); i++) {
      out.add((fields.line(i) + 1) + ": " + new String(fields.message(i, lines), StandardCharsets.ISO_8859_1));
    }
    DefTable defs = new DefTable();
    defs.build(lines, version, new IdScanner(TABLE));
    for (int d = 0; d < defs.size(); d++) {
      if (defs.count(defs.key(d)) > 1) out.add((defs.line(d) + 1) + ": " + IdKinds.describe(defs.key(d)) + " defined again");
    }
    RefProblems refs = new RefProblems();
    refs.checkAll(lines, version, new IdScanner(TABLE), defs::count);
    for (int i = 0; i < refs.size(); i++) {
      out.add((refs.line(i) + 1) + ": " + IdKinds.describe(refs.key(i)) + " is not defined");
    }
    return out;
  }

  @ParameterizedTest
  @CsvSource({"0, 1", "50, 2", "1000, 3", "20000, 5", "30000, 7", "30000, 8", "60000, 11", "200000, 90001"})
  void theDefaultGeneratorWritesDecksWithoutProblems(int lines, long seed) {
    byte[] deck = new DeckGenerator(seed).generate(lines);
    List<String> p = problems(deck);
    assertEquals(List.of(), p.subList(0, Math.min(20, p.size())), p.size() + " problems");
  }

  @ParameterizedTest
  @CsvSource({"20000, 5", "60000, 11"})
  void versionOneStillWritesTheOldDecksWithTheirProblems(int lines, long seed) {
    byte[] v1 = new DeckGenerator(seed, 1).generate(lines);
    assertTrue(problems(v1).size() > 100, "version 1's decks have text in blank columns and bad CNTAC rows");
    assertTrue(new String(v1, StandardCharsets.ISO_8859_1).contains("\nEND_MATER\n"));
  }
}
