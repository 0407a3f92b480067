package org.nvimpam.bench;

import static org.nvimpam.bench.BenchCalls.WAIT_S;
import static org.nvimpam.bench.BenchCalls.get;
import static org.nvimpam.bench.BenchCalls.lua;
import static org.nvimpam.bench.BenchCalls.waitFor;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.nvimpam.fold.Fold;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.ChildProcessTransport;

/**
 * How long the model commands hold Neovim's main loop on a big generated deck, opened through the
 * plugin in a headless Neovim: per command, the turns its changes took and the longest of them
 * (the command's own {@code last} record), and, from a 1 ms timer in Neovim, the largest gap
 * between the timer's ticks and how many gaps were over a frame (16 ms). Each command runs on the
 * buffer the one before left.
 */
public final class ModelBench {
  /** A gap longer than this is a frame a user would see dropped. */
  static final double FRAME_MS = 16;
  /** Bound on one command, from the command to its done. */
  static final long COMMAND_S = 300;

  /** The commands measured, in the order they run. */
  public enum Step {
    OFFSET("NvimpamOffset node 1000000", "nvimpam.deck.renumber", "NvimpamRenumberDone"),
    RENUMBER("NvimpamRenumber node 1", "nvimpam.deck.renumber", "NvimpamRenumberDone"),
    TRANSFORM("NvimpamTransform translate 0 0 1", "nvimpam.deck.transform", "NvimpamTransformDone");

    /** The Ex command run. */
    public final String command;
    /** The module whose {@code last} tells the command's end and figures. */
    final String module;
    /** The User event the module fires when {@code last} is done. */
    final String event;

    Step(String command, String module, String event) {
      this.command = command;
      this.module = module;
      this.event = event;
    }

    /** The name {@code --commands} takes: offset, renumber, transform. */
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One command's figures; times in ms, NaN (and {@code turns} -1) where the command's record has
   * none, {@code error} null when it ended well; {@code gapAtMs}: when the largest gap began, from the command;
   * {@code gapsOverFrameCpu}: the gaps over a frame in which Neovim itself was on the CPU for more than a frame (in
   * the others it mostly waited); {@code gapsOverFrameStolen}: those within a frame but for the CPU time the machine's
   * hypervisor took meanwhile ({@link StealLog}, all CPUs together, in steps of 10 ms), {@code gapStolenMs} that time
   * in the largest gap (NaN where unknown); {@code stealPercent}: the share of the machine's CPU time its hypervisor
   * took during the command ({@link CpuSteal}, NaN where unknown).
   */
  public record Row(String command, double wallMs, long turns, double longestMs, double longestCpuMs, double gapMs,
      double gapCpuMs, double gapAtMs, long gapsOverFrame, long gapsOverFrameCpu, long gapsOverFrameStolen,
      double gapStolenMs, double stealPercent, String error) {}

  /**
   * The figures of a run: where, on what, and one row per command; {@code machineNote} names what of the machine
   * holds Neovim up beside the plugin ({@link MemorySampling#note}), null when nothing known.
   */
  public record Result(String nvimVersion, long lines, long bytes, List<Row> rows, String machineNote) {}

  /*
   * Starts the 1 ms timer, then runs the command: the gap to the first tick includes the command's
   * own synchronous part. A tick is the timer's callback scheduled (vim.schedule), one at a time:
   * it runs when the main loop takes its next event, as a typed key would. The timer's own
   * callback would not do: libuv runs it in any poll of the loop, also inside a long API call
   * (the breakchecks of nvim_buf_set_lines), where no key is read. The module's User event ends
   * the window (and the timer) on Neovim's clock.
   */
  private static final String START = """
      local cmd, mod, event = ...
      local uv = vim.uv or vim.loop
      local p = { gap = 0, gap_cpu = 0, gap_at = 0, over = 0, over_cpu = 0, long = {} }
      _G.nvimpam_bench_model = p
      local t, c = uv.hrtime(), os.clock()
      p.t0 = t
      local timer = uv.new_timer()
      local pending = false
      local function tick()
        pending = false
        if p.stopped then
          return
        end
        local now, cpu = uv.hrtime(), os.clock()
        local gap = (now - t) / 1e6
        if gap > p.gap then
          p.gap, p.gap_cpu, p.gap_at, p.gap_from = gap, (cpu - c) * 1000, (t - p.t0) / 1e6, t
        end
        if gap > %1$s then
          p.over = p.over + 1
          if (cpu - c) * 1000 > %1$s then
            p.over_cpu = p.over_cpu + 1
          end
          if #p.long < 3000 then -- each long gap's start and end, for the steal log
            p.long[#p.long + 1] = t
            p.long[#p.long + 1] = now
          end
        end
        t, c = now, cpu
      end
      function p.stop()
        if not p.stopped then
          tick()
          p.stopped = true
          timer:stop()
          timer:close()
        end
        pcall(vim.api.nvim_del_autocmd, p.au)
      end
      p.au = vim.api.nvim_create_autocmd('User', { pattern = event, once = true, callback = function()
        p.t1 = uv.hrtime()
        p.stop()
      end })
      require(mod).last = nil
      timer:start(1, 1, function()
        if not pending then
          pending = true
          vim.schedule(tick)
        end
      end)
      local ok, e = pcall(vim.cmd, cmd)
      if not ok then
        p.stop()
        return tostring(e)
      end
      return vim.NIL
      """.formatted(FRAME_MS);

