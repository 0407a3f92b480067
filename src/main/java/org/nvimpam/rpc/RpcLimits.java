package org.nvimpam.rpc;

/**
 * Bounds on what the peer may send. Every msgpack header is checked against these before it is
 * trusted; exceeding one is a protocol error that closes the connection.
 *
 * <p>The defaults fit a 10M-line buffer sent whole: 1 GiB per message, 256 MiB per string,
 * 32M elements per array or map, and 64 levels of nesting.
 */
public final class RpcLimits {
  /** Java arrays cannot be larger than this; a frame is held in one array. */
  public static final int MAX_FRAME_BYTES = Integer.MAX_VALUE - 16;

  private static final RpcLimits DEFAULTS =
      new RpcLimits(1 << 30, 256 << 20, 32 << 20, 32 << 20, 64);

  private final int maxMessageBytes;
  private final int maxStringBytes;
  private final int maxArrayLength;
  private final int maxMapLength;
  private final int maxDepth;

  private RpcLimits(
      int maxMessageBytes, int maxStringBytes, int maxArrayLength, int maxMapLength, int maxDepth) {
    this.maxMessageBytes = check("maxMessageBytes", maxMessageBytes, 16, MAX_FRAME_BYTES);
    this.maxStringBytes = check("maxStringBytes", maxStringBytes, 0, maxMessageBytes);
    this.maxArrayLength = check("maxArrayLength", maxArrayLength, 4, maxMessageBytes);
    this.maxMapLength = check("maxMapLength", maxMapLength, 0, maxMessageBytes);
    this.maxDepth = check("maxDepth", maxDepth, 1, 10_000);
  }

  private static int check(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "]: " + value);
    }
    return value;
  }

  public static RpcLimits defaults() {
    return DEFAULTS;
  }

  /** Largest whole message (one frame), in bytes. */
  int maxMessageBytes() {
    return maxMessageBytes;
  }

  /** Largest str, bin or ext payload, in bytes. */
  int maxStringBytes() {
    return maxStringBytes;
  }

  int maxArrayLength() {
    return maxArrayLength;
  }

  /** Largest map, in key-value pairs. */
  int maxMapLength() {
    return maxMapLength;
  }

  /** Deepest nesting of arrays and maps; the message envelope itself is level 1. */
  int maxDepth() {
    return maxDepth;
  }

  public RpcLimits withMaxMessageBytes(int v) {
    return new RpcLimits(v, Math.min(maxStringBytes, v), Math.min(maxArrayLength, v),
        Math.min(maxMapLength, v), maxDepth);
  }

  public RpcLimits withMaxStringBytes(int v) {
    return new RpcLimits(maxMessageBytes, v, maxArrayLength, maxMapLength, maxDepth);
  }

  public RpcLimits withMaxArrayLength(int v) {
    return new RpcLimits(maxMessageBytes, maxStringBytes, v, maxMapLength, maxDepth);
  }

  public RpcLimits withMaxMapLength(int v) {
    return new RpcLimits(maxMessageBytes, maxStringBytes, maxArrayLength, v, maxDepth);
  }

  public RpcLimits withMaxDepth(int v) {
    return new RpcLimits(maxMessageBytes, maxStringBytes, maxArrayLength, maxMapLength, v);
  }

  @Override
  public String toString() {
    return "RpcLimits[message=" + maxMessageBytes + ", string=" + maxStringBytes + ", array="
        + maxArrayLength + ", map=" + maxMapLength + ", depth=" + maxDepth + "]";
  }
}
