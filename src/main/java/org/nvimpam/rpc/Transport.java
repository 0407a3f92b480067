package org.nvimpam.rpc;

import java.io.Closeable;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A byte pipe to a msgpack-RPC peer. The connection reads {@link #input()} from one thread and
 * writes {@link #output()} from another; the two must not block each other.
 */
public interface Transport extends Closeable {
  InputStream input();

  OutputStream output();

  /** Names the peer in error messages, e.g. {@code "nvim child process (pid 4242)"}. */
  String describe();
}
