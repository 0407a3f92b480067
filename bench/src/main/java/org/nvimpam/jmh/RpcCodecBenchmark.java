package org.nvimpam.jmh;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ArrayValue;
import org.msgpack.value.Value;
import org.msgpack.value.ValueFactory;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.Encoders;
import org.nvimpam.nvim.ExtTypes;
import org.nvimpam.rpc.RpcConnection;
import org.nvimpam.rpc.RpcLimits;
import org.nvimpam.rpc.StreamTransport;
import org.openjdk.jmh.annotations.*;

/**
 * The RPC hot paths, direct versus msgpack-core's {@code Value} API: encoding a 100k-fold
 * {@code nvim_exec_lua} call, and decoding a 1M-line {@code nvim_buf_lines_event}.
 *
 * <p>Encoding goes through the connection's own write path ({@link RpcConnection#notify}: one
 * reused buffer, one write) into a stream that discards the bytes; the peer never sends anything.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RpcCodecBenchmark {
  private static final int FOLDS = 100_000;
  private static final int LINES = 1_000_000;
  private static final String LUA = "require('nvimpam.fold').apply(...)";
  private static final String[] NAMES = {"NODE", "SHELL", "BEAM", "PART", "MATER", "SOLID"};

  private int[] folds; // start, end, level, name index per fold
  private PipedOutputStream silentPeer; // never written: the connection's reader waits on it
  private RpcConnection rpc;
  private byte[] linesEvent;

  @Setup
  public void setup() throws IOException {
    folds = new int[4 * FOLDS];
    for (int i = 0; i < FOLDS; i++) {
      folds[4 * i] = 10 * i + 1;
      folds[4 * i + 1] = 10 * i + 9;
      folds[4 * i + 2] = 1 + (i & 1);
      folds[4 * i + 3] = i % NAMES.length;
    }
    silentPeer = new PipedOutputStream();
    rpc = RpcConnection.start(new StreamTransport(new PipedInputStream(silentPeer), OutputStream.nullOutputStream(),
        "benchmark sink"), RpcLimits.defaults());

    MessageBufferPacker p = MessagePack.newDefaultBufferPacker();
    p.packArrayHeader(3).packInt(2).packString("nvim_buf_lines_event").packArrayHeader(6);
    Encoders.writeHandle(p, ExtTypes.STANDARD.buffer(), 1);
    p.packLong(12345).packInt(0).packInt(-1).packArrayHeader(LINES);
    for (int i = 0; i < LINES; i++) {
      byte[] line = String.format("NODE  / %8d %15.6f %15.6f %15.6f", i, i * 0.5, i * 0.25, 1.0)
          .substring(0, 60).getBytes(StandardCharsets.ISO_8859_1);
      p.packRawStringHeader(line.length).writePayload(line);
    }
    p.packBoolean(false);
    linesEvent = p.toByteArray();
  }

  @TearDown
  public void tearDown() throws IOException {
    rpc.close();
    silentPeer.close();
  }

  @Benchmark
  public long encodeFoldsDirect() {
    rpc.notify("nvim_exec_lua", packer -> {
      packer.packArrayHeader(2).packString(LUA).packArrayHeader(2);
      packer.packArrayHeader(folds.length);
      for (int x : folds) packer.packInt(x);
      packer.packArrayHeader(NAMES.length);
      for (String n : NAMES) packer.packString(n);
    });
    return rpc.bytesWritten();
  }

  @Benchmark
  public long encodeFoldsValue() {
    Value[] ints = new Value[folds.length];
    for (int i = 0; i < folds.length; i++) ints[i] = ValueFactory.newInteger(folds[i]);
    Value[] names = new Value[NAMES.length];
    for (int i = 0; i < NAMES.length; i++) names[i] = ValueFactory.newString(NAMES[i]);
    Value params = ValueFactory.newArray(ValueFactory.newString(LUA), ValueFactory.newArray(
        ValueFactory.newArray(ints, true), ValueFactory.newArray(names, true)));
    rpc.notify("nvim_exec_lua", packer -> packer.packValue(params));
    return rpc.bytesWritten();
  }

  @Benchmark
  public Lines decodeLinesDirect() throws IOException {
    MessageUnpacker u = MessagePack.newDefaultUnpacker(linesEvent);
    u.unpackArrayHeader();
    u.unpackInt();
    u.unpackString();
    u.unpackArrayHeader();
    Buffer b = Decoders.buffer(ExtTypes.STANDARD).read(u);
    long tick = u.unpackLong();
    int first = u.unpackInt();
    int last = u.unpackInt();
    Lines lines = Decoders.readLines(u);
    boolean more = u.unpackBoolean();
    if (b.id() != 1 || tick != 12345 || first != 0 || last != -1 || more) throw new AssertionError();
    return lines;
  }

  @Benchmark
  public Lines decodeLinesValue() throws IOException {
    MessageUnpacker u = MessagePack.newDefaultUnpacker(linesEvent);
    ArrayValue msg = u.unpackValue().asArrayValue();
    List<Value> params = msg.get(2).asArrayValue().list();
    long tick = params.get(1).asIntegerValue().toLong();
    int first = params.get(2).asIntegerValue().toInt();
    int last = params.get(3).asIntegerValue().toInt();
    ArrayValue data = params.get(4).asArrayValue();
    Lines.Builder lb = new Lines.Builder(data.size(), data.size() * 64);
    for (Value v : data) {
      byte[] line = v.asRawValue().asByteArray();
      lb.add(line, 0, line.length);
    }
    boolean more = params.get(5).asBooleanValue().getBoolean();
    if (tick != 12345 || first != 0 || last != -1 || more) throw new AssertionError();
    return lb.build();
  }
}
