package org.nvimpam.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.nvimpam.nvim.ExtTypes;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.nvim.StartTrace;
import org.nvimpam.plugin.PluginHost;
import org.nvimpam.rpc.RpcConnection;
import org.nvimpam.rpc.RpcLimits;
import org.nvimpam.rpc.StreamTransport;
import org.nvimpam.rpc.Transport;
import org.nvimpam.plugin.EarlyReads;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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

  /** The options Neovim may start us with; {@link Main} reads them without picocli. */
  static final String EARLY_READ = "--early-read=";
  static final String EARLY_BUFFER = "--early-buffer=";
  static final String EXT_TYPES = "--ext-types=";

  @Option(names = "--early-read", paramLabel = "PATH",
      description = "A deck Neovim is about to read: read and fold it now, while the connection starts.")
  String earlyRead;

  @Option(names = "--early-buffer", paramLabel = "N", description = "The buffer that --early-read is for.")
  long earlyBuffer;

  @Option(names = "--ext-types", paramLabel = "B,W,T", converter = ExtTypesConverter.class,
      description = "Neovim's msgpack ext type codes of Buffer, Window and Tabpage: the connection then "
          + "starts without asking for the API metadata.")
  ExtTypes extTypes;

  static final class ExtTypesConverter implements picocli.CommandLine.ITypeConverter<ExtTypes> {
    @Override
    public ExtTypes convert(String value) {
      ExtTypes t = parseExtTypes(value);
      if (t == null) throw new picocli.CommandLine.TypeConversionException("expected three codes 0-127, e.g. 0,1,2");
      return t;
    }
  }

  /** {@code B,W,T} as three ext type codes, or null if it is not that. */
  static ExtTypes parseExtTypes(String value) {
    String[] c = value.split(",", -1);
    if (c.length != 3) return null;
    byte[] b = new byte[3];
    for (int i = 0; i < 3; i++) {
      try {
        int v = Integer.parseInt(c[i].trim());
        if (v < 0 || v > 127) return null;
        b[i] = (byte) v;
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return new ExtTypes(b[0], b[1], b[2]);
  }

  /** The early reads of this process; the first may start before Neovim is connected. */
  private final EarlyReads early = new EarlyReads();

  /**
   * Answers {@code poll} with {@code "ok"}, as Neovim's remote plugin hosts do: the plugin's
   * health check and start-up handshake.
   */
  static void installPoll(Nvim nvim) {
    nvim.rpc().onRequest("poll", params -> out -> out.packString("ok"));
  }

  private final List<Consumer<Nvim>> installers; // null: the plugin's, made once the early read runs

  public ServeCommand() {
    this.installers = null;
  }

  ServeCommand(List<Consumer<Nvim>> installers) {
    this.installers = List.copyOf(installers);
  }

  /**
   * {@code serve} as Neovim starts it, read without picocli (building its model of every
   * subcommand is most of a cold start): null when {@code args} are anything else.
   */
  static ServeCommand fromArgs(String[] args) {
    if (args.length == 0 || !args[0].equals("serve")) return null;
    ServeCommand c = new ServeCommand();
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      if (a.startsWith(EARLY_READ)) {
        c.earlyRead = a.substring(EARLY_READ.length());
      } else if (a.startsWith(EXT_TYPES)) {
        c.extTypes = parseExtTypes(a.substring(EXT_TYPES.length()));
        if (c.extTypes == null) return null; // picocli says what is wrong
      } else if (a.startsWith(EARLY_BUFFER)) {
        try {
          c.earlyBuffer = Long.parseLong(a.substring(EARLY_BUFFER.length()));
        } catch (NumberFormatException e) {
          return null; // picocli says what is wrong
        }
      } else {
        return null;
      }
    }
    c.startEarlyRead();
    return c;
  }

  private boolean earlyStarted;

  /** Starts the early read, once: it runs alongside the connection's start. */
  private void startEarlyRead() {
    if (earlyStarted || earlyRead == null || earlyBuffer <= 0) return;
    earlyStarted = true;
    early.start(earlyBuffer, earlyRead);
  }

  @Override
  public Integer call() {
    startEarlyRead(); // when picocli made this command
    PrintStream realStdout = System.out;
    System.setOut(System.err); // from here on, only RPC reaches fd 1
    realStdout.flush();
    return serve(StreamTransport.stdio(), extTypes, installers != null ? installers
        : List.of(ServeCommand::installPoll, nvim -> PluginHost.install(nvim, early)));
  }

  /**
   * Connects over {@code transport}, runs {@code installers}, and waits for the connection to end.
   * Returns 0 when the peer hung up cleanly, {@link #EXIT_CONNECTION_FAILED} otherwise. With
   * {@code ext} (the peer's handle types, when known) no API metadata is asked for at the start.
   */
  static int serve(Transport transport, ExtTypes ext, List<Consumer<Nvim>> installers) {
    // paused: a request Neovim sends at once must wait for the installers' handlers
    RpcConnection rpc = RpcConnection.startPaused(transport, RpcLimits.defaults());
    try {
      Nvim nvim = ext != null ? Nvim.connect(rpc, ext) : Nvim.connect(rpc);
      StartTrace.mark("connected");
      installers.forEach(i -> i.accept(nvim));
      rpc.acceptIncoming();
      StartTrace.mark("installed");
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
