package org.nvimpam.rpc;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The process's own stdin and stdout, for when Neovim started us ({@code jobstart(..., {'rpc':
 * v:true})}). It writes to file descriptor 1 directly, so it keeps working after
 * {@code System.out} has been pointed elsewhere — which callers should do first, since anything
 * else on fd 1 corrupts the RPC stream.
 */
public final class StdioTransport implements Transport {
  private final InputStream in = new FileInputStream(FileDescriptor.in);
  private final OutputStream out = new FileOutputStream(FileDescriptor.out);

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
    return "stdio";
  }

  @Override
  public void close() throws java.io.IOException {
    try {
      out.close();
    } finally {
      in.close();
    }
  }
}
