package org.nvimpam.rpc;

/** The first element of Neovim's {@code [type, message]} error. */
public enum ErrorType {
  EXCEPTION,
  VALIDATION,
  UNKNOWN;

  public static ErrorType of(long code) {
    if (code == 0) return EXCEPTION;
    if (code == 1) return VALIDATION;
    return UNKNOWN;
  }
}
