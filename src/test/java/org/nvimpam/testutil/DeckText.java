package org.nvimpam.testutil;

/** A deck written card by card, in the columns of the layout table. */
public final class DeckText {
  final StringBuilder sb = new StringBuilder();
  public int nextNode = 1;
  public int nextEl = 1;

  public DeckText(int version) {
    if (version > 0) sb.append("INPUTVERSION ").append(version).append('\n');
  }

  public static String f(int w, double d) {
    String s = Double.toString(d);
    if (s.endsWith(".0")) s = s.substring(0, s.length() - 1);
    if (s.length() > w) throw new IllegalArgumentException(s + " is wider than " + w);
    return " ".repeat(w - s.length()) + s;
  }

  public static String i(int w, int n) {
    return String.format("%" + w + "d", n);
  }

  public int node(double x, double y, double z) {
    int id = nextNode++;
    sb.append("NODE  / ").append(i(8, id)).append(f(16, x)).append(f(16, y)).append(f(16, z)).append('\n');
    return id;
  }

  public DeckText line(String s) {
    sb.append(s).append('\n');
    return this;
  }

  public DeckText mater(int id, int type, double rho, String name) {
    sb.append("MATER / ").append(i(8, id)).append(i(8, type)).append(f(16, rho)).append('\n');
    sb.append("\n");
    sb.append("NAME ").append(name).append('\n');
    return this;
  }

  /** A PART of {@code type} with {@code idmat} (0: the RMAT line names {@code rmat}). */
  public DeckText part(int id, String type, int idmat, String rmat, String name, String... rows) {
    sb.append("PART  / ").append(i(8, id)).append(String.format("%-8s", type)).append(i(8, idmat)).append('\n');
    if (idmat == 0) sb.append("RMAT").append(rmat).append('\n');
    sb.append("NAME ").append(name).append('\n');
    sb.append("        0.        1.\n"); // DTELIM, TSCALF: 10 columns each
    sb.append("        0.\n");
    for (String r : rows) sb.append(r).append('\n');
    sb.append("END_PART\n");
    return this;
  }

  public DeckText shellPart(int id, int idmat, double h, String name) {
    return part(id, "SHELL", idmat, null, name, (Double.isNaN(h) ? "          " : f(10, h)) + "    5", "    0");
  }

  public DeckText shell(int part, int n1, int n2, int n3, int n4, double h) {
    sb.append("SHELL / ").append(i(8, nextEl++)).append(i(8, part)).append(i(8, n1)).append(i(8, n2)).append(i(8, n3))
        .append(i(8, n4)).append("        ").append(Double.isNaN(h) ? "" : f(8, h)).append('\n');
    return this;
  }

  public DeckText solid(String word, int part, int... n) {
    sb.append(String.format("%-6s/ ", word)).append(i(8, nextEl++)).append(i(8, part));
    if (word.equals("SOLID") || word.equals("HEXA20") || word.equals("TETR10") || word.equals("PENT15")) {
      sb.append('\n').append(" ".repeat(16));
    }
    for (int k : n) sb.append(i(8, k));
    sb.append('\n');
    return this;
  }

  public String text() {
    return sb.toString();
  }
}
