package org.nvimpam.strategy;

import java.io.IOException;
import org.msgpack.core.MessagePacker;
import org.nvimpam.fold.FoldPlan;

/**
 * The one argument our Lua and VimL code take: {@code {buf, folds, names}} with 4 integers per
 * fold (start, end, name index, member count) in creation order, written straight from the plan's
 * primitives. See lua/nvimpam/folds.lua for the receiving side.
 */
final class PlanPayload {
  static final int INTS_PER_FOLD = 4;

  private PlanPayload() {}

  static void pack(MessagePacker out, long buffer, FoldPlan plan) throws IOException {
    out.packMapHeader(3);
    out.packString("buf");
    out.packLong(buffer);
    out.packString("folds");
    int n = plan.size();
    out.packArrayHeader(n * INTS_PER_FOLD);
    for (int i = 0; i < n; i++) {
      out.packInt(plan.start(i));
      out.packInt(plan.end(i));
      out.packInt(plan.nameIndex(i));
      out.packInt(plan.count(i));
    }
    String[] names = plan.names();
    out.packString("names");
    out.packArrayHeader(names.length);
    for (String name : names) {
      out.packString(name);
    }
  }

  /**
   * The fold index in an error our Lua/VimL code raised ("fold N of M (lines S-E): reason"), 0-based,
   * or -1 when the message names no fold.
   */
  static int failedFold(String message) {
    int at = message.indexOf("fold ");
    while (at >= 0) {
      int p = at + 5;
      int n = 0;
      int digits = 0;
      while (p < message.length() && Character.isDigit(message.charAt(p)) && digits < 10) {
        n = n * 10 + (message.charAt(p++) - '0');
        digits++;
      }
      if (digits > 0 && message.startsWith(" of ", p)) {
        return n - 1;
      }
      at = message.indexOf("fold ", at + 1);
    }
    return -1;
  }
}
