package org.nvimpam.rpc;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;

class FrameScannerTest {
  private static final RpcLimits SMALL = RpcLimits.defaults().withMaxMessageBytes(1 << 20)
      .withMaxStringBytes(1 << 16).withMaxArrayLength(1 << 12).withMaxMapLength(1 << 12)
      .withMaxDepth(16);

  /** Feeds {@code in} through a scanner and returns the frames, or throws its protocol error. */
  private static List<byte[]> frames(InputStream in, RpcLimits limits) throws IOException {
    FrameScanner s = new FrameScanner(limits);
    List<byte[]> out = new ArrayList<>();
    while (true) {
      while (s.next()) {
        out.add(Arrays.copyOfRange(s.buffer(), s.frameOffset(), s.frameOffset() + s.frameLength()));
      }
      if (s.fill(in) < 0) {
        if (s.partialFrameBytes() > 0) throw new ProtocolException("truncated");
        return out;
      }
    }
  }

  /** Returns at most {@code max} bytes per read, chosen at random. */
  private static InputStream dribble(byte[] bytes, Random rnd, int max) {
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 1 + rnd.nextInt(max)));
      }
    };
  }

  private static byte[] pack(ThrowingPack p) throws IOException {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    MessagePacker m = MessagePack.newDefaultPacker(bos);
    p.pack(m);
    m.flush();
    return bos.toByteArray();
  }

  interface ThrowingPack {
    void pack(MessagePacker p) throws IOException;
  }

  private static void randomValue(MessagePacker p, Random rnd, int depth) throws IOException {
    int kind = depth > 4 ? rnd.nextInt(8) : rnd.nextInt(11);
    switch (kind) {
      case 0 -> p.packNil();
      case 1 -> p.packBoolean(rnd.nextBoolean());
      case 2 -> p.packLong(rnd.nextLong() >> rnd.nextInt(64));
      case 3 -> p.packDouble(rnd.nextDouble());
      case 4 -> p.packFloat(rnd.nextFloat());
      case 5 -> p.packString("x".repeat(rnd.nextInt(rnd.nextBoolean() ? 40 : 70_000 >> 4)));
      case 6 -> {
        byte[] b = new byte[rnd.nextInt(300)];
        rnd.nextBytes(b);
        p.packBinaryHeader(b.length).writePayload(b);
      }
      case 7 -> {
        int[] sizes = {1, 2, 4, 8, 16, 3, 300};
        byte[] b = new byte[sizes[rnd.nextInt(sizes.length)]];
        p.packExtensionTypeHeader((byte) rnd.nextInt(128), b.length).writePayload(b);
      }
      case 8, 9 -> {
        int n = rnd.nextInt(rnd.nextBoolean() ? 5 : 40);
        p.packArrayHeader(n);
        for (int i = 0; i < n; i++) randomValue(p, rnd, depth + 1);
      }
      default -> {
        int n = rnd.nextInt(6);
        p.packMapHeader(n);
        for (int i = 0; i < 2 * n; i++) randomValue(p, rnd, depth + 1);
      }
    }
  }

  @Test
  void randomValidStreamsAreCutIntoTheirValuesWhateverTheReadSizes() throws IOException {
    for (int seed = 0; seed < 2000; seed++) {
      Random rnd = new Random(seed);
      List<byte[]> values = new ArrayList<>();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      for (int i = 1 + rnd.nextInt(5); i > 0; i--) {
        byte[] v = pack(p -> randomValue(p, rnd, 0));
        values.add(v);
        all.write(v);
      }
      List<byte[]> got = frames(dribble(all.toByteArray(), rnd, 1 + rnd.nextInt(9000)), SMALL);
      assertEquals(values.size(), got.size(), "seed " + seed);
      for (int i = 0; i < values.size(); i++) {
        assertArrayEquals(values.get(i), got.get(i), "seed " + seed + " value " + i);
      }
    }
  }

  @Test
  void randomGarbageEndsInFramesOrAClearErrorNeverAHang() throws IOException {
    int errors = 0;
    for (int seed = 0; seed < 5000; seed++) {
      Random rnd = new Random(seed);
      byte[] junk = new byte[rnd.nextInt(2000)];
      rnd.nextBytes(junk);
      try {
        List<byte[]> got = frames(dribble(junk, rnd, 64), SMALL);
        assertEquals(junk.length, got.stream().mapToInt(f -> f.length).sum(), "seed " + seed);
      } catch (ProtocolException e) {
        assertNotNull(e.getMessage());
        errors++;
      }
    }
    assertTrue(errors > 1000, "most garbage is rejected: " + errors);
  }

  @Test
  void truncatingAValidMessageAnywhereIsDetected() throws IOException {
    byte[] msg = pack(p -> {
      p.packArrayHeader(4).packInt(1).packInt(7).packNil();
      p.packArrayHeader(3).packString("héllo").packBinaryHeader(3).writePayload(new byte[3]);
      p.packMapHeader(1).packString("k").packDouble(1.5);
    });
    for (int cut = 1; cut < msg.length; cut++) {
      byte[] part = Arrays.copyOf(msg, cut);
      assertThrows(ProtocolException.class, () -> frames(new ByteArrayInputStream(part), SMALL),
          "cut at " + cut);
    }
  }

  private static String rejection(byte[] bytes, RpcLimits limits) {
    return assertThrows(ProtocolException.class,
        () -> frames(new ByteArrayInputStream(bytes), limits)).getMessage();
  }

  @Test
  void oversizedHeadersAreRejectedBeforeAnyAllocation() {
    // str32 claiming 2,000,000,000 bytes, followed by nothing: rejected from the header alone
    byte[] str = {(byte) 0x91, (byte) 0xdb, 0x77, 0x35, (byte) 0x94, 0x00};
    assertEquals("string of 2000000000 bytes exceeds limit 268435456",
        rejection(str, RpcLimits.defaults()));
    byte[] bin = {(byte) 0xc6, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
    assertEquals("binary of 4294967295 bytes exceeds limit 268435456",
        rejection(bin, RpcLimits.defaults()));
    byte[] ext = {(byte) 0xc9, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0};
    assertTrue(rejection(ext, RpcLimits.defaults()).startsWith("ext of 2147483647 bytes"));
    byte[] array = {(byte) 0xdd, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
    assertEquals("array of 4294967295 elements exceeds limit 33554432",
        rejection(array, RpcLimits.defaults()));
    byte[] map = {(byte) 0xdf, 0x10, 0, 0, 0};
    assertEquals("map of 268435456 entries exceeds limit 33554432",
        rejection(map, RpcLimits.defaults()));
  }

  @Test
  void aMessageLargerThanTheLimitIsRejected() throws IOException {
    RpcLimits limits = RpcLimits.defaults().withMaxMessageBytes(1000);
    byte[] big = pack(p -> {
      p.packArrayHeader(20);
      for (int i = 0; i < 20; i++) p.packString("y".repeat(100));
    });
    assertTrue(rejection(big, limits).contains("exceeds limit 1000"), rejection(big, limits));
  }

  @Test
  void nestingDeeperThanTheLimitIsRejected() {
    byte[] deep = new byte[100];
    Arrays.fill(deep, (byte) 0x91); // [[[[...
    assertEquals("nesting deeper than limit 16", rejection(deep, SMALL));
  }

  @Test
  void theNeverUsedByteIsRejected() {
    assertEquals("invalid msgpack byte 0xc1 at offset 2 of a message",
        rejection(new byte[] {(byte) 0x92, 1, (byte) 0xc1}, SMALL));
  }
}
