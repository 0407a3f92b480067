package org.nvimpam.rpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessageUnpacker;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.ApiInfo;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.BufferListener;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.Encoders;
import org.nvimpam.nvim.ExtTypes;
import org.nvimpam.nvim.Nvim;

/**
 * Seeded fuzzing of everything that reads the peer's bytes: the frame scanner, the decoders of
 * results, buffer lines and events, and a whole connection's reader path.
 *
 * <p>The seeds are real traffic (src/test/resources/rpc/nvim-traffic.bin, captured from a headless
 * Neovim by {@link NvimTrafficCapture}) and generated messages using every length form of every
 * header ({@link WireForms}). Every case must end in frames, a {@link ProtocolException} or a
 * detected truncation — never another exception, a hang, a scanner buffer larger than the bytes
 * that arrived justify, or a decoder allocating more than a fixed multiple of its frame.
 *
 * <p>{@code -Dnvimpam.fuzz.cases=N} sets the mutation cases (default 5,000: a few seconds);
 * {@code -Dnvimpam.fuzz.seed=S} the seed. The full run: {@code ./mvnw -o -Dnvimpam.fuzz.cases=1000000
 * -Dtest=WireFuzzTest test}.
 */
class WireFuzzTest {
  private static final int CASES = Integer.getInteger("nvimpam.fuzz.cases", 5_000);
  private static final long SEED = Long.getLong("nvimpam.fuzz.seed", 12L);
  /** One case in this many also goes through a whole {@link RpcConnection}. */
  private static final int CONNECTION_EVERY = Integer.getInteger("nvimpam.fuzz.connectionEvery", 25);
  /** Truncated by a fresh scanner too, not only checked byte by byte. */
  private static final int FRESH_TRUNCATION_MAX = 4096;
  private static final int SCANNER_MIN_CAPACITY = 64 * 1024;

  private static final RpcLimits DEFAULTS = RpcLimits.defaults();
  /** Tight limits, so that the over-limit paths and the buffer's cap are reached too. */
  private static final RpcLimits SMALL = RpcLimits.defaults().withMaxMessageBytes(96 * 1024)
      .withMaxStringBytes(64 * 1024).withMaxArrayLength(4096).withMaxMapLength(1024).withMaxDepth(12);

