package org.nvimpam.ids;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.nvimpam.deck.LineBytes;

/**
 * One GES selection line written again with new texts for some of its items: the writer a rename
 * ({@link RenamePlan}) and a renumber of a whole kind share. The line is read into tokens as
 * {@link IdScanner} reads it; each token gets a new text or keeps its bytes. When the line still
 * ends by column 80 the tokens change in place; otherwise the line is written again, the items
 * that no longer fit going to new selection lines after it, each starting with the selection word
 * of its first item. Not thread-safe: reused line after line.
 */
public final class GesLine {
  /** GES items are read up to this column. */
  public static final int END = 80;

  /** What {@link #place} found. */
  public enum Fit {
    /** The tokens' new texts fit in place. */
    IN_PLACE,
    /** The line must be written again over several lines: {@link #wrap}. */
    WRAP,
    /** The line holds text past column 80 that the new texts would move. */
    TEXT_PAST_END
  }

  private static final byte[] BLANKS = "        ".getBytes(StandardCharsets.US_ASCII);

  private byte[] a;
  private int off;
  private int len;
  private int[] tok = new int[3 * 16]; // [start, end, word?] each; an open quote runs to column 80
  private int count;

  /** Reads the tokens of the line in {@code a[off, off + len)} ({@code len} without a final CR). */
  public GesLine read(byte[] a, int off, int len) {
    this.a = a;
    this.off = off;
    this.len = len;
    int end = Math.min(len, END);
    int nt = 0;
    int i = 8;
    while (i < end) {
      while (i < end && a[off + i] == ' ') i++;
      if (i == end) break;
      int s = i;
      boolean word = false;
      if (a[off + i] == '\'') {
        int q = i + 1;
        while (q < end && a[off + q] != '\'') q++;
        i = q == end ? end : q + 1;
      } else {
        byte c = a[off + i];
        word = (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
        while (i < end && a[off + i] != ' ') i++;
      }
      if (3 * nt + 3 > tok.length) tok = Arrays.copyOf(tok, tok.length * 2);
      tok[3 * nt] = s;
      tok[3 * nt + 1] = i;
      tok[3 * nt + 2] = word ? 1 : 0;
      nt++;
    }
    count = nt;
    return this;
  }

  /** The number of tokens. */
  public int count() {
    return count;
  }

  /** Token {@code t}'s first byte (0-based column). */
  public int start(int t) {
    return tok[3 * t];
  }

  /** Token {@code t}'s end (exclusive). */
  public int end(int t) {
    return tok[3 * t + 1];
  }

  /** The token holding column {@code col}, or -1. */
  public int tokenAt(int col) {
    for (int t = 0; t < count; t++) {
      if (col >= tok[3 * t] && col < tok[3 * t + 1]) return t;
    }
    return -1;
  }

  /**
   * Whether the tokens' new texts ({@code neu[t]}, null: unchanged; several items separated by one
   * blank where an item became several) fit in place.
   */
  public Fit place(byte[][] neu) {
    int growth = 0;
    for (int t = 0; t < count; t++) {
      if (neu[t] != null) growth += neu[t].length - (tok[3 * t + 1] - tok[3 * t]);
    }
    int last = len; // the end of the line's text, trailing blanks left out
    while (last > 0 && a[off + last - 1] == ' ') last--;
    if (growth == 0) return Fit.IN_PLACE;
    if (last > END) return Fit.TEXT_PAST_END; // text there would move into the columns read, or further out
    return last + growth <= END ? Fit.IN_PLACE : Fit.WRAP;
  }

  /** Why {@link #wrap} gave no lines. */
  public enum WrapFailure {
    /** An item that must go to a new line has no selection word before it. */
    NO_WORD,
    /** A new line would not read as a selection line. */
    NOT_A_SELECTION,
    /** A line is still longer than 80 columns. */
    TOO_LONG
  }

  /** Why the last {@link #wrap} gave no lines. */
  public WrapFailure wrapFailure;

  /**
   * The line written again with the tokens' new texts: the first line as it was up to the first
   * item that no longer fits by column 80, the rest on new selection lines, each starting with the
   * selection word of its first item (a word moves with its first item). Null when that cannot be
   * done ({@link #wrapFailure} says why).
   */
  public List<byte[]> wrap(byte[][] neu) {
    wrapFailure = null;
    // the units in order: a token, or one item of a token that became several
    List<byte[]> bodies = new ArrayList<>();
    IntList gaps = new IntList();
    IntList words = new IntList(); // 1: the unit is a word
    IntList owner = new IntList(); // the index of the unit's selection word, -1 before any
    int w = -1;
    for (int t = 0; t < count; t++) {
      int ts = tok[3 * t];
      int te = tok[3 * t + 1];
      int gap = ts - (t == 0 ? 8 : tok[3 * (t - 1) + 1]);
      boolean word = tok[3 * t + 2] == 1;
      if (word) w = bodies.size();
      byte[][] items = neu[t] == null ? new byte[][] {Arrays.copyOfRange(a, off + ts, off + te)}
          : neu[t].length > 0 && neu[t][0] == '\'' ? new byte[][] {neu[t]} : pieces(neu[t]);
      for (int p = 0; p < items.length; p++) {
        bodies.add(items[p]);
        gaps.add(p == 0 ? gap : 1);
        words.add(word ? 1 : 0);
        owner.add(word ? -1 : w);
      }
    }
    List<byte[]> out = new ArrayList<>();
    ByteArrayOutputStream cur = new ByteArrayOutputStream(END);
    cur.write(a, off, 8);
    int onLine = 0; // units on the current line
    boolean wordOnly = false; // the current line holds a selection word alone: its first item stays with it
    int units = bodies.size();
    for (int u = 0; u < units; u++) {
      byte[] body = bodies.get(u);
      int need = gaps.a[u] + body.length;
      if (words.a[u] == 1 && u + 1 < units && words.a[u + 1] == 0) need += gaps.a[u + 1] + bodies.get(u + 1).length;
      if (onLine == 0 || (onLine == 1 && wordOnly) || cur.size() + need <= END) {
        for (int k = 0; k < gaps.a[u]; k++) cur.write(' ');
        cur.write(body, 0, body.length);
        wordOnly = onLine == 0 && words.a[u] == 1;
        onLine++;
        continue;
      }
      out.add(cur.toByteArray());
      cur.reset();
      cur.write(BLANKS, 0, 8);
      if (words.a[u] == 0) {
        int o = owner.a[u];
        if (o < 0) {
          wrapFailure = WrapFailure.NO_WORD;
          return null;
        }
        cur.write(bodies.get(o), 0, bodies.get(o).length);
        cur.write(' ');
      }
      cur.write(body, 0, body.length);
      wordOnly = words.a[u] == 1;
      onLine = 1;
    }
    out.add(cur.toByteArray());
    for (int k = 0; k < out.size(); k++) {
      byte[] l = out.get(k);
      if (l.length > END || k > 0 && !LineBytes.isGesSelection(l, 0, l.length)) {
        wrapFailure = l.length > END ? WrapFailure.TOO_LONG : WrapFailure.NOT_A_SELECTION;
        return null;
      }
    }
    return out;
  }

  private static byte[][] pieces(byte[] body) {
    int n = 1;
    for (byte b : body) {
      if (b == ' ') n++;
    }
    byte[][] out = new byte[n][];
    int s = 0;
    int k = 0;
    for (int i = 0; i <= body.length; i++) {
      if (i == body.length || body[i] == ' ') {
        out[k++] = Arrays.copyOfRange(body, s, i);
        s = i + 1;
      }
    }
    return out;
  }
}
