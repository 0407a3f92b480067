package org.nvimpam.rpc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** A transport over given streams, for feeding a connection bytes without a peer. */
final class StreamTransport implements Transport {
  private final InputStream in;
  private final OutputStream out;

  StreamTransport(InputStream in, OutputStream out) {
    this.in = in;
    this.out = out;
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
    return "test streams";
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
