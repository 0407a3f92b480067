package org.nvimpam.strategy;

import java.io.IOException;
import org.msgpack.core.MessagePacker;
import org.nvimpam.fold.FoldPlan;

/**
 * The one argument our Lua code takes (the `viml` strategy stages it there too): {@code {buf,
 * folds, kinds, groups, names}}, written straight from the plan's primitives. See
 * lua/nvimpam/fold/plan.lua for the receiving side.
 *
 * <p>The integers travel as binary strings of little-endian values: Neovim turns a msgpack array
 * into a Lua table element by element (a quarter of the whole refresh at 100k folds), while a
 * binary string arrives as one Lua string that LuaJIT reads in place. {@code folds} holds start and
 * end of each fold (8 bytes), {@code kinds} its name index in the fewest bytes that hold every
 * index, {@code groups} index and member count of the level-2 folds only: 9 bytes per fold where
 * four integers took 16, and every byte Neovim reads costs it about 1.3 ns.
 */
final class PlanPayload {
  /** Folds per payload write. */
  private static final int CHUNK_FOLDS = 4096;

  private PlanPayload() {}

  /** The payload for our Lua code. */
  static void packForLua(MessagePacker out, long buffer, FoldPlan plan) throws IOException {
    packForLua(out, buffer, plan, -1);
  }

  /**
   * The same, with the changedtick the plan was computed for ({@code tick >= 0}), so that a live
   * refold can tell a stale plan from a current one.
   */
  static void packForLua(MessagePacker out, long buffer, FoldPlan plan, long tick) throws IOException {
    packForLua(out, buffer, plan, tick, 0);
  }

  /**
   * With {@code perLine > 0}, the payload also carries {@code cmds}: the plan's {@code S,Efold}
   * commands in one string of lines of {@code perLine} {@code |}-joined commands, for {@code
   * execute()} to run from C.
   */
  static void packForLua(MessagePacker out, long buffer, FoldPlan plan, long tick, int perLine)
      throws IOException {
    boolean commands = perLine > 0;
    out.packMapHeader(5 + (tick >= 0 ? 1 : 0) + (commands ? 1 : 0));
    if (commands) {
      out.packString("cmds");
      new FoldCommands().packLines(out, plan, 0, plan.size(), perLine);
    }
    if (tick >= 0) {
      out.packString("tick");
      out.packLong(tick);
    }
    out.packString("buf");
    out.packLong(buffer);
    byte[] chunk = new byte[Math.min(Math.max(plan.size(), 1), CHUNK_FOLDS) * 8];
    packFolds(out, plan, chunk);
    packKinds(out, plan, chunk);
    packGroups(out, plan, chunk);
    names(out, plan);
  }

  /** {@code folds}: start and end of every fold. */
  private static void packFolds(MessagePacker out, FoldPlan plan, byte[] chunk) throws IOException {
    int n = plan.size();
    out.packString("folds");
    out.packBinaryHeader(n * 8);
    for (int from = 0; from < n; from += CHUNK_FOLDS) {
      int to = Math.min(n, from + CHUNK_FOLDS);
      int p = 0;
      for (int i = from; i < to; i++) {
        p = putInt(chunk, p, plan.start(i));
        p = putInt(chunk, p, plan.end(i));
      }
      out.writePayload(chunk, 0, p);
    }
  }

  /** {@code kinds}: the name index of every fold, {@link #nameWidth} bytes each. */
  private static void packKinds(MessagePacker out, FoldPlan plan, byte[] chunk) throws IOException {
    int n = plan.size();
    int width = nameWidth(plan.names().length);
    out.packString("kinds");
    out.packBinaryHeader(n * width);
    for (int from = 0; from < n; from += CHUNK_FOLDS) {
      int to = Math.min(n, from + CHUNK_FOLDS);
      int p = 0;
      for (int i = from; i < to; i++) {
        p = putLow(chunk, p, plan.nameIndex(i), width);
      }
      out.writePayload(chunk, 0, p);
    }
  }

  /** {@code groups}: index and member count of each level-2 fold. */
  private static void packGroups(MessagePacker out, FoldPlan plan, byte[] chunk) throws IOException {
    int n = plan.size();
    int groups = 0;
    for (int i = 0; i < n; i++) {
      if (plan.count(i) > 0) {
        groups++;
      }
    }
    out.packString("groups");
    out.packBinaryHeader(groups * 8);
    int p = 0;
    for (int i = 0; i < n; i++) {
      if (plan.count(i) > 0) {
        if (p == chunk.length) {
          out.writePayload(chunk, 0, p);
          p = 0;
        }
        p = putInt(chunk, p, i);
        p = putInt(chunk, p, plan.count(i));
      }
    }
    out.writePayload(chunk, 0, p);
  }

  /** Bytes per name index: 1, 2 or 4, as few as hold every index below {@code names}. */
  static int nameWidth(int names) {
    return names <= 1 << 8 ? 1 : names <= 1 << 16 ? 2 : 4;
  }

  private static int putInt(byte[] b, int p, int v) {
    b[p] = (byte) v;
    b[p + 1] = (byte) (v >>> 8);
    b[p + 2] = (byte) (v >>> 16);
    b[p + 3] = (byte) (v >>> 24);
    return p + 4;
  }

  /** Writes the low {@code width} bytes of {@code v}, little-endian. */
  private static int putLow(byte[] b, int p, int v, int width) {
    for (int k = 0; k < width; k++) {
      b[p + k] = (byte) (v >>> (8 * k));
    }
    return p + width;
  }

  private static void names(MessagePacker out, FoldPlan plan) throws IOException {
    String[] names = plan.names();
    out.packString("names");
    out.packArrayHeader(names.length);
    for (String name : names) {
      out.packString(name);
    }
  }
}
