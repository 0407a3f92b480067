package org.nvimpam.rpc;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessageUnpacker;
import org.nvimpam.testutil.EmbeddedNvim;

/** Connection behaviour that needs a real Neovim on the other end. */
class RpcConnectionNvimTest {
  private static final Decoder<Long> LONG = MessageUnpacker::unpackLong;

  private static Encoder evalArgs(String expr) {
    return out -> out.packArrayHeader(1).packString(expr);
  }

  @Test
  void killingNeovimFailsPendingCallsWithinASecond() throws Exception {
    ChildProcessTransport t = ChildProcessTransport.start(EmbeddedNvim.argv());
    RpcConnection c = RpcConnection.start(t, RpcLimits.defaults());
    assertEquals(2L, c.request("nvim_eval", evalArgs("1+1"), LONG).get(10, TimeUnit.SECONDS));
    CompletableFuture<Long> sleeping = c.request("nvim_eval", evalArgs("execute('sleep 20') + 1"), LONG);
    long t0 = System.nanoTime();
    // SIGKILL from outside; Process.destroyForcibly() would also close our end of the pipes
    t.process().toHandle().destroyForcibly();
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> sleeping.get(1, TimeUnit.SECONDS));
    assertTrue((System.nanoTime() - t0) < 1_000_000_000L);
    ConnectionClosedException closed = assertInstanceOf(ConnectionClosedException.class, e.getCause());
    assertTrue(closed.getMessage().contains("end of stream"), closed.getMessage());
    assertThrows(ExecutionException.class,
        () -> c.request("nvim_eval", evalArgs("1"), LONG).get(1, TimeUnit.SECONDS));
  }

  @Test
  void msgidsWrapAroundAt32Bits() throws Exception {
    RpcConnection c = RpcConnection.start(
        ChildProcessTransport.start(EmbeddedNvim.argv()), RpcLimits.defaults(),
        0xFFFF_FFFDL, false);
    try {
      List<CompletableFuture<Long>> calls = new ArrayList<>();
      for (int i = 0; i < 8; i++) calls.add(c.request("nvim_eval", evalArgs(i + "+100"), LONG));
      for (int i = 0; i < 8; i++) assertEquals(i + 100L, calls.get(i).get(10, TimeUnit.SECONDS));
    } finally {
      c.close();
    }
  }

  @Test
  void connectsToAUnixSocket() throws Exception {
    Path dir = Files.createTempDirectory("nvimpam-sock");
    Path sock = dir.resolve("nvim.sock");
    Process p = new ProcessBuilder(EmbeddedNvim.executable(), "--headless", "-u", "NONE", "-i", "NONE",
        "-n", "--listen", sock.toString()).redirectErrorStream(true).start();
    try {
      for (int i = 0; i < 100 && !Files.exists(sock); i++) Thread.sleep(50);
      try (RpcConnection c = RpcConnection.start(SocketTransport.connect(sock.toString()),
          RpcLimits.defaults())) {
        assertEquals(7L, c.request("nvim_eval", evalArgs("3+4"), LONG).get(10, TimeUnit.SECONDS));
      }
    } finally {
      p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      Files.deleteIfExists(sock);
      Files.deleteIfExists(dir);
    }
  }

  @Test
  void socketAddressesAreTcpOnlyForHostColonPort() {
    assertInstanceOf(java.net.InetSocketAddress.class, SocketTransport.parse("127.0.0.1:6666"));
    assertInstanceOf(java.net.InetSocketAddress.class, SocketTransport.parse("[::1]:6666"));
    assertInstanceOf(java.net.UnixDomainSocketAddress.class, SocketTransport.parse("/tmp/a:1"));
    assertInstanceOf(java.net.UnixDomainSocketAddress.class, SocketTransport.parse("nvim.sock"));
  }
}
