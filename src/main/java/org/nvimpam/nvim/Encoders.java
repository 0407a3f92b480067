package org.nvimpam.nvim;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessagePacker;
import org.nvimpam.rpc.Encoder;

/** Encoders for simple argument lists. Hot paths should write their own {@link Encoder}. */
public final class Encoders {
  private Encoders() {}

  private static final Encoder EMPTY = out -> out.packArrayHeader(0);

  /** The empty params array {@code []}. */
  public static Encoder none() {
    return EMPTY;
  }

  /**
   * The params array of {@code values}, handles by {@link ExtTypes#STANDARD} (use {@link
   * Nvim#args} for the connected Neovim's codes). See {@link #writeValue} for the types.
   */
  public static Encoder args(Object... values) {
    return args(ExtTypes.STANDARD, values);
  }

  public static Encoder args(ExtTypes ext, Object... values) {
    Object[] copy = values.clone();
    return out -> {
      out.packArrayHeader(copy.length);
      for (Object v : copy) writeValue(out, v, ext);
    };
  }

  /**
   * Writes null, Boolean, Byte/Short/Integer/Long, Float/Double, CharSequence, byte[] (as bin),
   * int[], long[], List, Map (keys by {@code String.valueOf}), Buffer, Window or Tabpage.
   */
  public static void writeValue(MessagePacker out, Object v, ExtTypes ext) throws IOException {
    if (v == null) {
      out.packNil();
    } else if (v instanceof Boolean b) {
      out.packBoolean(b);
    } else if (v instanceof Long || v instanceof Integer || v instanceof Short
        || v instanceof Byte) {
      out.packLong(((Number) v).longValue());
    } else if (v instanceof Double || v instanceof Float) {
      out.packDouble(((Number) v).doubleValue());
    } else if (v instanceof CharSequence s) {
      out.packString(s.toString());
    } else if (v instanceof byte[] b) {
      out.packBinaryHeader(b.length).writePayload(b);
    } else if (v instanceof int[] a) {
      out.packArrayHeader(a.length);
      for (int x : a) out.packInt(x);
    } else if (v instanceof long[] a) {
      out.packArrayHeader(a.length);
      for (long x : a) out.packLong(x);
    } else if (v instanceof List<?> l) {
      out.packArrayHeader(l.size());
      for (Object x : l) writeValue(out, x, ext);
    } else if (v instanceof Map<?, ?> m) {
      out.packMapHeader(m.size());
      for (Map.Entry<?, ?> e : m.entrySet()) {
        out.packString(String.valueOf(e.getKey()));
        writeValue(out, e.getValue(), ext);
      }
    } else if (v instanceof Buffer b) {
      writeHandle(out, ext.buffer(), b.id());
    } else if (v instanceof Window w) {
      writeHandle(out, ext.window(), w.id());
    } else if (v instanceof Tabpage t) {
      writeHandle(out, ext.tabpage(), t.id());
    } else {
      throw new IllegalArgumentException("cannot encode a " + v.getClass().getName());
    }
  }

  /** An ext value of {@code type} whose payload is {@code id} as a msgpack integer. */
  public static void writeHandle(MessagePacker out, byte type, long id) throws IOException {
    byte[] p;
    if (id >= 0 && id <= 0x7f) {
      p = new byte[] {(byte) id};
    } else if (id >= 0 && id <= 0xffff) {
      p = new byte[] {(byte) 0xcd, (byte) (id >>> 8), (byte) id};
    } else if (id >= 0 && id <= 0xffff_ffffL) {
      p = new byte[] {(byte) 0xce, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8),
          (byte) id};
    } else {
      p = new byte[9];
      p[0] = (byte) 0xd3;
      for (int i = 0; i < 8; i++) p[1 + i] = (byte) (id >>> (56 - 8 * i));
    }
    out.packExtensionTypeHeader(type, p.length).writePayload(p);
  }
}
