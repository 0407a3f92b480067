package org.nvimpam.plugin;

import java.io.IOException;
import org.msgpack.core.MessagePacker;
import org.nvimpam.deck.ProblemItems;
import org.nvimpam.ids.TreeProblems;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.ConnectionClosedException;
import org.nvimpam.rpc.Log;

/**
 * The publisher of a buffer's problems to Neovim: the field checks ({@link LuaEntry#DIAGNOSTICS_SET})
 * and the cross-reference checks ({@link LuaEntry#IDS_SET}), in one encoding of their items, and
 * :NvimpamCheck's problems of a whole tree. A Neovim that is gone hears nothing, and nothing fails
 * for it.
 */
final class Diagnostics {
  private static final Log LOG = Log.of(Diagnostics.class);

  private final Nvim nvim;

  Diagnostics(Nvim nvim) {
    this.nvim = nvim;
  }

  /** The field problems of {@code b} at {@code tick}; null: none (checks off). */
  void fields(Buffer b, long tick, ProblemItems problems) {
    try {
      LuaEntry.DIAGNOSTICS_SET.notify(nvim, out -> {
        out.packLong(b.id()).packLong(tick);
        packItemsAndTotal(out, problems);
      });
    } catch (ConnectionClosedException gone) {
      LOG.fine("could not send the diagnostics of buffer " + b.id(), gone);
    }
  }

  /** The cross-reference problems of buffer {@code buf}; null: none (checks off). */
  void refs(long buf, ProblemItems problems) {
    try {
      LuaEntry.IDS_SET.notify(nvim, out -> {
        out.packLong(buf);
        packItemsAndTotal(out, problems);
      });
    } catch (ConnectionClosedException gone) {
      LOG.fine("could not send the cross-reference problems of buffer " + buf, gone);
    }
  }

  private static void packItemsAndTotal(MessagePacker out, ProblemItems problems) throws IOException {
    if (problems == null) {
      out.packArrayHeader(0).packInt(0);
    } else {
      packItems(out, problems);
      out.packInt(problems.total());
    }
  }

  /**
   * :NvimpamCheck's answer: {files = [{path, buf}], items = [file (1-based), lnum, col, end_col,
   * severity, message, code, ...], total}: lines and columns 0-based, end exclusive; path "" for a
   * buffer without a file.
   */
  static void packTree(MessagePacker out, TreeProblems t) throws IOException {
    out.packMapHeader(3);
    out.packString("files").packArrayHeader(t.files().size());
    for (TreeProblems.File f : t.files()) {
      out.packMapHeader(2);
      out.packString("path").packString(f.path() == null ? "" : f.path().toString());
      out.packString("buf").packLong(f.buffer());
    }
    out.packString("items").packArrayHeader(7 * t.items().size());
    for (TreeProblems.Item it : t.items()) {
      out.packInt(it.file() + 1).packInt(it.lnum()).packInt(it.col()).packInt(it.end()).packInt(it.severity());
      out.packRawStringHeader(it.message().length).writePayload(it.message());
      out.packString(it.code().code());
    }
    out.packString("total").packLong(t.total());
  }

  /** A flat array {@code [lnum, col, end_col, severity, message, code, …]}. */
  static void packItems(MessagePacker out, ProblemItems p) throws IOException {
    byte[][] messages = p.messages();
    int[] at = p.at();
    out.packArrayHeader(6 * messages.length);
    for (int i = 0; i < messages.length; i++) {
      out.packInt(at[4 * i]).packInt(at[4 * i + 1]).packInt(at[4 * i + 2]).packInt(at[4 * i + 3]);
      out.packRawStringHeader(messages[i].length).writePayload(messages[i]);
      out.packString(p.codes()[i].code());
    }
  }
}
