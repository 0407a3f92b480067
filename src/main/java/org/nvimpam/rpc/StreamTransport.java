package org.nvimpam.rpc;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** A transport over a pair of streams it owns: the process's stdio, or any given streams. */
public final class StreamTransport implements Transport {
  private final InputStream in;
  private final OutputStream out;
  private final String description;

  public StreamTransport(InputStream in, OutputStream out, String description) {
    this.in = in;
    this.out = out;
    this.description = description;
  }

  /**
   * The process's own stdin and stdout, for when Neovim started us ({@code jobstart(..., {'rpc':
   * v:true})}). It writes to file descriptor 1 directly, so it keeps working after {@code
   * System.out} has been pointed elsewhere — which callers should do first, since anything else on
   * fd 1 corrupts the RPC stream.
   */
  public static StreamTransport stdio() {
    return new StreamTransport(new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out),
        "stdio");
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
    return description;
  }

  @Override
  public void close() throws IOException {
    try {
      out.close();
    } finally {
      in.close();
    }
  }
}
