package org.nvimpam.plugin;

import java.util.List;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Encoders;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.Encoder;

/**
 * The rplugin manifest's side of the commands, which lua/nvimpam/init.lua defines once for both
 * routes. {@code specs} (asked by :UpdateRemotePlugins) returns what Lua describes; the manifest's
 * commands are asynchronous ({@code sync = 0}) and arrive as {@code <path>:command:<Name>}
 * notifications, which are handed back to Lua's {@link LuaEntry#COMMAND}, the code
 * setup()'s commands run.
 */
final class RemotePluginSpecs {
  private static final String MARKER = ":command:";

  private RemotePluginSpecs() {}

  /** The specs as Lua describes them; Neovim waits for them in :UpdateRemotePlugins only. */
  static Encoder specs(Nvim nvim) {
    Object specs = Await.call(LuaEntry.MANIFEST_SPECS.call(nvim), "asking Lua for the commands");
    return out -> Encoders.writeValue(out, specs, null);
  }

  /**
   * Hands a manifest command to Lua. Its arguments are {@code [context]}, or {@code [[f-args],
   * context]} with nargs; the context comes from the spec's {@code eval}. Not awaited.
   */
  static void forward(Nvim nvim, String method, List<Object> args) {
    int at = method.lastIndexOf(MARKER);
    if (at < 0) {
      throw new IllegalArgumentException("unknown method " + method);
    }
    String name = method.substring(at + MARKER.length());
    Object context = args.isEmpty() ? null : args.get(args.size() - 1);
    Object fargs = args.size() > 1 ? args.get(0) : List.of();
    LuaEntry.COMMAND.notify(nvim, out -> {
      out.packString(name);
      Encoders.writeValue(out, fargs, null);
      Encoders.writeValue(out, context, null);
    });
  }
}
