package org.nvimpam.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.RowLayout;
import org.nvimpam.ids.GesLine;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdScanner;
import org.nvimpam.ids.IntList;
import org.nvimpam.ids.RenamePlan;
import org.nvimpam.lines.LineRefs;
import org.nvimpam.lines.LineSource;
import org.nvimpam.model.Renumber.Change;
import org.nvimpam.model.Renumber.Hunk;
import org.nvimpam.model.Renumber.Refusal;

/**
 * Lines {@code [from, to)} of {@code src}, which are lines {@code base + from ...} of a file: its
 * definitions, then its new bytes, each line with its new ids (a GES line's items and ranges,
 * continued on new lines where they pass column 80), every other byte as it was.
 */
final class RenumberPiece implements IdScanner.Sink, IdScanner.Undescribed {
  private final RenumberPlanner ids;
  final RenumberFile f;
  LineSource src; // null once dropped
  final int base;
  final int from;
  final int to;
  final boolean last; // holds the file's last line
  final IntList[] defs;
  final IntList[] defLines; // the line of each of defs
  final IntList changedLines = new IntList(); // a plan's: [line, from, to) of out each
  final List<RenumberPlanner.Unread> unread = new ArrayList<>();
  final IntList uncertainFields = new IntList(); // [line, from, to, kind, value, entry] each
  final List<Refusal> refusals = new ArrayList<>();
  final long[] changed;
  RenumberPlanner.Maps maps;
  boolean gather;
  Bytes out;
  IdScanner sc;
  // pass 2: the line being rewritten and its hits, [from, to, kind, lo, hi, fieldFrom, fieldTo, entry, row, field] each (fieldFrom -1: a GES item)
  int next;
  int cur = -1;
  int[] hits = new int[H * 8];
  int nh;
  GesLine ges = new GesLine(); // holds the array of the last GES line it read: dropped with the lines
  byte[][] neu = new byte[16][];

  RenumberPiece(RenumberPlanner ids, RenumberFile f, int from, int to, boolean last) {
    this(ids, f, f.deck, 0, from, to, last);
  }

  Refusal refusal(int line, int col, String message) {
    return f.refusal(base + line, col, message);
  }

  /** Lets go of the lines and the new bytes (kept for the next piece), once written. */
  void drop() {
    src = null;
    if (!f.plan && ids.spares.size() < 2 * ids.options.threads() + 4) ids.spares.add(out.a); // a plan's hunks hold slices of it
    out = null;
    hits = null;
    neu = null;
    ges = null;
    sc = null;
  }

  RenumberPiece(RenumberPlanner ids, RenumberFile f, LineSource src, int base, int from, int to, boolean last) {
    this.ids = ids;
    int n = ids.options.changes().size();
    defs = new IntList[n];
    defLines = new IntList[n];
    changed = new long[n];
    this.f = f;
    this.src = src;
    this.base = base;
    this.from = from;
    this.to = to;
    this.last = last;
    for (int i = 0; i < defs.length; i++) {
      defs[i] = new IntList();
      defLines[i] = new IntList();
    }
  }

  void pass1() {
    IdScanner s = ids.scanners.get();
    s.undescribed(this);
    try {
      s.scan(src, from, to, f.version, false, ids.mask, (line, a, b, kind, lo, hi, def) -> {
        int c = ids.changeOf[kind];
        if (def && c >= 0) {
          defs[c].add(lo);
          defLines[c].add(base + line);
        }
      });
    } finally {
      s.undescribed(null);
    }
  }

  @Override
  public void line(int line, int entry) {
    if (entry >= 0 && "Control".equals(ids.table.entry(entry).category())) return; // solver controls: keywords and values, no ids
    unread.add(RenumberPlanner.unread(src, line, base, entry));
  }

  @Override
  public void field(int line, int a, int b, int kind, int value) {
    if (ids.changeOf[kind] < 0) return;
    uncertainFields.add(base + line);
    uncertainFields.add(a);
    uncertainFields.add(b);
    uncertainFields.add(kind);
    uncertainFields.add(value);
    uncertainFields.add(ids.scanners.get().entry());
  }

