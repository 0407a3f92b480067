package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.plugin.PluginHost;
import org.nvimpam.rpc.RpcConnection;
import org.nvimpam.rpc.RpcLimits;
import org.nvimpam.rpc.StreamTransport;
import org.nvimpam.rpc.Transport;
import picocli.CommandLine.Command;

/**
 * {@code serve}: Neovim started us with {@code jobstart(cmd, {'rpc': v:true})}; speak msgpack-RPC
 * on stdin/stdout until Neovim hangs up.
 *
 * <p>Handlers are installed by the {@link #INSTALLERS}: each gets the connected {@link Nvim}
 * before any request is served. The plugin layer adds its installer to that list; nothing is
 * discovered at run time.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = "Serve msgpack-RPC on stdin/stdout (Neovim starts this; not for a terminal).")
public final class ServeCommand implements Callable<Integer> {
  /** Exit code after the connection ended with a protocol error or an I/O failure. */
  public static final int EXIT_CONNECTION_FAILED = 1;

  /** Installed in order on every connection. */
  static final List<Consumer<Nvim>> INSTALLERS = List.of(ServeCommand::installPoll, PluginHost::install);

  /**
   * Answers {@code poll} with {@code "ok"}, as Neovim's remote plugin hosts do: the plugin's
   * health check and start-up handshake.
   */
  static void installPoll(Nvim nvim) {
    nvim.rpc().onRequest("poll", params -> out -> out.packString("ok"));
  }

  private final List<Consumer<Nvim>> installers;

  public ServeCommand() {
    this(INSTALLERS);
  }

  ServeCommand(List<Consumer<Nvim>> installers) {
    this.installers = List.copyOf(installers);
  }

  @Override
  public Integer call() {
    PrintStream realStdout = System.out;
    System.setOut(System.err); // from here on, only RPC reaches fd 1
    realStdout.flush();
    return serve(StreamTransport.stdio(), installers);
  }

  /**
   * Connects over {@code transport}, runs {@code installers}, and waits for the connection to end.
   * Returns 0 when the peer hung up cleanly, {@link #EXIT_CONNECTION_FAILED} otherwise.
   */
  static int serve(Transport transport, List<Consumer<Nvim>> installers) {
    // paused: a request Neovim sends at once must wait for the installers' handlers
    RpcConnection rpc = RpcConnection.startPaused(transport, RpcLimits.defaults());
    try {
      Nvim nvim = Nvim.connect(rpc);
      installers.forEach(i -> i.accept(nvim));
      rpc.acceptIncoming();
      rpc.closed().get();
      return 0;
    } catch (IOException e) {
      System.err.println("nvimpam serve: " + e.getMessage());
      return EXIT_CONNECTION_FAILED;
    } catch (ExecutionException e) {
      System.err.println("nvimpam serve: " + e.getCause().getMessage());
      return EXIT_CONNECTION_FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      rpc.close();
      return EXIT_CONNECTION_FAILED;
    }
  }
}
