package org.nvimpam.strategy;

import java.io.IOException;
import org.msgpack.core.MessagePacker;
import org.nvimpam.fold.FoldPlan;

/**
 * Writes {@code :S,Efold} commands as msgpack strings straight into the outgoing buffer: ASCII
 * digits from the plan's integers, no String per fold.
 */
final class FoldCommands {
  private static final byte[] FOLD = {'f', 'o', 'l', 'd'};
  private static final int MAX_COMMAND = 2 * 10 + 1 + FOLD.length;

  private final byte[] scratch = new byte[MAX_COMMAND + 1];

  /** Packs {@code "S,Efold"} for fold {@code i} of the plan. */
  void pack(MessagePacker out, FoldPlan plan, int i) throws IOException {
    int n = format(plan, i, 0);
    out.packRawStringHeader(n);
    out.writePayload(scratch, 0, n);
  }

  /** Packs {@code "S,Efold|S,Efold|…"} for folds {@code [from, to)}: one Ex command line. */
  void packJoined(MessagePacker out, FoldPlan plan, int from, int to) throws IOException {
    packJoined(out, plan, from, to, (byte) '|');
  }

  /** Packs the commands of folds {@code [from, to)} as one string, separated by {@code separator}. */
  void packJoined(MessagePacker out, FoldPlan plan, int from, int to, byte separator) throws IOException {
    int total = to - from - 1;
    for (int i = from; i < to; i++) {
      total += length(plan, i);
    }
    out.packRawStringHeader(total);
    for (int i = from; i < to; i++) {
      int start = i == from ? 0 : 1;
      scratch[0] = separator;
      int n = format(plan, i, start);
      out.writePayload(scratch, 0, n);
    }
  }

  private int format(FoldPlan plan, int i, int at) {
    int n = writeInt(scratch, at, plan.start(i));
    scratch[n++] = ',';
    n = writeInt(scratch, n, plan.end(i));
    System.arraycopy(FOLD, 0, scratch, n, FOLD.length);
    return n + FOLD.length;
  }

  private static int length(FoldPlan plan, int i) {
    return digits(plan.start(i)) + 1 + digits(plan.end(i)) + FOLD.length;
  }

  static int digits(int v) {
    int d = 1;
    while (v >= 10) {
      v /= 10;
      d++;
    }
    return d;
  }

  /** Writes a non-negative int in decimal at {@code at}; returns the offset after it. */
  static int writeInt(byte[] b, int at, int v) {
    int end = at + digits(v);
    for (int p = end - 1; p >= at; p--) {
      b[p] = (byte) ('0' + v % 10);
      v /= 10;
    }
    return end;
  }
}
