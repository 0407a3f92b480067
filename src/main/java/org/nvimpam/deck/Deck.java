package org.nvimpam.deck;

import java.util.Arrays;
import org.nvimpam.lines.LineSource;
import org.nvimpam.lines.Lines;

/**
 * A buffer's lines as bytes, editable in place.
 *
 * <p>Bytes live in an arena of segments of at most {@link #SEGMENT_BYTES} (a longer line gets a
 * segment of its own). A line's address is {@code slot << SEGMENT_BITS | offset}. Segments let a
 * big deck load chunk by chunk without ever growing one array to twice its size, and keep
 * compaction bounded: replaced lines become garbage in their segment, new lines go to an edit
 * segment, and when garbage passes an eighth of the live bytes the segments with the most garbage
 * are copied anew, a few at a time, never the whole arena.
 *
 * <p>The line index ({@code addr}, {@code lens}) is a gap buffer, so an edit moves only the entries
 * between the previous edit and this one. Not thread-safe, except that a {@link SegmentWriter} may
 * fill segments on another thread before their chunk is {@linkplain #append appended}.
 */
public final class Deck implements LineSource {
  public static final int SEGMENT_BITS = 22;
  /** 4 MiB: small enough that copying one is cheap, large enough that a 2 GiB deck fits 512. */
  public static final int SEGMENT_BYTES = 1 << SEGMENT_BITS;
  private static final int OFFSET_MASK = SEGMENT_BYTES - 1;
  private static final int MAX_SLOTS = 1 << (31 - SEGMENT_BITS);
  private static final int MIN_GARBAGE = 1 << 16;
  private static final int FIRST_EDIT_SEGMENT = 4096;
  /** Segments copied per compaction at most, so that one costs a bounded time and extra heap. */
  private static final int COMPACT_AT_ONCE = 16;
  /**
   * The address of every empty line: slot 0, which holds no bytes and is never freed. An empty line
   * left in the segment of its neighbours would outlive that segment's slot, and releasing it would
   * free the slot a second time (two later segments would then share it).
   */
  private static final int EMPTY_LINE = 0;

  private byte[][] segments = {new byte[0], null, null, null};
  private int[] used = new int[4]; // bytes written into each slot (live, garbage, or free-to-write)
  private int[] live = new int[4]; // bytes of lines held in each slot
  private int slots = 1; // slots [0, slots) have been handed out, slot 0 to the empty lines
  private int[] freeSlots = new int[4];
  private int freeCount;
  private int editSlot = -1; // where replacement lines go
  private byte[] lastLoaded; // the segment the last appended chunk ended in
  private int lastLoadedSlot = -1;
  private long liveBytes;
  private long usedBytes;

  // Line index with a gap [gapStart, gapEnd): line i is at slot i before the gap, i + gap after it.
  private int[] addr;
  private int[] lens;
  private int gapStart;
  private int gapEnd;

  private Deck(int lines) {
    addr = new int[lines];
    lens = new int[lines];
    gapStart = 0;
    gapEnd = lines;
  }

  /**
   * An empty deck whose line index has room for {@code expectedLines} appended lines, and a
   * little more: the first edit after a load then finds room in the gap instead of growing an
   * index of millions of lines (that was most of the first edit's time on a 10M-line deck).
   */
  public static Deck withCapacity(int expectedLines) {
    int n = Math.max(0, expectedLines);
    return new Deck((int) Math.min(Integer.MAX_VALUE - 16, n + Math.max(64L, n >> 6)));
  }

  /** A deck holding a copy of the lines, with segments and index of exactly the needed size. */
  public static Deck of(Lines lines) {
    int n = lines.count();
    SegmentWriter w = new SegmentWriter(lines.byteSize());
    w.begin(n);
    byte[] d = lines.data();
    for (int i = 0; i < n; i++) w.add(d, lines.start(i), lines.length(i));
    Deck deck = new Deck(n);
    deck.append(w.end());
    return deck;
  }

