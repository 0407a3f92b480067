package org.nvimpam.rpc;

/** Neovim answered a request with an error {@code [type, message]}. */
public final class NvimErrorException extends RuntimeException {
  private final ErrorType type;
  private final String method;
  private final String nvimMessage;

  public NvimErrorException(ErrorType type, String method, String nvimMessage) {
    super(method + ": " + nvimMessage);
    this.type = type;
    this.method = method;
    this.nvimMessage = nvimMessage;
  }

  public ErrorType type() {
    return type;
  }

  /** The method whose call failed. */
  public String method() {
    return method;
  }

  /** Neovim's own message, e.g. {@code "Vim:E492: Not an editor command: foo"}. */
  public String nvimMessage() {
    return nvimMessage;
  }
}
