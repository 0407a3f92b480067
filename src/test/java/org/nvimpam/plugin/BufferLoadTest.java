package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.deck.Deck;
import org.nvimpam.fold.FoldEngine;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldSet;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.Encoders;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.testutil.EmbeddedNvim;

/**
 * Loading a buffer in chunks while it is edited, against a real Neovim: every edit lands exactly
 * once, wherever it falls relative to the lines fetched so far.
 */
class BufferLoadTest {
  private static final int LINES = 1_000_000;
  /**
   * Small chunks, so that the load spans hundreds of replies and the edits fall between them; one
   * in flight, so that edits sent after a chunk reach Neovim before the next chunk is asked: they
   * meet the prefix exactly where the test aims them.
   */
  private static final BufferLoad.Options ONE_AT_A_TIME = new BufferLoad.Options(64 << 10, 1);
  /** Several in flight: edits overtake chunks already asked, which must be asked again. */
  private static final BufferLoad.Options PIPELINED = new BufferLoad.Options(64 << 10, 3);
  private static final String BEAM = "BEAM  /        7       1       2       3";
  private static final String SHELL = "SHELL /        9       1       4       5       6       7";

  private Nvim nvim;
  private Buffer buf;

  @BeforeEach
  void start() throws Exception {
    nvim = EmbeddedNvim.start();
    // 1M lines of realistic cards: runs of NODE, a comment, runs of SHELL, a PART card.
    nvim.execLua("local t = {} for i = 1, " + LINES + " do local k = i % 1000 "
        + "if k < 600 then t[i] = string.format('NODE  / %8d       1.5       2.5       3.5', i) "
        + "elseif k == 600 then t[i] = '$ a comment' "
        + "elseif k < 990 then t[i] = string.format('SHELL / %8d       1%8d%8d%8d%8d', i, i, i + 1, i + 2, i + 3) "
        + "elseif k == 990 then t[i] = 'PART  /       12   SHELL' "
        + "else t[i] = 'NAME part ' .. i end end "
        + "vim.api.nvim_buf_set_lines(0, 0, -1, false, t)", Encoders.none()).get(60, TimeUnit.SECONDS);
    buf = nvim.currentBuffer().get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() {
    nvim.close();
  }

  /** What LiveBuffer does with a load, recorded for the test; edits are made at given progress. */
  private class Recorder implements BufferLoad.Target {
    final FoldEngine engine = new FoldEngine(new FoldOptions(true));
    final CompletableFuture<BufferLoad.Stats> loaded = new CompletableFuture<>();
    final List<CompletableFuture<?>> edits = new ArrayList<>();
    final double[] editAt; // fractions of the load at which to edit
    int nextEdit;
    long heapOfLoadedDeck;

    Recorder(double... editAt) {
      this.editAt = editAt;
    }

    @Override
    public void onLoaded(Buffer b, Deck deck, BufferLoad.Stats stats) {
      heapOfLoadedDeck = deck.heapBytes();
      engine.load(deck);
      loaded.complete(stats);
    }

    @Override
    public void onLoadFailed(Buffer b, Throwable cause, int lines, long deckBytes) {
      loaded.completeExceptionally(cause);
    }

    @Override
    public void onLines(Buffer b, long tick, int first, int last, Lines data, boolean more) {
      engine.apply(first, last, data);
    }

    @Override
    public void onProgress(Buffer b, int fetched, int count) {
      while (nextEdit < editAt.length && fetched >= editAt[nextEdit] * count) {
        editAround(fetched, count, nextEdit++);
      }
    }

    /**
     * Edits across, at, after and inside the fetched prefix {@code [0, f)}, in an order where
     * each position is known in the numbering Neovim applies it in; sent from here, not awaited.
     */
    void editAround(int f, int count, int round) {
      set(f - 1, f + 1, SHELL, BEAM); // a change in place across its end: it now ends at f + 1
      int p = f + 1;
      if (round % 2 == 0) { // alone (the chunk asked meanwhile must be dropped) or with the rest
        set(p + 40, p + 41, SHELL); // a change in place after it
        return;
      }
      set(p - 2, p + 2, SHELL); // a delete across its end: it now ends at p - 1
      p = p - 1;
      set(p, p, BEAM); // an insert at its end
      set(p + 20, p + 25); // a delete just after it
      set(p + 40, p + 41, SHELL); // a change in place after it
      set(p / 2, p / 2 + 1, BEAM); // a change inside it
      set(p / 3, p / 3, BEAM, SHELL, "$ inserted"); // an insert inside it
      set(count - 100 - round, count - 100 - round, "PART  /       13   BEAM", BEAM); // far after
      set(10 + round, 11 + round, SHELL); // near the top
    }

    final void set(int start, int end, String... lines) {
      edits.add(nvim.call("nvim_buf_set_lines", out -> {
        out.packArrayHeader(5);
        nvim.writeBuffer(out, buf);
        out.packInt(start).packInt(end).packBoolean(true).packArrayHeader(lines.length);
        for (String l : lines) out.packString(l);
      }, Decoders.nil()));
    }
  }

  private void assertEngineMatchesTheBuffer(Recorder r) throws Exception {
    for (CompletableFuture<?> e : r.edits) e.get(30, TimeUnit.SECONDS);
    nvim.sync().get(30, TimeUnit.SECONDS); // every event sent before has been applied
    Deck now = BufferLoad.deckOf(nvim, buf);
    Deck held = r.engine.deck();
    assertEquals(now.lineCount(), held.lineCount());
    for (int i = 0; i < now.lineCount(); i++) {
      if (now.length(i) != held.length(i)) assertArrayEquals(now.line(i), held.line(i), "line " + i);
    }
    for (int i = 0; i < now.lineCount(); i += 997) assertArrayEquals(now.line(i), held.line(i), "line " + i);
    FoldSet expected = FoldParser.parse(now, new FoldOptions(true));
    assertEquals(expected, r.engine.folds());
  }

  @Test
  void editsBeforeAcrossAndAfterTheFetchedLinesLandExactlyOnce() throws Exception {
    Recorder r = new Recorder(0.05, 0.3, 0.6, 0.9);
    BufferLoad.start(nvim, buf, r, ONE_AT_A_TIME);

    BufferLoad.Stats stats = r.loaded.get(120, TimeUnit.SECONDS);

    assertEquals(2 * 2 + 2 * 9, stats.editsDuringLoad(), "edits during the load: " + stats);
    assertEngineMatchesTheBuffer(r);
  }

  @Test
  void aBufferEmptiedDuringTheLoadHoldsTheEmptyLineThatLaterEditsCount() throws Exception {
    Recorder r = new Recorder(0.3) {
      @Override
      void editAround(int f, int count, int round) {
        set(0, -1); // every line: Neovim keeps one empty line, and no event says so
        set(1, 1, SHELL, BEAM); // after that line
        set(0, 1, "PART  /       12   SHELL"); // that line itself
      }
    };
    BufferLoad.start(nvim, buf, r, ONE_AT_A_TIME);

    r.loaded.get(120, TimeUnit.SECONDS);

    assertEngineMatchesTheBuffer(r);
    assertEquals(3, r.engine.deck().lineCount());
  }

  @Test
  void chunksOvertakenByEditsAreAskedAgainAndEveryEditLandsOnce() throws Exception {
    Recorder r = new Recorder(0.05, 0.2, 0.4, 0.6, 0.8, 0.95);
    BufferLoad.start(nvim, buf, r, PIPELINED);

    BufferLoad.Stats stats = r.loaded.get(120, TimeUnit.SECONDS);

    assertTrue(stats.staleChunks() > 0, "chunks overtaken by an edit: " + stats);
    assertEngineMatchesTheBuffer(r);
  }

  @Test
  void editsAfterTheLoadGoToTheTargetInOrder() throws Exception {
    Recorder r = new Recorder();
    BufferLoad.start(nvim, buf, r, BufferLoad.Options.DEFAULT);
    r.loaded.get(120, TimeUnit.SECONDS);

    r.editAround(LINES / 2, LINES, 0);

    assertEngineMatchesTheBuffer(r);
  }

  @Test
  void aLoadedDeckHoldsLittleMoreHeapThanItsBytes() throws Exception {
    Recorder r = new Recorder();
    BufferLoad.Stats stats = null;
    BufferLoad.start(nvim, buf, r, BufferLoad.Options.DEFAULT);
    stats = r.loaded.get(120, TimeUnit.SECONDS);
    // Segments are filled densely; the index is 8 bytes a line (about 1/6 of a 50-byte line).
    long bytesWithNewlines = stats.bytes() + stats.lines();
    assertTrue(r.heapOfLoadedDeck < 1.2 * bytesWithNewlines, r.heapOfLoadedDeck + " for " + bytesWithNewlines);
  }
}
