package org.nvimpam.model.diff;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.FieldType;
import org.nvimpam.deck.FieldValues;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.deck.RowLayout;
import org.nvimpam.deck.RowWalker;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.lines.LineSource;

/**
 * The cards of one side of a diff, in the order the solver reads them: per card its file, header
 * line, layout entry, the key it is matched by (its kind and id, or its keyword and title) and a
 * hash of its values as the solver reads them ({@link Values}). The whole-deck walk reads bytes in
 * place and keeps primitive arrays; {@link #fields} reads one card's values as text, for the cards
 * a diff reports. Not thread-safe.
 *
 * <p>What is no part of a card's value: comments, blank lines, alignment, the {@code blank} and
 * {@code cont} columns of its rows, INCLU cards (the split into files), text past column 80.
 * Free-format lines (GES selections, lines no row takes, cards the layout table does not know,
 * the control section before the first card) are compared as blank-separated tokens, numbers as
 * numbers; a GES is one value however its items are spread over lines.
 */
final class Cards {
  /** The entry code of the lines before a file's first card (its control section). */
  static final int PREAMBLE = -2;
  /** The entry code of a card the layout table does not know. */
  static final int UNKNOWN = -1;

  private static final long INCLU = LineBytes.headerWord(LineBytes.ascii("INCLU /"), 0, 7);
  private static final long PREAMBLE_KEY = 0x5DEECE66DL;
  // field markers mixed in before each value, so that equal hashes mean equal field lists
  private static final int MARK_GES = -1;
  private static final int MARK_LINE = -2;

  final DiffTree tree;
  final CardLayouts table;
  int count;
  int[] file = new int[1024];
  int[] line = new int[1024];
  int[] entry = new int[1024];
  long[] key = new long[1024];
  long[] hash = new long[1024];
  /** Whether the card is matched by its kind and id. */
  boolean[] byId = new boolean[1024];

  private final Compiled compiled;
  private final RowWalker walker;
  // the card being walked
  private LineSource src;
  private long h;
  private long defKey;
  private long title;
  private int e;
  private boolean inGes;
  private final RowWalker.Visitor visitor = this::line;

  Cards(DiffTree tree, CardLayouts table) {
    this.tree = tree;
    this.table = table;
    this.compiled = Compiled.of(table);
    this.walker = new RowWalker(table);
  }

  /** The cards of every file of the tree. */
  static Cards index(DiffTree tree) {
    Cards c = new Cards(tree, CardLayouts.bundled());
    for (int f = 0; f < tree.files().size(); f++) c.walk(f);
    return c;
  }

  private void walk(int f) {
    DiffTree.File df = tree.files().get(f);
    LineSource s = df.lines();
    src = s;
    int[] picked = table.picks(df.version());
    int n = s.lineCount();
    int i = 0;
    h = 0;
    boolean any = false;
    for (; i < n; i++) {
      byte[] a = s.bytes(i);
      int off = s.start(i);
      int len = s.contentLength(i);
      if (LineBytes.headerWord(a, off, len) != 0) break;
      if (LineBytes.isComment(a, off, len)) continue;
      any |= tokens(a, off, len, true);
    }
    if (any) add(f, 0, PREAMBLE, PREAMBLE_KEY, h, false);
    while (i < n) {
      byte[] a = s.bytes(i);
      int off = s.start(i);
      int len = s.contentLength(i);
      long word = LineBytes.headerWord(a, off, len);
      if (word == INCLU) {
        i = walker.skipCard(s, i);
        continue;
      }
      int g = table.groupOf(a, off, len);
      int h0 = i;
      h = 0;
      defKey = 0;
      title = 0;
      inGes = false;
      if (g < 0) {
        tokens(a, off, len, true);
        for (i++; i < n; i++) {
          a = s.bytes(i);
          off = s.start(i);
          len = s.contentLength(i);
          if (LineBytes.headerWord(a, off, len) != 0) break;
          if (!LineBytes.isComment(a, off, len)) tokens(a, off, len, true);
        }
        add(f, h0, UNKNOWN, Values.mix(word, 0, 0), h, false);
        continue;
      }
      e = picked[g] >= 0 ? picked[g] : table.group(g)[0]; // older than every layout: its oldest
      i = walker.walkCard(s, h0, e, visitor);
      boolean id = defKey != 0;
      add(f, h0, e, id ? defKey : Values.mix(word, 1, title), h, id);
    }
    src = null;
  }

