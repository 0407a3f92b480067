package org.nvimpam.rpc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Writes msgpack with a header form picked at random among all that can hold the value — fixstr,
 * str8, str16 or str32 for a 3-byte string; fixarray, array16 or array32; fixext1..16 or
 * ext8/16/32; every integer width — so that generated RPC messages use every length form of every
 * header, not only the shortest one msgpack-core would pick. Neovim itself writes the shortest
 * form; a reader must accept them all.
 */
final class WireForms {
  /** Neovim's ext type codes for Buffer, Window, Tabpage. */
  static final int BUFFER = 0;
  static final int WINDOW = 1;
  static final int TABPAGE = 2;

  private final Random r;
  private final boolean foreignExt;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  /** {@code foreignExt}: also ext values of types Neovim never sends (its decoders reject those). */
  WireForms(Random r, boolean foreignExt) {
    this.r = r;
    this.foreignExt = foreignExt;
  }

  byte[] take() {
    byte[] b = out.toByteArray();
    out.reset();
    return b;
  }

  private void u8(int v) {
    out.write(v & 0xff);
  }

  private void be(long v, int bytes) {
    for (int i = bytes - 1; i >= 0; i--) u8((int) (v >>> (8 * i)));
  }

  // ---- scalars ---------------------------------------------------------------------------------

  void nil() {
    u8(0xc0);
  }

  void bool(boolean b) {
    u8(b ? 0xc3 : 0xc2);
  }