  @Override
  public int lineCount() {
    return addr.length - (gapEnd - gapStart);
  }

  private int slot(int line) {
    return line < gapStart ? line : line + (gapEnd - gapStart);
  }

  /** The array holding line {@code i}; valid until the next {@link #replace}. */
  @Override
  public byte[] bytes(int i) {
    return segments[addr[slot(i)] >>> SEGMENT_BITS];
  }

  /** Offset of line {@code i} in {@link #bytes(int) bytes(i)}. */
  @Override
  public int start(int i) {
    return addr[slot(i)] & OFFSET_MASK;
  }

  /** Raw length of line {@code i}, a final CR included. */
  @Override
  public int length(int i) {
    return lens[slot(i)];
  }

  /** A copy of line {@code i}; for tests and messages, not for hot paths. */
  @Override
  public byte[] line(int i) {
    int s = slot(i);
    int a = addr[s];
    return Arrays.copyOfRange(segments[a >>> SEGMENT_BITS], a & OFFSET_MASK, (a & OFFSET_MASK) + lens[s]);
  }

  /**
   * The lines as they are now, to be read on another thread while this deck goes on changing: a
   * copy of the line index (8 bytes a line), not of the bytes. No byte a line holds is ever
   * written again: an edit appends to its segment's free end, and growth and compaction copy into
   * new arrays. The snapshot keeps the arrays it names alive until it is dropped.
   */
  public LineSource snapshot() {
    int n = lineCount();
    int[] a = new int[n];
    int[] l = new int[n];
    int tail = addr.length - gapEnd;
    System.arraycopy(addr, 0, a, 0, gapStart);
    System.arraycopy(addr, gapEnd, a, gapStart, tail);
    System.arraycopy(lens, 0, l, 0, gapStart);
    System.arraycopy(lens, gapEnd, l, gapStart, tail);
    return new Snapshot(segments.clone(), a, l);
  }

  private record Snapshot(byte[][] segments, int[] addr, int[] lens) implements LineSource {
    @Override
    public int lineCount() {
      return addr.length;
    }

    @Override
    public byte[] bytes(int i) {
      return segments[addr[i] >>> SEGMENT_BITS];
    }

    @Override
    public int start(int i) {
      return addr[i] & OFFSET_MASK;
    }

    @Override
    public int length(int i) {
      return lens[i];
    }
  }

  /** Live bytes of all lines, terminators excluded. */
  public long byteSize() {
    return liveBytes;
  }

  /** Bytes held by the arena's segments and the line index (array payloads). */
  public long heapBytes() {
    long b = 4L * addr.length + 4L * lens.length;
    for (int s = 0; s < slots; s++) {
      if (segments[s] != null) b += segments[s].length;
    }
    return b;
  }

  /**
   * Appends lines whose bytes a {@link SegmentWriter} already wrote; their segments become part
   * of this deck. Chunks from one writer must be appended in the order they were written (chunks
   * may be skipped: their bytes are garbage).
   */
  public void append(DeckChunk c) {
    moveGapTo(lineCount());
    ensureGap(c.count);
    for (int j = 0; j < c.segments.length; j++) {
      byte[] seg = c.segments[j];
      int slot;
      if (seg == lastLoaded && lastLoadedSlot >= 0 && segments[lastLoadedSlot] == seg) {
        slot = lastLoadedSlot;
      } else {
        slot = newSlot(seg, 0);
      }
      if (c.segmentEnd[j] > used[slot]) {
        usedBytes += c.segmentEnd[j] - used[slot];
        used[slot] = c.segmentEnd[j];
      }
      lastLoaded = seg;
      lastLoadedSlot = slot;
      int from = c.segmentFirstLine[j];
      int to = j + 1 < c.segments.length ? c.segmentFirstLine[j + 1] : c.count;
      int base = slot << SEGMENT_BITS;
      int g = gapStart;
      long b = 0;
      for (int i = from; i < to; i++, g++) {
        addr[g] = c.lens[i] == 0 ? EMPTY_LINE : base | c.offs[i];
        lens[g] = c.lens[i];
        b += c.lens[i];
      }
      gapStart = g;
      live[slot] += (int) b;
      liveBytes += b;
    }
    c.appended();
  }

