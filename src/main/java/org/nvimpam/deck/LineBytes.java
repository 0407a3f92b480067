package org.nvimpam.deck;

/**
 * Tests on one line's bytes {@code a[off .. off+len)} (FOLDS.md §3, §5). Unless a method says
 * otherwise, {@code len} is the content length: the line without one final CR (§2.3), as given by
 * {@link org.nvimpam.lines.LineSource#contentLength}.
 */
public final class LineBytes {
  private LineBytes() {}

  private static final byte[][] SELECTION_WORDS = {
    ascii("ELE "), ascii("GRP "), ascii("NOD "), ascii("EDG "), ascii("MOD "), ascii("SEG "),
    ascii("OGRP "), ascii("DELNOD "), ascii("DELELE "), ascii("DELELE>NOD "), ascii("DELGRP "),
    ascii("DELGRP>NOD "), ascii("DELPART "), ascii("DELPART>NOD "), ascii("ELE>NOD "),
    ascii("GRP>NOD "), ascii("PART "), ascii("PART>NOD "), ascii("END_MOD"),
  };

  /** Column 81 (byte 80): where a line says whether the next one goes on with it. */
  public static final int CONTINUATION_COLUMN = 80;

  /** The byte in column 81 of a line of {@code len} bytes, or 0 when the line is shorter. */
  public static byte column81(byte[] a, int off, int len) {
    return len > CONTINUATION_COLUMN ? a[off + CONTINUATION_COLUMN] : 0;
  }

  /**
   * Whether {@code b}, in column 81, continues a line on the next one: {@code &} or {@code -}, as
   * PAM-CRASH reads an INCLU name and a CONT field. The MASS card's flag (FOLDS.md §5.2) is
   * {@code &} only: that is the fold specification's rule, read with {@link #column81}.
   */
  public static boolean isContinuationMark(byte b) {
    return b == '&' || b == '-';
  }

  public static byte[] ascii(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }

  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final long SPACES = 0x2020202020202020L;

  private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;

  /** The first byte at or after {@code i} (before {@code end}) that is no space, 8 bytes at a time. */
  public static int skipSpaces(byte[] a, int i, int end) {
    while (i + 8 <= end) {
      long x = (long) LONGS.get(a, i) ^ SPACES;
      if (x != 0) return i + firstMarked((((x & LOW7) + LOW7) | x) & ~LOW7); // the high bit of each byte not 0
      i += 8;
    }
    while (i < end && a[i] == ' ') i++;
    return i;
  }

  /**
   * The index (0-7, little endian) of the first byte of {@code marks} whose high bit is set, where
   * only high bits are set and one at least: Long.numberOfTrailingZeros is a call under C1.
   */
  static int firstMarked(long marks) {
    return (int) ((((marks & -marks) >>> 7) * 0x0001020304050607L) >>> 56);
  }

  /** How many bytes of {@code marks} have their high bit set, where only high bits are set (Long.bitCount is a call under C1). */
  static int countMarked(long marks) {
    return (int) (((marks >>> 7) * 0x0101010101010101L) >>> 56);
  }

  public static boolean isComment(byte[] a, int off, int len) {
    return len > 0 && (a[off] == '$' || a[off] == '#');
  }

  /** Only spaces, tabs and CRs; the empty line is blank. */
  public static boolean isBlank(byte[] a, int off, int len) {
    for (int i = off, end = off + len; i < end; i++) {
      byte b = a[i];
      if (b != ' ' && b != '\t' && b != '\r') return false;
    }
    return true;
  }

  public static boolean startsWith(byte[] a, int off, int len, byte[] prefix) {
    if (len < prefix.length) return false;
    for (int i = 0; i < prefix.length; i++) {
      if (a[off + i] != prefix[i]) return false;
    }
    return true;
  }

  private static boolean eightSpaces(byte[] a, int off, int len) {
    if (len < 8) return false;
    for (int i = off; i < off + 8; i++) {
      if (a[i] != ' ') return false;
    }
    return true;
  }

