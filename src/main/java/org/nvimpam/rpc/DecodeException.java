package org.nvimpam.rpc;

/** A well-formed response whose result did not fit the call's {@link Decoder}. */
public final class DecodeException extends RuntimeException {
  // public type, so callers can tell it apart; only the connection creates one
  DecodeException(String message, Throwable cause) {
    super(message, cause);
  }
}
