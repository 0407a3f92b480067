package org.nvimpam.rpc;

/** The connection ended before (or while) a call could complete; the message says why. */
public final class ConnectionClosedException extends RuntimeException {
  // public type, so callers can tell it apart; only the connection creates one
  ConnectionClosedException(String message, Throwable cause) {
    super(message, cause);
  }
}
