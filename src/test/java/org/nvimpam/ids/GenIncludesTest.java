package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.gen.IncludeSplit;

/** gen --includes: the deck split over include files, its ids consistent across them. */
class GenIncludesTest {
  @TempDir Path dir;

  @Test
  void theFilesHoldTheWholeDeckAndEveryReferenceIsDefinedSomewhereInTheTree() throws Exception {
    Path main = dir.resolve("car.pc");
    List<Path> files = IncludeSplit.write(new DeckGenerator(3), 30_000, main, 3);
    assertEquals(List.of(main, dir.resolve("car_1.inc"), dir.resolve("car_2.inc"), dir.resolve("car_3.inc")), files);
    List<String> mainLines = Files.readAllLines(main, java.nio.charset.StandardCharsets.ISO_8859_1);
    assertEquals(List.of("INCLU / car_1.inc", "INCLU / car_2.inc", "INCLU / car_3.inc"),
        mainLines.subList(mainLines.size() - 3, mainLines.size()));
    // without its INCLU lines, the tree is the deck gen writes
    ByteArrayOutputStream whole = new ByteArrayOutputStream();
    new DeckGenerator(3).write(whole, 30_000);
    StringBuilder joined = new StringBuilder();
    for (Path f : files) {
      for (String l : Files.readAllLines(f, java.nio.charset.StandardCharsets.ISO_8859_1)) {
        if (!l.startsWith("INCLU / ")) joined.append(l).append('\n');
      }
    }
    assertEquals(whole.toString(java.nio.charset.StandardCharsets.ISO_8859_1), joined.toString());
    // every single-id reference of every file is defined in one of the files
    List<Deck> decks = new ArrayList<>();
    List<DefTable> defs = new ArrayList<>();
    for (Path f : files) {
      Deck d = DeckFile.read(f, 1 << 12, Files.size(f));
      DefTable t = new DefTable();
      t.build(d, 2011, new IdScanner(CardLayouts.bundled()));
      decks.add(d);
      defs.add(t);
    }
    int undefined = 0;
    for (Deck d : decks) {
      RefProblems p = new RefProblems();
      p.checkAll(d, 2011, new IdScanner(CardLayouts.bundled()), key -> {
        int c = 0;
        for (DefTable t : defs) c += t.count(key);
        return c;
      });
      undefined += p.size();
    }
    assertEquals(0, undefined);
  }
}
