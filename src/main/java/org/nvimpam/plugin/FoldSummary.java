package org.nvimpam.plugin;

import java.io.IOException;
import org.msgpack.core.MessagePacker;

/** What one fold of a buffer did: the answer to :NvimpamFold and the last line of :NvimpamFoldInfo. */
record FoldSummary(long buf, int lines, int folds, double parseMs, double pushMs, String strategy) {
  void pack(MessagePacker out) throws IOException {
    out.packMapHeader(6);
    out.packString("buf").packLong(buf);
    out.packString("lines").packInt(lines);
    out.packString("folds").packInt(folds);
    out.packString("parse_ms").packDouble(parseMs);
    out.packString("push_ms").packDouble(pushMs);
    out.packString("strategy").packString(strategy);
  }
}
