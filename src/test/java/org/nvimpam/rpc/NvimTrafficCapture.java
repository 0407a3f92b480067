package org.nvimpam.rpc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;

/**
 * Records what a real headless Neovim sends on its RPC channel for a fixed script of calls, as the
 * seed corpus of {@link WireFuzzTest}: api-info, lines events with invalid UTF-8 and NUL bytes,
 * Buffer/Window/Tabpage ext values, maps, nested arrays, integers of every width, a blob, error
 * replies, an {@code nvim_error_event}, a notification and a request from Neovim, a detach.
 *
 * <p>Not a test: run it by hand to refresh {@code src/test/resources/rpc/} (see the README's
 * Reliability section). Writes {@code nvim-traffic.bin} (the frames, back to back) and {@code
 * nvim-traffic.txt} (one line per request: msgid and method, for the decoders a response needs).
 */
public final class NvimTrafficCapture {
  private final Process nvim;
  private final OutputStream toNvim;
  private final InputStream fromNvim;
  private final FrameScanner scanner = new FrameScanner(RpcLimits.defaults());
  private final ByteArrayOutputStream frames = new ByteArrayOutputStream();
  private final StringBuilder methods = new StringBuilder();
  private int msgid;

  private NvimTrafficCapture(String nvimPath) throws IOException {
    nvim = new ProcessBuilder(nvimPath, "--embed", "--headless", "-u", "NONE", "-i", "NONE", "-n")
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    toNvim = nvim.getOutputStream();
    fromNvim = nvim.getInputStream();
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: NvimTrafficCapture NVIM OUT_DIR");
      System.exit(2);
    }
    NvimTrafficCapture c = new NvimTrafficCapture(args[0]);
    c.script();
    c.nvim.destroy();
    Path dir = Path.of(args[1]);
    Files.createDirectories(dir);
    Files.write(dir.resolve("nvim-traffic.bin"), c.frames.toByteArray());
    Files.writeString(dir.resolve("nvim-traffic.txt"), c.methods.toString());
    System.err.println("captured " + c.frames.size() + " bytes, " + c.msgid + " requests");
  }

  private static byte[] latin1(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private void script() throws IOException {
    call("nvim_get_api_info", p -> p.packArrayHeader(0));
    List<byte[]> lines = List.of(
        latin1("$ a deck with awkward bytes"),
        latin1("NODE  /        1              0.              0.              0."),
        latin1("NODE  /        2              1.              0.              0."),
        latin1("SHELL /        1        1       1       2       3       4"),
        latin1("caf\u00e9 Latin-1"),
        new byte[] {(byte) 0xff, (byte) 0xfe, 'b', 'a', 'd', (byte) 0xc3, '(', (byte) 0xe2, (byte) 0x82},
        latin1("NUL\u0000inside"),
        latin1("CR ended\r"),
        latin1(""),
        latin1("x".repeat(40)),
        latin1("y".repeat(300)));
    call("nvim_buf_set_lines", p -> {
      p.packArrayHeader(5).packInt(0).packInt(0).packInt(-1).packBoolean(false);
      p.packArrayHeader(lines.size());
      for (byte[] l : lines) p.packRawStringHeader(l.length).writePayload(l);
    });
    call("nvim_buf_attach", p -> p.packArrayHeader(3).packInt(0).packBoolean(true).packMapHeader(0));
    byte[] edit = {(byte) 0xff, ' ', 'N', 'O', 'D', 'E', (byte) 0x80};
    call("nvim_buf_set_lines", p -> {
      p.packArrayHeader(5).packInt(0).packInt(2).packInt(3).packBoolean(false);
      p.packArrayHeader(2);
      p.packRawStringHeader(edit.length).writePayload(edit);
      p.packString("PART  /        1SHELL");
    });
    command("undo");
    command("split");
    command("tabnew");
    command("tabprevious");
    call("nvim_get_current_buf", p -> p.packArrayHeader(0));
    call("nvim_get_current_win", p -> p.packArrayHeader(0));
    call("nvim_get_current_tabpage", p -> p.packArrayHeader(0));
    call("nvim_list_wins", p -> p.packArrayHeader(0));
    call("nvim_list_tabpages", p -> p.packArrayHeader(0));
    eval("{'a': [1, [2, [3, {'b': v:null}]]], 'c': 1.5, 'd': v:true, 'e': v:false, 'f': '', 'g': {}}");
    eval("[0, 1, 127, 128, 255, 256, 65535, 65536, 4294967295, 4294967296, -1, -32, -33, -128, -129,"
        + " -32768, -32769, -2147483648, -2147483649, 9223372036854775807, -9223372036854775807]");
    eval("0zDEADBEEF");
    eval("no_such_variable");
    command("throw 'nvimpam capture'");
    call("nvim_buf_get_lines", p -> p.packArrayHeader(4).packInt(9999).packInt(0).packInt(-1).packBoolean(false));
    call("nvim_buf_get_lines", p -> p.packArrayHeader(4).packInt(0).packInt(0).packInt(-1).packBoolean(false));
    call("nvim_exec_lua", p -> {
      p.packArrayHeader(2).packString("return { vim.api.nvim_get_current_buf(), vim.api.nvim_list_tabpages(),"
          + " { x = { 1, { 2, { 3 } } } }, ... }");
      p.packArrayHeader(2).packString("arg").packDouble(-0.25);
    });
    call("nvim_get_mode", p -> p.packArrayHeader(0));
    command("call rpcnotify(1, 'nvimpam_test_event', [1, [2, [3]]], {'k': 'v'})");
    call("nvim_call_function", p -> p.packArrayHeader(2).packString("rpcrequest")
        .packArrayHeader(4).packInt(1).packString("nvimpam_test_request").packInt(1).packString("two"));
    notification("nvim_command", p -> p.packArrayHeader(1).packString("throw 'nvimpam notification'"));
    eval("1"); // the error event of the notification arrives before this reply
    call("nvim_buf_detach", p -> p.packArrayHeader(1).packInt(0));
    eval("1");
  }

  interface Params {
    void write(MessagePacker p) throws IOException;
  }

  private void command(String cmd) throws IOException {
    call("nvim_command", p -> p.packArrayHeader(1).packString(cmd));
  }

  private void eval(String expr) throws IOException {
    call("nvim_eval", p -> p.packArrayHeader(1).packString(expr));
  }

  private void notification(String method, Params params) throws IOException {
    MessagePacker p = MessagePack.newDefaultPacker(toNvim);
    p.packArrayHeader(3).packInt(2).packString(method);
    params.write(p);
    p.flush();
  }

  /** Sends one request and records every frame up to and including its response. */
  private void call(String method, Params params) throws IOException {
    int id = msgid++;
    methods.append(id).append(' ').append(method).append('\n');
    MessagePacker p = MessagePack.newDefaultPacker(toNvim);
    p.packArrayHeader(4).packInt(0).packInt(id).packString(method);
    params.write(p);
    p.flush();
    while (true) {
      while (!scanner.next()) {
        if (scanner.fill(fromNvim) < 0) throw new IOException("Neovim hung up");
      }
      byte[] frame = Arrays.copyOfRange(scanner.buffer(), scanner.frameOffset(),
          scanner.frameOffset() + scanner.frameLength());
      frames.write(frame);
      MessageUnpacker u = MessagePack.newDefaultUnpacker(frame);
      u.unpackArrayHeader();
      int type = u.unpackInt();
      long got = type == 2 ? -1 : u.unpackLong();
      if (type == 0) { // a request from Neovim (rpcrequest): answer it
        MessagePacker r = MessagePack.newDefaultPacker(toNvim);
        r.packArrayHeader(4).packInt(1).packLong(got).packNil().packString("answered");
        r.flush();
      } else if (type == 1 && got == id) {
        return;
      }
    }
  }
}
