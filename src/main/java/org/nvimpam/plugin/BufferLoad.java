package org.nvimpam.plugin;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import org.msgpack.core.MessageUnpacker;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.DeckChunk;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.SegmentWriter;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.BufferListener;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.FileStamp;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.nvim.StartTrace;
import org.nvimpam.rpc.Encoder;

/**
 * Attaches to a buffer without its initial dump ({@code nvim_buf_attach(buf, false, {})}: with
 * {@code true} Neovim builds the whole buffer as ONE message in its main loop) and fetches its
 * lines in pipelined {@code nvim_buf_get_lines} chunks of bounded bytes, decoded straight into a
 * {@link Deck}, while edits made meanwhile keep arriving as {@code nvim_buf_lines_event}s.
 *
 * <p>Consistency rests on wire order: chunk replies and events come over one connection, and
 * {@link org.nvimpam.rpc.RpcConnection#requestInOrder} hands both to the dispatcher thread in that
 * order, so every reply reflects exactly the events handled before it. The load keeps "lines
 * [0, fetched) are known": an event inside that prefix is applied to it, an event beyond it is
 * left for the chunks that will fetch those lines, and an event that shifts lines (or reaches
 * past the prefix) makes every chunk requested before it stale: its reply is dropped and the range
 * asked again. So each edit is applied exactly once. Progress: stale chunks are re-asked at half
 * the size (down to one line), and a load that keeps being overtaken gives up after wasting a
 * bounded number of bytes, with a message.
 *
 * <p>All state below is confined to the dispatcher thread, except what the chunk decoder (on the
 * reader thread) reads: {@link #epoch} and {@link #closed}, to skip replies already known stale.
 *
 * <p>{@link #read} is the one-off read of a buffer that is not attached (:NvimpamFold,
 * :NvimpamCheck), with the same disk fast path and chunks.
 */
public final class BufferLoad implements BufferListener {
  /** Sizes of the pipeline; see bench/README.md for how the defaults were measured. */
  public record Options(int chunkBytes, int inFlight, boolean fromDisk) {
    /**
     * 1 MiB chunks, 3 in flight: Neovim spends a few ms per chunk in its main loop, and the
     * whole fetch is as fast as with 4 MiB chunks. The file is read from disk when provably the
     * buffer's text (needs lua/nvimpam/host/filestate.lua on the runtimepath).
     */
    public static final Options DEFAULT = new Options(1 << 20, 3, true);

    public Options {
      if (chunkBytes < 1 || inFlight < 1) throw new IllegalArgumentException("chunkBytes and inFlight must be >= 1");
    }

    public Options(int chunkBytes, int inFlight) {
      this(chunkBytes, inFlight, false);
    }
  }

  /** Where a finished load goes. Every method runs on the dispatcher thread. */
  public interface Target extends BufferListener {
    /**
     * The deck equals the buffer as of now; every later event goes to {@link #onLines} from here
     * on, in order.
     */
    void onLoaded(Buffer buf, Deck deck, Stats stats);

    /**
     * The load failed (cause is an {@link OutOfMemoryError} when the heap ran out); no events
     * follow. {@code lines} and {@code deckBytes} (newlines included) are the buffer's size as
     * Neovim reported it, 0 if unknown.
     */
    void onLoadFailed(Buffer buf, Throwable cause, int lines, long deckBytes);

    /** {@code fetched} of the buffer's {@code count} lines are known; after every chunk. */
    default void onProgress(Buffer buf, int fetched, int count) {}
  }

  /**
   * What a load cost, for summaries and the benchmark. {@code source} is "disk", or "rpc" and
   * why the file could not be read instead.
   */
  public record Stats(int lines, long bytes, int chunks, int staleChunks, int editsDuringLoad, double ms,
      String source) {
    public Stats(int lines, long bytes, int chunks, int staleChunks, int editsDuringLoad, double ms) {
      this(lines, bytes, chunks, staleChunks, editsDuringLoad, ms, "rpc");
    }
  }

  /**
   * A read of the buffer's file made before the load began (while Neovim read it), which the
   * load may take instead of reading the file itself.
   */
  public interface EarlyFile {
    /** The early read's deck and how long it took to read, or why it cannot stand in for the file ({@code deck} null). */
    record Taken(Deck deck, String why, double readMs) {}

