package org.nvimpam.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.nvimpam.bench.CellsBench;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.ChildProcessTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bench-cells}: page-by-page scrolling with cell highlighting, next to Neovim alone. */
@Command(
    name = "bench-cells",
    mixinStandardHelpOptions = true,
    description = {
      "Scrolls generated decks page by page (<C-f>, then :redraw, timed inside Neovim) in embedded headless"
          + " Neovims of 120x50 and reports ms per page, the median over rounds of each round's mean: with"
          + " nvimpam (require('nvimpam').setup{} on this checkout, all folds open) with cells on and with"
          + " :NvimpamCells off, and Neovim alone (-u NONE: no plugin, no syntax, no filetype) on the same"
          + " file, alternating round by round in the same run. The smallest deck is scrolled from its top,"
          + " every other from 90%% of its lines.",
      "Each Neovim has a UI attached (ext_linegrid, rgb, as a terminal's), which this process drains without"
          + " decoding: a redraw then includes sending the grid to the UI, to which cells add highlight runs;"
          + " without a UI headless Neovim draws its grid but sends nothing, and that part of the cost would be"
          + " missing. Both sides get the same UI.",
      "Targets: cells on at most 1 ms per page; deep in the biggest deck at most 1.2x the top of the smallest."
    })
public final class BenchCellsCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--lines", split = ",", paramLabel = "N", defaultValue = "30000,10000000",
      description = "Deck sizes in lines; the smallest is scrolled from its top (default: ${DEFAULT-VALUE}).")
  private List<Long> lines;

  @Option(names = "--pages", paramLabel = "N", defaultValue = "20",
      description = "Pages scrolled in a round (default: ${DEFAULT-VALUE}).")
  private int pages;

  @Option(names = "--rounds", paramLabel = "N", defaultValue = "7",
      description = "Rounds per side and deck (default: ${DEFAULT-VALUE}).")
  private int rounds;

  @Mixin private NvimOption nvim;

  @Mixin private RootOption root;

  @Option(names = "--jar", paramLabel = "FILE",
      description = "The jar the plugin starts (setup{ jar }); default: this jar, else the plugin's own default.")
  private Path jar;

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = "${java.io.tmpdir}",
      description = "Where the decks are written (and kept for the next run).")
  private Path dir;

  @Override
  public Integer call() throws Exception {
    if (lines.isEmpty() || lines.stream().anyMatch(n -> n < 1000)) {
      throw new ParameterException(spec.commandLine(), "--lines takes sizes of at least 1000 lines");
    }
    if (pages < 1 || rounds < 1) {
      throw new ParameterException(spec.commandLine(), "--pages and --rounds must be at least 1");
    }
    Path r = root.path.toAbsolutePath().normalize();
    if (!Files.isRegularFile(r.resolve("lua/nvimpam/view/cells/init.lua"))) {
      throw new ParameterException(spec.commandLine(), r + " holds no lua/nvimpam/view/cells/init.lua: pass the checkout with --root");
    }
    List<Long> sizes = new ArrayList<>(lines);
    sizes.sort(null);
    Files.createDirectories(dir); // where the decks are kept: made when new
    CellsBench bench = new CellsBench(nvim.path, r, dir, jarPath(), pages, rounds, System.err);
    List<CellsBench.Row> rows = new ArrayList<>();
    for (int i = 0; i < sizes.size(); i++) {
      long n = sizes.get(i);
      rows.add(bench.run(n, i == 0 ? 1 : Math.max(1, n * 9 / 10)));
    }
    String version;
    try (Nvim v = Nvim.embed(ChildProcessTransport.nvimArgv(nvim.path))) {
      version = v.apiInfo().version();
    }
    CellsBench.print(rows, version, pages, rounds, System.out);
    return 0;
  }

  private String jarPath() {
    if (jar != null) return jar.toAbsolutePath().toString();
    var source = BenchCellsCommand.class.getProtectionDomain().getCodeSource();
    try {
      Path p = Path.of(source.getLocation().toURI());
      return Files.isRegularFile(p) ? p.toString() : null;
    } catch (Exception e) {
      return null;
    }
  }
}
