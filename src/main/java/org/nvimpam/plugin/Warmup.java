package org.nvimpam.plugin;

import java.io.IOException;
import java.io.InputStream;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.rpc.Log;

/**
 * Runs the first-use path (decode a buffer's lines, parse, plan, edit) on the bundled example deck
 * in a background thread as the JVM starts, so that the JIT has compiled it by the time Neovim
 * sends the first real buffer. Without it the first fold of a deck runs in the interpreter, which
 * is most of the time between opening a deck and seeing its folds.
 */
final class Warmup {
  private static final Log LOG = Log.of(Warmup.class);
  private static final int ROUNDS = 3;

  private Warmup() {}

  static void start() {
    Thread t = new Thread(Warmup::run, "nvimpam-warmup");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
  }

  private static void run() {
    try (InputStream in = Warmup.class.getResourceAsStream("/decks/example.pc")) {
      if (in == null) {
        return;
      }
      Lines lines = Lines.split(in.readAllBytes());
      byte[] event = pack(lines);
      for (int r = 0; r < ROUNDS; r++) {
        Lines decoded = Decoders.readLines(MessagePack.newDefaultUnpacker(event));
        FoldEngine engine = new FoldEngine(new FoldOptions(r % 2 == 0));
        engine.reset(decoded);
        engine.apply(100, 101, Lines.ofLatin1("NODE  /        1              0.              0.              0."));
        engine.folds().plan(false);
      }
    } catch (IOException | RuntimeException e) {
      LOG.fine("warm-up failed; the first fold will only be slower", e);
    }
  }

  /** The lines as the array of strings an nvim_buf_lines_event carries. */
  private static byte[] pack(Lines lines) throws IOException {
    try (MessageBufferPacker p = MessagePack.newDefaultBufferPacker()) {
      p.packArrayHeader(lines.count());
      for (int i = 0; i < lines.count(); i++) {
        p.packRawStringHeader(lines.length(i));
        p.writePayload(lines.data(), lines.start(i), lines.length(i));
      }
      return p.toByteArray();
    }
  }
}
