package org.nvimpam.ids;

import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.DeckProblems;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.FieldType;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.deck.RowLayout;
import org.nvimpam.deck.RowWalker;
import org.nvimpam.lines.LineSource;

/**
 * Finds the ids a deck's lines define and reference: the fields of the card-layout table with
 * {@code def=KIND} or {@code ref=KIND}, and the items of GES selection lines ({@code PART 1 2},
 * {@code NOD 5:9}, {@code GRP 'doors'}). A named id (a group's title) is reported as its number in
 * {@link IdNames}. Walks cards as {@link RowWalker} does; reads the bytes in place and allocates
 * nothing per line. Not thread-safe.
 */
public final class IdScanner {
  /** Told every id found, in line order. */
  public interface Sink {
    /**
     * An id on {@code line} in bytes {@code [from, to)}: a single id ({@code lo == hi}) or a GES
     * range {@code lo:hi}; {@code def} when the field defines it. A name's bytes are its title,
     * blanks around it left out (inside the quotes of a GES item).
     */
    void id(int line, int from, int to, int kind, int lo, int hi, boolean def);
  }

  /**
   * Told what the table does not describe, where an id could hide: the lines of a card with no
   * entry, a card's extra lines (after its rows: an opaque body, the rows of a type the table
   * lists no rows for), the lines of its {@code block} rows; and the integer fields that name no
   * kind where another layout of the card's word names one for the same field, or whose name is
   * {@code ID} and a kind's name (PART COS2D's IDMAT: an MMAT or a MATER, as MKEY says).
   */
  public interface Undescribed {
    /** Line {@code line} of entry {@code entry}'s card (-1: a card with no entry). */
    void line(int line, int entry);

    /** Field {@code [from, to)} of {@code line} may name an id of {@code kind}; its text is {@code value} (0: no number). */
    void field(int line, int from, int to, int kind, int value);
  }

  private static final int[] NONE = new int[0];

  private final CardLayouts table;
  private final RowWalker walker;
  private final int[][][] compiled; // by entry, then row: [from, to, kind, def, field] per id field
  private final int[] kindsOf; // by entry: bit k set when a field (or a GES row) may name kind k; -1 unknown
  private final RowWalker.Visitor visitor = this::line;
  private int mask = -1; // the kinds the current scan reports
  private LineSource src;
  private Sink sink;
  private boolean refs;
  private int entry = -1;
  private int row = -1;
  private int field = -1;
  private Undescribed undescribed;
  private int[][][] uncertain; // by entry, then row: [from, to, kind] per field of no kind that may name one

  public IdScanner(CardLayouts table) {
    this.table = table;
    this.walker = new RowWalker(table);
    this.compiled = new int[table.entries().size()][][];
    this.kindsOf = new int[table.entries().size()];
    java.util.Arrays.fill(kindsOf, -1);
  }

  /** The entry of group {@code g} for the version (an older deck: the oldest). */
  private int entryOf(int[] picked, int g) {
    int e = picked[g];
    return e >= 0 ? e : table.group(g)[0]; // older than every layout: its oldest
  }

  /** The kinds entry {@code e}'s cards may define or reference, as a bit set. */
  private int kindsOf(int e) {
    int k = kindsOf[e];
    if (k != -1) return k;
    k = 0;
    for (RowLayout r : table.entry(e).rows()) {
      if (r.kind() == RowLayout.Kind.GES) {
        k |= IdKinds.bit(IdKinds.NODE) | IdKinds.bit(IdKinds.ELEMENT) | IdKinds.bit(IdKinds.PART) | IdKinds.bit(IdKinds.GROUP);
      }
      for (FieldLayout f : r.fields()) {
        int c = idKind(f);
        if (c != 0) k |= IdKinds.bit(c);
      }
    }
    return kindsOf[e] = k;
  }

  public CardLayouts table() {
    return table;
  }

  /**
   * Where the next scans report what the table does not describe (null: nowhere). With one, every
   * card is walked, whatever kinds it may name.
   */
  public void undescribed(Undescribed u) {
    this.undescribed = u;
  }

  /** The entry, row and field of the id last reported; field -1 on a GES line. */
  public int entry() {
    return entry;
  }

  public int row() {
    return row;
  }

  public int field() {
    return field;
  }

  /**
   * Reports the ids of lines {@code [from, to)}, where {@code from} is 0 or a card header line and
   * {@code to} a card header line or the line count. With {@code refs} false only definitions.
   */
  public void scan(LineSource deck, int from, int to, int version, boolean refs, Sink sink) {
    scan(deck, from, to, version, refs, -1, sink);
  }

