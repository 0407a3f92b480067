package org.nvimpam.ids;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.lines.LineSource;

/**
 * The text edits that renumber (or, for a group, retitle) one id in one deck: each field that
 * defines or references it gets the new digits in its own columns (right-aligned, or left where
 * the old value was), a title field the new title where the old one began; each GES item the new
 * text in its place (a title inside its quotes), and each GES range that holds the old id is split
 * so that it selects the same ids with the new one in place of the old ({@code 70:80}, 77 → 9077:
 * {@code 70:76 78:80 9077}). A GES line that would pass column 80 continues on new selection lines
 * after it, each starting with the selection word of its first item. Every edit carries the bytes
 * it replaces, so that whoever applies it can check that the text is still the one planned. Refused,
 * with the reason, when the new text does not fit a field, or a GES item does not fit even a line of
 * its own.
 *
 * <p>{@code at} holds {@code [line, start, end]} per edit (0-based bytes, end exclusive),
 * {@code texts} the new bytes and {@code olds} the replaced ones; {@code addAt} the lines after
 * which {@code adds} (whole new lines) go, ascending.
 */
public record RenamePlan(int[] at, byte[][] texts, byte[][] olds, int count, int[] addAt, byte[][][] adds, int addCount,
    int lines, boolean defines, String refusal) {
  /** GES items are read up to this column. */
  static final int GES_END = GesLine.END;

  /** The plan that gives the id of {@code key} the new {@code text}: its digits, or a group's title. */
  public static RenamePlan make(LineSource deck, int version, IdScanner sc, long key, String text) {
    Builder b = new Builder(deck, sc, key, text);
    sc.scan(deck, 0, deck.lineCount(), version, true, IdKinds.bit(b.kind), b::hit);
    b.flushGes();
    return b.build();
  }

  /**
   * The items that replace range {@code lo:hi} when {@code old} (inside it) becomes {@code neu}:
   * the range's ids below and above {@code old} ({@code a} alone, or {@code a:b}), then {@code neu}
   * unless the range already holds it.
   */
  static String[] split(int lo, int hi, int old, int neu) {
    String[] out = new String[3];
    int n = 0;
    if (lo <= old - 1) out[n++] = piece(lo, old - 1);
    if (old + 1 <= hi) out[n++] = piece(old + 1, hi);
    if (neu < lo || neu > hi) out[n++] = Integer.toString(neu);
    return Arrays.copyOf(out, n);
  }

  /**
   * How a number's new text of {@code n} bytes is written over field {@code [fs, fe)} of a line of
   * {@code len} bytes whose old value is at {@code [from, to)}: it replaces bytes {@code [fs,
   * min(fe, len))} with the returned count of bytes, the text at their start when the count is
   * negative (the old value began at the field's start and ended before its end: left-aligned),
   * else at their end (right-aligned to the field's end).
   */
  public static int numberWidth(int fs, int fe, int from, int to, int len, int n) {
    int e = Math.min(fe, len);
    return from == fs && to < fe ? -Math.max(n, e - fs) : fe - fs;
  }

  private static String piece(int a, int b) {
    return a == b ? Integer.toString(a) : a + ":" + b;
  }

  private static final class Builder {
    final LineSource deck;
    final IdScanner sc;
    final int kind;
    final int id;
    final int neu; // the new id of a numbered kind (0 for a title)
    final boolean named;
    final byte[] d;
    final String shown;
    int[] at = new int[48];
    byte[][] texts = new byte[16][];
    byte[][] olds = new byte[16][];
    int n;
    int[] addAt = new int[4];
    byte[][][] adds = new byte[4][][];
    int addCount;
    int lines;
    int lastLine = -1;
    boolean def;
    String refusal;
    // the hits of the GES line being read: [from, to, lo, hi] each
    int gesLine = -1;
    int[] ges = new int[16];
    int gesHits;
    final GesLine gesWriter = new GesLine();

    Builder(LineSource deck, IdScanner sc, long key, String text) {
      this.deck = deck;
      this.sc = sc;
      this.kind = IdKinds.kindOf(key);
      this.id = IdKinds.idOf(key);
      this.named = IdKinds.named(kind);
      this.neu = named ? 0 : Integer.parseInt(text);
      this.d = text.getBytes(StandardCharsets.UTF_8);
      this.shown = named ? "'" + text + "'" : text;
    }

    void hit(int line, int from, int to, int k, int lo, int hi, boolean isDef) {
      if (refusal != null || k != kind || id < lo || id > hi) return;
      if (isDef) def = true;
      if (line != lastLine) {
        lastLine = line;
        lines++;
      }
      if (line != gesLine) flushGes(); // the edits in line order
      if (sc.field() < 0) {
        gesLine = line;
        if (4 * gesHits + 4 > ges.length) ges = Arrays.copyOf(ges, ges.length * 2);
        ges[4 * gesHits] = from;
        ges[4 * gesHits + 1] = to;
        ges[4 * gesHits + 2] = lo;
        ges[4 * gesHits + 3] = hi;
        gesHits++;
        return;
      }
      field(line, from, to);
    }

    /** A field: the new text in the field's own columns. */
    private void field(int line, int from, int to) {
      int len = deck.contentLength(line);
      FieldLayout f = sc.table().entry(sc.entry()).rows().get(sc.row()).fields().get(sc.field());
      int fs = f.from() - 1;
      int fe = f.to();
      int width = fe - fs;
      if (d.length > width) {
        refusal = shown + " does not fit the " + width + " columns of " + sc.table().entry(sc.entry()).word()
            + " / " + f.name() + " (line " + (line + 1) + ")";
        return;
      }
      int e = Math.min(fe, len);
      int s;
      int w;
      boolean left;
      if (named) { // where the old title began, unless it does not fit there; the field's end stays put
        s = from + d.length <= fe ? from : fs;
        w = e == len ? d.length : e - s;
        left = true;
      } else {
        int put = numberWidth(fs, fe, from, to, len, d.length);
        left = put < 0;
        s = fs;
        w = Math.abs(put);
      }
      byte[] put = new byte[w];
      Arrays.fill(put, (byte) ' ');
      if (left) System.arraycopy(d, 0, put, 0, d.length);
      else System.arraycopy(d, 0, put, w - d.length, d.length);
      edit(line, s, e, put);
    }

    private void edit(int line, int s, int e, byte[] put) {
      if (3 * n + 3 > at.length) at = Arrays.copyOf(at, at.length * 2);
      if (n == texts.length) {
        texts = Arrays.copyOf(texts, n * 2);
        olds = Arrays.copyOf(olds, n * 2);
      }
      at[3 * n] = line;
      at[3 * n + 1] = s;
      at[3 * n + 2] = e;
      byte[] old = new byte[e - s];
      System.arraycopy(deck.bytes(line), deck.start(line) + s, old, 0, e - s);
      olds[n] = old;
      texts[n++] = put;
    }

    /** The new text of the item in bytes {@code [ts, te)} of the line, a hit {@code [from, to)} of range lo:hi. */
    private byte[] replacement(byte[] a, int off, int ts, int te, int from, int to, int lo, int hi) {
      byte[] mid;
      if (lo == hi) {
        mid = d;
      } else {
        mid = String.join(" ", split(lo, hi, id, neu)).getBytes(StandardCharsets.US_ASCII);
      }
      byte[] out = new byte[(from - ts) + mid.length + (te - to)];
      System.arraycopy(a, off + ts, out, 0, from - ts);
      System.arraycopy(mid, 0, out, from - ts, mid.length);
      System.arraycopy(a, off + to, out, from - ts + mid.length, te - to);
      return out;
    }

    /**
     * The GES line read last: each item holding the id gets its new text in place when the line
     * still ends by column 80; otherwise the line is written again ({@link GesLine#wrap}).
     */
    void flushGes() {
      int line = gesLine;
      int hits = gesHits;
      gesHits = 0;
      gesLine = -1;
      if (hits == 0 || refusal != null) return; // the first refusal is the one told
      byte[] a = deck.bytes(line);
      int off = deck.start(line);
      int len = deck.contentLength(line);
      GesLine g = gesWriter.read(a, off, len);
      int nt = g.count();
      // each token's new text (null: unchanged)
      byte[][] neu = new byte[nt][];
      int[] hit = new int[nt]; // the hit in each token, for a title's edit inside its quotes
      int h = 0;
      for (int t = 0; t < nt && h < hits; t++) {
        int ts = g.start(t);
        int te = g.end(t);
        if (ges[4 * h] < ts || ges[4 * h] >= te) continue;
        neu[t] = replacement(a, off, ts, te, ges[4 * h], ges[4 * h + 1], ges[4 * h + 2], ges[4 * h + 3]);
        hit[t] = h;
        h++;
      }
      switch (g.place(neu)) {
        case TEXT_PAST_END -> refusal = "line " + (line + 1) + " holds text past column 80, which the rename would move";
        case IN_PLACE -> {
          for (int t = 0; t < nt; t++) {
            if (neu[t] == null) continue;
            if (named) edit(line, ges[4 * hit[t]], ges[4 * hit[t] + 1], d);
            else edit(line, g.start(t), g.end(t), neu[t]);
          }
        }
        case WRAP -> {
          java.util.List<byte[]> out = g.wrap(neu);
          if (out == null) {
            refusal = "line " + (line + 1) + " would pass column 80 with " + shown
                + switch (g.wrapFailure) {
                  case TOO_LONG -> ", even continued on a new line";
                  case NOT_A_SELECTION -> ", and cannot continue on a new selection line";
                  case NO_WORD -> "";
                };
            return;
          }
          edit(line, 0, len, out.get(0));
          if (addCount == addAt.length) {
            addAt = Arrays.copyOf(addAt, addCount * 2);
            adds = Arrays.copyOf(adds, addCount * 2);
          }
          addAt[addCount] = line;
          adds[addCount++] = out.subList(1, out.size()).toArray(new byte[0][]);
        }
      }
    }

    RenamePlan build() {
      return new RenamePlan(at, texts, olds, n, addAt, adds, addCount, lines, def, refusal);
    }
  }
}
