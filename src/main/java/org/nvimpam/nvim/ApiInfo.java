package org.nvimpam.nvim;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ValueType;
import org.nvimpam.rpc.Decoder;

/** What {@code nvim_get_api_info} says about the connected Neovim. */
public final class ApiInfo {
  private final long channelId;
  private final int major;
  private final int minor;
  private final int patch;
  private final int apiLevel;
  private final ExtTypes extTypes;
  private final Set<String> functions;

  /** @param functions the names of the API functions this Neovim serves */
  public ApiInfo(long channelId, int major, int minor, int patch, int apiLevel, ExtTypes extTypes,
      Set<String> functions) {
    this.channelId = channelId;
    this.major = major;
    this.minor = minor;
    this.patch = patch;
    this.apiLevel = apiLevel;
    this.extTypes = extTypes;
    this.functions = Set.copyOf(functions);
  }

  /** Reads the {@code [channel_id, metadata]} result of {@code nvim_get_api_info}. */
  public static final Decoder<ApiInfo> DECODER = ApiInfo::read;

  /**
   * Streams through the reply, keeping only what we use: the function list alone is tens of KB,
   * and every JVM start reads it (as a tree of objects, that was a good part of a cold start).
   */
  private static ApiInfo read(MessageUnpacker in) throws IOException {
    if (!in.hasNext() || in.getNextFormat().getValueType() != ValueType.ARRAY || in.unpackArrayHeader() != 2
        || in.getNextFormat().getValueType() != ValueType.INTEGER) {
      throw new IOException("nvim_get_api_info: expected [id, metadata]");
    }
    long channel = in.unpackLong();
    int[] version = null;
    byte[] types = null;
    Set<String> functions = null;
    for (int n = mapHeader(in, "metadata"); n > 0; n--) {
      switch (key(in)) {
        case "version" -> version = version(in);
        case "types" -> types = types(in);
        case "functions" -> functions = functionNames(in);
        default -> in.skipValue();
      }
    }
    if (version == null) throw new IOException("api info lacks version");
    if (types == null) throw new IOException("api info lacks types");
    if (functions == null) throw new IOException("api info lacks functions");
    return new ApiInfo(channel, version[0], version[1], version[2], version[3],
        new ExtTypes(types[0], types[1], types[2]), functions);
  }

  private static final List<String> VERSION_KEYS = List.of("major", "minor", "patch", "api_level");
  private static final List<String> TYPE_NAMES = List.of("Buffer", "Window", "Tabpage");

  private static int[] version(MessageUnpacker in) throws IOException {
    int[] v = {-1, -1, -1, -1};
    for (int n = mapHeader(in, "version"); n > 0; n--) {
      int k = VERSION_KEYS.indexOf(key(in));
      if (k >= 0 && in.getNextFormat().getValueType() == ValueType.INTEGER) {
        long x = in.unpackLong();
        v[k] = x < 0 || x > Integer.MAX_VALUE ? -1 : (int) x;
      } else {
        in.skipValue();
      }
    }
    for (int k = 0; k < v.length; k++) {
      if (v[k] < 0) throw new IOException("api info lacks " + VERSION_KEYS.get(k));
    }
    return v;
  }

  private static byte[] types(MessageUnpacker in) throws IOException {
    byte[] codes = new byte[3];
    boolean[] seen = new boolean[3];
    for (int n = mapHeader(in, "types"); n > 0; n--) {
      int t = TYPE_NAMES.indexOf(key(in));
      if (t < 0) {
        in.skipValue();
        continue;
      }
      for (int m = mapHeader(in, TYPE_NAMES.get(t)); m > 0; m--) {
        if (key(in).equals("id") && in.getNextFormat().getValueType() == ValueType.INTEGER) {
          codes[t] = (byte) in.unpackLong();
          seen[t] = true;
        } else {
          in.skipValue();
        }
      }
    }
    for (int t = 0; t < seen.length; t++) {
      if (!seen[t]) throw new IOException("api info lacks " + TYPE_NAMES.get(t));
    }
    return codes;
  }

  private static Set<String> functionNames(MessageUnpacker in) throws IOException {
    if (in.getNextFormat().getValueType() != ValueType.ARRAY) throw new IOException("api info lacks functions");
    Set<String> names = new HashSet<>();
    for (int n = in.unpackArrayHeader(); n > 0; n--) {
      if (in.getNextFormat().getValueType() != ValueType.MAP) {
        in.skipValue();
        continue;
      }
      for (int m = in.unpackMapHeader(); m > 0; m--) {
        if (key(in).equals("name") && in.getNextFormat().getValueType() == ValueType.STRING) {
          names.add(in.unpackString());
        } else {
          in.skipValue();
        }
      }
    }
    return names;
  }

  private static int mapHeader(MessageUnpacker in, String what) throws IOException {
    if (!in.hasNext() || in.getNextFormat().getValueType() != ValueType.MAP) {
      throw new IOException("api info: " + what + " is no map");
    }
    return in.unpackMapHeader();
  }

  /** A map key: a string, or "" for a key of another type (which is skipped). */
  private static String key(MessageUnpacker in) throws IOException {
    if (in.getNextFormat().getValueType() == ValueType.STRING) return in.unpackString();
    in.skipValue();
    return "";
  }

  public long channelId() {
    return channelId;
  }

  public int major() {
    return major;
  }

  public int minor() {
    return minor;
  }

  public int patch() {
    return patch;
  }

  public int apiLevel() {
    return apiLevel;
  }

  /** e.g. {@code "0.7.2"} */
  public String version() {
    return major + "." + minor + "." + patch;
  }

  public boolean atLeast(int major, int minor) {
    return this.major > major || (this.major == major && this.minor >= minor);
  }

  public ExtTypes extTypes() {
    return extTypes;
  }

  /** Whether this Neovim serves API function {@code name} (deprecated ones are removed some day). */
  public boolean hasFunction(String name) {
    return functions.contains(name);
  }

  @Override
  public String toString() {
    return "Neovim " + version() + " (api " + apiLevel + ", channel " + channelId + ")";
  }
}