  private void add(int f, int at, int en, long k, long hv, boolean id) {
    if (count == file.length) {
      int n = count * 2;
      file = Arrays.copyOf(file, n);
      line = Arrays.copyOf(line, n);
      entry = Arrays.copyOf(entry, n);
      key = Arrays.copyOf(key, n);
      hash = Arrays.copyOf(hash, n);
      byId = Arrays.copyOf(byId, n);
    }
    file[count] = f;
    line[count] = at;
    entry[count] = en;
    key[count] = k;
    hash[count] = hv;
    byId[count] = id;
    count++;
  }

  private void line(int i, int code) {
    byte[] a = walker.lineBytes();
    int off = walker.lineStart();
    int len = walker.lineLength();
    if (code >= 0) {
      inGes = false;
      int[] fs = compiled.rows[e][code];
      long[] defs = compiled.defaults[e][code];
      for (int k = 0, fi = 0; k < fs.length; k += Compiled.STRIDE, fi++) {
        int tag = value(a, off, len, fs, k, defs, fi);
        long v = bits;
        h = Values.mix(Values.mix(h, 8, ((long) code << 16) | fi), tag, v);
        int kind = fs[k + 3];
        if (kind != 0 && defKey == 0) {
          if (IdKinds.named(kind) ? tag == Values.TEXT && valueEnd > valueStart : tag == Values.INT && v > 0 && v <= Integer.MAX_VALUE) {
            defKey = IdKinds.named(kind) ? Values.mix(kind, Values.TEXT, v) : IdKinds.key(kind, (int) v);
          }
        }
        if (fs[k + 4] == 1) title = v;
      }
    } else if (code == RowWalker.GES || code == RowWalker.GES_END) {
      if (!inGes) h = Values.mix(h, 8, MARK_GES);
      inGes = true;
      tokens(a, off, len, false);
    } else if (code == RowWalker.EXTRA) {
      inGes = false;
      tokens(a, off, len, true);
    }
  }

  /** Mixes the blank-separated tokens of a line in (after a line mark); whether it has any. */
  private boolean tokens(byte[] a, int off, int len, boolean mark) {
    int end = off + Math.min(len, 80);
    boolean any = false;
    int i = off;
    while (i < end) {
      while (i < end && (a[i] == ' ' || a[i] == '\t')) i++;
      if (i == end) break;
      int s = i;
      while (i < end && a[i] != ' ' && a[i] != '\t') i++;
      if (!any && mark) h = Values.mix(h, 8, MARK_LINE);
      any = true;
      double d = FieldValues.real(a, s, i);
      h = Double.isNaN(d) ? Values.mix(h, Values.TEXT, Values.text(a, s, i)) : Values.mix(h, Values.REAL, Values.bits(d));
    }
    return any;
  }

  // the value last read by value(): its bits, and its text's bytes
  private long bits;
  private int valueStart;
  private int valueEnd;

