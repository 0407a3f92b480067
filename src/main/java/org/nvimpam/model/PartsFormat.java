package org.nvimpam.model;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.nvimpam.lines.Lines;

/**
 * The parts table as text, the one layout both {@code nvimpam parts} and {@code :NvimpamParts}
 * show: a header, one line per PART, one per point mass, the masses not included, and the
 * model's total last. Columns are as wide as their widest value, so lines can be sorted as they
 * are (by the keys each part's line carries).
 */
public final class PartsFormat {
  private PartsFormat() {}

  /** The columns a part's line can be sorted by, in order (the keys of {@link Line#keys}). */
  public static final List<String> COLUMNS = List.of("ID", "NAME", "TYPE", "MAT", "ELEMENTS", "NODES", "THICKNESS", "MASS",
      "COG_X", "COG_Y", "COG_Z", "XMIN", "YMIN", "ZMIN", "XMAX", "YMAX", "ZMAX");

  /**
   * One line: its text; for a part the values of {@link #COLUMNS} (Long, String or Double; null
   * where it has none); the file and 0-based line of its card (null and -1: none).
   */
  public record Line(String text, List<Object> keys, Path file, int line) {}

  /**
   * The table's lines: the header, the parts' lines (to sort), and the lines after them (the total
   * last); {@code starts}: the 0-based byte column where each of {@link #COLUMNS} begins.
   */
  public record Lines(String header, List<Line> parts, List<Line> tail, int[] starts) {
    public List<String> all() {
      List<String> out = new ArrayList<>();
      out.add(header);
      for (Line l : parts) out.add(l.text());
      for (Line l : tail) out.add(l.text());
      return out;
    }
  }

  /** A number as the table shows it: 6 significant digits; "-" for none. */
  public static String number(double d) {
    if (Double.isNaN(d)) return "-";
    if (d == 0) return "0";
    String s = String.format(Locale.ROOT, "%.6g", d);
    int e = s.indexOf('e');
    String mant = e < 0 ? s : s.substring(0, e);
    String exp = e < 0 ? "" : s.substring(e);
    if (mant.contains(".")) {
      mant = mant.replaceAll("0+$", "");
      if (mant.endsWith(".")) mant = mant.substring(0, mant.length() - 1);
    }
    return mant + exp;
  }

  /** {@code where} names a card's file as the user reaches it. */
  public static Lines lines(PartsTable t, Function<Path, String> where) {
    List<String[]> cells = new ArrayList<>();
    List<Line> parts = new ArrayList<>();
    for (PartsTable.Part p : t.parts()) {
      double[] c = p.cog();
      double[] b = p.bbox();
      String[] row = {Integer.toString(p.id()), p.name(), p.type(), p.material(), Long.toString(p.elements()),
          Long.toString(p.nodes()), number(p.thickness()), p.reason() == null ? number(p.mass()) : "n/a",
          c == null ? "-" : number(c[0]), c == null ? "-" : number(c[1]), c == null ? "-" : number(c[2]),
          b == null ? "-" : number(b[0]), b == null ? "-" : number(b[1]), b == null ? "-" : number(b[2]),
          b == null ? "-" : number(b[3]), b == null ? "-" : number(b[4]), b == null ? "-" : number(b[5]),
          p.reason() == null ? "" : "no mass: " + p.reason()};
      cells.add(row);
    }
    for (PartsTable.PointMass m : t.masses()) {
      double[] c = m.cog();
      cells.add(new String[] {"MASS", m.name(), "MASS", "-", "-", m.node() == 0 ? "-" : "1", "-",
          m.reason() == null ? number(m.mass()) : "n/a", c == null ? "-" : number(c[0]), c == null ? "-" : number(c[1]),
          c == null ? "-" : number(c[2]), "", "", "", "", "", "",
          (m.node() == 0 ? "" : "node " + m.node()) + (m.reason() == null ? "" : (m.node() == 0 ? "" : ", ") + "no mass: " + m.reason())});
    }
    double[] tc = t.totalCog();
    String[] total = {"TOTAL", "", "", "", "", "", "", number(t.totalMass()), tc == null ? "-" : number(tc[0]),
        tc == null ? "-" : number(tc[1]), tc == null ? "-" : number(tc[2]), "", "", "", "", "", "",
        "units: the deck's own, no conversion"};
    cells.add(total);
    String[] head = new String[COLUMNS.size() + 1];
    for (int k = 0; k < COLUMNS.size(); k++) head[k] = COLUMNS.get(k);
    head[COLUMNS.size()] = "";
    int[] w = new int[head.length];
    for (int k = 0; k < head.length; k++) w[k] = head[k].length();
    for (String[] r : cells) {
      for (int k = 0; k < r.length; k++) w[k] = Math.max(w[k], r[k].length());
    }
    int i = 0;
    for (PartsTable.Part p : t.parts()) {
      double[] c = p.cog();
      double[] b = p.bbox();
      List<Object> keys = new ArrayList<>();
      keys.add((long) p.id());
      keys.add(p.name());
      keys.add(p.type());
      keys.add(p.material());
      keys.add(p.elements());
      keys.add(p.nodes());
      keys.add(nullable(p.thickness()));
      keys.add(nullable(p.mass()));
      for (int k = 0; k < 3; k++) keys.add(c == null ? null : c[k]);
      for (int k = 0; k < 6; k++) keys.add(b == null ? null : b[k]);
      parts.add(new Line(row(cells.get(i++), w), keys, p.file(), p.line()));
    }
    List<Line> tail = new ArrayList<>();
    for (PartsTable.PointMass m : t.masses()) tail.add(new Line(row(cells.get(i++), w), List.of(), m.file(), m.line()));
    for (PartsTable.NotIncluded n : t.notIncluded()) {
      tail.add(new Line("not included: " + where.apply(n.file()) + ":" + (n.line() + 1) + ": " + n.what() + ": " + n.text().strip(),
          List.of(), n.file(), n.line()));
    }
    tail.add(new Line(row(total, w), List.of(), null, -1));
    int[] starts = new int[COLUMNS.size()];
    for (int k = 1; k < starts.length; k++) starts[k] = starts[k - 1] + w[k - 1] + 2;
    return new Lines(row(head, w), parts, tail, starts);
  }

  private static Double nullable(double d) {
    return Double.isNaN(d) ? null : d;
  }

  /** Text columns left-aligned (NAME, TYPE, the note), numbers right-aligned; two blanks between. */
  private static String row(String[] r, int[] w) {
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < r.length; k++) {
      if (k > 0) sb.append("  ");
      boolean left = k == 1 || k == 2 || k == r.length - 1;
      String s = r[k];
      if (left) {
        sb.append(s);
        if (k < r.length - 1) sb.append(" ".repeat(w[k] - s.length()));
      } else {
        sb.append(" ".repeat(w[k] - s.length())).append(s);
      }
    }
    return sb.toString().stripTrailing();
  }
}
