package org.nvimpam.nvim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.core.ExtensionTypeHeader;
import org.msgpack.core.MessageUnpacker;
import org.nvimpam.lines.Lines;
import org.nvimpam.rpc.Decoder;

/** Decoders for the values Neovim returns. */
public final class Decoders {
  private Decoders() {}

  private static final Decoder<Void> NIL = in -> {
    in.skipValue();
    return null;
  };
  private static final Decoder<Object> OBJECT = in -> readObject(in, ExtTypes.STANDARD);

  /** Skips whatever came back; for calls whose result is nil or unused. */
  public static Decoder<Void> nil() {
    return NIL;
  }

  /** Plain Java objects, ext values by {@link ExtTypes#STANDARD}; see {@link #readObject}. */
  public static Decoder<Object> object() {
    return OBJECT;
  }

  public static Decoder<Object> object(ExtTypes ext) {
    return in -> readObject(in, ext);
  }

  public static Decoder<Long> longValue() {
    return MessageUnpacker::unpackLong;
  }

  public static Decoder<Boolean> booleanValue() {
    return MessageUnpacker::unpackBoolean;
  }

  /** An array of str (or bin), e.g. buffer lines, as raw bytes: no String per line. */
  public static Decoder<Lines> lines() {
    return Decoders::readLines;
  }

  public static Decoder<Buffer> buffer(ExtTypes ext) {
    return in -> new Buffer(readExt(in, ext.buffer(), "Buffer"));
  }

  public static Decoder<Window> window(ExtTypes ext) {
    return in -> new Window(readExt(in, ext.window(), "Window"));
  }

  public static Decoder<Tabpage> tabpage(ExtTypes ext) {
    return in -> new Tabpage(readExt(in, ext.tabpage(), "Tabpage"));
  }

  /** A list of {@code element}s. */
  public static <T> Decoder<List<T>> list(Decoder<T> element) {
    return in -> {
      int n = in.unpackArrayHeader();
      List<T> list = new ArrayList<>(n);
      for (int i = 0; i < n; i++) list.add(element.read(in));
      return list;
    };
  }

  /** Reads an array of str/bin straight into a {@link Lines} arena. */
  public static Lines readLines(MessageUnpacker in) throws IOException {
    int n = in.unpackArrayHeader();
    if (n == 0) return Lines.empty();
    // n is bounded by the frame's size, which the frame scanner has already checked; the guess
    // of 64 bytes a line is capped, since n empty lines are only n bytes (n * 64 also overflows)
    Lines.Builder b = new Lines.Builder(n, (int) Math.min(64L * n, 8 << 20));
    for (int i = 0; i < n; i++) {
      int len = in.unpackRawStringHeader();
      byte[] dst = b.reserve(len);
      in.readPayload(dst, b.size(), len);
      b.commit(len);
    }
    return b.build();
  }

  /**
   * One value as a plain Java object: nil → null, Boolean, Long, Double, String (str), byte[]
   * (bin), {@code List<Object>}, {@code Map<String, Object>} (keys by {@code String.valueOf}),
   * and {@link Buffer}/{@link Window}/{@link Tabpage} for their ext types.
   */
  public static Object readObject(MessageUnpacker in, ExtTypes ext) throws IOException {
    switch (in.getNextFormat().getValueType()) {
      case NIL:
        in.unpackNil();
        return null;
      case BOOLEAN:
        return in.unpackBoolean();
      case INTEGER:
        return in.unpackLong();
      case FLOAT:
        return in.unpackDouble();
      case STRING:
        return in.unpackString();
      case BINARY:
        return in.readPayload(in.unpackBinaryHeader());
      case ARRAY: {
        int n = in.unpackArrayHeader();
        List<Object> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) list.add(readObject(in, ext));
        return list;
      }
      case MAP: {
        int n = in.unpackMapHeader();
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
          String key = String.valueOf(readObject(in, ext));
          map.put(key, readObject(in, ext));
        }
        return map;
      }
      case EXTENSION:
        return readHandle(in, ext);
      default:
        throw new IOException("unexpected msgpack format " + in.getNextFormat());
    }
  }

  private static Object readHandle(MessageUnpacker in, ExtTypes ext) throws IOException {
    ExtensionTypeHeader h = in.unpackExtensionTypeHeader();
    long id = extPayload(in, h);
    byte t = h.getType();
    if (t == ext.buffer()) return new Buffer(id);
    if (t == ext.window()) return new Window(id);
    if (t == ext.tabpage()) return new Tabpage(id);
    throw new IOException("unknown msgpack ext type " + t);
  }

  private static long readExt(MessageUnpacker in, byte type, String name) throws IOException {
    ExtensionTypeHeader h = in.unpackExtensionTypeHeader();
    if (h.getType() != type) {
      throw new IOException("expected a " + name + " (ext type " + type + "), got ext type "
          + h.getType());
    }
    return extPayload(in, h);
  }

  /** A handle's payload is one msgpack integer filling the ext value exactly. */
  private static long extPayload(MessageUnpacker in, ExtensionTypeHeader h) throws IOException {
    long before = in.getTotalReadBytes();
    long id = in.unpackLong();
    if (in.getTotalReadBytes() - before != h.getLength()) {
      throw new IOException("ext type " + h.getType() + " payload of " + h.getLength()
          + " bytes is not one integer");
    }
    return id;
  }
}
