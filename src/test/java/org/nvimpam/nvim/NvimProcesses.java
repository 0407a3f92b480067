package org.nvimpam.nvim;

import java.io.IOException;
import java.util.List;
import org.nvimpam.rpc.ChildProcessTransport;

/** The Neovim the tests spawn: {@code -Dnvimpam.nvim} (default {@code nvim}). */
public final class NvimProcesses {
  private NvimProcesses() {}

  public static String nvim() {
    return System.getProperty("nvimpam.nvim", "nvim");
  }

  public static List<String> embedArgv() {
    return ChildProcessTransport.nvimArgv(nvim());
  }

  public static Nvim embed() throws IOException {
    return Nvim.embed(embedArgv());
  }
}