  /** The new bytes; with {@code gather}, also what {@link #pass1} finds. */
  void pass2(boolean gather) {
    sc = ids.scanners.get();
    this.gather = gather;
    LineSource d = src;
    long bytes = 0;
    if (!f.plan) {
      for (int i = from; i < to; i++) bytes += d.length(i) + 1;
    }
    long want = bytes + bytes / 64 + 64;
    if (want > 1 << 20) want = (want + (1 << 20) - 1) & -(1 << 20); // whole MiB: a spare of the pieces before fits
    int cap = (int) Math.min(Integer.MAX_VALUE - 16, want);
    byte[] spare = f.plan ? null : ids.spares.poll();
    out = spare != null && spare.length >= cap ? new Bytes(spare) : new Bytes(cap);
    next = from;
    if (gather) sc.undescribed(this);
    try {
      sc.scan(d, from, to, f.version, true, ids.mask, this);
    } finally {
      sc.undescribed(null);
    }
    flush();
    copy(to);
    if (f.plan && out.a.length - out.size > out.size >> 3) out.a = Arrays.copyOf(out.a, out.size); // kept by the plan's hunks
  }

  @Override
  public void id(int line, int a, int b, int kind, int lo, int hi, boolean def) {
    if (ids.changeOf[kind] < 0) return;
    if (def && gather) {
      defs[ids.changeOf[kind]].add(lo);
      defLines[ids.changeOf[kind]].add(base + line);
    }
    if (line != cur) {
      flush();
      copy(line);
      cur = line;
    }
    if (H * nh + H > hits.length) hits = Arrays.copyOf(hits, hits.length * 2);
    int k = H * nh++;
    hits[k] = a;
    hits[k + 1] = b;
    hits[k + 2] = kind;
    hits[k + 3] = lo;
    hits[k + 4] = hi;
    if (sc.field() >= 0) {
      int[] fl = ids.columns[sc.entry()][sc.row()];
      hits[k + 5] = fl[2 * sc.field()];
      hits[k + 6] = fl[2 * sc.field() + 1];
      hits[k + 7] = sc.entry();
      hits[k + 8] = sc.row();
      hits[k + 9] = sc.field();
    } else {
      hits[k + 5] = -1;
    }
  }

  /** Lines {@code [next, upTo)} as they are (a plan keeps none of them). */
  private void copy(int upTo) {
    LineSource d = src;
    for (int i = f.plan ? upTo : next; i < upTo; i++) {
      out.put(d.bytes(i), d.start(i), d.length(i));
      terminate(i);
    }
    next = Math.max(next, upTo);
  }

  private void terminate(int line) {
    if (f.plan || !(last && line == src.lineCount() - 1 && !f.lastTerminated)) out.put((byte) '\n');
  }

  /** The line with hits, written with its new values; a plan keeps it only where it changed. */
  private void flush() {
    if (cur < 0) return;
    int line = cur;
    int s = out.size;
    rewrite();
    if (!f.plan) return;
    LineSource d = src;
    int len = d.length(line);
    if (out.size - s == len + 1 && Arrays.equals(out.a, s, s + len, d.bytes(line), d.start(line), d.start(line) + len)) {
      out.size = s;
      return;
    }
    changedLines.add(line);
    changedLines.add(s);
    changedLines.add(out.size);
  }

  private void rewrite() {
    int line = cur;
    cur = -1;
    int n = nh;
    nh = 0;
    next = line + 1;
    LineSource d = src;
    byte[] a = d.bytes(line);
    int off = d.start(line);
    int raw = d.length(line);
    int len = d.contentLength(line);
    if (hits[5] < 0) {
      gesLine(line, a, off, raw, len, n);
      return;
    }
    int pos = 0;
    for (int h = 0; h < n; h++) {
      int k = H * h;
      int kind = hits[k + 2];
      int old = hits[k + 3];
      long v = maps.map(kind, old);
      if (v <= 0) {
        refuseId(line, hits[k], kind, old, v);
        continue;
      }
      if (v == old) continue;
      int fs = hits[k + 5];
      int fe = hits[k + 6];
      int digits = digits(v);
      if (digits > fe - fs) {
        refusals.add(refusal(line, fs, IdKinds.name(kind) + " " + old + " would become " + v + ", which does not fit the "
            + (fe - fs) + " columns of " + fieldName(hits[k + 7], hits[k + 8], hits[k + 9])));
        continue;
      }
      int w = RenamePlan.numberWidth(fs, fe, hits[k], hits[k + 1], len, digits);
      out.put(a, off + pos, fs - pos);
      if (w < 0) {
        out.number(v, digits);
        out.blanks(-w - digits);
      } else {
        out.blanks(w - digits);
        out.number(v, digits);
      }
      pos = Math.min(fe, len);
      changed[ids.changeOf[kind]]++;
    }
    out.put(a, off + pos, raw - pos);
    terminate(line);
  }

