package org.nvimpam.model;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdNames;
import org.nvimpam.ids.IdScanner;
import org.nvimpam.ids.IntList;
import org.nvimpam.lines.LineSource;
import org.nvimpam.model.MergeTree.Src;

/** Reads each deck's tree for a merge: its files, definitions, group titles, INPUTVERSION and units. */
final class MergeReader {
  private static final byte[] UNIT = LineBytes.ascii("UNIT");

  private final Merge m;

  MergeReader(Merge m) {
    this.m = m;
  }

  void read(MergeTree t, List<Renumber.Refusal> refusals) throws IOException {
    Src top = file(t.top);
    t.declared = DeckVersion.declared(top.deck);
    top.version = t.declared > 0 ? t.declared : m.table.newestVersion();
    t.files.add(top);
    TreeWalk.walk(top, t.files, new TreeWalk.Members<Src>() {
      @Override
      public Path path(Src f) {
        return f.path;
      }

      @Override
      public List<IncludeLine> includes(Src f) {
        return IncludeLine.of(f.deck);
      }

      @Override
      public Src open(Path p) throws IOException {
        Src f = file(p);
        f.version = DeckVersion.readAs(f.deck, top.version);
        return f;
      }

      @Override
      public void problem(Src in, IncludeLine at, ProblemCode code, String message) {
        t.complete = false;
        refusals.add(new Renumber.Refusal(in.path, at.line(), at.from(), message + ": the deck cannot be merged without it"));
      }
    });
    definitions(t);
  }

  /** The ids and group titles the tree defines, and its units. */
  void definitions(MergeTree t) {
    IntList[] ids = new IntList[m.nk];
    IdScanner sc = new IdScanner(m.table);
    for (Src f : t.files) {
      sc.scan(f.deck, 0, f.deck.lineCount(), f.version, false, (line, a, b, kind, lo, hi, def) -> {
        if (IdKinds.named(kind)) {
          String title = IdNames.text(lo);
          if (!t.titles.contains(title)) t.titles.add(title);
          return;
        }
        if (ids[kind] == null) ids[kind] = new IntList();
        ids[kind].add(lo);
      });
    }
    for (int k = 0; k < m.nk; k++) t.defs[k] = ids[k] == null ? new int[0] : sortedUnique(ids[k]);
    units(t, t.files.get(0).deck);
  }

  private Src file(Path p) throws IOException {
    long size = Files.size(p);
    Deck d = DeckFile.read(p, DeckFile.estimateLines(p, size), size);
    if (m.progress != null) m.progress.read(p, size, d.lineCount());
    return new Src(p, d);
  }

  private static int[] sortedUnique(IntList l) {
    int[] s = Arrays.copyOf(l.a, l.size);
    Arrays.sort(s);
    int u = 0;
    for (int i = 0; i < s.length; i++) {
      if (i == 0 || s[i] != s[i - 1]) s[u++] = s[i];
    }
    return Arrays.copyOf(s, u);
  }

  /** The UNIT line before the first card, its words as one string. */
  private static void units(MergeTree t, LineSource src) {
    int n = Math.min(DeckVersion.SCAN_LINES, src.lineCount());
    for (int i = 0; i < n; i++) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int len = src.contentLength(i);
      if (LineBytes.headerWord(a, off, len) != 0) return;
      if (LineBytes.startsWith(a, off, len, UNIT) && (len == UNIT.length || a[off + UNIT.length] == ' ')) {
        t.units = new String(a, off + UNIT.length, len - UNIT.length, StandardCharsets.ISO_8859_1).trim().replaceAll(" +", " ")
            .toUpperCase(Locale.ROOT);
        t.unitsLine = i;
        return;
      }
    }
  }
}