    /**
     * The deck, when the early read read {@code path} in state {@code stamp} (as Neovim read it);
     * waits for a read still running at most {@code deadline}.
     */
    Taken take(String path, FileStamp stamp, Duration deadline);
  }

  /** How long a load waits for an early read still running, before it reads the file itself. */
  private static final Duration EARLY_READ_WAIT = Duration.ofSeconds(30);

  /** The buffer's size, and with {@code fromDisk} whether (and where) its file is its text. */
  private static final String STATE = "local b, disk = ... "
      + "local ok, fs = pcall(require, '" + LuaEntry.FILESTATE_CHECK.module() + "') "
      + "if disk and ok then return fs." + LuaEntry.FILESTATE_CHECK.function() + "(b, " + DiskCheck.SAMPLES + ") end "
      + "local n = vim.api.nvim_buf_line_count(b) "
      + "return {n, vim.api.nvim_buf_get_offset(b, n), disk and 'no lua/nvimpam/host/filestate.lua' or 'not asked'}";
  /** Reaching 1/4 of the deck's bytes (or 64 MiB) in discarded chunks ends the load. */
  private static final long MIN_WASTE_LIMIT = 64L << 20;

  private final Nvim nvim;
  private final Buffer buf;
  private final Target target;
  private final Options options;
  private final EarlyFile early; // null: none
  private final long t0 = System.nanoTime();

  private volatile long epoch; // bumped by every event that makes requested chunks stale
  private volatile boolean closed;

  private SegmentWriter writer; // used by the reader thread only, once created
  private Deck deck;
  private boolean counted; // the line count is known; events after it must be tracked
  private int count; // lines of the buffer now
  private int fetched; // lines [0, fetched) are in the deck
  private int requestedTo; // lines [fetched, requestedTo) are asked by valid chunks in flight
  private int inFlight; // chunk requests without a handled reply, stale ones included
  private int linesPerChunk;
  private int fullChunkLines;
  private boolean failed;
  private String source = "rpc";
  private long expectedBytes; // the buffer's bytes with newlines, as Neovim counted them
  private long waste;
  private long wasteLimit;
  private int chunks;
  private int staleChunks;
  private int edits;

  private BufferLoad(Nvim nvim, Buffer buf, Target target, Options options, EarlyFile early) {
    this.nvim = nvim;
    this.buf = buf;
    this.target = target;
    this.options = options;
    this.early = early;
  }

  /**
   * Starts loading {@code buf} for {@code target}; returns at once. The target hears of the
   * result on the dispatcher thread. The returned load can be {@linkplain #cancel cancelled}.
   */
  public static BufferLoad start(Nvim nvim, Buffer buf, Target target, Options options) {
    return start(nvim, buf, target, options, null);
  }

  /** {@link #start(Nvim, Buffer, Target, Options)} that may take {@code early}, an early read of the buffer's file. */
  public static BufferLoad start(Nvim nvim, Buffer buf, Target target, Options options, EarlyFile early) {
    BufferLoad load = new BufferLoad(nvim, buf, target, options, early);
    nvim.listen(buf, load); // before the attach: events may follow its reply at once
    nvim.rpc().requestInOrder("nvim_buf_attach", nvim.args(buf, false, java.util.Map.of()),
        Decoders.booleanValue(), load::attached);
    // Asked right behind the attach; events between the two replies are already counted in it.
    nvim.rpc().requestInOrder("nvim_exec_lua", stateParams(nvim, buf, options), DiskCheck::read, load::state);
    return load;
  }

  /** A buffer's lines as of one moment, and where they came from (as {@link Stats#source}). */
  public record Snapshot(Deck deck, String source) {}

  /**
   * Every line of a buffer, as one snapshot, in a deck; blocks. {@link #read} with {@link
   * Options#DEFAULT}: from the buffer's file when that is provably its text, else in pipelined
   * chunks.
   */
  public static Deck deckOf(Nvim nvim, Buffer buf) {
    return read(nvim, buf, Options.DEFAULT).deck();
  }

  /** A read that an edit overtook each time gives up after this many. */
  private static final int READ_ATTEMPTS = 3;

