package org.nvimpam.strategy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.rpc.Encoder;

/**
 * Writes {@code :S,Efold} commands as msgpack strings: ASCII digits from the plan's integers, no
 * String per fold. A joined string is formatted into a block that goes out in one payload write
 * per block: a write per fold cost five times the formatting (0.25 ms at 10k folds).
 */
final class FoldCommands {
  private static final byte[] FOLD = {'f', 'o', 'l', 'd'};
  private static final int MAX_COMMAND = 2 * 10 + 1 + FOLD.length;
  private static final int BLOCK = 16 * 1024;
  /** msgpack's string of up to 31 bytes; every command is shorter. */
  private static final int FIXSTR = 0xa0;

  /** "00", "01", … "99". */
  private static final byte[] PAIRS = new byte[200];

  static {
    for (int i = 0; i < 100; i++) {
      PAIRS[2 * i] = (byte) ('0' + i / 10);
      PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
    }
  }

  private final byte[] block = new byte[BLOCK];

  /** What {@code encoder} packs, as bytes: framing for {@link #packEach}. */
  static byte[] msgpack(Encoder encoder) {
    try (MessageBufferPacker out = MessagePack.newDefaultBufferPacker()) {
      encoder.write(out);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException("packing into memory", e);
    }
  }

  /** A notification's framing up to its params: {@code [2, method, }. */
  static byte[] notification(String method) {
    return msgpack(out -> out.packArrayHeader(3).packInt(2).packString(method));
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  /** Packs {@code "S,Efold"} for fold {@code i} of the plan. */
  void pack(MessagePacker out, FoldPlan plan, int i) throws IOException {
    int n = format(plan, i, 0);
    out.packRawStringHeader(n);
    out.writePayload(block, 0, n);
  }

  /** Packs {@code "S,Efold|S,Efold|…"} for folds {@code [from, to)}: one Ex command line. */
  void packJoined(MessagePacker out, FoldPlan plan, int from, int to) throws IOException {
    packLines(out, plan, from, to, Integer.MAX_VALUE);
  }

  /**
   * Packs the commands of folds {@code [from, to)} as one string of lines, each of {@code perLine}
   * commands joined by {@code |} (the last line may have fewer), separated by newlines.
   */
  void packLines(MessagePacker out, FoldPlan plan, int from, int to, int perLine) throws IOException {
    int total = Math.max(0, to - from - 1);
    for (int i = from; i < to; i++) {
      total += digits(plan.start(i)) + 1 + digits(plan.end(i)) + FOLD.length;
    }
    out.packRawStringHeader(total);
    int p = 0;
    int onLine = 0;
    for (int i = from; i < to; i++) {
      if (p > BLOCK - MAX_COMMAND - 1) {
        out.writePayload(block, 0, p);
        p = 0;
      }
      if (i > from) {
        if (onLine == perLine) {
          block[p++] = '\n';
          onLine = 0;
        } else {
          block[p++] = '|';
        }
      }
      p = format(plan, i, p);
      onLine++;
    }
    out.writePayload(block, 0, p);
  }

  /**
   * Packs one msgpack string {@code "S,Efold"} per fold of {@code [from, to)}, each right after
   * {@code first} (the first fold) or {@code rest} (the others): bytes already in msgpack, such as
   * the framing of a notification or of an nvim_call_atomic call. Framed by hand into the block (a
   * command is a fixstr), since the packer's per-call cost under C1 was five times the formatting.
   */
  void packEach(MessagePacker out, FoldPlan plan, int from, int to, byte[] first, byte[] rest) throws IOException {
    int p = 0;
    int limit = BLOCK - Math.max(first.length, rest.length) - MAX_COMMAND - 1;
    for (int i = from; i < to; i++) {
      if (p > limit) {
        out.writePayload(block, 0, p);
        p = 0;
      }
      byte[] before = i == from ? first : rest;
      System.arraycopy(before, 0, block, p, before.length);
      p += before.length;
      int end = format(plan, i, p + 1);
      block[p] = (byte) (FIXSTR | (end - p - 1));
      p = end;
    }
    out.writePayload(block, 0, p);
  }

  private int format(FoldPlan plan, int i, int at) {
    int n = writeInt(block, at, plan.start(i));
    block[n++] = ',';
    n = writeInt(block, n, plan.end(i));
    System.arraycopy(FOLD, 0, block, n, FOLD.length);
    return n + FOLD.length;
  }

  /** The number of decimal digits of a non-negative int. */
  private static int digits(int v) {
    int d = 1;
    for (int bound = 10; d < 10 && v >= bound; bound *= 10) {
      d++;
    }
    return d;
  }

  /**
   * Writes a non-negative int in decimal at {@code at}; returns the offset after it. Two digits per
   * step, with the division by 100 as a multiplication: the plugin's JVM runs C1, which divides.
   */
  private static int writeInt(byte[] b, int at, int v) {
    int end = at + digits(v);
    int p = end;
    while (v >= 100) {
      int q = (int) ((v * 1374389535L) >>> 37); // v / 100, exact for every non-negative int
      int r = (v - q * 100) << 1;
      b[--p] = PAIRS[r + 1];
      b[--p] = PAIRS[r];
      v = q;
    }
    if (v >= 10) {
      b[--p] = PAIRS[(v << 1) + 1];
      b[--p] = PAIRS[v << 1];
    } else {
      b[--p] = (byte) ('0' + v);
    }
    return end;
  }
}
