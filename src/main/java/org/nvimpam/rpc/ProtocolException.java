package org.nvimpam.rpc;

import java.io.IOException;

/** The peer sent bytes that are not a valid, acceptable msgpack-RPC message. */
public final class ProtocolException extends IOException {
  public ProtocolException(String message) {
    super(message);
  }

  public ProtocolException(String message, Throwable cause) {
    super(message, cause);
  }
}