  /**
   * As {@link #scan(LineSource, int, int, int, boolean, Sink)}, reporting only ids of the kinds in
   * {@code kinds} ({@link IdKinds#bit} of each): cards that can hold none are skipped unread.
   */
  public void scan(LineSource deck, int from, int to, int version, boolean refs, int kinds, Sink sink) {
    this.mask = kinds;
    this.src = deck;
    this.sink = sink;
    this.refs = refs;
    int[] picked = table.picks(version);
    int i = from;
    try {
      int g = i < to ? walker.groupAt(deck, i) : -1;
      while (i < to) {
        if (g < 0) {
          if (undescribed != null && LineBytes.headerWord(deck.bytes(i), deck.start(i), deck.contentLength(i)) != 0) {
            int h = i;
            i = walker.skipCard(deck, i);
            for (int k = h; k < i; k++) {
              if (!LineBytes.isComment(deck.bytes(k), deck.start(k), deck.contentLength(k))) undescribed.line(k, -1);
            }
            g = i < to ? walker.groupAtStop(deck, i) : -1;
            continue;
          }
          i++;
          g = i < to ? walker.groupAt(deck, i) : -1;
          continue;
        }
        int e = entryOf(picked, g);
        if ((kindsOf(e) & mask) == 0 && undescribed == null) {
          i = walker.skipCard(deck, i);
        } else if (table.rowCount(e) == 1) { // a one-line card (NODE, SHELL: most of a deck): its header row, no walk
          entry = e;
          if ((kindsOf(e) & mask) != 0 || undescribed != null) line(i, 0);
          int h = i;
          i = walker.skipCard(deck, i);
          if (undescribed != null) {
            for (int k = h + 1; k < i; k++) { // its extra lines
              if (!LineBytes.isComment(deck.bytes(k), deck.start(k), deck.contentLength(k))) undescribed.line(k, e);
            }
          }
        } else {
          entry = e;
          i = walker.walkCard(deck, i, e, visitor);
        }
        g = i < to ? walker.groupAtStop(deck, i) : -1;
      }
    } finally {
      this.src = null;
      this.sink = null;
    }
  }

  /** The card header line at or before {@code line} (0 when none). */
  public static int cardStart(LineSource deck, int line) {
    int n = deck.lineCount();
    int s = Math.min(line, n);
    while (s > 0 && (s == n || LineBytes.headerWord(deck.bytes(s), deck.start(s), deck.contentLength(s)) == 0)) s--;
    return s;
  }

  /** The first card header line after {@code line}, or the line count. */
  public static int cardEnd(LineSource deck, int line) {
    int n = deck.lineCount();
    int e = Math.max(0, Math.min(line, n));
    while (e < n && LineBytes.headerWord(deck.bytes(e), deck.start(e), deck.contentLength(e)) == 0) e++;
    return e;
  }

  private int[] fields(int e, int r) {
    int[][] c = compiled[e];
    if (c == null) {
      CardLayout card = table.entry(e);
      c = new int[card.rows().size()][];
      for (int k = 0; k < c.length; k++) {
        RowLayout rl = card.rows().get(k);
        int n = 0;
        for (FieldLayout f : rl.fields()) {
          if (idKind(f) != 0) n++;
        }
        int[] a = n == 0 ? NONE : new int[5 * n];
        int j = 0;
        for (int fi = 0; fi < rl.fields().size(); fi++) {
          FieldLayout f = rl.fields().get(fi);
          int kind = idKind(f);
          if (kind == 0) continue;
          a[j++] = f.from() - 1;
          a[j++] = f.to();
          a[j++] = kind;
          a[j++] = f.defines() != null ? 1 : 0;
          a[j++] = fi;
        }
        c[k] = a;
      }
      compiled[e] = c;
    }
    return c[r];
  }

  /** The kind of an id field: an integer field of a numbered kind, a text field of a named one; else 0. */
  private static int idKind(FieldLayout f) {
    int kind = IdKinds.code(f.defines() != null ? f.defines() : f.references());
    boolean number = f.type() == FieldType.INT || f.type() == FieldType.INT_OR_BLANK;
    boolean text = f.type() == FieldType.STR;
    return (IdKinds.named(kind) ? text : number) ? kind : 0;
  }

  private void line(int line, int code) {
    byte[] a = src.bytes(line);
    int off = src.start(line);
    int len = LineSource.contentLength(a, off, src.length(line));
    if (undescribed != null) {
      if (code == RowWalker.EXTRA || code >= 0 && table.entry(entry).rows().get(code).kind() == RowLayout.Kind.BLOCK) {
        undescribed.line(line, entry);
        return;
      }
      if (code >= 0) uncertainFields(a, off, len, line, code);
    }
    row(line, code, a, off, len);
  }