  /**
   * Every line of {@code buf} as one snapshot, without attaching; blocks, each reply waited for
   * at most {@link Await#CALL}. The same fast path as a load: the file when Neovim read it
   * unchanged and it still is what Neovim read (verified on sample lines); else the lines come in
   * pipelined chunks of {@code options.chunkBytes()}, decoded straight into the deck's segments,
   * so that Neovim encodes one while we decode the one before and neither side builds one message
   * of the whole buffer. The changedtick is read before the buffer's state and again behind the
   * last chunk (or the state), in the same pipeline; if an edit slipped in between, the read
   * starts over, at most {@value #READ_ATTEMPTS} times.
   *
   * @throws Await.DeadlineException when Neovim did not answer in time
   */
  public static Snapshot read(Nvim nvim, Buffer buf, Options options) {
    return read(nvim, buf, options, Await.CALL);
  }

  /** {@link #read(Nvim, Buffer, Options)}, each reply waited for at most {@code deadline}. */
  static Snapshot read(Nvim nvim, Buffer buf, Options options, Duration deadline) {
    for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
      Snapshot s = readOnce(nvim, buf, options, deadline);
      if (s != null) return s;
    }
    throw new IllegalStateException("buffer " + buf.id() + " changed during each of " + READ_ATTEMPTS
        + " reads of its lines; try again when it is idle");
  }

  /** One consistent read, or null when the buffer changed meanwhile. */
  private static Snapshot readOnce(Nvim nvim, Buffer buf, Options o, Duration deadline) {
    CompletableFuture<Long> before = nvim.bufChangedtick(buf);
    CompletableFuture<DiskCheck> asked = nvim.call("nvim_exec_lua", stateParams(nvim, buf, o), DiskCheck::read);
    long tick = Await.within(before, deadline, "reading the changedtick of buffer " + buf.id());
    DiskCheck s = Await.within(asked, deadline, "reading the line count of buffer " + buf.id());
    int count = s.lines();
    String why = s.refused();
    if (why == null) {
      if (Await.within(nvim.bufChangedtick(buf), deadline, "reading the changedtick of buffer " + buf.id()) != tick) return null;
      FromDisk d = fromDisk(s, count, null);
      if (d.deck() != null) return new Snapshot(d.deck(), d.source());
      why = d.source();
    }
    long bytes = Math.max(0, s.bytes() - count); // without the newlines
    int step = linesPerChunk(count, bytes, o);
    SegmentWriter w = new SegmentWriter(bytes); // confined to the reader thread, which decodes
    Deck deck = Deck.withCapacity(count);
    ArrayDeque<CompletableFuture<DeckChunk>> inFlight = new ArrayDeque<>();
    CompletableFuture<Long> after = null;
    int next = 0;
    while (deck.lineCount() < count || !inFlight.isEmpty()) {
      while (inFlight.size() < o.inFlight() && next < count) {
        int first = next;
        int end = (int) Math.min(count, (long) first + step);
        inFlight.add(nvim.call("nvim_buf_get_lines", out -> {
          out.packArrayHeader(4);
          nvim.writeBuffer(out, buf);
          out.packInt(first).packInt(end).packBoolean(false);
        }, in -> readLinesInto(in, w)));
        next = end;
        if (next == count) after = nvim.bufChangedtick(buf); // behind the last chunk
      }
      if (inFlight.isEmpty()) break;
      deck.append(Await.within(inFlight.poll(), deadline, "reading lines of buffer " + buf.id()));
    }
    if (after == null) after = nvim.bufChangedtick(buf);
    long tickAfter = Await.within(after, deadline, "reading the changedtick of buffer " + buf.id());
    return tickAfter == tick && deck.lineCount() == count ? new Snapshot(deck, "rpc (" + why + ")") : null;
  }

  /** A deck read from the buffer's file and where it came from; or no deck and why not. */
  private record FromDisk(Deck deck, String source) {}

  /**
   * The buffer's lines from its file, which Neovim read unchanged and which still is what it
   * read: the early read's when it read the file in that state, else a read now; verified
   * against the buffer's size and sample lines either way. A CR that ends a line is dropped for
   * a buffer with 'fileformat' dos, as Neovim dropped it.
   */
  private static FromDisk fromDisk(DiskCheck s, int count, EarlyFile early) {
    try {
      Deck d = null;
      String source = "disk";
      if (early != null && s.stamp() != null) {
        EarlyFile.Taken t = early.take(s.path(), s.stamp(), EARLY_READ_WAIT);
        d = t.deck();
        if (d != null) {
          if (s.dos()) d.dropFinalCrs(s.eol());
          // no String.format: its first use costs a cold JVM 10 ms
          source = "disk, read early (in " + Math.round(t.readMs()) + " ms, while Neovim read it)";
        } else {
          source = "disk (early read discarded: " + t.why() + ")";
        }
      }
      if (d == null) d = DeckFile.read(Path.of(s.path()), count, s.size(), s.dos());
      String why = s.differs(d);
      return why != null ? new FromDisk(null, why) : new FromDisk(d, source);
    } catch (IOException | RuntimeException err) {
      return new FromDisk(null, "cannot read the file: " + err.getMessage());
    }
  }

  /** The params of the {@link #STATE} request. */
  private static Encoder stateParams(Nvim nvim, Buffer buf, Options options) {
    return out -> {
      out.packArrayHeader(2).packString(STATE).packArrayHeader(2);
      nvim.writeBuffer(out, buf);
      out.packBoolean(options.fromDisk());
    };
  }

  /** Lines per chunk of about {@code options.chunkBytes()}, at the buffer's mean line length. */
  private static int linesPerChunk(int count, long bytes, Options options) {
    double perLine = count == 0 ? 64 : Math.max(1.0, (double) bytes / count);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, options.chunkBytes() / perLine));
  }

  /**
   * Reads an array of str/bin straight into the segments of a deck being loaded: each line's bytes
   * are read once, from the message to where the deck keeps them.
   */
  static DeckChunk readLinesInto(MessageUnpacker in, SegmentWriter w) throws IOException {
    int n = in.unpackArrayHeader();
    // n is bounded by the frame's size, which the frame scanner has already checked; the index
    // is sized for at most a chunk's worth of lines up front (n empty lines are only n bytes)
    w.begin(Math.min(n, 1 << 17));
    for (int i = 0; i < n; i++) {
      int len = in.unpackRawStringHeader();
      byte[] dst = w.reserve(len);
      in.readPayload(dst, w.position(), len);
      w.commit(len);
    }
    return w.end();
  }

  /** Stops the load; nothing more reaches the target. Call on any thread. */
  public void cancel() {
    closed = true;
  }

  private void attached(Boolean ok, Throwable e) {
    if (closed) return;
    if (e != null) {
      fail(e);
    } else if (!ok) {
      fail(new IllegalStateException("Neovim refused to attach to buffer " + buf.id() + " (is it loaded?)"));
    }
  }

  private void state(DiskCheck s, Throwable e) {
    StartTrace.mark("buffer state");
    if (closed) return;
    if (e != null) {
      fail(e);
      return;
    }
    try {
      count = s.lines();
      expectedBytes = s.bytes();
      long bytes = Math.max(0, s.bytes() - count); // without the newlines
      // The disk fast path: only at the attach's own buffer state, and only for a file that
      // Neovim read unchanged and that still is what it read; verified on sample lines.
      String why = edits > 0 ? "edited while attaching" : s.refused();
      if (why == null) {
        FromDisk d = fromDisk(s, count, early);
        if (d.deck() != null) {
          deck = d.deck();
          fetched = count;
          source = d.source();
          counted = true;
          complete();
          return;
        }
        why = d.source();
      }
      source = "rpc (" + why + ")";
      wasteLimit = Math.max(MIN_WASTE_LIMIT, bytes / 4);
      fullChunkLines = linesPerChunk(count, bytes, options);
      linesPerChunk = fullChunkLines;
      deck = Deck.withCapacity(count);
      writer = new SegmentWriter(bytes);
      counted = true;
      progress();
    } catch (OutOfMemoryError oom) {
      fail(oom);
    }
  }

  @Override
  public void onLines(Buffer b, long changedtick, int first, int last, Lines data, boolean more) {
    if (closed) return;
    edits++;
    if (!counted) return; // the line count, asked after this event was sent, includes it
    try {
      int delta = data.count() - (last - first);
      // Chunks asked before this event are stale if it shifts lines or moves the prefix's end;
      // a change in place beyond the prefix is in their replies already (they ran after it).
      boolean stale = delta != 0 || (first < fetched && last > fetched);
      if (last <= fetched) {
        deck.replace(first, last, data);
        fetched += delta;
      } else if (first < fetched) { // reaches past the prefix: the new lines end it
        deck.replace(first, fetched, data);
        fetched = first + data.count();
      }
      count += delta;
      if (count == 0) { // so fetched is 0 too, and stale
        deck.replace(0, 0, BufferListener.lineLeftWhenEmptied());
        fetched = count = 1;
      }
      if (stale) {
        epoch++;
        requestedTo = fetched;
        linesPerChunk = Math.max(1, linesPerChunk / 2);
      }
      progress();
    } catch (RuntimeException | OutOfMemoryError err) {
      fail(err);
    }
  }

  /** Detached while loading (e.g. :edit! reloads it): not a failure; the target hears of it. */
  @Override
  public void onDetach(Buffer b) {
    if (closed) return;
    closed = true;
    failed = true;
    deck = null;
    writer = null;
    target.onDetach(b);
  }

  /** Sends chunks up to the window, or hands the deck over when every line is known. */
  private void progress() {
    if (fetched == count) {
      complete();
      return;
    }
    while (inFlight < options.inFlight() && requestedTo < count) {
      int s = requestedTo;
      int e = (int) Math.min(count, (long) s + linesPerChunk);
      request(s, e, epoch);
      requestedTo = e;
    }
  }

  private void request(int start, int end, long sentAt) {
    inFlight++;
    SegmentWriter w = writer;
    nvim.rpc().requestInOrder("nvim_buf_get_lines", out -> {
      out.packArrayHeader(4);
      nvim.writeBuffer(out, buf);
      out.packInt(start).packInt(end).packBoolean(false);
    }, in -> decode(in, w, sentAt), (c, e) -> chunk(start, end, sentAt, c, e));
  }

  /** On the reader thread: the lines into the deck's segments, or skipped when already stale. */
  private DeckChunk decode(MessageUnpacker in, SegmentWriter w, long sentAt) throws IOException {
    if (closed || sentAt != epoch) {
      in.skipValue();
      return null;
    }
    try {
      return readLinesInto(in, w);
    } catch (OutOfMemoryError oom) {
      closed = true; // drop the rest as it comes; the dispatcher reports this one
      throw new IOException("out of memory decoding lines", oom);
    }
  }

  private void chunk(int start, int end, long sentAt, DeckChunk c, Throwable e) {
    inFlight--;
    if (e != null) {
      Throwable oom = outOfMemory(e);
      fail(oom != null ? oom : e);
      return;
    }
    if (closed) return;
    try {
      chunks++;
      if (c == null || sentAt != epoch) {
        staleChunks++;
        if (c != null) waste += c.byteSize();
        if (waste > wasteLimit) {
          fail(new IllegalStateException("buffer " + buf.id() + " changed faster than its lines could be read ("
              + staleChunks + " chunks overtaken by edits); try again"));
          return;
        }
      } else {
        if (start != fetched || c.count() != end - start) {
          fail(new IllegalStateException("lines of buffer " + buf.id() + " out of step: asked [" + start + ", "
              + end + "), got " + c.count() + " lines with " + fetched + " known"));
          return;
        }
        deck.append(c);
        fetched = end;
        linesPerChunk = Math.min(fullChunkLines, linesPerChunk * 2);
        target.onProgress(buf, fetched, count);
      }
      progress();
    } catch (RuntimeException | OutOfMemoryError err) {
      fail(err);
    }
  }

  private static Throwable outOfMemory(Throwable e) {
    int depth = 0;
    for (Throwable t = e; t != null && depth < 16; t = t.getCause(), depth++) {
      if (t instanceof OutOfMemoryError) return t;
    }
    return null;
  }

  private void complete() {
    StartTrace.mark("loaded");
    closed = true; // later (stale) replies are skipped unread
    Deck d = deck;
    deck = null;
    writer = null;
    nvim.listen(buf, target); // we are on the dispatcher: no event slips in between
    target.onLoaded(buf, d, new Stats(count, d.byteSize(), chunks, staleChunks, edits, (System.nanoTime() - t0) / 1e6,
        source));
  }

  private void fail(Throwable cause) {
    if (failed) return;
    failed = true;
    closed = true;
    deck = null; // drop the partial deck at once: after an OutOfMemoryError the heap is needed
    writer = null;
    nvim.unlisten(buf, this);
    nvim.bufDetach(buf); // not awaited: we are on the thread that would complete it
    target.onLoadFailed(buf, cause, count, expectedBytes);
  }
}