  /** A GES END line: 8 spaces, {@code END}, then only spaces, tabs or CRs (§5.3). */
  public static boolean isGesEnd(byte[] a, int off, int len) {
    if (len < 11 || !eightSpaces(a, off, len)) return false;
    if (a[off + 8] != 'E' || a[off + 9] != 'N' || a[off + 10] != 'D') return false;
    return isBlank(a, off + 11, len - 11);
  }

  /**
   * Whether the line, its leading blanks left out, starts with {@code word} followed by a blank or
   * its end (the DISTA line and the END line of a FUNCT's points: {@code when} and {@code until} rows).
   */
  public static boolean startsWithWord(byte[] a, int off, int len, byte[] word) {
    int i = 0;
    while (i < len && a[off + i] == ' ') i++;
    if (len - i < word.length) return false;
    for (int k = 0; k < word.length; k++) {
      if (a[off + i + k] != word[k]) return false;
    }
    return len - i == word.length || a[off + i + word.length] == ' ';
  }

  /** A GES selection line: exactly 8 spaces, then one of the selection words (§5.3). */
  public static boolean isGesSelection(byte[] a, int off, int len) {
    if (len < 12 || !eightSpaces(a, off, len)) return false;
    byte b = a[off + 8];
    if (b != 'E' && b != 'G' && b != 'N' && b != 'M' && b != 'S' && b != 'O' && b != 'D' && b != 'P') {
      return false;
    }
    for (byte[] w : SELECTION_WORDS) {
      if (startsWith(a, off + 8, len - 8, w)) return true;
    }
    return false;
  }

  /**
   * The word of a card header line (§3) packed into a non-zero long, one byte per character, or 0
   * when the line is not a card header line. Words are at most 6 bytes, so the key is unique.
   */
  public static long headerWord(byte[] a, int off, int len) {
    if (len < 7 || a[off + 6] != '/' || (len > 7 && a[off + 7] != ' ')) return 0;
    byte first = a[off];
    if (first < 'A' || first > 'Z') return 0;
    long k = first;
    int i = 1;
    for (; i < 6; i++) {
      byte b = a[off + i];
      if ((b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_') {
        k = (k << 8) | b;
      } else {
        break;
      }
    }
    for (; i < 6; i++) {
      if (a[off + i] != ' ') return 0;
    }
    return k;
  }

  /** The word packed by {@link #headerWord}, as a string. */
  public static String wordOf(long key) {
    StringBuilder sb = new StringBuilder(6);
    for (int shift = 40; shift >= 0; shift -= 8) {
      int c = (int) (key >>> shift) & 0xFF;
      if (c != 0) sb.append((char) c);
    }
    return sb.toString();
  }

  /** Whether the line starts with {@code END_} followed by the packed header word (§6.2). */
  public static boolean startsWithEndOf(byte[] a, int off, int len, long wordKey) {
    if (len < 5 || a[off] != 'E' || a[off + 1] != 'N' || a[off + 2] != 'D' || a[off + 3] != '_') {
      return false;
    }
    int i = off + 4;
    int end = off + len;
    for (int shift = 40; shift >= 0; shift -= 8) {
      int c = (int) (wordKey >>> shift) & 0xFF;
      if (c == 0) continue;
      if (i >= end || (a[i] & 0xFF) != c) return false;
      i++;
    }
    return true;
  }

  /**
   * The integer in bytes {@code [from, to)} (columns from+1 … to) as FOLDS.md §5.2 reads it: the
   * first digit in the cell and the digits after it within the cell; -1 when there is none.
   */
  public static int number(byte[] a, int off, int len, int from, int to) {
    if (len < from) return -1;
    int end = off + Math.min(to, len);
    int i = off + from;
    while (i < end && (a[i] < '0' || a[i] > '9')) i++;
    if (i == end) return -1;
    long n = 0;
    while (i < end && a[i] >= '0' && a[i] <= '9') {
      n = Math.min(Integer.MAX_VALUE, n * 10 + (a[i] - '0'));
      i++;
    }
    return (int) n;
  }
}