  /** {@code v} in one of the forms wide enough for it (fixint, uint8..64, int8..64). */
  void integer(long v) {
    int pick = r.nextInt(8);
    for (int tries = 0; tries < 8; tries++, pick = (pick + 1) % 8) {
      switch (pick) {
        case 0:
          if (v >= 0 && v <= 0x7f) { u8((int) v); return; }
          if (v >= -32 && v < 0) { u8((int) v); return; }
          break;
        case 1: if (v >= 0 && v <= 0xff) { u8(0xcc); be(v, 1); return; } break;
        case 2: if (v >= 0 && v <= 0xffff) { u8(0xcd); be(v, 2); return; } break;
        case 3: if (v >= 0 && v <= 0xffff_ffffL) { u8(0xce); be(v, 4); return; } break;
        case 4: if (v >= 0) { u8(0xcf); be(v, 8); return; } break;
        case 5: if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) { u8(0xd0); be(v, 1); return; } break;
        case 6: if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) { u8(0xd1); be(v, 2); return; } break;
        default:
          if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) { u8(0xd2); be(v, 4); return; }
          u8(0xd3); be(v, 8); return;
      }
    }
    u8(0xd3);
    be(v, 8);
  }

  /** An integer of a random width, sign and magnitude. */
  void anyInteger() {
    long[] edges = {0, 1, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0xffff_ffffL, 0x1_0000_0000L,
        Long.MAX_VALUE, -1, -32, -33, -128, -129, -32768, -32769, Integer.MIN_VALUE,
        Integer.MIN_VALUE - 1L, Long.MIN_VALUE};
    integer(r.nextBoolean() ? edges[r.nextInt(edges.length)] : r.nextLong() >> r.nextInt(64));
  }

  void float64(double d) {
    if (r.nextBoolean()) {
      u8(0xca);
      be(Float.floatToIntBits((float) d) & 0xffff_ffffL, 4);
    } else {
      u8(0xcb);
      be(Double.doubleToLongBits(d), 8);
    }
  }

  // ---- str, bin, ext ---------------------------------------------------------------------------

  void str(byte[] b) {
    int n = b.length;
    int pick = r.nextInt(4);
    if (pick == 0 && n <= 31) u8(0xa0 | n);
    else if (pick <= 1 && n <= 0xff) { u8(0xd9); be(n, 1); }
    else if (pick <= 2 && n <= 0xffff) { u8(0xda); be(n, 2); }
    else { u8(0xdb); be(n, 4); }
    out.write(b, 0, n);
  }

  void str(String s) {
    str(s.getBytes(StandardCharsets.UTF_8));
  }

  void bin(byte[] b) {
    int n = b.length;
    int pick = r.nextInt(3);
    if (pick == 0 && n <= 0xff) { u8(0xc4); be(n, 1); }
    else if (pick <= 1 && n <= 0xffff) { u8(0xc5); be(n, 2); }
    else { u8(0xc6); be(n, 4); }
    out.write(b, 0, n);
  }

  void ext(int type, byte[] payload) {
    int n = payload.length;
    int fix = switch (n) {
      case 1 -> 0xd4;
      case 2 -> 0xd5;
      case 4 -> 0xd6;
      case 8 -> 0xd7;
      case 16 -> 0xd8;
      default -> -1;
    };
    int pick = r.nextInt(4);
    if (fix >= 0 && pick == 0) u8(fix);
    else if (pick <= 1 && n <= 0xff) { u8(0xc7); be(n, 1); }
    else if (pick <= 2 && n <= 0xffff) { u8(0xc8); be(n, 2); }
    else { u8(0xc9); be(n, 4); }
    u8(type);
    out.write(payload, 0, n);
  }

  /** A Buffer/Window/Tabpage handle: an ext whose payload is one integer, in any form. */
  void handle(int type, long id) {
    WireForms inner = new WireForms(r, false);
    inner.integer(id);
    ext(type, inner.take());
  }

  // ---- containers ------------------------------------------------------------------------------

  void array(int n) {
    int pick = r.nextInt(3);
    if (pick == 0 && n <= 15) u8(0x90 | n);
    else if (pick <= 1 && n <= 0xffff) { u8(0xdc); be(n, 2); }
    else { u8(0xdd); be(n, 4); }
  }

  void map(int n) {
    int pick = r.nextInt(3);
    if (pick == 0 && n <= 15) u8(0x80 | n);
    else if (pick <= 1 && n <= 0xffff) { u8(0xde); be(n, 2); }
    else { u8(0xdf); be(n, 4); }
  }

  // ---- values and messages ---------------------------------------------------------------------

  /** Bytes of a buffer line: deck-like text, Latin-1, invalid UTF-8, NUL, CR, or empty. */
  byte[] lineBytes() {
    return lineBytes(r.nextInt(8) == 0);
  }

  /** As {@link #lineBytes()}; {@code huge} allows a line of up to 70,000 bytes (str32). */
  byte[] lineBytes(boolean huge) {
    String[] texts = {"NODE  /        1              0.              0.              0.",
        "SHELL /        1        1       1       2       3       4", "PART  /        1SHELL",
        "$ comment", "END_PART", "", "        END", "caf\u00e9", "CR\r", "NUL\u0000"};
    byte[] b = texts[r.nextInt(texts.length)].getBytes(StandardCharsets.ISO_8859_1);
    int kind = r.nextInt(5);
    if (kind == 0) {
      b = new byte[r.nextInt(huge ? 70_000 : 300)];
      for (int i = 0; i < b.length; i++) b[i] = (byte) (' ' + r.nextInt(95));
    } else if (kind == 1) {
      b = new byte[r.nextInt(40)];
      r.nextBytes(b); // mostly invalid UTF-8
    }
    return b;
  }

  /** Any value, nested at most {@code depth} more levels. */
  void value(int depth) {
    int kind = r.nextInt(depth > 0 ? 13 : 9);
    switch (kind) {
      case 0 -> nil();
      case 1 -> bool(r.nextBoolean());
      case 2, 3 -> anyInteger();
      case 4 -> float64(r.nextGaussian() * 1e6);
      case 5 -> str(lineBytes());
      case 6 -> {
        byte[] b = new byte[r.nextInt(r.nextInt(6) == 0 ? 70_000 : 40)];
        r.nextBytes(b);
        bin(b);
      }
      case 7 -> handle(r.nextInt(3), r.nextInt(5) == 0 ? r.nextLong() >>> r.nextInt(64) : r.nextInt(2000));
      case 8 -> {
        if (!foreignExt) {
          handle(r.nextInt(3), r.nextInt(100));
          return;
        }
        int[] sizes = {0, 1, 2, 3, 4, 8, 16, 17, 255, 256};
        byte[] b = new byte[sizes[r.nextInt(sizes.length)]];
        r.nextBytes(b);
        ext(r.nextInt(256) - 128 & 0xff, b);
      }
      case 9, 10 -> {
        int n = r.nextInt(r.nextInt(10) == 0 ? 70 : 6);
        array(n);
        for (int i = 0; i < n; i++) value(depth - 1);
      }
      default -> {
        int n = r.nextInt(5);
        map(n);
        for (int i = 0; i < n; i++) {
          if (r.nextInt(4) == 0) value(0);
          else str(new String[] {"mode", "blocking", "version", "types", "id", "k"}[r.nextInt(6)]);
          value(depth - 1);
        }
      }
    }
  }

  /** {@code nvim_buf_lines_event} as Neovim sends it, with any header forms. */
  byte[] linesEvent() {
    array(3);
    integer(2);
    str("nvim_buf_lines_event");
    array(6);
    handle(BUFFER, 1 + r.nextInt(3));
    if (r.nextInt(10) == 0) nil(); else integer(r.nextInt(100_000));
    int first = r.nextInt(50);
    integer(first);
    integer(r.nextInt(8) == 0 ? -1 : first + r.nextInt(5));
    // now and then a big dump of empty lines (a buffer of blank lines, a 128k-line chunk)
    boolean blank = r.nextInt(100) == 0;
    int n = blank ? 20_000 + r.nextInt(r.nextBoolean() ? 50_000 : 300_000) : r.nextInt(r.nextInt(8) == 0 ? 2000 : 8);
    array(n);
    int huge = r.nextInt(Math.max(1, 4 * n)); // at most one long line per event
    for (int i = 0; i < n; i++) {
      byte[] line = blank ? new byte[0] : lineBytes(i == huge);
      if (r.nextInt(20) == 0) bin(line); else str(line);
    }
    bool(r.nextInt(10) == 0);
    return take();
  }

  /** A response to one of the captured msgids: a result, or a Neovim error {@code [type, msg]}. */
  byte[] response(int maxMsgid) {
    array(4);
    integer(1);
    integer(r.nextInt(maxMsgid + 1));
    if (r.nextInt(4) == 0) {
      array(2);
      integer(r.nextInt(2));
      str("Vim:E492: Not an editor command: " + r.nextInt());
      nil();
    } else {
      nil();
      if (r.nextBoolean()) { // buffer lines
        int n = r.nextInt(12);
        array(n);
        for (int i = 0; i < n; i++) str(lineBytes(i == 0 && r.nextInt(8) == 0));
      } else {
        value(4);
      }
    }
    return take();
  }

  /** A request or notification from Neovim with arbitrary params. */
  byte[] incoming() {
    boolean request = r.nextBoolean();
    array(request ? 4 : 3);
    integer(request ? 0 : 2);
    if (request) integer(r.nextLong() >>> 32);
    String[] methods = {"nvimpam_fold", "nvimpam_attach", "nvim_error_event", "nvim_buf_detach_event",
        "nvim_buf_changedtick_event", "poll", "specs", "x"};
    str(methods[r.nextInt(methods.length)]);
    int n = r.nextInt(4);
    array(n);
    for (int i = 0; i < n; i++) value(3);
    return take();
  }

  /** One generated RPC message of any kind. */
  byte[] message(int maxMsgid) {
    return switch (r.nextInt(3)) {
      case 0 -> linesEvent();
      case 1 -> response(maxMsgid);
      default -> incoming();
    };
  }
}
