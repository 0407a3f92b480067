package org.nvimpam.plugin;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.msgpack.core.MessagePacker;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.model.PartsFormat;
import org.nvimpam.model.PartsModel;
import org.nvimpam.model.PartsTable;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.Encoder;

/**
 * :NvimpamParts: the parts table ({@link PartsModel}) of a deck and its include tree as saved,
 * read from disk off Neovim's main loop, with how far it got told to the table buffer every
 * quarter second. The answer: the table's lines ({@link PartsFormat}), each part's sort keys and
 * card, and the columns' spans.
 */
final class PartsCall {
  private static final long PROGRESS_EVERY_MS = 250;

  private PartsCall() {}

  /** {@code args}: the deck's file, the table buffer. */
  static Encoder run(Nvim nvim, List<Object> args) throws IOException {
    if (args.size() < 2 || !(args.get(0) instanceof String name) || name.isEmpty() || !(args.get(1) instanceof Number tb)) {
      throw new IllegalArgumentException("parts takes a deck's file and a buffer");
    }
    Path deck;
    try {
      deck = Path.of(name).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("nvimpam: " + name + " is no file name", e);
    }
    long tbuf = tb.longValue();
    long[] last = {System.nanoTime()};
    List<String> problems = new ArrayList<>();
    PartsTable t;
    try {
      t = PartsModel.read(deck, (file, bytes, lines) -> {
        long now = System.nanoTime();
        if (now - last[0] < PROGRESS_EVERY_MS * 1_000_000) return;
        last[0] = now;
        String text = "nvimpam: reading " + file.getFileName() + ": " + lines + " lines";
        LuaEntry.PARTS_PROGRESS.notify(nvim, out -> out.packLong(tbuf).packString(text));
      }, problems);
    } catch (IncludeFiles.Unreadable e) {
      throw new IllegalArgumentException("nvimpam: " + deck + " " + e.getMessage(), e);
    }
    Path dir = deck.getParent();
    PartsFormat.Lines l = PartsFormat.lines(t, f -> dir == null ? f.toString() : dir.relativize(f).toString());
    return out -> {
      out.packMapHeader(6);
      out.packString("header").packString(l.header());
      out.packString("columns").packArrayHeader(PartsFormat.COLUMNS.size());
      for (String c : PartsFormat.COLUMNS) out.packString(c);
      out.packString("starts").packArrayHeader(l.starts().length);
      for (int s : l.starts()) out.packInt(s);
      out.packString("parts").packArrayHeader(l.parts().size());
      for (PartsFormat.Line p : l.parts()) line(out, p, true);
      out.packString("tail").packArrayHeader(l.tail().size());
      for (PartsFormat.Line p : l.tail()) line(out, p, false);
      out.packString("problems").packArrayHeader(problems.size());
      for (String p : problems) out.packString(p);
    };
  }

  private static void line(MessagePacker out, PartsFormat.Line l, boolean keys) throws IOException {
    out.packMapHeader(keys ? 4 : 3);
    out.packString("text").packString(l.text());
    out.packString("file").packString(l.file() == null ? "" : l.file().toString());
    out.packString("lnum").packLong(l.line() + 1L);
    if (!keys) return;
    out.packString("keys").packArrayHeader(l.keys().size());
    for (Object k : l.keys()) {
      if (k == null) out.packNil();
      else if (k instanceof Long n) out.packLong(n);
      else if (k instanceof Double d) out.packDouble(d);
      else out.packString(k.toString());
    }
  }
}
