package org.nvimpam.rpc;

import java.util.Arrays;
import org.msgpack.core.buffer.MessageBuffer;
import org.msgpack.core.buffer.MessageBufferOutput;

/**
 * One growable byte array that a {@code MessagePacker} writes into directly: each {@link #next}
 * hands the packer a window on the free tail of the array, so packing copies nothing.
 *
 * <p>The owner packs one whole message, calls {@code packer.flush()} to commit the packer's last
 * window, reads {@link #array()}{@code [0 .. size())}, then {@link #reset()}s for the next one.
 * Not thread-safe: used under the connection's write lock.
 */
final class MessageSink implements MessageBufferOutput {
  private static final int MIN_WINDOW = 8 * 1024;
  private static final int SHRINK_ABOVE = 16 << 20;
  private static final int INITIAL = 64 * 1024;

  private byte[] data = new byte[INITIAL];
  private int size;

  byte[] array() {
    return data;
  }

  int size() {
    return size;
  }

  /** Forgets the bytes written; drops an oversized array left by a very large message. */
  void reset() {
    size = 0;
    if (data.length > SHRINK_ABOVE) data = new byte[INITIAL];
  }

  @Override
  public MessageBuffer next(int minimumSize) {
    ensure(Math.max(minimumSize, MIN_WINDOW));
    return MessageBuffer.wrap(data, size, data.length - size);
  }

  @Override
  public void writeBuffer(int length) {
    size += length;
  }

  @Override
  public void write(byte[] buffer, int offset, int length) {
    ensure(length);
    System.arraycopy(buffer, offset, data, size, length);
    size += length;
  }

  @Override
  public void add(byte[] buffer, int offset, int length) {
    write(buffer, offset, length);
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}

  private void ensure(int free) {
    long need = (long) size + free;
    if (need <= data.length) return;
    if (need > RpcLimits.MAX_FRAME_BYTES) {
      throw new IllegalStateException("message exceeds " + RpcLimits.MAX_FRAME_BYTES + " bytes");
    }
    long grown = Math.max(need, (long) data.length * 2);
    data = Arrays.copyOf(data, (int) Math.min(grown, RpcLimits.MAX_FRAME_BYTES));
  }
}
