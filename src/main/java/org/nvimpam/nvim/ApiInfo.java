package org.nvimpam.nvim;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.msgpack.core.MessageUnpacker;
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

  private static ApiInfo read(MessageUnpacker in) throws IOException {
    // Checked, not cast: a reply of another shape is a decode error, not a ClassCastException.
    if (!(Decoders.readObject(in, ExtTypes.STANDARD) instanceof List<?> result) || result.size() != 2
        || !(result.get(0) instanceof Long channel) || !(result.get(1) instanceof Map<?, ?> meta)) {
      throw new IOException("nvim_get_api_info: expected [id, metadata]");
    }
    Map<?, ?> version = map(meta, "version");
    Map<?, ?> types = map(meta, "types");
    return new ApiInfo(
        channel,
        intOf(version, "major"),
        intOf(version, "minor"),
        intOf(version, "patch"),
        intOf(version, "api_level"),
        new ExtTypes(code(types, "Buffer"), code(types, "Window"), code(types, "Tabpage")),
        functionNames(meta.get("functions")));
  }

  private static Set<String> functionNames(Object functions) throws IOException {
    if (!(functions instanceof List<?> list)) throw new IOException("api info lacks functions");
    Set<String> names = new HashSet<>();
    for (Object f : list) {
      if (f instanceof Map<?, ?> m && m.get("name") instanceof String name) {
        names.add(name);
      }
    }
    return names;
  }

  private static Map<?, ?> map(Map<?, ?> m, String key) throws IOException {
    if (!(m.get(key) instanceof Map<?, ?> v)) throw new IOException("api info lacks " + key);
    return v;
  }

  private static int intOf(Map<?, ?> m, String key) throws IOException {
    if (!(m.get(key) instanceof Long v) || v < 0 || v > Integer.MAX_VALUE) {
      throw new IOException("api info lacks " + key);
    }
    return (int) (long) v;
  }

  private static byte code(Map<?, ?> types, String name) throws IOException {
    if (!(types.get(name) instanceof Map<?, ?> t)) throw new IOException("api info lacks " + name);
    return (byte) intOf(t, "id");
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
