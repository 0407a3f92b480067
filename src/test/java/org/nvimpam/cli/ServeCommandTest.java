package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.nvim.ExtTypes;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.testutil.EmbeddedNvim;

/** Neovim starts {@code serve} with {@code jobstart(..., {'rpc': v:true})}, as the plugin will. */
class ServeCommandTest {
  private Nvim nvim;

  @BeforeEach
  void start() throws Exception {
    nvim = EmbeddedNvim.start();
  }

  @AfterEach
  void stop() {
    nvim.close();
  }

  private long jobstart(String mainClass, String... serveArgs) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(java, "-Xshare:auto", "-cp", System.getProperty("java.class.path"),
        mainClass, "serve"));
    cmd.addAll(List.of(serveArgs));
    Object chan = nvim.callFunction("jobstart", nvim.args(cmd, Map.of("rpc", true)))
        .get(10, TimeUnit.SECONDS);
    assertTrue((Long) chan > 0, "jobstart: " + chan);
    return (Long) chan;
  }

  private Object rpcrequest(long chan, String method) throws Exception {
    return nvim.callFunction("rpcrequest", nvim.args(chan, method)).get(30, TimeUnit.SECONDS);
  }

  private Object exitCodeAfterHangUp(long chan) throws Exception {
    nvim.callFunction("chanclose", nvim.args(chan)).get(10, TimeUnit.SECONDS);
    return nvim.callFunction("jobwait", nvim.args(List.of(chan), 10_000))
        .get(20, TimeUnit.SECONDS);
  }

  @Test
  void servesPollAndExitsZeroWhenNeovimHangsUp() throws Exception {
    long chan = jobstart(Main.class.getName());
    assertEquals("ok", rpcrequest(chan, "poll"));
    assertEquals(List.of(0L), exitCodeAfterHangUp(chan));
  }

  @Test
  void servesWithTheExtTypesLuaPasses() throws Exception {
    long chan = jobstart(Main.class.getName(), "--ext-types=0,1,2");
    assertEquals("ok", rpcrequest(chan, "poll"));
    assertEquals(List.of(0L), exitCodeAfterHangUp(chan));
  }

  @Test
  void extTypesAreThreeSmallCodes() {
    assertEquals(new ExtTypes((byte) 0, (byte) 1, (byte) 2), ServeCommand.parseExtTypes("0,1,2"));
    assertEquals(new ExtTypes((byte) 5, (byte) 7, (byte) 127), ServeCommand.parseExtTypes("5, 7,127"));
    for (String bad : new String[] {"", "0,1", "0,1,2,3", "a,b,c", "0,1,128", "-1,0,1", "0,,2"}) {
      assertNull(ServeCommand.parseExtTypes(bad), bad);
    }
    assertNotNull(ServeCommand.fromArgs(new String[] {"serve", "--ext-types=0,1,2"}));
    assertNull(ServeCommand.fromArgs(new String[] {"serve", "--ext-types=0,1"}), "picocli says what is wrong");
    assertEquals(2, Main.run("serve", "--ext-types=x"), "a usage error");
  }

  @Test
  void printingToSystemOutDoesNotReachTheRpcStream() throws Exception {
    long chan = jobstart(NoisyServeMain.class.getName());
    assertEquals("quiet", rpcrequest(chan, "noisy"));
    assertEquals("ok", rpcrequest(chan, "poll"), "the channel survived the noise");
    assertEquals(List.of(0L), exitCodeAfterHangUp(chan));
  }

  @Test
  void serveExitsNonZeroOnAProtocolError() throws Exception {
    // Neovim is a well-behaved peer, so the garbage comes from a raw job writing to our stdin.
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "serve").redirectError(ProcessBuilder.Redirect.DISCARD).start();
    p.getOutputStream().write(new byte[] {(byte) 0xc1, 0, 0});
    p.getOutputStream().flush();
    assertTrue(p.waitFor(20, TimeUnit.SECONDS));
    assertEquals(ServeCommand.EXIT_CONNECTION_FAILED, p.exitValue());
    byte[] out = p.getInputStream().readAllBytes();
    // Only RPC on stdout: the nvim_get_api_info request, unless the garbage was read and the
    // connection closed before the request was written (a race the test does not control).
    assertTrue(out.length == 0 || (out[0] & 0xff) == 0x94, "stdout holds nothing but a request");
    assertFalse(new String(out, StandardCharsets.ISO_8859_1).contains("Exception"));
  }
}