  /**
   * Leaves the CR that ends a line out of it, as Neovim does when it reads a file with
   * 'fileformat' dos: for a deck read from such a file with CRs kept. Neovim keeps the CR of a
   * last line that has no newline ({@code lastTerminated} false), and so does this.
   */
  public void dropFinalCrs(boolean lastTerminated) {
    int n = lineCount() - (lastTerminated ? 0 : 1);
    for (int i = 0; i < n; i++) {
      int s = slot(i);
      int len = lens[s];
      if (len == 0) continue;
      int a = addr[s];
      int slot = a >>> SEGMENT_BITS;
      if (segments[slot][(a & OFFSET_MASK) + len - 1] != '\r') continue;
      lens[s] = len - 1;
      live[slot]--;
      liveBytes--;
      if (len == 1) addr[s] = EMPTY_LINE; // its slot may be freed while the line lives on (see EMPTY_LINE)
    }
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
    for (int s = gapEnd; s < gapEnd + (last - first); s++) release(s);
    gapEnd += last - first;

    int k = replacement.count();
    if (k > 0) {
      ensureGap(k);
      byte[] d = replacement.data();
      for (int i = 0; i < k; i++) {
        int len = replacement.length(i);
        if (len == 0) {
          addr[gapStart] = EMPTY_LINE;
          lens[gapStart++] = 0;
          continue;
        }
        int slot = editRoom(len);
        int off = used[slot];
        System.arraycopy(d, replacement.start(i), segments[slot], off, len);
        used[slot] += len;
        usedBytes += len;
        live[slot] += len;
        liveBytes += len;
        addr[gapStart] = (slot << SEGMENT_BITS) | off;
        lens[gapStart] = len;
        gapStart++;
      }
    }
    long garbage = usedBytes - liveBytes;
    if (garbage > MIN_GARBAGE && garbage > liveBytes / 8) compact();
  }

  /** Forgets the line at index slot {@code s}: its bytes become garbage, its segment maybe free. */
  private void release(int s) {
    if (lens[s] == 0) return; // in slot 0, which is never freed
    int slot = addr[s] >>> SEGMENT_BITS;
    live[slot] -= lens[s];
    liveBytes -= lens[s];
    if (live[slot] == 0 && slot != editSlot) freeSlot(slot);
  }

  private void freeSlot(int slot) {
    usedBytes -= used[slot];
    segments[slot] = null;
    used[slot] = 0;
    if (slot == lastLoadedSlot) lastLoadedSlot = -1;
    if (freeCount == freeSlots.length) freeSlots = Arrays.copyOf(freeSlots, freeCount * 2);
    freeSlots[freeCount++] = slot;
  }

  private int newSlot(byte[] seg, int usedBytesOfSeg) {
    int slot;
    if (freeCount > 0) {
      slot = freeSlots[--freeCount];
    } else {
      if (slots == MAX_SLOTS) {
        throw new IllegalStateException("deck exceeds " + MAX_SLOTS + " segments of "
            + (SEGMENT_BYTES >> 20) + " MiB");
      }
      if (slots == segments.length) {
        int cap = Math.min(MAX_SLOTS, slots * 2);
        segments = Arrays.copyOf(segments, cap);
        used = Arrays.copyOf(used, cap);
        live = Arrays.copyOf(live, cap);
      }
      slot = slots++;
    }
    segments[slot] = seg;
    used[slot] = usedBytesOfSeg;
    live[slot] = 0;
    usedBytes += usedBytesOfSeg;
    return slot;
  }

