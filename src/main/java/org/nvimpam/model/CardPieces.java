package org.nvimpam.model;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.nvimpam.deck.ChunkLines;
import org.nvimpam.deck.DeckChunk;

/**
 * Cuts a file's chunks, as they are read, into pieces of whole cards: a piece ends where the last
 * card header of a chunk begins, so that a worker can walk each piece on its own. What `check`,
 * `parts` and the other headless commands stream a file in.
 */
final class CardPieces {
  private final List<DeckChunk> pending = new ArrayList<>();
  private final List<Integer> pendingFrom = new ArrayList<>();
  private final Consumer<ChunkLines> piece;

  /** {@code piece} gets each piece, in file order; an empty one is never handed on. */
  CardPieces(Consumer<ChunkLines> piece) {
    this.piece = piece;
  }

  /**
   * The file's next chunk. A chunk is held ({@link DeckChunk#hold}) while it waits here and by
   * each piece made of it: a consumer that calls {@link ChunkLines#done} on its pieces lets the
   * file's reader read into their segments again.
   */
  void take(DeckChunk c) {
    c.hold(); // before a piece of it is made: a worker done with that piece must not free it
    int h = ChunkLines.lastHeader(c);
    if (h > 0 || (h == 0 && !pending.isEmpty())) {
      emit(c, h);
      release();
      pending.add(c);
      pendingFrom.add(h);
    } else {
      pending.add(c);
      pendingFrom.add(0);
    }
  }

  /** The file ended: what is left is its last piece. */
  void end() {
    if (!pending.isEmpty()) emit(null, 0);
    release();
  }

  private void release() {
    for (DeckChunk d : pending) d.done();
    pending.clear();
    pendingFrom.clear();
  }

  /** The pending chunks and lines {@code [0, to)} of {@code c} (none when null) as a piece. */
  private void emit(DeckChunk c, int to) {
    int n = pending.size() + (c == null ? 0 : 1);
    DeckChunk[] cs = new DeckChunk[n];
    int[] from = new int[n];
    for (int i = 0; i < pending.size(); i++) {
      cs[i] = pending.get(i);
      from[i] = pendingFrom.get(i);
    }
    if (c != null) cs[n - 1] = c;
    ChunkLines lines = new ChunkLines(cs, from, c != null ? to : cs[n - 1].count());
    if (lines.lineCount() == 0) return;
    lines.hold();
    piece.accept(lines);
  }
}
