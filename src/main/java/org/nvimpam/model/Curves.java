package org.nvimpam.model;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.FieldValues;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.deck.RowLayout;
import org.nvimpam.deck.RowWalker;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.ids.IncludeWalk;
import org.nvimpam.lines.LineSource;

/**
 * FUNCT curves of a deck and its include tree, read through the card-layout table: the header
 * row's SCALX, SCALY, SHIFTX and SHIFTY, the NAME row's title, and the points of every row whose
 * fields hold {@code X…}, {@code Y…} pairs (lua/nvimpam/model/curves.lua reads them the same way).
 */
public final class Curves {
  /**
   * One FUNCT: where its header line is (0-based {@code line}), its id and title, its factors,
   * its points as written, and how many points had a value that is no number (left out).
   */
  public record Curve(Path file, int line, int id, String title, double scalx, double scaly, double shiftx,
      double shifty, double[] xs, double[] ys, int skipped) {
    /** Point {@code i}'s x as the solver uses it: scaled, then shifted (a scale of 0 is 1). */
    public double x(int i) {
      return xs[i] * scale(scalx) + shiftx;
    }

    /** Point {@code i}'s y as the solver uses it: scaled, then shifted (a scale of 0 is 1). */
    public double y(int i) {
      return ys[i] * scale(scaly) + shifty;
    }

    public int size() {
      return xs.length;
    }

    private static double scale(double s) {
      return s == 0 ? 1 : s;
    }
  }

  /** A problem of the include tree (a file missing, unreadable, binary, in a cycle). */
  public record Problem(Path file, int line, String message) {}

  /** What {@link #find} found: the first definition of each id asked, in the tree's order. */
  public record Found(Map<Integer, Curve> curves, List<Problem> problems) {}

  private final CardLayouts table;

  public Curves(CardLayouts table) {
    this.table = table;
  }

