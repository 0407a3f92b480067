package org.nvimpam.rpc;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Cuts a byte stream into whole msgpack values (frames) without decoding them.
 *
 * <p>It walks headers only, resumably: bytes may arrive one at a time. Every str, bin, ext, array
 * and map header is checked against {@link RpcLimits} and the nesting depth before it is trusted,
 * and the buffer grows only when bytes actually arrive and do not fit, never from a claimed
 * length. The current frame occupies {@code buffer()[frameOffset() .. +frameLength())} after
 * {@link #next()} returns true, until the next call to {@code next()} or {@code fill()}.
 *
 * <p>Not thread-safe: owned by the connection's reader thread.
 */
final class FrameScanner {
  private static final int MIN_CAPACITY = 64 * 1024;
  private static final int SHRINK_ABOVE = 16 << 20;
  private static final int MIN_READ = 8 * 1024;

  private final RpcLimits limits;
  private final long[] remaining; // items still expected by each open container
  private byte[] buf = new byte[MIN_CAPACITY];
  private int start; // first byte of the current frame
  private int pos; // next byte to scan
  private int limit; // end of the bytes read so far
  private int depth; // open containers, the frame itself counting as one
  private long skip; // payload bytes to pass over before the next header
  private boolean inFrame;

  FrameScanner(RpcLimits limits) {
    this.limits = limits;
    this.remaining = new long[limits.maxDepth() + 1];
  }

  byte[] buffer() {
    return buf;
  }

  int frameOffset() {
    return start;
  }

  int frameLength() {
    return pos - start;
  }

  /** Bytes of an unfinished frame held so far; 0 between frames. */
  int partialFrameBytes() {
    return inFrame ? limit - start : limit - pos;
  }

  /**
   * Reads once from {@code in} into free buffer space, compacting or growing the buffer first if
   * needed. Returns the bytes read, or -1 at end of stream.
   */
  int fill(InputStream in) throws IOException {
    makeRoom();
    int n = in.read(buf, limit, buf.length - limit);
    if (n > 0) limit += n;
    return n;
  }

  private void makeRoom() throws ProtocolException {
    int keep = inFrame ? start : pos;
    if (keep == limit) { // nothing pending: restart at 0, dropping an oversized buffer
      start = pos = limit = 0;
      keep = 0;
      if (buf.length > SHRINK_ABOVE) buf = new byte[MIN_CAPACITY];
    }
    if (buf.length - limit >= MIN_READ) return;
    if (keep > 0) {
      System.arraycopy(buf, keep, buf, 0, limit - keep);
      start -= keep;
      pos -= keep;
      limit -= keep;
    }
    if (buf.length - limit >= MIN_READ) return;
    int cap = limits.maxMessageBytes();
    if (buf.length < cap) {
      buf = Arrays.copyOf(buf, (int) Math.min((long) buf.length * 2, cap));
    } else if (limit == buf.length) { // one unfinished frame fills the largest buffer allowed
      throw new ProtocolException("message exceeds limit of " + cap + " bytes");
    }
  }

  /**
   * Scans the bytes read so far. Returns true when a whole frame is ready; false when more input
   * is needed.
   */
  boolean next() throws ProtocolException {
    if (!inFrame) {
      if (pos >= limit) return false;
      start = pos;
      depth = 1;
      remaining[0] = 1;
      skip = 0;
      inFrame = true;
    }
    while (true) {
      if (skip > 0) {
        int n = (int) Math.min(skip, limit - pos);
        pos += n;
        skip -= n;
        if (skip > 0) return false;
      }
      if (depth == 0) {
        inFrame = false;
        return true;
      }
      if (pos >= limit || !header()) return false;
      while (depth > 0 && remaining[depth - 1] == 0) depth--;
      if ((long) pos - start + skip > limits.maxMessageBytes()) {
        throw new ProtocolException("message of at least " + ((long) pos - start + skip)
            + " bytes exceeds limit " + limits.maxMessageBytes());
      }
    }
  }

  /** Consumes one header at {@code pos} if it is complete; false if more bytes are needed. */
  private boolean header() throws ProtocolException {
    int b = buf[pos] & 0xff;
    if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) return scalar(1, 0);
    if (b <= 0x8f) return container(1, b & 0x0f, true);
    if (b <= 0x9f) return container(1, b & 0x0f, false);
    if (b <= 0xbf) return payload(1, b & 0x1f, "string");
    switch (b) {
      case 0xc4: return need(2) && payload(2, u8(pos + 1), "binary");
      case 0xc5: return need(3) && payload(3, u16(pos + 1), "binary");
      case 0xc6: return need(5) && payload(5, u32(pos + 1), "binary");
      case 0xc7: return need(3) && payload(3, u8(pos + 1), "ext"); // header ends with the type
      case 0xc8: return need(4) && payload(4, u16(pos + 1), "ext");
      case 0xc9: return need(6) && payload(6, u32(pos + 1), "ext");
      case 0xca: return scalar(5, 0);
      case 0xcb: return scalar(9, 0);
      case 0xcc: case 0xd0: return scalar(2, 0);
      case 0xcd: case 0xd1: return scalar(3, 0);
      case 0xce: case 0xd2: return scalar(5, 0);
      case 0xcf: case 0xd3: return scalar(9, 0);
      case 0xd4: return scalar(2, 1);
      case 0xd5: return scalar(2, 2);
      case 0xd6: return scalar(2, 4);
      case 0xd7: return scalar(2, 8);
      case 0xd8: return scalar(2, 16);
      case 0xd9: return need(2) && payload(2, u8(pos + 1), "string");
      case 0xda: return need(3) && payload(3, u16(pos + 1), "string");
      case 0xdb: return need(5) && payload(5, u32(pos + 1), "string");
      case 0xdc: return need(3) && container(3, u16(pos + 1), false);
      case 0xdd: return need(5) && container(5, u32(pos + 1), false);
      case 0xde: return need(3) && container(3, u16(pos + 1), true);
      case 0xdf: return need(5) && container(5, u32(pos + 1), true);
      default: // 0xc1 is the only byte msgpack never uses
        throw new ProtocolException(String.format(
            "invalid msgpack byte 0x%02x at offset %d of a message", b, pos - start));
    }
  }

  private boolean need(int n) {
    return limit - pos >= n;
  }

  private boolean scalar(int headerLen, int payloadLen) {
    if (!need(headerLen)) return false;
    pos += headerLen;
    skip = payloadLen;
    remaining[depth - 1]--;
    return true;
  }

  private boolean payload(int headerLen, long len, String kind) throws ProtocolException {
    if (len > limits.maxStringBytes()) {
      throw new ProtocolException(
          kind + " of " + len + " bytes exceeds limit " + limits.maxStringBytes());
    }
    pos += headerLen;
    skip = len;
    remaining[depth - 1]--;
    return true;
  }

  private boolean container(int headerLen, long n, boolean map) throws ProtocolException {
    long max = map ? limits.maxMapLength() : limits.maxArrayLength();
    if (n > max) {
      throw new ProtocolException((map ? "map of " + n + " entries" : "array of " + n + " elements")
          + " exceeds limit " + max);
    }
    if (!need(headerLen)) return false;
    pos += headerLen;
    remaining[depth - 1]--;
    if (n > 0) {
      if (depth == limits.maxDepth()) {
        throw new ProtocolException("nesting deeper than limit " + limits.maxDepth());
      }
      remaining[depth++] = map ? 2 * n : n;
    }
    return true;
  }

  private int u8(int at) {
    return buf[at] & 0xff;
  }

  private int u16(int at) {
    return (u8(at) << 8) | u8(at + 1);
  }

  private long u32(int at) {
    return ((long) u16(at) << 16) | u16(at + 2);
  }
}