  /** The command's record and the timer's figures, once the command is done. */
  private static final String READ = """
      local mod = ...
      local p = _G.nvimpam_bench_model
      p.stop()
      local l = require(mod).last
      local err = l.error and tostring(l.error)
      if not err and l.refused then
        local r = l.refused[1]
        err = 'refused: ' .. tostring(type(r) == 'table' and r.text or r)
          .. (#l.refused > 1 and string.format(' (and %d more)', #l.refused - 1) or '')
      end
      return { l.turns or -1, l.longest_ms or -1, l.longest_cpu_ms or -1, p.gap, p.gap_cpu, p.over,
        p.t1 and (p.t1 - p.t0) / 1e6 or -1, p.gap_at, err or vim.NIL, p.over_cpu, p.long, p.gap_from or 0 }
      """;

  private static final String FOLDED = "return " + LuaEntry.FOLDS_APPLIED_TICK.expression("0") + " == vim.b.changedtick";
  private static final String INDEXED = "return require('nvimpam.ids').last[vim.api.nvim_get_current_buf()] ~= nil";

  private final String nvimExe;
  private final Path root;
  private final String jar;
  private final Path dir;
  private final List<String> jvmArgs;
  private final PrintStream log;

  /**
   * {@code root}: the plugin's runtime (lua/, autoload/) put on 'runtimepath'; {@code jar}: the
   * plugin's jar for {@code setup{}}; {@code dir}: where the deck is written and kept.
   */
  public ModelBench(String nvimExe, Path root, String jar, Path dir, List<String> jvmArgs, PrintStream log) {
    this.nvimExe = nvimExe;
    this.root = root;
    this.jar = jar;
    this.dir = dir;
    this.jvmArgs = jvmArgs;
    this.log = log;
  }

  /** Opens the generated deck of {@code lines} lines and runs {@code steps} on it in turn. */
  public Result run(long lines, List<Step> steps) throws Exception {
    Path file = OpenBench.deck(dir, lines, log);
    int firstFold = firstFoldLine(file);
    List<String> argv = new ArrayList<>(ChildProcessTransport.nvimArgv(nvimExe));
    argv.addAll(List.of("--cmd", "set rtp^=" + root));
    try (Nvim nvim = Nvim.embed(argv)) {
      get(nvim.command("filetype on"));
      String version = String.valueOf(lua(nvim, "local v = vim.version() return string.format('Neovim %d.%d.%d', v.major, v.minor, v.patch)"));
      StringBuilder setup = new StringBuilder("{ timeout_ms = 600000, jar = " + ReportJson.quoted(jar) + ", ");
      if (!jvmArgs.isEmpty()) {
        setup.append("jvm_args = {");
        for (String a : jvmArgs) setup.append(ReportJson.quoted(a)).append(',');
        setup.append('}');
      }
      lua(nvim, LuaEntry.SETUP.expression(setup.append('}').toString()));
      log.println("opening " + file + " through the plugin (" + version + ")");
      get(nvim.command("edit " + file));
      waitFor(nvim, INDEXED, WAIT_S);
      waitFor(nvim, "return vim.fn.foldclosed(" + firstFold + ") ~= -1", 60);
      List<Row> rows = new ArrayList<>();
      for (Step s : steps) {
        quiet(nvim);
        rows.add(measure(nvim, s));
        Row r = rows.get(rows.size() - 1);
        log.println(String.format(Locale.ROOT, ":%s: %.1f s, %d turns, longest %.1f ms (CPU %.1f), largest gap %.1f ms"
            + " (CPU %.1f, stolen %.0f) from %.0f ms on, %d gaps over %.0f ms (%d of them over it in CPU, %d within it but"
            + " for steal), %.1f%% of the CPU stolen%s", s.command, r.wallMs() / 1000, r.turns(), r.longestMs(),
            r.longestCpuMs(), r.gapMs(), r.gapCpuMs(), r.gapStolenMs(), r.gapAtMs(), r.gapsOverFrame(), FRAME_MS,
            r.gapsOverFrameCpu(), r.gapsOverFrameStolen(), r.stealPercent(), r.error() == null ? "" : ": " + r.error()));
      }
      return new Result(version, lines, Files.size(file), rows, MemorySampling.note());
    }
  }

  /**
   * Waits until the plugin's work on the last change is over, so that it does not fall into the
   * next command's figures: the folds of the buffer as it is, the id index brought up to date
   * (ids_check), then a second of quiet.
   */
  private static void quiet(Nvim nvim) throws Exception {
    waitFor(nvim, FOLDED, WAIT_S);
    lua(nvim, "require('nvimpam.host').wait('ids_check', { 0 }, 'ids_check', 0)");
    Thread.sleep(1000);
  }

