package org.nvimpam.rpc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A Unix domain socket (a path, e.g. {@code $NVIM} or {@code nvim --listen /tmp/x.sock}) or a TCP
 * {@code host:port}.
 *
 * <p>The streams call the channel directly: the JDK's {@code Channels.newInputStream} holds the
 * channel's blocking lock while a read waits, which would stall every write behind it.
 */
public final class SocketTransport implements Transport {
  private final SocketChannel channel;
  private final String address;
  private final InputStream in;
  private final OutputStream out;

  private SocketTransport(SocketChannel channel, String address) {
    this.channel = channel;
    this.address = address;
    this.in = new In();
    this.out = new Out();
  }

  /**
   * Connects to {@code address}: {@code host:port} (port all digits; IPv6 hosts in brackets) is
   * TCP, anything else a Unix socket path.
   */
  public static SocketTransport connect(String address) throws IOException {
    SocketAddress target = parse(address);
    SocketChannel ch = target instanceof UnixDomainSocketAddress
        ? SocketChannel.open(StandardProtocolFamily.UNIX)
        : SocketChannel.open();
    try {
      ch.connect(target);
    } catch (IOException e) {
      ch.close();
      throw new IOException("cannot connect to " + address + ": " + e.getMessage(), e);
    }
    return new SocketTransport(ch, address);
  }

  static SocketAddress parse(String address) {
    int colon = address.lastIndexOf(':');
    if (colon > 0 && colon < address.length() - 1 && !address.contains("/")
        && address.substring(colon + 1).chars().allMatch(Character::isDigit)) {
      String host = address.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
      return new InetSocketAddress(host, Integer.parseInt(address.substring(colon + 1)));
    }
    return UnixDomainSocketAddress.of(address);
  }

  @Override
  public InputStream input() {
    return in;
  }

  @Override
  public OutputStream output() {
    return out;
  }

  @Override
  public String describe() {
    return "socket " + address;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  private final class In extends InputStream {
    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) return 0;
      return channel.read(ByteBuffer.wrap(b, off, len));
    }
  }

  private final class Out extends OutputStream {
    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      ByteBuffer bb = ByteBuffer.wrap(b, off, len);
      while (bb.hasRemaining()) channel.write(bb);
    }
  }
}