  private String fieldName(int entry, int row, int field) {
    CardLayout c = ids.table.entry(entry);
    return c.key() + " / " + c.rows().get(row).fields().get(field).name();
  }

  private void refuseId(int line, int col, int kind, int old, long v) {
    refusals.add(refusal(line, col, v < 0
        ? IdKinds.name(kind) + " " + old + " would become " + (old + ids.options.changes().get(ids.changeOf[kind]).amount()) + ", which is no id (1 to " + Integer.MAX_VALUE + ")"
        : IdKinds.name(kind) + " " + old + " is referenced but defined nowhere in the tree: its new id cannot be told"));
  }

  private void gesLine(int line, byte[] a, int off, int raw, int len, int n) {
    GesLine g = ges.read(a, off, len);
    int nt = g.count();
    if (neu.length < nt) neu = new byte[nt][];
    Arrays.fill(neu, 0, nt, null);
    boolean refused = false;
    int count = 0;
    for (int h = 0; h < n; h++) {
      int k = H * h;
      int t = g.tokenAt(hits[k]);
      if (t < 0) continue;
      byte[] text = items(line, hits[k], hits[k + 2], hits[k + 3], hits[k + 4]);
      if (text == null) {
        refused = true;
        continue;
      }
      if (text == UNCHANGED) continue;
      if (Arrays.equals(a, off + g.start(t), off + g.end(t), text, 0, text.length)) continue;
      neu[t] = text;
      count++;
      changed[ids.changeOf[hits[k + 2]]]++;
    }
    if (refused || count == 0) {
      out.put(a, off, raw);
      terminate(line);
      return;
    }
    byte[][] texts = Arrays.copyOf(neu, nt);
    switch (g.place(texts)) {
      case IN_PLACE -> {
        int pos = 0;
        for (int t = 0; t < nt; t++) {
          if (texts[t] == null) continue;
          out.put(a, off + pos, g.start(t) - pos);
          out.put(texts[t], 0, texts[t].length);
          pos = g.end(t);
        }
        out.put(a, off + pos, raw - pos);
        terminate(line);
      }
      case TEXT_PAST_END -> refusals.add(refusal(line, GesLine.END,
          "the GES line holds text past column 80, which its new ids would move"));
      case WRAP -> {
        List<byte[]> lines = g.wrap(texts);
        if (lines == null) {
          refusals.add(refusal(line, 0, "the GES line's new ids pass column 80"
              + (g.wrapFailure == GesLine.WrapFailure.TOO_LONG ? ", even continued on a new line" : ", and cannot continue on a new selection line")));
          return;
        }
        for (int k = 0; k < lines.size(); k++) {
          byte[] l = lines.get(k);
          out.put(l, 0, l.length);
          out.put(a, off + len, raw - len); // its CR, where it has one
          if (k + 1 < lines.size()) out.put((byte) '\n');
        }
        terminate(line);
      }
    }
  }

