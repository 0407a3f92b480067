package org.nvimpam.strategy;

import java.io.IOException;
import org.msgpack.core.MessagePacker;
import org.nvimpam.fold.FoldPlan;

/**
 * The one argument our Lua code takes (the `viml` strategy stages it there too): {@code {buf, folds, names}} with 4 integers per
 * fold (start, end, name index, member count) in creation order, written straight from the plan's
 * primitives. See lua/nvimpam/folds.lua for the receiving side.
 *
 * <p>The integers travel as one binary string of little-endian 32-bit values: Neovim turns a
 * msgpack array into a Lua table element by element (a quarter of the whole refresh at 100k
 * folds), while a binary string arrives as one Lua string that LuaJIT reads in place.
 */
final class PlanPayload {
  static final int INTS_PER_FOLD = 4;

  private PlanPayload() {}

  private static final int BYTES_PER_FOLD = 4 * INTS_PER_FOLD;
  private static final int CHUNK_FOLDS = 4096;

  /** The payload with the folds as one binary string, for our Lua code. */
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
    out.packMapHeader(3 + (tick >= 0 ? 1 : 0) + (commands ? 1 : 0));
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
    out.packString("folds");
    int n = plan.size();
    out.packBinaryHeader(n * BYTES_PER_FOLD);
    byte[] chunk = new byte[Math.min(n, CHUNK_FOLDS) * BYTES_PER_FOLD];
    for (int from = 0; from < n; from += CHUNK_FOLDS) {
      int to = Math.min(n, from + CHUNK_FOLDS);
      int p = 0;
      for (int i = from; i < to; i++) {
        p = putInt(chunk, p, plan.start(i));
        p = putInt(chunk, p, plan.end(i));
        p = putInt(chunk, p, plan.nameIndex(i));
        p = putInt(chunk, p, plan.count(i));
      }
      out.writePayload(chunk, 0, p);
    }
    names(out, plan);
  }

  private static int putInt(byte[] b, int p, int v) {
    b[p] = (byte) v;
    b[p + 1] = (byte) (v >>> 8);
    b[p + 2] = (byte) (v >>> 16);
    b[p + 3] = (byte) (v >>> 24);
    return p + 4;
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
