package org.nvimpam.plugin;

import java.io.IOException;
import java.util.Locale;
import org.msgpack.core.MessagePacker;

/**
 * What one fold of a buffer did: the answer to :NvimpamFold and the last line of :NvimpamFoldInfo.
 * {@code getMs} is the time to fetch the lines from Neovim, 0 for a live buffer whose lines the
 * JVM already holds. {@code waitMs} is the time the edits and their refold waited for other work
 * (the buffer's lock, held by a step of the checks or the id index; a push of another buffer),
 * apart from their own cost.
 */
record FoldSummary(long buf, int lines, int folds, double getMs, double parseMs, double waitMs, double pushMs,
    String strategy) {
  double totalMs() {
    return getMs + parseMs + waitMs + pushMs;
  }

  /** "nvimpam: 1,000,000 lines, 1,367 folds in 0.42 s": what the user sees after a big deck. */
  String message() {
    return String.format(Locale.ROOT, "nvimpam: %s lines, %s folds in %.2f s", Messages.grouped(lines),
        Messages.grouped(folds), totalMs() / 1000);
  }

  void pack(MessagePacker out) throws IOException {
    out.packMapHeader(10);
    out.packString("message").packString(message());
    out.packString("buf").packLong(buf);
    out.packString("lines").packInt(lines);
    out.packString("folds").packInt(folds);
    out.packString("get_ms").packDouble(getMs);
    out.packString("total_ms").packDouble(totalMs());
    out.packString("parse_ms").packDouble(parseMs);
    out.packString("wait_ms").packDouble(waitMs);
    out.packString("push_ms").packDouble(pushMs);
    out.packString("strategy").packString(strategy);
  }
}
