package org.nvimpam.cli;

import java.util.List;
import picocli.CommandLine;

/**
 * {@code serve} plus a handler that prints to {@code System.out}: if the redirect failed, that
 * text would land in the RPC stream and break it.
 */
public final class NoisyServeMain {
  private NoisyServeMain() {}

  public static void main(String[] args) {
    ServeCommand serve = new ServeCommand(List.of(ServeCommand::installPoll,
        nvim -> nvim.rpc().onRequest("noisy", params -> {
          System.out.println("noise that must not reach fd 1");
          return out -> out.packString("quiet");
        })));
    System.exit(new CommandLine(serve).execute()); // args: the "serve" the test passes
  }
}
