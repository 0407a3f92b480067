package org.nvimpam.rpc;

import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;

/** A whole connection fed hostile bytes over in-memory streams: it must close, clearly and fast. */
class RpcConnectionStreamTest {
  private static final Decoder<Long> LONG = MessageUnpacker::unpackLong;
  private static final Encoder NO_ARGS = out -> out.packArrayHeader(0);

  private static Throwable failure(CompletableFuture<?> f) throws Exception {
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> f.get(1, TimeUnit.SECONDS));
    return e.getCause();
  }

  /** A connection that reads what {@code peer} writes and writes into {@code wire}. */
  private static RpcConnection overPipe(PipedOutputStream peer, OutputStream wire) throws IOException {
    return RpcConnection.start(new StreamTransport(new PipedInputStream(peer), wire, "test streams"),
        RpcLimits.defaults());
  }

  @Test
  void anOversizedStringHeaderFailsPendingCallsAndSaysWhy() throws Exception {
    PipedOutputStream peer = new PipedOutputStream();
    PipedInputStream in = new PipedInputStream(peer, 1 << 16);
    RpcConnection c = RpcConnection.start(
        new StreamTransport(in, new ByteArrayOutputStream(), "test streams"), RpcLimits.defaults());
    CompletableFuture<Long> call = c.request("nvim_eval", NO_ARGS, LONG);
    // [1, 0, nil, "<2,000,000,000 bytes>"] — only the header is ever sent
    peer.write(new byte[] {(byte) 0x94, 1, 0, (byte) 0xc0, (byte) 0xdb, 0x77, 0x35, (byte) 0x94, 0});
    peer.flush();
    Throwable t = failure(call);
    assertInstanceOf(ConnectionClosedException.class, t);
    assertEquals("test streams: protocol error: string of 2000000000 bytes exceeds limit 268435456",
        t.getMessage());
    Throwable closed = failure(c.closed());
    assertSame(t, closed);
    // later calls fail at once
    assertSame(t, failure(c.request("nvim_eval", NO_ARGS, LONG)));
    peer.close();
  }

  @Test
  void endOfStreamClosesCleanlyAndFailsPendingCalls() throws Exception {
    PipedOutputStream peer = new PipedOutputStream();
    RpcConnection c = overPipe(peer, new ByteArrayOutputStream());
    CompletableFuture<Long> call = c.request("x", NO_ARGS, LONG);
    peer.close();
    Throwable t = failure(call);
    assertEquals("test streams: end of stream (the peer closed the connection)", t.getMessage());
    assertNull(c.closed().get(1, TimeUnit.SECONDS));
  }

  @Test
  void aResponseToAnUnknownMsgidIsAProtocolError() throws Exception {
    byte[] resp = {(byte) 0x94, 1, 42, (byte) 0xc0, 7};
    RpcConnection c = RpcConnection.start(
        new StreamTransport(new ByteArrayInputStream(resp), new ByteArrayOutputStream(), "test streams"),
        RpcLimits.defaults());
    assertEquals("test streams: protocol error: response to unknown msgid 42",
        failure(c.closed()).getMessage());
  }

  @Test
  void aFailingEncoderSendsNothingAndTheNextMessageIsWhole() throws Exception {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    PipedOutputStream peer = new PipedOutputStream();
    RpcConnection c = overPipe(peer, wire);
    CompletableFuture<Long> bad = c.request("bad", out -> {
      out.packArrayHeader(2).packString("x".repeat(MessageSink.STREAM_ABOVE - 100));
      throw new IOException("encoder gave up");
    }, LONG);
    assertEquals("encoder gave up", failure(bad).getMessage());
    assertEquals(0, wire.size());
    assertEquals(0, c.bytesWritten());
    c.request("good", out -> out.packArrayHeader(1).packInt(5), LONG);
    MessageUnpacker u = MessagePack.newDefaultUnpacker(wire.toByteArray());
    assertEquals(4, u.unpackArrayHeader());
    assertEquals(0, u.unpackInt());
    assertEquals(1, u.unpackLong(), "the failed request's msgid is not reused on the wire");
    assertEquals("good", u.unpackString());
    assertEquals(1, u.unpackArrayHeader());
    assertEquals(5, u.unpackInt());
    assertFalse(u.hasNext());
    assertEquals(wire.size(), c.bytesWritten());
    c.close();
    peer.close(); // a reader blocked in PipedInputStream.read wakes only when the writer closes
  }

  @Test
  void aLargeMessageGoesOutInPiecesAndArrivesWhole() throws Exception {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    PipedOutputStream peer = new PipedOutputStream();
    RpcConnection c = overPipe(peer, wire);
    byte[] bin = new byte[3 * MessageSink.STREAM_ABOVE + 17];
    new Random(7).nextBytes(bin);
    String text = "y".repeat(MessageSink.STREAM_ABOVE / 3);
    c.notify("big", out -> {
      out.packArrayHeader(200);
      for (int i = 0; i < 99; i++) out.packString(text); // through the packer's windows
      out.packBinaryHeader(bin.length).writePayload(bin); // one large direct write
      for (int i = 0; i < 100; i++) out.packInt(i);
    });
    c.notify("small", out -> out.packArrayHeader(1).packInt(5));
    MessageUnpacker u = MessagePack.newDefaultUnpacker(wire.toByteArray());
    assertEquals(3, u.unpackArrayHeader());
    assertEquals(2, u.unpackInt());
    assertEquals("big", u.unpackString());
    assertEquals(200, u.unpackArrayHeader());
    for (int i = 0; i < 99; i++) assertEquals(text, u.unpackString());
    assertArrayEquals(bin, u.readPayload(u.unpackBinaryHeader()));
    for (int i = 0; i < 100; i++) assertEquals(i, u.unpackInt());
    assertEquals(3, u.unpackArrayHeader());
    assertEquals(2, u.unpackInt());
    assertEquals("small", u.unpackString());
    assertEquals(1, u.unpackArrayHeader());
    assertEquals(5, u.unpackInt());
    assertFalse(u.hasNext());
    assertEquals(wire.size(), c.bytesWritten());
    c.close();
    peer.close();
  }

  @Test
  void anEncoderFailingAfterPartOfItsMessageWentOutClosesTheConnection() throws Exception {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    PipedOutputStream peer = new PipedOutputStream();
    RpcConnection c = overPipe(peer, wire);
    CompletableFuture<Long> pendingCall = c.request("slow", NO_ARGS, LONG);
    CompletableFuture<Long> bad = c.request("bad", out -> {
      out.packArrayHeader(2).packString("x".repeat(2 * MessageSink.STREAM_ABOVE));
      throw new IllegalStateException("encoder gave up");
    }, LONG);
    assertTrue(failure(bad).getMessage().endsWith("encoder gave up"), failure(bad).getMessage());
    assertTrue(wire.size() > MessageSink.STREAM_ABOVE, "part of it went out");
    assertEquals(wire.size(), c.bytesWritten());
    Throwable closed = failure(c.closed());
    assertEquals("test streams: a message failed to encode after part of it was sent: encoder gave up",
        closed.getMessage());
    assertInstanceOf(ConnectionClosedException.class, failure(pendingCall));
    assertInstanceOf(ConnectionClosedException.class, failure(c.request("after", NO_ARGS, LONG)));
    peer.close();
  }

  @Test
  void randomHostileStreamsNeverHangAConnection() throws Exception {
    RpcLimits limits = RpcLimits.defaults().withMaxMessageBytes(1 << 16).withMaxDepth(8);
    int protocolErrors = 0;
    for (int seed = 0; seed < 2000; seed++) {
      Random rnd = new Random(seed);
      byte[] junk = new byte[rnd.nextInt(600)];
      rnd.nextBytes(junk);
      if (rnd.nextBoolean() && junk.length > 4) { // look like a response to call 0
        junk[0] = (byte) 0x94;
        junk[1] = 1;
        junk[2] = 0;
      }
      RpcConnection c = RpcConnection.start(
          new StreamTransport(new ByteArrayInputStream(junk), new ByteArrayOutputStream(), "test streams"),
          limits);
      CompletableFuture<Long> call = c.request("x", NO_ARGS, LONG);
      try {
        c.closed().get(1, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        assertInstanceOf(ConnectionClosedException.class, e.getCause(), "seed " + seed);
        assertTrue(e.getCause().getMessage().startsWith("test streams: protocol error: "),
            "seed " + seed + ": " + e.getCause().getMessage());
        protocolErrors++;
      }
      assertTrue(call.isDone(), "seed " + seed + ": the call is settled once closed");
    }
    assertTrue(protocolErrors > 1000, "protocol errors: " + protocolErrors);
  }
}
