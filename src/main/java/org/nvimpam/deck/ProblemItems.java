package org.nvimpam.deck;

import java.io.IOException;
import java.util.Arrays;
import org.msgpack.core.MessagePacker;

/**
 * Problems as the Lua side shows them (set() of lua/nvimpam/ui/diagnostics.lua and of
 * lua/nvimpam/ids/init.lua, :NvimpamCheck): {@code at} holds lnum, col, end_col and severity for
 * each message, {@code codes} its code, and {@code total} counts the problems found, shown or
 * not. The field checks and the cross-reference checks both send them.
 */
public record ProblemItems(int total, int[] at, byte[][] messages, ProblemCode[] codes) {
  /** A flat array {@code [lnum, col, end_col, severity, message, code, …]}. */
  public void packItems(MessagePacker out) throws IOException {
    out.packArrayHeader(6 * messages.length);
    for (int p = 0; p < messages.length; p++) {
      out.packInt(at[4 * p]).packInt(at[4 * p + 1]).packInt(at[4 * p + 2]).packInt(at[4 * p + 3]);
      out.packRawStringHeader(messages[p].length).writePayload(messages[p]);
      out.packString(codes[p].code());
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ProblemItems s && s.total == total && Arrays.equals(s.at, at)
        && Arrays.deepEquals(s.messages, messages) && Arrays.equals(s.codes, codes);
  }

  @Override
  public int hashCode() {
    return 31 * total + Arrays.hashCode(at);
  }
}
