package org.nvimpam.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.nvimpam.bench.ModelBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code bench-model}: how long the model commands hold Neovim's main loop on a big generated deck. */
@Command(
    name = "bench-model",
    mixinStandardHelpOptions = true,
    description = {
      "Opens a generated deck through the plugin in a headless Neovim and runs :NvimpamOffset node 1000000,"
          + " :NvimpamRenumber node 1 and :NvimpamTransform translate 0 0 1 on it in turn, each on the buffer the one"
          + " before left. Per command: the time to its end, the turns of Neovim's main loop its changes took and"
          + " the longest (wall and CPU ms), and, from a 1 ms timer in Neovim, the largest gap between the timer's"
          + " ticks (wall, the process's CPU ms and the machine's CPU ms stolen meanwhile), the gaps over 16 ms, of"
          + " them those with over 16 ms of Neovim's own CPU and those within 16 ms but for stolen CPU time, and the"
          + " share of the machine's CPU its hypervisor took during the command (Linux's steal time). A line under the"
          + " heading names the kernel's DAMON sampling of physical memory where it runs: it holds Neovim up too."
          + " Exits 1 when a command failed.",
    })
public final class BenchModelCommand implements Callable<Integer> {
  @Option(names = "--lines", paramLabel = "N", defaultValue = "1000000",
      description = "The deck's size in lines (default: ${DEFAULT-VALUE}).")
  private long lines;

  @Option(names = "--commands", split = ",", paramLabel = "NAME", converter = StepName.class,
      defaultValue = "offset,renumber,transform",
      description = "The commands to run, in this order: offset, renumber, transform (default: ${DEFAULT-VALUE}).")
  private List<ModelBench.Step> steps;

  @Mixin private NvimOption neovim;

  @Mixin private RootOption root;

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = "${java.io.tmpdir}",
      description = "Where the deck is written (and kept for the next run; bench-open uses the same names).")
  private Path dir;

  @Mixin private JvmArgOption jvmArgs;

  @Override
  public Integer call() throws Exception {
    Files.createDirectories(dir); // where the decks are kept: made when new
    Path at = root.path.toAbsolutePath();
    ModelBench bench = new ModelBench(neovim.path, at, at.resolve("target/nvimpam.jar").toString(), dir, jvmArgs.args,
        System.err);
    ModelBench.Result r = bench.run(lines, steps);
    ModelBench.print(r, System.out);
    return r.rows().stream().anyMatch(w -> w.error() != null) ? 1 : 0;
  }

  /** offset, renumber or transform. */
  static final class StepName implements ITypeConverter<ModelBench.Step> {
    @Override
    public ModelBench.Step convert(String value) {
      for (ModelBench.Step s : ModelBench.Step.values()) {
        if (s.id().equals(value.trim().toLowerCase(Locale.ROOT))) return s;
      }
      StringBuilder names = new StringBuilder();
      for (ModelBench.Step s : ModelBench.Step.values()) names.append(names.length() == 0 ? "" : ", ").append(s.id());
      throw new TypeConversionException("'" + value + "' is none of " + names);
    }
  }
}
