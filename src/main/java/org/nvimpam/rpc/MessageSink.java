package org.nvimpam.rpc;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import org.msgpack.core.buffer.MessageBuffer;
import org.msgpack.core.buffer.MessageBufferOutput;

/**
 * One reusable byte array that a {@code MessagePacker} writes into directly: each {@link #next}
 * hands the packer a window on the free tail of the array, so packing copies nothing.
 *
 * <p>A message stays in the array until it is whole, so that a failing encoder sends nothing,
 * unless it grows past {@link #STREAM_ABOVE} bytes: then what is packed goes out in pieces while
 * the rest is packed, so that Neovim reads the first bytes of a plan (300 KB at 10k folds) while
 * the JVM packs the others, instead of after; once anything went out, {@link #sent()} says so,
 * and a failure is the connection's end (the peer holds half a message).
 *
 * <p>The owner packs one message, calls {@code packer.flush()} to commit the packer's last window,
 * then {@link #finish()} to send the rest, then {@link #reset()}s for the next one. Not
 * thread-safe: used under the connection's write lock.
 */
final class MessageSink implements MessageBufferOutput {
  /** About a pipe's capacity: the peer can read one piece while the next is packed. */
  static final int STREAM_ABOVE = 64 * 1024;
  private static final int MIN_WINDOW = 8 * 1024;
  private static final int SHRINK_ABOVE = 16 << 20;
  private static final int INITIAL = 128 * 1024;

  /** A failed write of a streamed piece: the connection, not the encoder, failed. */
  static final class WriteFailure extends IOException {
    private static final long serialVersionUID = 1L;

    WriteFailure(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  private final OutputStream out;
  private byte[] data = new byte[INITIAL];
  private int size;
  private long sent;

  MessageSink(OutputStream out) {
    this.out = out;
  }

  /** The bytes of the current message written out so far. */
  long sent() {
    return sent;
  }

  /** Writes what is left of the message, and flushes. */
  void finish() throws IOException {
    drain();
  }

  /** Forgets the message; drops an oversized array left by a huge direct write. */
  void reset() {
    size = 0;
    sent = 0;
    if (data.length > SHRINK_ABOVE) data = new byte[INITIAL];
  }

  @Override
  public MessageBuffer next(int minimumSize) throws IOException {
    if (size >= STREAM_ABOVE) drain();
    ensure(Math.max(minimumSize, MIN_WINDOW));
    return MessageBuffer.wrap(data, size, data.length - size);
  }

  @Override
  public void writeBuffer(int length) {
    size += length;
  }

  @Override
  public void write(byte[] buffer, int offset, int length) throws IOException {
    if (size + (long) length > STREAM_ABOVE) {
      drain();
      if (length > STREAM_ABOVE) { // a large payload goes out as it is, not through the array
        send(buffer, offset, length);
        return;
      }
    }
    ensure(length);
    System.arraycopy(buffer, offset, data, size, length);
    size += length;
  }

  @Override
  public void add(byte[] buffer, int offset, int length) throws IOException {
    write(buffer, offset, length);
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}

  private void drain() throws IOException {
    send(data, 0, size);
    size = 0;
  }

  private void send(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) return;
    try {
      out.write(buffer, offset, length);
      out.flush();
    } catch (IOException e) {
      throw new WriteFailure(e);
    }
    sent += length;
  }

  private void ensure(int free) {
    long need = (long) size + free;
    if (need <= data.length) return;
    if (need > RpcLimits.MAX_FRAME_BYTES) {
      throw new IllegalStateException("message piece exceeds " + RpcLimits.MAX_FRAME_BYTES + " bytes");
    }
    long grown = Math.max(need, (long) data.length * 2);
    data = Arrays.copyOf(data, (int) Math.min(grown, RpcLimits.MAX_FRAME_BYTES));
  }
}