  /** The slot of an edit segment with room for {@code len} more bytes at its {@code used} end. */
  private int editRoom(int len) {
    if (editSlot >= 0) {
      byte[] seg = segments[editSlot];
      int u = used[editSlot];
      if (seg.length - u >= len) return editSlot;
      if (seg.length < SEGMENT_BYTES && (long) u + len <= SEGMENT_BYTES) {
        int cap = (int) Math.min(SEGMENT_BYTES, Math.max((long) u + len, 2L * seg.length));
        segments[editSlot] = Arrays.copyOf(seg, cap); // offsets stay: same slot
        return editSlot;
      }
      int old = editSlot;
      editSlot = -1;
      if (live[old] == 0) freeSlot(old);
    }
    int cap = len > SEGMENT_BYTES ? len : Math.max(len, FIRST_EDIT_SEGMENT);
    editSlot = newSlot(new byte[cap], 0);
    return editSlot;
  }

  private void moveGapTo(int line) {
    if (line < gapStart) {
      int n = gapStart - line;
      System.arraycopy(addr, line, addr, gapEnd - n, n);
      System.arraycopy(lens, line, lens, gapEnd - n, n);
      gapStart -= n;
      gapEnd -= n;
    } else if (line > gapStart) {
      int n = line - gapStart;
      System.arraycopy(addr, gapEnd, addr, gapStart, n);
      System.arraycopy(lens, gapEnd, lens, gapStart, n);
      gapStart += n;
      gapEnd += n;
    }
  }

  /** Makes the gap hold at least {@code k} slots, growing the index by an eighth. */
  private void ensureGap(int k) {
    if (gapEnd - gapStart >= k) return;
    int lines = lineCount();
    int cap = (int) Math.min(Integer.MAX_VALUE - 16, Math.max((long) lines + k, lines + (lines >> 3) + 16L));
    int tail = addr.length - gapEnd;
    int[] a = new int[cap];
    int[] l = new int[cap];
    System.arraycopy(addr, 0, a, 0, gapStart);
    System.arraycopy(lens, 0, l, 0, gapStart);
    System.arraycopy(addr, gapEnd, a, cap - tail, tail);
    System.arraycopy(lens, gapEnd, l, cap - tail, tail);
    addr = a;
    lens = l;
    gapEnd = cap - tail;
  }

  /**
   * Copies the live lines of the segments with the most garbage into new segments of exactly
   * their size, at most {@link #COMPACT_AT_ONCE} at a time: one pass over the index, and extra
   * heap of at most that many segments.
   */
  private void compact() {
    int[] pick = worstSlots();
    if (pick.length == 0) return;
    byte[][] next = new byte[slots][];
    int[] w = new int[slots];
    for (int s : pick) next[s] = new byte[live[s]];
    for (int i = 0; i < addr.length; i++) {
      if (i == gapStart) {
        i = gapEnd;
        if (i == addr.length) break;
      }
      int a = addr[i];
      int slot = a >>> SEGMENT_BITS;
      byte[] to = next[slot];
      if (to == null) continue;
      System.arraycopy(segments[slot], a & OFFSET_MASK, to, w[slot], lens[i]);
      addr[i] = (slot << SEGMENT_BITS) | w[slot];
      w[slot] += lens[i];
    }
    for (int s : pick) {
      usedBytes += live[s] - used[s];
      segments[s] = next[s];
      used[s] = live[s];
      if (s == editSlot) editSlot = -1; // full now; the next edit starts a new one
      if (s == lastLoadedSlot) lastLoadedSlot = -1; // a writer still filling it keeps its own copy
    }
  }

  private int[] worstSlots() {
    int n = 0;
    int[] cand = new int[slots];
    for (int s = 0; s < slots; s++) {
      if (segments[s] != null && used[s] > live[s]) cand[n++] = s;
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) order[i] = cand[i];
    Arrays.sort(order, (x, y) -> Integer.compare(used[y] - live[y], used[x] - live[x]));
    int k = Math.min(n, COMPACT_AT_ONCE);
    int[] pick = new int[k];
    for (int i = 0; i < k; i++) pick[i] = order[i];
    return pick;
  }
}
