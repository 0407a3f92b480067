package org.nvimpam.deck;

import java.util.Arrays;

/**
 * A buffer's lines as bytes, editable in place.
 *
 * <p>Bytes live in one append-only arena; replaced lines become garbage there and the arena is
 * compacted when garbage passes an eighth of the live bytes. Each line has an offset and a length in
 * two int arrays organised as a gap buffer, so an edit moves only the entries between the previous
 * edit and this one, not the whole index. Arrays are sized exactly on load and grow by small
 * factors, so that the heap held stays near the deck's byte size.
 */
public final class Deck {
  private static final int MIN_GARBAGE = 1 << 16;

  private byte[] arena;
  private int arenaSize; // bytes used, live and garbage
  private long garbage;

  // Line index with a gap [gapStart, gapEnd): line i is at slot i before the gap, i + gap after it.
  private int[] offs;
  private int[] lens;
  private int gapStart;
  private int gapEnd;

  private Deck(byte[] arena, int[] offs, int[] lens) {
    this.arena = arena;
    this.arenaSize = arena.length;
    this.offs = offs;
    this.lens = lens;
    this.gapStart = offs.length;
    this.gapEnd = offs.length;
  }

  /** A deck holding a copy of the lines, with arrays of exactly the needed size. */
  public static Deck of(Lines lines) {
    int n = lines.count();
    int base = n == 0 ? 0 : lines.start(0);
    byte[] arena = Arrays.copyOfRange(lines.data(), base, base + lines.byteSize());
    int[] offs = new int[n];
    int[] lens = new int[n];
    for (int i = 0; i < n; i++) {
      offs[i] = lines.start(i) - base;
      lens[i] = lines.length(i);
    }
    return new Deck(arena, offs, lens);
  }

  public int lineCount() {
    return offs.length - (gapEnd - gapStart);
  }

  /** The arena that {@link #start} indexes into; valid until the next {@link #replace}. */
  public byte[] arena() {
    return arena;
  }

  private int slot(int line) {
    return line < gapStart ? line : line + (gapEnd - gapStart);
  }

  /** Offset of line {@code i} in {@link #arena()}. */
  public int start(int i) {
    return offs[slot(i)];
  }

  /** Raw length of line {@code i}, a final CR included. */
  public int length(int i) {
    return lens[slot(i)];
  }

  /** A copy of line {@code i}; for tests and messages, not for hot paths. */
  public byte[] line(int i) {
    int s = slot(i);
    return Arrays.copyOfRange(arena, offs[s], offs[s] + lens[s]);
  }

  /** Live bytes of all lines, terminators excluded. */
  public long byteSize() {
    return arenaSize - garbage;
  }

  /** Bytes held by the arena and the line index (array payloads). */
  public long heapBytes() {
    return arena.length + 4L * offs.length + 4L * lens.length;
  }

  /**
   * Replaces lines {@code first <= i < last} (0-based, numbering before the change) by the given
   * lines, as {@code nvim_buf_lines_event} describes a change.
   */
  public void replace(int first, int last, Lines replacement) {
    int count = lineCount();
    if (first < 0 || last < first || last > count) {
      throw new IndexOutOfBoundsException(
          "replace [" + first + ", " + last + ") in a deck of " + count + " lines");
    }
    moveGapTo(first);
    for (int s = gapEnd; s < gapEnd + (last - first); s++) garbage += lens[s];
    gapEnd += last - first;

    int k = replacement.count();
    if (k > 0) {
      ensureGap(k);
      int bytes = replacement.byteSize();
      ensureArena(bytes);
      int from = replacement.start(0);
      System.arraycopy(replacement.data(), from, arena, arenaSize, bytes);
      for (int i = 0; i < k; i++) {
        offs[gapStart + i] = arenaSize + replacement.start(i) - from;
        lens[gapStart + i] = replacement.length(i);
      }
      arenaSize += bytes;
      gapStart += k;
    }
    if (garbage > MIN_GARBAGE && garbage > byteSize() / 8) compact(0);
  }

  private void moveGapTo(int line) {
    if (line < gapStart) {
      int n = gapStart - line;
      System.arraycopy(offs, line, offs, gapEnd - n, n);
      System.arraycopy(lens, line, lens, gapEnd - n, n);
      gapStart -= n;
      gapEnd -= n;
    } else if (line > gapStart) {
      int n = line - gapStart;
      System.arraycopy(offs, gapEnd, offs, gapStart, n);
      System.arraycopy(lens, gapEnd, lens, gapStart, n);
      gapStart += n;
      gapEnd += n;
    }
  }

  /** Makes the gap hold at least {@code k} slots, growing the index by a quarter. */
  private void ensureGap(int k) {
    if (gapEnd - gapStart >= k) return;
    int lines = lineCount();
    int cap = (int) Math.min(Integer.MAX_VALUE - 16, Math.max((long) lines + k, lines + (lines >> 2) + 16L));
    int tail = offs.length - gapEnd;
    int[] o = new int[cap];
    int[] l = new int[cap];
    System.arraycopy(offs, 0, o, 0, gapStart);
    System.arraycopy(lens, 0, l, 0, gapStart);
    System.arraycopy(offs, gapEnd, o, cap - tail, tail);
    System.arraycopy(lens, gapEnd, l, cap - tail, tail);
    offs = o;
    lens = l;
    gapEnd = cap - tail;
  }

  private void ensureArena(int bytes) {
    if ((long) arenaSize + bytes <= arena.length) return;
    compact(bytes);
  }

  /**
   * Copies the live lines, in line order, into a new arena with room for {@code extra} more bytes
   * plus a sixteenth of headroom; the garbage is dropped.
   */
  private void compact(int extra) {
    long live = byteSize() + extra;
    long cap = live + (live >> 4) + 64;
    if (cap > Integer.MAX_VALUE - 16) {
      if (live > Integer.MAX_VALUE - 16) throw new IllegalStateException("deck exceeds 2 GiB");
      cap = Integer.MAX_VALUE - 16;
    }
    byte[] next = new byte[(int) cap];
    int w = 0;
    for (int s = 0; s < offs.length; s++) {
      if (s == gapStart) s = gapEnd;
      if (s >= offs.length) break;
      System.arraycopy(arena, offs[s], next, w, lens[s]);
      offs[s] = w;
      w += lens[s];
    }
    arena = next;
    arenaSize = w;
    garbage = 0;
  }
}