  /**
   * The ids of the row lines another walk reads ({@link DeckProblems#checkAll(LineSource, int,
   * DeckProblems.Rows)}: the field check and the id scan in one pass), every kind, definitions and
   * references, told to {@code sink}. Not to be used while a {@link #scan} runs.
   */
  public DeckProblems.Rows rows(Sink sink) {
    return new DeckProblems.Rows() {
      @Override
      public void row(int e, int line, int code, byte[] a, int off, int len) {
        mask = -1;
        refs = true;
        IdScanner.this.sink = sink;
        entry = e;
        IdScanner.this.row(line, code, a, off, len);
      }

      // The numbered id fields are read in the field check's loop; a row with a named one whole.
      @Override
      public int[] fields(int e, int code) {
        int[] f = IdScanner.this.fields(e, code);
        if (f.length == 0) return NONE;
        int[] tags = new int[table.entry(e).rows().get(code).fields().size()];
        for (int k = 0; k < f.length; k += 5) {
          if (IdKinds.named(f[k + 2])) return null;
          tags[f[k + 4]] = f[k + 2] << 1 | f[k + 3];
        }
        return tags;
      }

      @Override
      public void field(int e, int line, int code, int fi, int tag, byte[] a, int off, int from, int to) {
        int v = positive(a, off + from, off + to);
        if (v > 0) {
          entry = e;
          row = code;
          field = fi;
          sink.id(line, from, to, tag >>> 1, v, v, (tag & 1) != 0);
        }
      }
    };
  }

  /** The ids of line {@code line}, row {@code code} of {@link #entry}, its bytes {@code a[off, off+len)}. */
  private void row(int line, int code, byte[] a, int off, int len) {
    if (code >= 0) {
      int[] f = fields(entry, code);
      row = code;
      for (int k = 0; k < f.length; k += 5) {
        boolean def = f[k + 3] == 1;
        if (!def && !refs) continue;
        if ((mask & IdKinds.bit(f[k + 2])) == 0) continue;
        int s = f[k];
        if (s >= len) break;
        int e = Math.min(f[k + 1], len);
        s = LineBytes.skipSpaces(a, off + s, off + e) - off;
        while (e > s && a[off + e - 1] == ' ') e--;
        int v = IdKinds.named(f[k + 2]) ? IdNames.intern(a, off + s, off + e) : positive(a, off + s, off + e);
        if (v > 0) {
          field = f[k + 4];
          sink.id(line, s, e, f[k + 2], v, v, def);
        }
      }
    } else if (code == RowWalker.GES && refs) {
      row = -1;
      field = -1;
      ges(a, off, len, line);
    }
  }

  private void uncertainFields(byte[] a, int off, int len, int line, int code) {
    if (uncertain == null) uncertain = new int[table.entries().size()][][];
    int[][] u = uncertain[entry];
    if (u == null) u = uncertain[entry] = uncertain(entry);
    int[] f = u[code];
    for (int k = 0; k < f.length; k += 3) {
      if ((mask & IdKinds.bit(f[k + 2])) == 0) continue;
      int s = f[k];
      if (s >= len) break;
      int e = Math.min(f[k + 1], len);
      while (s < e && a[off + s] == ' ') s++;
      while (e > s && a[off + e - 1] == ' ') e--;
      if (s < e) undescribed.field(line, s, e, f[k + 2], positive(a, off + s, off + e));
    }
  }

  /** Per row of entry {@code e}: {@code [from, to, kind]} of each integer field of no kind that may name one. */
  private int[][] uncertain(int e) {
    CardLayout card = table.entry(e);
    int[][] out = new int[card.rows().size()][];
    for (int r = 0; r < out.length; r++) {
      int[] a = new int[0];
      for (FieldLayout f : card.rows().get(r).fields()) {
        if (f.type() != FieldType.INT && f.type() != FieldType.INT_OR_BLANK || idKind(f) != 0) continue;
        int kind = kindElsewhere(card.word(), f.name());
        if (kind == 0 && f.name().startsWith("ID")) kind = IdKinds.code(f.name().substring(2).toLowerCase(java.util.Locale.ROOT));
        if (kind == 0 || IdKinds.named(kind)) continue;
        a = java.util.Arrays.copyOf(a, a.length + 3);
        a[a.length - 3] = f.from() - 1;
        a[a.length - 2] = f.to();
        a[a.length - 1] = kind;
      }
      out[r] = a;
    }
    return out;
  }

