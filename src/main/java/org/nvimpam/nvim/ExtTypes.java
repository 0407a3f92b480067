package org.nvimpam.nvim;

/**
 * The msgpack ext type codes of Buffer, Window and Tabpage, as {@code nvim_get_api_info} reports
 * them in {@code types.*.id}.
 */
public record ExtTypes(byte buffer, byte window, byte tabpage) {
  /**
   * The codes every Neovim release so far uses (0, 1, 2). Used where no connection is at hand;
   * {@link ApiInfo#extTypes()} has the connected Neovim's own.
   */
  public static final ExtTypes STANDARD = new ExtTypes((byte) 0, (byte) 1, (byte) 2);
}