  /**
   * The FUNCTs with ids {@code ids} in {@code deck} and the files it includes (walked as {@code
   * check} walks them). A deck that cannot be read throws why.
   */
  public Found find(Path deck, Set<Integer> ids) throws IncludeFiles.Unreadable, IOException {
    Path root = deck.toAbsolutePath().normalize();
    IncludeFiles.readable(root);
    Map<Integer, Curve> found = new LinkedHashMap<>();
    List<Problem> problems = new ArrayList<>();
    int[] treeVersion = {-1};
    record Member(Path path, boolean root) {}
    try {
      IncludeWalk.walk(new Member(root, true), new IncludeWalk.Members<Member>() {
        @Override
        public Path path(Member m) {
          return m.path;
        }

        @Override
        public List<IncludeLine> includes(Member m) {
          try {
            BasicFileAttributes at = IncludeFiles.attributes(m.path);
            Deck d = DeckFile.read(m.path, DeckFile.estimateLines(m.path, at.size()), at.size());
            int version = DeckVersion.readAs(d, m.root ? 0 : treeVersion[0], table.newestVersion());
            if (m.root) treeVersion[0] = version;
            read(m.path, d, version, ids, found);
            return IncludeLine.of(d);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          } catch (IncludeFiles.Unreadable e) {
            throw new UncheckedIOException(new IOException(m.path + " " + e.getMessage()));
          }
        }

        @Override
        public Member open(Path p) throws IncludeFiles.Unreadable {
          IncludeFiles.readable(p);
          return new Member(p, false);
        }

        @Override
        public void problem(Member in, IncludeLine at, IncludeLine via, ProblemCode code, String message) {
          problems.add(new Problem(in.path, at.line(), message));
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return new Found(found, problems);
  }

  /** Adds the FUNCTs of {@code src} whose ids are among {@code ids} and not found yet. */
  public void read(Path file, LineSource src, int version, Set<Integer> ids, Map<Integer, Curve> found) {
    RowWalker w = new RowWalker(table);
    int n = src.lineCount();
    int i = 0;
    while (i < n) {
      int g = w.groupAt(src, i);
      if (g < 0) {
        i++;
        continue;
      }
      int e = table.pick(g, version);
      if (e < 0) e = table.group(g)[0]; // a deck older than every layout: the oldest
      CardLayout entry = table.entry(e);
      if (!entry.word().equals("FUNCT")) {
        i = w.skipCard(src, i);
        continue;
      }
      Reader r = new Reader(entry);
      int h = i;
      i = w.walkCard(src, h, e, (line, code) -> r.line(w, code));
      if (r.id > 0 && ids.contains(r.id) && !found.containsKey(r.id)) found.put(r.id, r.curve(file, h));
    }
  }

  /** The values of one FUNCT's lines, as its walk tells them. */
  private static final class Reader {
    final CardLayout entry;
    int id = -1;
    String title = "";
    double scalx = 1;
    double scaly = 1;
    double shiftx;
    double shifty;
    double[] xs = new double[16];
    double[] ys = new double[16];
    int count;
    int skipped;

    Reader(CardLayout entry) {
      this.entry = entry;
    }

    void line(RowWalker w, int code) {
      if (code < 0) return;
      RowLayout row = entry.rows().get(code);
      byte[] a = w.lineBytes();
      int off = w.lineStart();
      int len = w.lineLength();
      if (code == 0) {
        id = (int) Math.round(value(row, "IDFUN", a, off, len, -1));
        scalx = value(row, "SCALX", a, off, len, 1);
        scaly = value(row, "SCALY", a, off, len, 1);
        shiftx = value(row, "SHIFTX", a, off, len, 0);
        shifty = value(row, "SHIFTY", a, off, len, 0);
        return;
      }
      if (row.kind() == RowLayout.Kind.NAME) {
        int t = row.field("TITLE");
        if (t >= 0) title = text(row.fields().get(t), a, off, len).strip();
        return;
      }
      List<FieldLayout> fs = row.fields();
      for (int j = 0; j + 1 < fs.size(); j++) {
        FieldLayout fx = fs.get(j);
        FieldLayout fy = fs.get(j + 1);
        if (!pair(fx.name(), fy.name())) continue;
        double x = number(fx, a, off, len);
        double y = number(fy, a, off, len);
        if (Double.isNaN(x) || Double.isNaN(y)) {
          skipped++;
          continue;
        }
        if (count == xs.length) {
          xs = java.util.Arrays.copyOf(xs, count * 2);
          ys = java.util.Arrays.copyOf(ys, count * 2);
        }
        xs[count] = x;
        ys[count++] = y;
      }
    }

    Curve curve(Path file, int line) {
      return new Curve(file, line, id, title, scalx, scaly, shiftx, shifty, java.util.Arrays.copyOf(xs, count),
          java.util.Arrays.copyOf(ys, count), skipped);
    }
  }

  /** Whether two fields are a point's X and Y: {@code X} and {@code Y}, or {@code X2} and {@code Y2}. */
  static boolean pair(String x, String y) {
    return x.startsWith("X") && y.startsWith("Y") && x.substring(1).equals(y.substring(1));
  }

  private static double value(RowLayout row, String name, byte[] a, int off, int len, double otherwise) {
    int j = row.field(name);
    if (j < 0) return otherwise;
    double v = number(row.fields().get(j), a, off, len);
    return Double.isNaN(v) ? otherwise : v;
  }

  private static double number(FieldLayout f, byte[] a, int off, int len) {
    int s = Math.min(f.from() - 1, len);
    int e = Math.min(f.to(), len);
    return FieldValues.number(a, off + s, off + e);
  }

  private static String text(FieldLayout f, byte[] a, int off, int len) {
    int s = Math.min(f.from() - 1, len);
    int e = Math.min(f.to(), len);
    return new String(a, off + s, e - s, StandardCharsets.ISO_8859_1);
  }
}
