package org.nvimpam.deck;

import java.util.Arrays;
import org.nvimpam.lines.LineSource;

/**
 * The row walk of docs/CARDS.md ("Walking a card's rows"): which row of which layout each line of
 * a card is. lua/nvimpam/model/rows.lua walks the same way (ContractIT compares the two on whole decks).
 * Not thread-safe: a walk keeps its state in fields, so that it allocates nothing.
 */
public final class RowWalker {
  /** Codes of lines that are no row. A code {@code >= 0} is the index of the row in its entry. */
  public static final int COMMENT = -1;
  public static final int NONE = -2;
  public static final int EXTRA = -3;
  public static final int GES = -4;
  public static final int GES_END = -5;
  /** A key row's keyword line, and its value line: {@link #keyRow()} says which row. */
  public static final int KEYWORD = -6;
  public static final int VALUES = -7;

  /** Told each line of a walk, in order. */
  public interface Visitor {
    void line(int line, int code);
  }

  private final CardLayouts table;
  private int[] rowLine = new int[16]; // the last line each row of the card took, -1 for none
  private long stopWord; // the header word of the line the last walk stopped at (0: none)
  private int keyRow = -1; // the key row of the KEYWORD or VALUES line a visitor is told of
  // The line a visitor is told of, read once: its array, offset and length without a final CR.
  private byte[] lineBytes;
  private int lineStart;
  private int lineLength;
  // The last line start read as 8 bytes, and its header word: runs of one keyword repeat it.
  private long lastStart = -1;
  private long lastWord;
  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final long SLASH_BLANK = ('/' & 0xFFL) | ((' ' & 0xFFL) << 8); // bytes 6 and 7

  /** {@link LineBytes#headerWord}, read once per distinct 8-byte line start. */
  long headerWord(byte[] a, int off, int len) {
    if (len < 8) return LineBytes.headerWord(a, off, len);
    long x = (long) LONGS.get(a, off);
    if ((x >>> 48) != SLASH_BLANK) return 0;
    if (x != lastStart) {
      lastStart = x;
      lastWord = LineBytes.headerWord(a, off, len);
    }
    return lastWord;
  }

  // The last header word whose group its word alone decides, and that group: runs of one keyword.
  private long groupWord;
  private int wordGroup;

  /** {@link CardLayouts#groupOf(long, byte[], int, int)}, looked up once per run of one word. */
  int groupOf(long word, byte[] a, int off, int len) { // small enough for C1 to inline
    return word == groupWord && word != 0 ? wordGroup : lookUpGroup(word, a, off, len);
  }

  private int lookUpGroup(long word, byte[] a, int off, int len) {
    int g = table.groupOf(word, a, off, len);
    if (g >= 0 && table.wordDecides(word)) {
      groupWord = word;
      wordGroup = g;
    }
    return g;
  }

  public RowWalker(CardLayouts table) {
    this.table = table;
  }

  public CardLayouts table() {
    return table;
  }

  /** The array holding the line a {@link Visitor} is being told of (valid during the call). */
  public byte[] lineBytes() {
    return lineBytes;
  }

  /** The row of the {@link #KEYWORD} or {@link #VALUES} line a visitor is being told of. */
  public int keyRow() {
    return keyRow;
  }

  /** Its offset in {@link #lineBytes()}. */
  public int lineStart() {
    return lineStart;
  }

  /** Its length without a final CR. */
  public int lineLength() {
    return lineLength;
  }

  static boolean isComment(LineSource src, int i) {
    return LineBytes.isComment(src.bytes(i), src.start(i), src.contentLength(i));
  }

  static boolean isHeader(LineSource src, int i) {
    return LineBytes.headerWord(src.bytes(i), src.start(i), src.contentLength(i)) != 0;
  }

  /** The group of line {@code i}'s card header, or -1 (no header, or no entry). */
  public int groupAt(LineSource src, int i) {
    byte[] a = src.bytes(i);
    int off = src.start(i);
    int len = src.contentLength(i);
    return groupOf(headerWord(a, off, len), a, off, len);
  }

  /**
   * {@link #groupAt} of the line the last {@link #walkCard} or {@link #skipCard} returned, without
   * reading its word again.
   */
  public int groupAtStop(LineSource src, int i) {
    if (i >= src.lineCount()) return -1;
    return groupOf(stopWord, lineBytes, lineStart, lineLength); // the walk read that line last
  }