  /**
   * Decoders may allocate at most this many bytes per frame byte, plus SLACK. Object trees cost
   * up to ~60 bytes per 1-byte value ({} is a LinkedHashMap); lines cost their bytes, an offset
   * each, and at most 8 MiB of guessed room.
   */
  private static final int LINES_AMPLIFICATION = 16;
  private static final int OBJECT_AMPLIFICATION = 128;
  private static final long SLACK = 256 * 1024;
  private static final long LINES_SLACK = 8 << 20;

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private static List<byte[]> corpus;
  private static Map<Integer, String> methods;
  private static final Logger RPC_LOG = Logger.getLogger(RpcConnection.class.getName());
  private static final ConcurrentLinkedQueue<LogRecord> logged = new ConcurrentLinkedQueue<>();
  private static final Handler CAPTURE = new Handler() {
    @Override
    public void publish(LogRecord r) {
      if (r.getThrown() != null) logged.add(r);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };
  private static Level savedLevel;

  @BeforeAll
  static void load() throws IOException {
    byte[] traffic;
    try (InputStream in = WireFuzzTest.class.getResourceAsStream("/rpc/nvim-traffic.bin")) {
      traffic = in.readAllBytes();
    }
    corpus = scanAll(traffic, DEFAULTS);
    methods = new java.util.HashMap<>();
    try (InputStream in = WireFuzzTest.class.getResourceAsStream("/rpc/nvim-traffic.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String[] f = line.split(" ");
        methods.put(Integer.parseInt(f[0]), f[1]);
      }
    }
    // Handler failures are logged with their exception: collect those, print nothing.
    savedLevel = RPC_LOG.getLevel();
    RPC_LOG.setUseParentHandlers(false);
    RPC_LOG.addHandler(CAPTURE);
  }

  @AfterAll
  static void restoreLogging() {
    RPC_LOG.removeHandler(CAPTURE);
    RPC_LOG.setUseParentHandlers(true);
    RPC_LOG.setLevel(savedLevel);
  }

  // ---- the seed corpus is real Neovim traffic ------------------------------------------------------

  @Test
  void theCapturedTrafficHoldsEveryKindOfMessageTheDecodersRead() throws IOException {
    assertTrue(corpus.size() >= 30, "frames: " + corpus.size());
    ApiInfo info = decodeResult(corpus.get(0), ApiInfo.DECODER);
    assertEquals(ExtTypes.STANDARD, info.extTypes());
    // every captured reply fits the decoder of its call
    for (byte[] f : corpus) {
      MessageUnpacker u = MessagePack.newDefaultUnpacker(f);
      u.unpackArrayHeader();
      if (u.unpackInt() == 1) {
        String method = methods.get((int) u.unpackLong());
        if (u.tryUnpackNil()) resultDecoder(method).read(u);
      }
    }

    byte[] dump = corpus.stream().filter(f -> text(f).contains("nvim_buf_lines_event")).findFirst().orElseThrow();
    MessageUnpacker u = MessagePack.newDefaultUnpacker(dump);
    u.unpackArrayHeader();
    u.unpackInt();
    u.unpackString();
    u.unpackArrayHeader();
    assertEquals(new Buffer(1), Decoders.buffer(ExtTypes.STANDARD).read(u));
    u.unpackLong();
    assertEquals(0, u.unpackInt());
    assertEquals(-1, u.unpackInt(), "the initial dump");
    Lines lines = Decoders.readLines(u);
    assertArrayEquals(new byte[] {(byte) 0xff, (byte) 0xfe, 'b', 'a', 'd', (byte) 0xc3, '(', (byte) 0xe2, (byte) 0x82},
        lines.line(5), "invalid UTF-8 arrives byte for byte");
    assertArrayEquals("NUL\u0000inside".getBytes(StandardCharsets.ISO_8859_1), lines.line(6));
    for (String kind : List.of("nvim_buf_changedtick_event", "nvim_buf_detach_event", "nvim_error_event",
        "nvimpam_test_event", "nvimpam_test_request", "Invalid buffer id", "E121")) {
      assertTrue(corpus.stream().anyMatch(f -> text(f).contains(kind)), kind);
    }
  }

  @Test
  void aLinesReplyOfAsManyEmptyLinesAsTheLimitsAllowDecodes() throws IOException {
    int n = DEFAULTS.maxArrayLength() - 1; // 32 MB of fixstr headers: a buffer of blank lines
    byte[] frame = new byte[5 + n];
    frame[0] = (byte) 0xdd;
    for (int i = 0; i < 4; i++) frame[1 + i] = (byte) (n >>> (24 - 8 * i));
    Arrays.fill(frame, 5, frame.length, (byte) 0xa0);
    assertEquals(1, scanAll(frame, DEFAULTS).size());
    long before = THREADS.getCurrentThreadAllocatedBytes();

    Lines lines = Decoders.lines().read(MessagePack.newDefaultUnpacker(frame));

    assertEquals(n, lines.count());
    long used = THREADS.getCurrentThreadAllocatedBytes() - before;
    assertTrue(used < 16L * frame.length, "allocated " + used + " bytes for a " + frame.length + "-byte frame");
  }

  // ---- truncation --------------------------------------------------------------------------------

  @Test
  @Timeout(value = 30, unit = TimeUnit.MINUTES) // a hang guard, not a speed target
  void everyTruncationOfEveryValidMessageIsDetected() throws Exception {
    Random rnd = new Random(SEED);
    List<byte[]> valid = new ArrayList<>(corpus);
    WireForms forms = new WireForms(rnd, false);
    for (int i = Math.max(200, CASES / 100); i > 0; i--) valid.add(forms.message(methods.size() - 1));
    long cuts = 0;
    for (byte[] msg : valid) {
      // a valid message is one frame, and every decoder a connection uses accepts its forms
      assertEquals(1, scanAll(msg, DEFAULTS).size());
      decode(msg, 0, msg.length, true);
      truncationsByteByByte(msg);
      if (msg.length <= FRESH_TRUNCATION_MAX) {
        for (int cut = 1; cut < msg.length; cut++) {
          assertEquals(Outcome.TRUNCATED, scan(Arrays.copyOf(msg, cut), DEFAULTS, rnd, false), "cut at " + cut);
        }
      }
      cuts += msg.length - 1;
    }
    // and through a connection, which must say the message was cut
    for (int i = 0; i < Math.max(40, CASES / 500); i++) {
      byte[] msg = valid.get(1 + rnd.nextInt(valid.size() - 1));
      int cut = 1 + rnd.nextInt(msg.length - 1);
      String why = connectionCase(Arrays.copyOf(msg, cut), DEFAULTS, rnd);
      assertTrue(why.contains("truncated message: end of stream after " + cut + " bytes"), why);
    }
    System.err.printf("wire fuzz: %,d truncations of %,d valid messages (%,d captured from Neovim)%n",
        cuts, valid.size(), corpus.size());
  }

  /** Fed one byte at a time, the scanner holds every byte and reports no frame until the last. */
  private static void truncationsByteByByte(byte[] msg) throws IOException {
    FrameScanner s = new FrameScanner(DEFAULTS);
    InputStream in = new ByteArrayInputStream(msg) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 1));
      }
    };
    for (int k = 1; k < msg.length; k++) {
      assertEquals(1, s.fill(in));
      assertFalse(s.next(), "a frame after " + k + " of " + msg.length + " bytes");
      assertEquals(k, s.partialFrameBytes());
    }
    assertEquals(1, s.fill(in));
    assertTrue(s.next());
    assertEquals(msg.length, s.frameLength());
  }

  // ---- mutations ---------------------------------------------------------------------------------

  @Test
  @Timeout(value = 60, unit = TimeUnit.MINUTES) // a hang guard, not a speed target
  void mutatedTrafficEndsInFramesOrAClearErrorNeverACrashAHangOrAnOverallocation() throws Exception {
    Random rnd = new Random(SEED ^ 0x5eed);
    WireForms forms = new WireForms(rnd, true);
    WireMutator mutator = new WireMutator(rnd);
    Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
    Map<WireMutator.Kind, Integer> kinds = new EnumMap<>(WireMutator.Kind.class);
    int connections = 0;
    long bytes = 0;
    java.util.Set<Thread> threadsBefore = connectionThreads();
    long t0 = System.nanoTime();
    for (int c = 0; c < CASES; c++) {
      byte[] base = unit(rnd, forms);
      for (int more = rnd.nextInt(3); more > 0; more--) base = concat(base, unit(rnd, forms));
      byte[] stream = base;
      for (int m = 1 + (rnd.nextInt(4) == 0 ? rnd.nextInt(3) : 0); m > 0; m--) {
        WireMutator.Kind kind = mutator.pick();
        kinds.merge(kind, 1, Integer::sum);
        stream = mutator.mutate(kind, stream, unit(rnd, forms));
      }
      RpcLimits limits = (c & 1) == 0 ? DEFAULTS : SMALL;
      bytes += stream.length;
      try {
        outcomes.merge(scan(stream, limits, rnd, true), 1, Integer::sum);
        if (c % CONNECTION_EVERY == 0) {
          connectionCase(stream, limits, rnd);
          connections++;
        }
      } catch (AssertionError | RuntimeException | IOException e) {
        throw new AssertionError("case " + c + " (seed " + SEED + "): " + e, e);
      }
    }
    assertNoThreadsLeft(threadsBefore);
    double s = (System.nanoTime() - t0) / 1e9;
    System.err.printf("wire fuzz: %,d mutated cases (%,d bytes; %,d also through a connection) in %.1f s: %s, %s%n",
        CASES, bytes, connections, s, outcomes, kinds);
    assertTrue(outcomes.getOrDefault(Outcome.REJECTED, 0) > CASES / 10, "mutations reach the checks: " + outcomes);
    assertTrue(outcomes.getOrDefault(Outcome.FRAMES, 0) > CASES / 10, "mutations reach the decoders: " + outcomes);
  }

  /** A stream to mutate: real frames (now and then the 30 KB api-info), or generated messages. */
  private static byte[] unit(Random rnd, WireForms forms) {
    if (rnd.nextBoolean()) return forms.message(methods.size() - 1);
    int i = rnd.nextInt(20) == 0 ? 0 : 1 + rnd.nextInt(corpus.size() - 1);
    return corpus.get(i);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  // ---- layer 1: scanner and decoders --------------------------------------------------------------

  enum Outcome { FRAMES, REJECTED, TRUNCATED }

  private static List<byte[]> scanAll(byte[] stream, RpcLimits limits) throws IOException {
    List<byte[]> frames = new ArrayList<>();
    FrameScanner s = new FrameScanner(limits);
    InputStream in = new ByteArrayInputStream(stream);
    while (true) {
      while (s.next()) {
        frames.add(Arrays.copyOfRange(s.buffer(), s.frameOffset(), s.frameOffset() + s.frameLength()));
      }
      if (s.fill(in) < 0) {
        if (s.partialFrameBytes() > 0) throw new ProtocolException("truncated");
        return frames;
      }
    }
  }

  /**
   * Runs the scanner over {@code stream} in random read sizes, as the reader thread does, checking
   * progress and the buffer's size after every step; hands each frame to the decoders.
   */
  private static Outcome scan(byte[] stream, RpcLimits limits, Random rnd, boolean decode) throws IOException {
    FrameScanner s = new FrameScanner(limits);
    int maxRead = 1 + rnd.nextInt(rnd.nextBoolean() ? 16 : 16384);
    InputStream in = new ByteArrayInputStream(stream) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 1 + rnd.nextInt(maxRead)));
      }
    };
    long fed = 0;
    int steps = 0;
    try {
      while (true) {
        while (s.next()) {
          assertTrue(s.frameLength() > 0, "an empty frame");
          if (decode) decode(s.buffer(), s.frameOffset(), s.frameLength(), false);
        }
        int n = s.fill(in);
        // the buffer grows only for bytes that arrived, and never past the message limit
        long bound = Math.max(SCANNER_MIN_CAPACITY, Math.min(2 * fed + 16 * 1024, limits.maxMessageBytes()));
        assertTrue(s.buffer().length <= bound, "buffer of " + s.buffer().length + " after " + fed + " bytes");
        if (n < 0) return s.partialFrameBytes() > 0 ? Outcome.TRUNCATED : Outcome.FRAMES;
        assertTrue(n > 0, "a read of 0 bytes: the scanner asked for no room");
        fed += n;
        if (++steps > stream.length + 1) fail("no progress after " + steps + " reads of " + stream.length + " bytes");
      }
    } catch (ProtocolException e) {
      assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
      return Outcome.REJECTED;
    }
  }

  /**
   * Decodes one frame as the connection and the Neovim layer would: the envelope, then results by
   * the decoder of the captured call with that msgid, buffer events field by field, and any params
   * as objects. Decoding may fail only with an IOException or MessagePackException (which the
   * connection turns into a failed call or a logged handler failure); {@code strict} demands success.
   */
  private static void decode(byte[] buf, int off, int len, boolean strict) {
    current = Arrays.copyOfRange(buf, off, off + len);
    overallocation = null;
    decodeOnce(buf, off, len, strict);
    if (overallocation != null) { // again: the first run of a path also loads and links classes
      overallocation = null;
      decodeOnce(buf, off, len, strict);
      if (overallocation != null) fail(overallocation);
    }
  }

  private static void decodeOnce(byte[] buf, int off, int len, boolean strict) {
    try {
      MessageUnpacker u = MessagePack.newDefaultUnpacker(buf, off, len);
      int size = u.unpackArrayHeader();
      int type = size > 0 ? u.unpackInt() : -1;
      if (type == 1 && size == 4) {
        long msgid = u.unpackLong();
        String method = methods.getOrDefault((int) msgid, "nvim_eval");
        if (!u.tryUnpackNil()) {
          bounded(() -> Decoders.object().read(u), len, OBJECT_AMPLIFICATION);
        } else {
          int at = (int) u.getTotalReadBytes();
          bounded(() -> Decoders.object().read(u), len, OBJECT_AMPLIFICATION);
          // the decoder of the call with this msgid, and those of wrong guesses at its type
          List<String> guesses = List.of(method, "nvim_buf_get_lines", "nvim_get_current_buf", "nvim_get_api_info");
          for (String m : guesses) {
            MessageUnpacker again = MessagePack.newDefaultUnpacker(buf, off + at, len - at);
            attempt(() -> bounded(() -> resultDecoder(m).read(again), len, decoderAmplification(m)));
          }
        }
      } else if (type == 2 && size == 3) {
        String method = u.unpackString();
        if (method.equals("nvim_buf_lines_event")) {
          bounded(() -> linesEvent(u), len, LINES_AMPLIFICATION);
        } else {
          bounded(() -> Decoders.object().read(u), len, OBJECT_AMPLIFICATION);
        }
      } else if (type == 0 && size == 4) {
        u.unpackLong();
        u.unpackString();
        bounded(() -> Decoders.object().read(u), len, OBJECT_AMPLIFICATION);
      } else {
        // not an RPC message: the connection rejects it; the decoders must still cope
        MessageUnpacker any = MessagePack.newDefaultUnpacker(buf, off, len);
        bounded(() -> Decoders.object().read(any), len, OBJECT_AMPLIFICATION);
        if (strict) fail("not an RPC message");
      }
    } catch (IOException | MessagePackException e) {
      if (strict) throw new AssertionError("a valid message failed to decode: " + e, e);
    }
  }

  private static byte[] current; // the frame being decoded, for failure messages
  private static String overallocation; // what the last decode allocated beyond its bound

  private interface Read {
    Object run() throws IOException;
  }

  private static void attempt(Read r) {
    try {
      r.run();
    } catch (IOException | MessagePackException e) {
      // a result that does not fit: the call fails with a DecodeException
    }
  }

  /** Runs a decoder and checks what it allocated against the frame's size. */
  private static Object bounded(Read r, int frameLen, int amplification) throws IOException {
    long before = THREADS.getCurrentThreadAllocatedBytes();
    try {
      return r.run();
    } finally {
      long used = THREADS.getCurrentThreadAllocatedBytes() - before;
      long max = (long) amplification * frameLen + (amplification == LINES_AMPLIFICATION ? LINES_SLACK : 0) + SLACK;
      if (used > max) {
        overallocation = ("decoding a " + frameLen + "-byte frame allocated " + used + " bytes (bound " + max + "): "
            + java.util.HexFormat.of().formatHex(current, 0, Math.min(current.length, 400)));
      }
    }
  }

  private static Object linesEvent(MessageUnpacker u) throws IOException {
    int n = u.unpackArrayHeader();
    if (n != 6) throw new ProtocolException("lines event with " + n + " params");
    Decoders.buffer(ExtTypes.STANDARD).read(u);
    if (!u.tryUnpackNil()) u.unpackLong();
    u.unpackInt();
    u.unpackInt();
    Lines lines = Decoders.readLines(u);
    u.unpackBoolean();
    return lines;
  }

  private static Decoder<?> resultDecoder(String method) {
    return switch (method) {
      case "nvim_get_api_info" -> ApiInfo.DECODER;
      case "nvim_buf_get_lines" -> Decoders.lines();
      case "nvim_get_current_buf" -> Decoders.buffer(ExtTypes.STANDARD);
      case "nvim_get_current_win" -> Decoders.window(ExtTypes.STANDARD);
      case "nvim_get_current_tabpage" -> Decoders.tabpage(ExtTypes.STANDARD);
      case "nvim_buf_attach", "nvim_buf_detach" -> Decoders.booleanValue();
      default -> Decoders.object();
    };
  }

  private static int decoderAmplification(String method) {
    return method.equals("nvim_buf_get_lines") ? LINES_AMPLIFICATION : OBJECT_AMPLIFICATION;
  }

  private static <T> T decodeResult(byte[] frame, Decoder<T> d) throws IOException {
    MessageUnpacker u = MessagePack.newDefaultUnpacker(frame);
    u.unpackArrayHeader();
    u.unpackInt();
    u.unpackLong();
    u.unpackNil();
    return d.read(u);
  }

  private static String text(byte[] frame) {
    return new String(frame, StandardCharsets.ISO_8859_1);
  }

  // ---- layer 2: a whole connection ----------------------------------------------------------------

  /**
   * Replays {@code stream} as Neovim's side of a connection that has just answered api-info (the
   * captured reply) and has every captured call pending plus a buffer attached; returns why the
   * connection closed. It must close on its own, fail every pending call with an exception a caller
   * expects, and log no handler failure other than a decode error.
   */
  private static String connectionCase(byte[] stream, RpcLimits limits, Random rnd) throws Exception {
    ReplayInput in = new ReplayInput(corpus.get(0), stream, new Random(rnd.nextLong()));
    OutputStream out = new OutputStream() { // the first write is the api-info request: answer it
      @Override
      public void write(int b) {
        in.answer();
      }

      @Override
      public void write(byte[] b, int off, int len) {
        in.answer();
      }
    };
    RpcConnection rpc = RpcConnection.start(new StreamTransport(in, out, "fuzz peer"), limits);
    List<CompletableFuture<?>> calls = new ArrayList<>();
    try {
      Nvim nvim = Nvim.connect(rpc); // msgid 0, answered by the captured reply
      for (int id = 1; id < methods.size(); id++) {
        String m = methods.get(id);
        calls.add(nvim.call(m, Encoders.none(), resultDecoder(m)));
      }
      calls.add(nvim.bufAttach(new Buffer(1), new BufferListener() {
        @Override
        public void onLines(Buffer buf, long tick, int first, int last, Lines data, boolean more) {
          if (data.count() < 0) throw new AssertionError("negative line count");
        }
      }));
    } finally {
      in.release();
    }
    Throwable closedBy = null;
    try {
      rpc.closed().get(30, TimeUnit.SECONDS); // a hang guard: a replay ends in milliseconds
    } catch (java.util.concurrent.TimeoutException e) {
      rpc.close();
      fail("the connection did not close after the peer's bytes ended");
    } catch (java.util.concurrent.ExecutionException e) {
      closedBy = e.getCause();
    }
    if (closedBy != null) {
      assertTrue(closedBy instanceof ConnectionClosedException, String.valueOf(closedBy));
      assertFalse(closedBy.getMessage().contains("reader thread failed"), closedBy.getMessage());
    }
    for (CompletableFuture<?> f : calls) {
      try {
        f.get(30, TimeUnit.SECONDS); // completed at close at the latest
      } catch (java.util.concurrent.ExecutionException e) {
        Throwable t = e.getCause();
        if (!(t instanceof ConnectionClosedException || t instanceof DecodeException || t instanceof NvimErrorException)) {
          throw new AssertionError("a call failed with " + t, t);
        }
      }
    }
    for (LogRecord r; (r = logged.poll()) != null; ) {
      Throwable t = r.getThrown();
      if (!(t instanceof IOException || t instanceof MessagePackException)) {
        throw new AssertionError(r.getMessage() + ": " + t, t);
      }
    }
    return closedBy == null ? "closed cleanly" : closedBy.getMessage();
  }

  /** The connection threads alive now (other test classes in this JVM may hold connections). */
  private static java.util.Set<Thread> connectionThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
        .filter(t -> t.getName().startsWith("nvimpam-rpc")).collect(java.util.stream.Collectors.toSet());
  }

  /** No connection thread started since {@code before} is still alive. */
  private static void assertNoThreadsLeft(java.util.Set<Thread> before) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    List<String> left;
    do {
      left = connectionThreads().stream().filter(t -> !before.contains(t)).map(Thread::getName).toList();
      if (left.isEmpty()) return;
      Thread.sleep(20);
    } while (System.nanoTime() < end);
    fail("connection threads still alive after every connection closed: " + left);
  }

  /**
   * The peer's bytes: a first message served once {@link #answer} says it was asked for, the rest
   * only after {@link #release} (once the calls it answers are pending), in random read sizes, then
   * end of stream.
   */
  private static final class ReplayInput extends InputStream {
    private final byte[] first;
    private final byte[] rest;
    private final Random rnd;
    private int pos;
    private boolean asked;
    private boolean released;

    ReplayInput(byte[] first, byte[] rest, Random rnd) {
      this.first = first;
      this.rest = rest;
      this.rnd = rnd;
    }

    synchronized void answer() {
      asked = true;
      notifyAll();
    }

    synchronized void release() {
      released = true;
      notifyAll();
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) return 0;
      await(() -> asked || released);
      if (pos < first.length) {
        int n = Math.min(len, first.length - pos);
        System.arraycopy(first, pos, b, off, n);
        pos += n;
        return n;
      }
      await(() -> released);
      int at = pos - first.length;
      if (at >= rest.length) return -1;
      int n = Math.min(Math.min(len, rest.length - at), 1 + rnd.nextInt(8192));
      System.arraycopy(rest, at, b, off, n);
      pos += n;
      return n;
    }

    private void await(java.util.function.BooleanSupplier open) throws IOException {
      while (!open.getAsBoolean()) {
        try {
          wait();
        } catch (InterruptedException e) {
          throw new java.io.InterruptedIOException();
        }
      }
    }
  }
}
