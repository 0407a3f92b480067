package org.nvimpam.deck;

import java.util.Arrays;

/**
 * Problems as an editor shows them (set() of lua/nvimpam/ui/diagnostics.lua and of
 * lua/nvimpam/ids/init.lua, :NvimpamCheck): {@code at} holds lnum, col, end_col and severity for
 * each message, {@code codes} its code, and {@code total} counts the problems found, shown or
 * not. The field checks and the cross-reference checks both give them; the plugin encodes them for
 * Neovim.
 */
public record ProblemItems(int total, int[] at, byte[][] messages, ProblemCode[] codes) {
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