  /** The new text of GES item {@code lo:hi} (an id when equal), {@link #UNCHANGED}, or null when refused. */
  private byte[] items(int line, int col, int kind, int lo, int hi) {
    Change c = ids.options.changes().get(ids.changeOf[kind]);
    boolean all = maps.subset[kind] == null;
    if (!c.dense() && all) {
      long a = maps.map(kind, lo);
      long b = maps.map(kind, hi);
      if (a < 0 || b < 0) {
        refuseId(line, col, kind, a < 0 ? lo : hi, -1);
        return null;
      }
      return ascii(lo == hi ? Long.toString(a) : a + ":" + b);
    }
    if (lo == hi) {
      long v = maps.map(kind, lo);
      if (v <= 0) {
        refuseId(line, col, kind, lo, v);
        return null;
      }
      return v == lo ? UNCHANGED : ascii(Long.toString(v));
    }
    if (!all) return scopedRange(maps, this, line, col, kind, lo, hi);
    int[] s = maps.sorted[kind];
    int i = Arrays.binarySearch(s, lo);
    if (i < 0) i = -i - 1;
    IntList news = new IntList();
    for (; i < s.length && s[i] <= hi; i++) news.add((int) maps.map(kind, s[i]));
    if (news.size == 0) {
      refusals.add(refusal(line, col, "GES range " + lo + ":" + hi + " selects no " + IdKinds.name(kind)
          + " of the tree: its new ids cannot be told"));
      return null;
    }
    int[] v = Arrays.copyOf(news.a, news.size);
    Arrays.sort(v);
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < v.length;) {
      int e = k;
      while (e + 1 < v.length && v[e + 1] == v[e] + 1) e++;
      if (sb.length() > 0) sb.append(' ');
      sb.append(v[k]);
      if (e > k) sb.append(':').append(v[e]);
      k = e + 1;
    }
    return ascii(sb.toString());
  }

  /**
   * The changed lines of a plan's file, merged into hunks of consecutive lines that stay one line
   * each (with the unchanged lines of a gap of at most {@link Hunks#GAP} between them, as they
   * are); a GES line continued on new lines is a hunk of its own (so that a hunk of as many lines
   * as it replaces can be applied a part at a time).
   */
  static List<Hunk> hunks(RenumberFile f) {
    List<Hunk> out = new ArrayList<>();
    int first = -1;
    int last = -1;
    int same = 0; // the unchanged lines taken along in the open hunk
    LineRefs.Builder lines = new LineRefs.Builder(1024); // slices of the pieces' output, not copies
    int[] one = new int[8]; // the open changed line's lines: start, end pairs in its piece's output
    for (RenumberPiece p : f.pieces) {
      IntList c = p.changedLines;
      byte[] o = p.out.a;
      for (int i = 0; i < c.size; i += 3) {
        int line = c.a[i];
        int n = 0;
        for (int k = c.a[i + 1], s = k; k < c.a[i + 2]; k++) {
          if (o[k] != '\n') continue;
          if (2 * n + 2 > one.length) one = Arrays.copyOf(one, 2 * one.length);
          one[2 * n] = s;
          one[2 * n++ + 1] = k;
          s = k + 1;
        }
        if (first >= 0 && n == 1 && line > last && line - last <= Hunks.GAP && f.deck != null) {
          for (int g = last; g < line; g++) { // a few lines as they are (copies: few): fewer hunks
            byte[] raw = f.deck.line(g);
            lines.add(raw, 0, raw.length);
          }
          same += line - last;
          last = line;
        }
        if (line != last || n != 1) {
          if (first >= 0) out.add(new Hunk(first, last, lines.build(), last - first - same));
          first = -1;
          same = 0;
        }
        if (n != 1) {
          LineRefs.Builder b = new LineRefs.Builder(n);
          for (int j = 0; j < n; j++) b.add(o, one[2 * j], one[2 * j + 1] - one[2 * j]);
          out.add(new Hunk(line, line + 1, b.build(), 1));
          continue;
        }
        if (first < 0) first = line;
        last = line + 1;
        lines.add(o, one[0], one[1] - one[0]);
      }
    }
    if (first >= 0) out.add(new Hunk(first, last, lines.build(), last - first - same));
    return out;
  }

  /**
   * The new text of GES range {@code lo:hi} where a scope takes some ids of its kind: those ids
   * mapped, the rest of the range kept as it is (ids defined nowhere too); {@link #UNCHANGED}
   * when it holds none of the scope's ids; null when refused.
   */
  private static byte[] scopedRange(RenumberPlanner.Maps maps, RenumberPiece p, int line, int col, int kind, int lo, int hi) {
    int[] sub = maps.subset[kind];
    int i = Arrays.binarySearch(sub, lo);
    if (i < 0) i = -i - 1;
    List<long[]> runs = new ArrayList<>();
    long keep = lo; // the first id of the kept run
    for (; i < sub.length && sub[i] <= hi; i++) {
      int id = sub[i];
      long v = maps.map(kind, id);
      if (v <= 0) {
        p.refuseId(line, col, kind, id, v);
        return null;
      }
      if (v == id) continue;
      if (keep < id) runs.add(new long[] {keep, id - 1});
      runs.add(new long[] {v, v});
      keep = id + 1L;
    }
    if (runs.isEmpty()) return UNCHANGED;
    if (keep <= hi) runs.add(new long[] {keep, hi});
    runs.sort((x, y) -> Long.compare(x[0], y[0]));
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < runs.size();) {
      long a = runs.get(k)[0];
      long b = runs.get(k)[1];
      int e = k + 1;
      while (e < runs.size() && runs.get(e)[0] <= b + 1) b = Math.max(b, runs.get(e++)[1]);
      if (sb.length() > 0) sb.append(' ');
      sb.append(a);
      if (b > a) sb.append(':').append(b);
      k = e;
    }
    return ascii(sb.toString());
  }

  private static final int H = 10; // ints per hit
  private static final byte[] UNCHANGED = new byte[0]; // a GES item that keeps its text

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Per entry and row of {@code table}: the columns {@code [from, to)} of each field, 0-based: read for every id. */
  static int[][][] columns(CardLayouts table) {
    int[][][] c = new int[table.entries().size()][][];
    for (int e = 0; e < c.length; e++) {
      List<RowLayout> rows = table.entry(e).rows();
      c[e] = new int[rows.size()][];
      for (int r = 0; r < rows.size(); r++) {
        List<FieldLayout> fs = rows.get(r).fields();
        int[] a = c[e][r] = new int[2 * fs.size()];
        for (int f = 0; f < fs.size(); f++) {
          a[2 * f] = fs.get(f).from() - 1;
          a[2 * f + 1] = fs.get(f).to();
        }
      }
    }
    return c;
  }

  private static final long[] TENS = new long[19]; // 10^i

  static {
    TENS[0] = 1;
    for (int i = 1; i < TENS.length; i++) TENS[i] = TENS[i - 1] * 10;
  }

  /** The decimal digits of {@code v >= 0}: from its bit length, no division (this runs for every value). */
  static int digits(long v) {
    if (v < 10) return 1;
    int n = ((64 - Long.numberOfLeadingZeros(v)) * 1233) >>> 12; // the digits of 2^bits, less one
    return n + (n < TENS.length && v >= TENS[n] ? 1 : 0);
  }

  private static final byte[] PAIRS = new byte[200]; // "00" to "99"

  static {
    for (int i = 0; i < 100; i++) {
      PAIRS[2 * i] = (byte) ('0' + i / 10);
      PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
    }
  }

  /** A growable byte array. */
  static final class Bytes {
    byte[] a;
    int size;

    Bytes(int cap) {
      a = new byte[Math.max(16, cap)];
    }

    Bytes(byte[] reuse) {
      a = reuse;
    }

    private void room(int n) {
      if (size + n > a.length) a = Arrays.copyOf(a, Math.max(size + n, a.length + (a.length >> 1)));
    }

    void put(byte b) {
      room(1);
      a[size++] = b;
    }

    void put(byte[] b, int off, int n) {
      if (n <= 0) return;
      room(n);
      System.arraycopy(b, off, a, size, n);
      size += n;
    }

    void blanks(int n) {
      if (n <= 0) return;
      room(n);
      Arrays.fill(a, size, size + n, (byte) ' ');
      size += n;
    }

    void number(long v, int digits) {
      room(digits);
      int x = (int) v; // an id: an int
      int i = size + digits;
      while (x >= 100) { // two digits a step
        int q = x / 100;
        int r = 2 * (x - 100 * q);
        a[--i] = PAIRS[r + 1];
        a[--i] = PAIRS[r];
        x = q;
      }
      if (x >= 10) {
        a[--i] = PAIRS[2 * x + 1];
        a[--i] = PAIRS[2 * x];
      } else {
        a[--i] = (byte) ('0' + x);
      }
      size += digits;
    }
  }
}