  private Row measure(Nvim nvim, Step s) throws Exception {
    log.println("running :" + s.command);
    long t0 = System.nanoTime();
    long[] cpu0 = CpuSteal.sample();
    try (StealLog stolen = new StealLog()) {
      Object refused = get(nvim.execLua(START, org.nvimpam.nvim.Encoders.args(s.command, s.module, s.event)));
      if (refused instanceof String e) return failed(s, t0, cpu0, e);
      String done = "local l = require('" + s.module + "').last return l ~= nil and l.done == true";
      try {
        waitFor(nvim, done, COMMAND_S);
      } catch (IllegalStateException timeout) {
        lua(nvim, "_G.nvimpam_bench_model.stop()");
        return failed(s, t0, cpu0, "not done within " + COMMAND_S + " s");
      }
      double polledMs = BenchCalls.ms(t0);
      double steal = CpuSteal.percent(cpu0, CpuSteal.sample());
      List<?> v = (List<?>) get(nvim.execLua(READ, org.nvimpam.nvim.Encoders.args(s.module)));
      double wall = num(v.get(6));
      // the gaps over a frame that the CPU time stolen meanwhile accounts for: within a frame without it
      long byHypervisor = 0;
      List<?> gaps = v.get(10) instanceof List<?> l ? l : List.of(); // none: an empty table, maybe a map
      for (int k = 0; k + 1 < gaps.size(); k += 2) {
        long from = ((Number) gaps.get(k)).longValue();
        long to = ((Number) gaps.get(k + 1)).longValue();
        if ((to - from) / 1e6 - stolen.stolenMs(from, to) <= FRAME_MS) byHypervisor++;
      }
      long gapFrom = ((Number) v.get(11)).longValue();
      double gapStolen = stolen.stolenMs(gapFrom, gapFrom + (long) (num(v.get(3)) * 1e6));
      return new Row(s.command, Double.isNaN(wall) ? polledMs : wall, ((Number) v.get(0)).longValue(), num(v.get(1)),
          num(v.get(2)), num(v.get(3)), num(v.get(4)), num(v.get(7)), ((Number) v.get(5)).longValue(),
          ((Number) v.get(9)).longValue(), byHypervisor, gapStolen, steal, v.get(8) == null ? null : String.valueOf(v.get(8)));
    }
  }

  private static Row failed(Step s, long t0, long[] cpu0, String error) {
    return new Row(s.command, BenchCalls.ms(t0), -1, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, 0, 0,
        Double.NaN, CpuSteal.percent(cpu0, CpuSteal.sample()), error);
  }

  /** A figure of the Lua side; its -1 (none) is NaN. */
  private static double num(Object o) {
    double d = ((Number) o).doubleValue();
    return d < 0 ? Double.NaN : d;
  }

  /** A line (1-based) inside the deck's first fold of more than one line: closed once the folds are in place. */
  static int firstFoldLine(Path file) throws IOException {
    byte[] head;
    try (InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(1 << 16);
    }
    int end = head.length;
    while (end > 0 && head[end - 1] != '\n') end--; // whole lines only
    for (Fold f : FoldParser.parse(Lines.split(Arrays.copyOf(head, end)), new FoldOptions(true)).toList()) {
      if (f.end() > f.start()) return f.start();
    }
    throw new IllegalStateException(file + " has no fold in its first " + end + " bytes");
  }

  /** The figures as a Markdown table, under a line that tells the deck and the Neovim. */
  public static void print(Result r, PrintStream out) {
    out.println(String.format(Locale.ROOT, "%s, deck of %,d lines (%d MB)", r.nvimVersion(), r.lines(),
        Math.round(r.bytes() / 1e6)));
    if (r.machineNote() != null) out.println(r.machineNote());
    long frame = Math.round(FRAME_MS);
    out.println("| command | wall s | turns | longest turn ms (CPU) | largest gap ms (CPU, stolen) | gaps over " + frame
        + " ms (CPU over " + frame + " ms / within it but for steal) | CPU stolen % | error |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---|");
    for (Row w : r.rows()) {
      out.println(String.format(Locale.ROOT, "| :%s | %.2f | %s | %.1f (%.1f) | %.1f (%.1f, %s) | %d (%d / %d) | %s | %s |",
          w.command(), w.wallMs() / 1000, w.turns() < 0 ? "-" : Long.toString(w.turns()), w.longestMs(), w.longestCpuMs(),
          w.gapMs(), w.gapCpuMs(), Double.isNaN(w.gapStolenMs()) ? "-" : String.format(Locale.ROOT, "%.0f", w.gapStolenMs()),
          w.gapsOverFrame(), w.gapsOverFrameCpu(), w.gapsOverFrameStolen(),
          Double.isNaN(w.stealPercent()) ? "-" : String.format(Locale.ROOT, "%.1f", w.stealPercent()),
          w.error() == null ? "-" : w.error().replace('|', '/').replace('\n', ' ')));
    }
  }
}