  /** The kind another entry of {@code word} gives its integer field {@code name}, or 0. */
  private int kindElsewhere(String word, String name) {
    for (CardLayout c : table.entries()) {
      if (!c.word().equals(word)) continue;
      for (RowLayout r : c.rows()) {
        for (FieldLayout f : r.fields()) {
          if (f.name().equals(name) && idKind(f) != 0) return idKind(f);
        }
      }
    }
    return 0;
  }

  /**
   * The items of a GES selection line: 8 blanks, then blank-separated tokens up to column 80. A
   * word (a token that starts with a letter: {@code PART}, {@code GRP}, {@code END}) selects the
   * kind of the items after it, up to the next word; an item is an id, a range {@code lo:hi}, or a
   * quoted name ({@code 'front doors'}, blanks inside), which is a group title after a group word.
   */
  private void ges(byte[] a, int off, int len, int line) {
    int end = Math.min(len, 80);
    int kind = 0;
    int i = 8;
    while (i < end) {
      while (i < end && a[off + i] == ' ') i++;
      if (i == end) break;
      int s = i;
      byte b = a[off + i];
      if (b == '\'') {
        int q = i + 1;
        while (q < end && a[off + q] != '\'') q++;
        if (q == end) return; // no closing quote: no name
        i = q + 1;
        if (IdKinds.named(kind) && (mask & IdKinds.bit(kind)) != 0) name(a, off, s + 1, q, line, kind);
        continue;
      }
      while (i < end && a[off + i] != ' ') i++;
      if ((b | 0x20) >= 'a' && (b | 0x20) <= 'z') {
        kind = IdKinds.gesKind(a, off + s, off + i);
        continue;
      }
      if (kind == 0 || IdKinds.named(kind) || (mask & IdKinds.bit(kind)) == 0) continue;
      int colon = -1;
      for (int k = s; k < i; k++) {
        if (a[off + k] == ':') colon = k;
      }
      if (colon < 0) {
        int v = positive(a, off + s, off + i);
        if (v > 0) sink.id(line, s, i, kind, v, v, false);
      } else {
        int lo = positive(a, off + s, off + colon);
        int hi = positive(a, off + colon + 1, off + i);
        if (lo > 0 && hi >= lo) sink.id(line, s, i, kind, lo, hi, false);
      }
    }
  }

  /** The quoted name in columns {@code [s, e)}, blanks around it left out. */
  private void name(byte[] a, int off, int s, int e, int line, int kind) {
    while (s < e && a[off + s] == ' ') s++;
    while (e > s && a[off + e - 1] == ' ') e--;
    int v = IdNames.intern(a, off + s, off + e);
    if (v > 0) sink.id(line, s, e, kind, v, v, false);
  }

  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final long ZEROS = 0x3030303030303030L;
  private static final long SIXES = 0x0606060606060606L;
  private static final long HIGH_NIBBLES = 0xF0F0F0F0F0F0F0F0L;

  /** The positive integer in bytes {@code [s, e)} (an optional +, then digits), else 0. */
  static int positive(byte[] a, int s, int e) {
    if (s < e && a[s] == '+') s++;
    if (s >= e) return 0;
    if (e - s <= 8 && e >= 8) { // at most 8 digits (most ids): read and converted at once, in the 8 bytes ending at e
      long x = (long) LONGS.get(a, e - 8);
      int keep = 8 * (e - s); // the value's bytes are the high ones (little endian)
      long mask = keep == 64 ? -1L : -1L << (64 - keep);
      x = (x & mask) | (ZEROS & ~mask); // bytes before the value count as leading zeros
      if ((x & HIGH_NIBBLES) != ZEROS || ((x + SIXES) & HIGH_NIBBLES) != ZEROS) return 0; // not all digits
      x -= ZEROS; // each byte its digit, the first digit lowest
      x = (x * 10 + (x >>> 8)) & 0x00FF00FF00FF00FFL; // pairs of digits
      x = (x * 100 + (x >>> 16)) & 0x0000FFFF0000FFFFL; // fours
      return (int) ((x * 10000 + (x >>> 32)) & 0xFFFFFFFFL);
    }
    long v = 0;
    for (int i = s; i < e; i++) {
      byte b = a[i];
      if (b < '0' || b > '9') return 0;
      v = v * 10 + (b - '0');
      if (v > Integer.MAX_VALUE) return 0;
    }
    return (int) v;
  }
}
