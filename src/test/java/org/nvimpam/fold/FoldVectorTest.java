package org.nvimpam.fold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.nvimpam.testutil.Vectors;
import org.nvimpam.testutil.Vectors.Edit;
import org.nvimpam.testutil.Vectors.Vector;

/** Every vector of fold-vectors.json, in both modes (FOLDS.md §13). */
class FoldVectorTest {
  private static final List<FoldOptions> MODES = List.of(FoldOptions.COMPATIBLE, FoldOptions.GENERIC);

  private static String mode(FoldOptions o) {
    return o.genericCards() ? "generic" : "compatible";
  }

  @TestFactory
  Stream<DynamicTest> fullParseGivesTheExpectedFolds() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Vector v : Vectors.all()) {
      for (FoldOptions o : MODES) {
        tests.add(dynamicTest(v.id() + " [" + mode(o) + "]",
            () -> assertEquals(v.expected(o), FoldParser.parse(v.lines(), o).toList())));
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> editsGiveTheExpectedFoldsAfterEveryStep() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Vector v : Vectors.all()) {
      if (v.edits().isEmpty()) continue;
      for (FoldOptions o : MODES) {
        tests.add(dynamicTest(v.id() + " [" + mode(o) + "]", () -> {
          FoldEngine engine = new FoldEngine(o);
          assertEquals(v.expected(o), engine.reset(v.lines()).toList(), "initial");
          int step = 0;
          for (Edit e : v.edits()) {
            step++;
            FoldSet incremental = engine.apply(e.first(), e.last(), e.lines());
            assertEquals(e.expected(o), incremental.toList(), "step " + step);
            assertEquals(FoldParser.parse(engine.deck(), o), incremental, "step " + step + " vs full parse");
          }
        }));
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> deckFilesMatchTheirChecksums() {
    return Vectors.all().stream()
        .filter(v -> v.deckSha256() != null)
        .map(v -> dynamicTest(v.id(), () -> assertEquals(v.deckSha256(), Vectors.sha256(v.deckBytes()))));
  }
}