  /**
   * The value of field {@code k} of row {@code fs} on a line as the solver reads it: returns its
   * tag, and leaves its bits in {@link #bits} and its trimmed bytes in [valueStart, valueEnd).
   */
  private int value(byte[] a, int off, int len, int[] fs, int k, long[] defs, int fi) {
    int from = fs[k];
    int to = Math.min(fs[k + 1], len);
    long t = from < to ? Values.trim(a, off + from, off + to) : 0;
    int s = (int) (t >>> 32);
    int en = (int) t;
    valueStart = s;
    valueEnd = en;
    int type = fs[k + 2];
    if (s >= en) {
      bits = defs[2 * fi + 1];
      return (int) defs[2 * fi];
    }
    if (type == Compiled.INT) {
      long v = Values.integer(a, s, en);
      if (v != Long.MIN_VALUE) {
        bits = v;
        return Values.INT;
      }
    } else if (type == Compiled.REAL) {
      double d = FieldValues.real(a, s, en);
      if (!Double.isNaN(d)) {
        bits = Values.bits(d);
        return Values.REAL;
      }
    }
    bits = Values.text(a, s, en);
    return Values.TEXT;
  }

  /** One value of a card, as a report shows it: its label, text, line and tokens. */
  record Field(String label, String text, int line, int[] tags, long[] bits) {
    /** Whether the solver reads the two alike: numbers within {@code tol} (relative), text exactly. */
    boolean same(Field o, double tol) {
      if (tags.length != o.tags.length) return false;
      for (int i = 0; i < tags.length; i++) {
        int x = tags[i];
        int y = o.tags[i];
        if (x == y && bits[i] == o.bits[i]) continue;
        boolean nx = x == Values.INT || x == Values.REAL;
        boolean ny = y == Values.INT || y == Values.REAL;
        if (!nx || !ny) return false;
        double a = x == Values.INT ? bits[i] : Double.longBitsToDouble(bits[i]);
        double b = y == Values.INT ? o.bits[i] : Double.longBitsToDouble(o.bits[i]);
        if (a == b) continue;
        if (!(Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b)))) return false;
      }
      return true;
    }
  }

  /** The values of card {@code c}, in order, labelled by their field names ({@code X#2}: the second X). */
  List<Field> fields(int c) {
    LineSource s = tree.files().get(file[c]).lines();
    int en = entry[c];
    int h0 = line[c];
    List<Field> out = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    FieldSink sink = new FieldSink(out, seen);
    int n = s.lineCount();
    if (en < 0) { // the control section, or an unknown card: its lines' tokens
      for (int i = h0; i < n; i++) {
        byte[] a = s.bytes(i);
        int off = s.start(i);
        int len = s.contentLength(i);
        if (i > h0 && LineBytes.headerWord(a, off, len) != 0) break;
        if (en == PREAMBLE && LineBytes.headerWord(a, off, len) != 0) break;
        if (!LineBytes.isComment(a, off, len)) sink.tokens("line", a, off, len, i, false);
      }
      return out;
    }
    int[][] rows = compiled.rows[en];
    long[][] defs = compiled.defaults[en];
    CardLayout card = table.entry(en);
    RowWalker w = new RowWalker(table);
    boolean[] ges = new boolean[1];
    w.walkCard(s, h0, en, (i, code) -> {
      byte[] a = w.lineBytes();
      int off = w.lineStart();
      int len = w.lineLength();
      if (code >= 0) {
        ges[0] = false;
        int[] fs = rows[code];
        List<FieldLayout> names = card.rows().get(code).fields();
        int fi = 0;
        for (int k = 0; k < fs.length; k += Compiled.STRIDE, fi++) {
          int tag = value(a, off, len, fs, k, defs[code], fi);
          String text = valueEnd > valueStart ? Values.string(a, valueStart, valueEnd) : "";
          sink.add(names.get(fs[k + 5]).name(), text, i, new int[] {tag}, new long[] {bits});
        }
      } else if (code == RowWalker.GES || code == RowWalker.GES_END) {
        sink.tokens("GES", a, off, len, i, ges[0]);
        ges[0] = true;
      } else if (code == RowWalker.EXTRA) {
        ges[0] = false;
        sink.tokens("line", a, off, len, i, false);
      }
    });
    return out;
  }

  /** Collects a card's fields, numbering labels that repeat. */
  private static final class FieldSink {
    final List<Field> out;
    final Map<String, Integer> seen;

    FieldSink(List<Field> out, Map<String, Integer> seen) {
      this.out = out;
      this.seen = seen;
    }

    void add(String name, String text, int line, int[] tags, long[] bits) {
      int k = seen.merge(name, 1, Integer::sum);
      out.add(new Field(k == 1 ? name : name + "#" + k, text, line, tags, bits));
    }

    /** A line's tokens as one field, or appended to the last field ({@code append}: a GES goes on). */
    void tokens(String name, byte[] a, int off, int len, int line, boolean append) {
      int end = off + Math.min(len, 80);
      List<String> texts = new ArrayList<>();
      List<long[]> vals = new ArrayList<>();
      int i = off;
      while (i < end) {
        while (i < end && (a[i] == ' ' || a[i] == '\t')) i++;
        if (i == end) break;
        int s = i;
        while (i < end && a[i] != ' ' && a[i] != '\t') i++;
        texts.add(Values.string(a, s, i));
        double d = FieldValues.real(a, s, i);
        vals.add(Double.isNaN(d) ? new long[] {Values.TEXT, Values.text(a, s, i)} : new long[] {Values.REAL, Values.bits(d)});
      }
      if (append && !out.isEmpty()) {
        Field last = out.remove(out.size() - 1);
        int m = last.tags().length;
        int[] tags = Arrays.copyOf(last.tags(), m + vals.size());
        long[] bits = Arrays.copyOf(last.bits(), m + vals.size());
        for (int k = 0; k < vals.size(); k++) {
          tags[m + k] = (int) vals.get(k)[0];
          bits[m + k] = vals.get(k)[1];
        }
        String text = texts.isEmpty() ? last.text() : last.text().isEmpty() ? String.join(" ", texts) : last.text() + " " + String.join(" ", texts);
        out.add(new Field(last.label(), text, last.line(), tags, bits));
        return;
      }
      if (texts.isEmpty() && !name.equals("GES")) return; // a blank line
      int[] tags = new int[vals.size()];
      long[] bits = new long[vals.size()];
      for (int k = 0; k < vals.size(); k++) {
        tags[k] = (int) vals.get(k)[0];
        bits[k] = vals.get(k)[1];
      }
      add(name, String.join(" ", texts), line, tags, bits);
    }
  }

  /** The card's keyword, and its id or title as reports name it: {@code NODE 12}, {@code GROUP 'doors'}. */
  String describe(int c) {
    if (entry[c] == PREAMBLE) return "control section";
    LineSource s = tree.files().get(file[c]).lines();
    int i = line[c];
    String word = LineBytes.wordOf(LineBytes.headerWord(s.bytes(i), s.start(i), s.contentLength(i)));
    if (entry[c] < 0) return word;
    String id = id(c);
    if (id != null) return word + " " + (named(c) ? "'" + id + "'" : id);
    for (Field f : fields(c)) {
      if (f.label().equals("TITLE") && !f.text().isEmpty()) return word + " '" + f.text() + "'";
    }
    return word;
  }

  /** Whether card {@code c}'s id is a name (a group's title). */
  private boolean named(int c) {
    return IdKinds.named(IdKinds.code(kind(c)));
  }

  private final Map<Integer, String> kinds = new HashMap<>(); // by entry: the kind its def= field defines

  /** The kind of the id card {@code c} ("node", "material"), or null. */
  String kind(int c) {
    if (!byId[c]) return null;
    return kinds.computeIfAbsent(entry[c], en -> {
      for (RowLayout r : table.entry(en).rows()) {
        for (FieldLayout fl : r.fields()) {
          if (fl.defines() != null) return fl.defines();
        }
      }
      return null;
    });
  }

  /** The id of the id card {@code c}: its number, or a group's title; null for another card. */
  String id(int c) {
    if (!byId[c]) return null;
    if (!named(c)) return Integer.toString(IdKinds.idOf(key[c]));
    for (Field f : fields(c)) {
      if (isId(entry[c], f)) return f.text();
    }
    return null;
  }

  private boolean isId(int en, Field f) {
    for (RowLayout r : table.entry(en).rows()) {
      for (FieldLayout fl : r.fields()) {
        if (fl.defines() != null && fl.name().equals(f.label())) return true;
      }
    }
    return false;
  }

  /**
   * The table's rows as arrays, per entry and row: {@link #STRIDE} ints per compared field (its
   * byte columns, value type, the kind it defines, whether it is a NAME row's title, its index in
   * the row), and per field its blank value's tag and bits.
   */
  static final class Compiled {
    static final int STRIDE = 6;
    static final int INT = 1;
    static final int REAL = 2;
    static final int OTHER = 3;
    private static final Map<CardLayouts, Compiled> CACHE = new java.util.WeakHashMap<>();

    final int[][][] rows;
    final long[][][] defaults;

    private Compiled(CardLayouts table) {
      int n = table.entries().size();
      rows = new int[n][][];
      defaults = new long[n][][];
      for (int en = 0; en < n; en++) {
        List<RowLayout> rs = table.entry(en).rows();
        rows[en] = new int[rs.size()][];
        defaults[en] = new long[rs.size()][];
        for (int r = 0; r < rs.size(); r++) {
          RowLayout row = rs.get(r);
          List<int[]> fs = new ArrayList<>();
          List<long[]> ds = new ArrayList<>();
          for (int fi = 0; fi < row.fields().size(); fi++) {
            FieldLayout f = row.fields().get(fi);
            if (f.type() == FieldType.BLANK || f.type() == FieldType.CONT || f.from() > 80) continue;
            int type = f.type() == FieldType.INT || f.type() == FieldType.INT_OR_BLANK ? INT : f.type() == FieldType.FLOAT ? REAL : OTHER;
            int kind = f.defines() == null ? 0 : IdKinds.code(f.defines());
            boolean title = row.kind() == RowLayout.Kind.NAME && f.type() == FieldType.STR;
            fs.add(new int[] {f.from() - 1, Math.min(f.to(), 80), type, kind, title ? 1 : 0, fi});
            ds.add(blank(f, type));
          }
          int[] flat = new int[STRIDE * fs.size()];
          long[] d = new long[2 * fs.size()];
          for (int k = 0; k < fs.size(); k++) {
            System.arraycopy(fs.get(k), 0, flat, STRIDE * k, STRIDE);
            d[2 * k] = ds.get(k)[0];
            d[2 * k + 1] = ds.get(k)[1];
          }
          rows[en][r] = flat;
          defaults[en][r] = d;
        }
      }
    }

    static synchronized Compiled of(CardLayouts table) {
      return CACHE.computeIfAbsent(table, Compiled::new);
    }

    /** What the solver reads for a blank field: its default, else 0 for numbers (blank for int_or_blank), else empty text. */
    private static long[] blank(FieldLayout f, int type) {
      String d = f.defaultValue();
      if (d != null) {
        byte[] b = d.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (type == INT && Values.integer(b, 0, b.length) != Long.MIN_VALUE) return new long[] {Values.INT, Values.integer(b, 0, b.length)};
        if (type == REAL && !Double.isNaN(FieldValues.real(b, 0, b.length))) return new long[] {Values.REAL, Values.bits(FieldValues.real(b, 0, b.length))};
        return new long[] {Values.TEXT, Values.text(b, 0, b.length)};
      }
      if (f.type() == FieldType.INT_OR_BLANK) return new long[] {Values.BLANK, 0};
      if (type == INT) return new long[] {Values.INT, 0};
      if (type == REAL) return new long[] {Values.REAL, Values.bits(0.0)};
      return new long[] {Values.TEXT, Values.text(new byte[0], 0, 0)};
    }
  }
}
