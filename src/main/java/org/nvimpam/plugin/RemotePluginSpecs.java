package org.nvimpam.plugin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Encoders;
import org.nvimpam.rpc.Encoder;

/**
 * The commands offered to :UpdateRemotePlugins ({@code specs}), and their implementation when the
 * manifest calls them as {@code <path>:command:<Name>}. Every command gets the buffer number
 * through the spec's {@code eval}; messages are written to Neovim's message area.
 */
final class RemotePluginSpecs {
  private static final String BUFFER = "bufnr('%')";

  private RemotePluginSpecs() {}

  static Encoder encoder() {
    List<Object> specs = new ArrayList<>();
    specs.add(command("NvimpamFold", Map.of()));
    specs.add(command("NvimpamFoldStrategy", Map.of("nargs", "?", "complete", "custom,nvimpam#strategies")));
    specs.add(command("NvimpamFoldAttach", Map.of()));
    specs.add(command("NvimpamFoldDetach", Map.of()));
    specs.add(command("NvimpamFoldInfo", Map.of()));
    specs.add(command("NvimpamFoldBench", Map.of()));
    return out -> Encoders.writeValue(out, specs, null);
  }

  private static Map<String, Object> command(String name, Map<String, Object> extra) {
    Map<String, Object> opts = new LinkedHashMap<>(extra);
    opts.put("eval", BUFFER);
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("type", "command");
    spec.put("name", name);
    spec.put("sync", 1);
    spec.put("opts", opts);
    return spec;
  }

  /** Runs a manifest command; args are {@code [bufnr]}, or {@code [[f-args], bufnr]} with nargs. */
  static Encoder run(PluginHost host, String name, List<Object> args) throws Exception {
    Buffer buf = new Buffer(((Number) args.get(args.size() - 1)).longValue());
    switch (name) {
      case "NvimpamFold" -> host.fold(buf);
      case "NvimpamFoldStrategy" -> {
        List<?> fargs = args.get(0) instanceof List<?> l ? l : List.of();
        if (fargs.isEmpty()) {
          Messages.print(host.nvim(), "nvimpam strategy: " + host.settings().strategy());
        } else {
          host.setSettings(host.settings().merge(Map.of("strategy", String.valueOf(fargs.get(0)))));
        }
      }
      case "NvimpamFoldAttach" -> host.attach(buf);
      case "NvimpamFoldDetach" -> host.detach(buf);
      case "NvimpamFoldInfo" -> Messages.print(host.nvim(), String.join("\n", host.infoLines()));
      case "NvimpamFoldBench" -> Messages.print(host.nvim(), String.join("\n", InBufferBench.table(host.benchRows(buf))));
      default -> throw new IllegalArgumentException("nvimpam has no command " + name);
    }
    return out -> out.packNil();
  }

}
