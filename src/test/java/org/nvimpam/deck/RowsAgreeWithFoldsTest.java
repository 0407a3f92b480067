package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldSet;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.lines.Lines;

/**
 * The card-layout table's rows take exactly the lines the fold engine folds for the 63 known
 * keywords (FOLDS.md §4–§5): a card's rows end where its fold ends, so that cells and folds never
 * disagree about where a card ends.
 */
class RowsAgreeWithFoldsTest {
  private static Lines deck(String which) throws IOException {
    if (which.startsWith("gen")) return Lines.split(new DeckGenerator(5).generate(50_000));
    try (InputStream in = RowsAgreeWithFoldsTest.class.getResourceAsStream("/decks/" + which)) {
      return Lines.split(in.readAllBytes());
    }
  }

  /** Level-1 folds of known keywords, as "start-end Name", from the row walk. */
  private static List<String> foldsFromRows(CardLayouts t, Lines src) {
    RowWalker w = new RowWalker(t);
    List<String> out = new ArrayList<>();
    int runKeyword = -1;
    int runStart = -1;
    int runEnd = -1;
    int i = 0;
    int n = src.lineCount();
    while (i < n) {
      int len = src.contentLength(i);
      int kw = Keywords.of(src.bytes(i), src.start(i), len);
      if (kw < 0) {
        if (!RowWalker.isComment(src, i)) {
          if (runKeyword >= 0) out.add((runStart + 1) + "-" + (runEnd + 1) + " " + Keywords.name(runKeyword));
          runKeyword = -1;
        }
        i++;
        continue;
      }
      int g = w.groupAt(src, i);
      int e = t.pick(g, 2011);
      int[] last = {i};
      int next = w.walkCard(src, i, e, (line, code) -> {
        if (code >= 0 || code == RowWalker.GES || code == RowWalker.GES_END) last[0] = line;
      });
      if (runKeyword >= 0 && (kw != runKeyword || !Keywords.gathered(kw))) {
        out.add((runStart + 1) + "-" + (runEnd + 1) + " " + Keywords.name(runKeyword));
        runKeyword = -1;
      }
      if (runKeyword < 0) {
        runKeyword = kw;
        runStart = i;
      }
      runEnd = last[0];
      if (!Keywords.gathered(kw) || (last[0] + 1 < next && !allComments(src, last[0] + 1, next))) {
        out.add((runStart + 1) + "-" + (runEnd + 1) + " " + Keywords.name(runKeyword));
        runKeyword = -1;
      }
      i = Math.max(next, i + 1);
    }
    if (runKeyword >= 0) out.add((runStart + 1) + "-" + (runEnd + 1) + " " + Keywords.name(runKeyword));
    return out;
  }

  private static boolean allComments(Lines src, int from, int to) {
    for (int i = from; i < to; i++) {
      if (!RowWalker.isComment(src, i)) return false;
    }
    return true;
  }

  private static List<String> foldsFromEngine(Lines src) {
    FoldSet f = FoldParser.parse(src, FoldOptions.COMPATIBLE);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < f.level1Count(); i++) {
      out.add((f.level1Start(i) + 1) + "-" + (f.level1End(i) + 1) + " " + f.name(f.level1Name(i)));
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"example.pc", "example2.pc", "gen"})
  void cardsEndWhereTheirFoldsEnd(String which) throws IOException {
    Lines src = deck(which);
    List<String> engine = foldsFromEngine(src);
    List<String> rows = foldsFromRows(CardLayouts.bundled(), src);
    int k = 0;
    while (k < Math.min(engine.size(), rows.size()) && engine.get(k).equals(rows.get(k))) k++;
    String at = k < engine.size() || k < rows.size() ? "first difference at fold " + k + ": engine "
        + engine.subList(k, Math.min(k + 3, engine.size())) + ", rows " + rows.subList(k, Math.min(k + 3, rows.size())) : "";
    assertEquals(engine.size(), rows.size(), at);
    assertEquals(engine, rows, at);
  }
}