  /**
   * The line after the card whose header line is {@code h}, its rows not walked (a card ends at the
   * next card header line, whatever its rows): that line, or the line count.
   */
  public int skipCard(LineSource src, int h) {
    int n = src.lineCount();
    stopWord = 0;
    for (int i = h + 1; i < n; i++) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int len = src.contentLength(i);
      long word = headerWord(a, off, len);
      if (word != 0) {
        lineBytes = a;
        lineStart = off;
        lineLength = len;
        stopWord = word;
        return i;
      }
    }
    return n;
  }

  /**
   * Walks the card whose header line is {@code h}, as entry {@code e} lays it out; returns the
   * line after the card: the next card header line, or the line count.
   */
  public int walkCard(LineSource src, int h, int e, Visitor v) {
    int rows = table.rowCount(e);
    if (rowLine.length < rows) rowLine = new int[rows];
    // only if and repeat rows read the lines earlier rows took
    if (table.readsRows(e)) Arrays.fill(rowLine, 0, rows, -1);
    int endRow = table.endRow(e);
    byte[] endWord = endRow < 0 ? null : table.check(e, endRow).startWord;
    lineBytes = src.bytes(h);
    lineStart = src.start(h);
    lineLength = src.contentLength(h);
    v.line(h, 0);
    rowLine[0] = h;
    int n = src.lineCount();
    int r = 1;
    boolean ended = false; // the rows ended: later lines are extra
    boolean endTaken = false; // the end row took its line: the rest of the card is extra
    int left = -1; // lines a repeat row still takes; -1 before it started
    boolean inBlock = false;
    int valuesOf = -1; // the key row whose keyword line came last: the next line is its value line
    int i = h + 1;
    stopWord = 0;
    while (i < n) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int len = src.contentLength(i);
      lineBytes = a;
      lineStart = off;
      lineLength = len;
      if (LineBytes.isComment(a, off, len)) {
        v.line(i++, COMMENT);
        continue;
      }
      long word = headerWord(a, off, len);
      if (word != 0) {
        stopWord = word;
        break;
      }
      if (endWord != null && !endTaken && LineBytes.startsWith(a, off, len, endWord)) {
        v.line(i, endRow);
        rowLine[endRow] = i++;
        ended = endTaken = true;
        continue;
      }
      if (ended || r >= rows) {
        v.line(i++, EXTRA);
        continue;
      }
      RowCheck rc = table.check(e, r);
      switch (rc.kind) {
        case ROW, NAME -> {
          v.line(i, r);
          rowLine[r++] = i++;
        }
        case IF -> {
          if (holds(src, rc)) {
            v.line(i, r);
            rowLine[r] = i++;
          }
          r++;
        }
        case REPEAT -> {
          if (left < 0) left = count(src, rc);
          if (left > 0) {
            v.line(i, r);
            rowLine[r] = i++;
            left--;
          }
          if (left == 0) {
            left = -1;
            r++;
          }
        }
        case GES -> {
          if (LineBytes.isGesSelection(a, off, len)) {
            v.line(i++, GES);
          } else {
            if (LineBytes.isGesEnd(a, off, len)) v.line(i++, GES_END);
            r++;
          }
        }
        case BLOCK -> {
          if (inBlock || LineBytes.startsWith(a, off, len, rc.startWord)) {
            boolean last = inBlock && LineBytes.startsWith(a, off, len, rc.endWord);
            inBlock = !last;
            v.line(i, r);
            rowLine[r] = i++;
            if (last) r++;
          } else {
            r++;
          }
        }
        case END -> ended = true; // not its word (step 3 takes that): the rows end here
        case WHEN -> {
          if (LineBytes.startsWithWord(a, off, len, rc.startWord)) {
            v.line(i, r);
            rowLine[r] = i++;
          }
          r++;
        }
        case KEY -> {
          // a run of key rows: each optional, in any order, each keyword line followed by its value
          // line (unless that line is a keyword line of the run too); r stays at the run's first row
          int m = r;
          while (m < rows && table.check(e, m).kind == RowLayout.Kind.KEY
              && !LineBytes.startsWithWord(a, off, len, table.check(e, m).startWord)) {
            m++;
          }
          boolean keyword = m < rows && table.check(e, m).kind == RowLayout.Kind.KEY;
          if (keyword || valuesOf >= 0) {
            keyRow = keyword ? m : valuesOf;
            v.line(i, keyword ? KEYWORD : VALUES);
            rowLine[keyRow] = i++;
            valuesOf = keyword ? m : -1;
          } else {
            while (r < rows && table.check(e, r).kind == RowLayout.Kind.KEY) r++;
          }
        }
        case UNTIL -> {
          if (LineBytes.startsWithWord(a, off, len, rc.startWord)) {
            v.line(i++, GES_END); // the word's line ends the row's lines, as a GES's END line does
            r++;
          } else {
            v.line(i, r);
            rowLine[r] = i++;
          }
        }
      }
    }
    return i;
  }

  /**
   * Whether an {@code if} row's condition holds on the line its field's row took: the field has one
   * of the row's values ({@code FIELD:V1,V2}), or none of them ({@code FIELD!V1,V2}). Without that
   * line (the field's row took none), an {@code if} row never holds.
   */
  private boolean holds(LineSource src, RowCheck rc) {
    int at = rc.condRow < 0 ? -1 : rowLine[rc.condRow];
    if (at < 0) return false;
    return hasValue(src, at, rc) != rc.condNegated;
  }

  private static boolean hasValue(LineSource src, int at, RowCheck rc) {
    byte[] a = src.bytes(at);
    int off = src.start(at);
    int len = src.contentLength(at);
    if (rc.condInt) {
      int n = LineBytes.number(a, off, len, rc.condFrom, rc.condTo);
      for (int want : rc.condNumbers) {
        if (want >= 0 && n == want) return true;
      }
      return false;
    }
    int s = Math.min(rc.condFrom, len);
    int e = Math.min(rc.condTo, len);
    while (s < e && a[off + s] == ' ') s++;
    while (e > s && a[off + e - 1] == ' ') e--;
    for (byte[] want : rc.condTexts) {
      if (FieldForms.equalsBytes(a, off + s, off + e, want)) return true;
    }
    return false;
  }

  /** The lines a {@code repeat} row takes: the number its field holds (FOLDS.md §5.2), or 0. */
  private int count(LineSource src, RowCheck rc) {
    int at = rc.condRow < 0 ? -1 : rowLine[rc.condRow];
    if (at < 0) return 0;
    return Math.max(0, LineBytes.number(src.bytes(at), src.start(at), src.contentLength(at), rc.condFrom, rc.condTo));
  }
}
