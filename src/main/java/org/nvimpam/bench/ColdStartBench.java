package org.nvimpam.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.nvimpam.nvim.StartTrace;

/**
 * A deck opened as a new user opens it: a fresh headless Neovim per run, {@code setup{}} with its
 * defaults, {@code :edit} of the deck, and the time from the {@code :edit} until the folds are in
 * place, the JVM started by that open (cold). Checkouts given together run in turn, run by run,
 * so that their figures come from the same minutes of a noisy machine. Next to them, the floors:
 * Neovim's own {@code :edit} of the deck in a fresh Neovim without the plugin, and the bare
 * start of a JVM with the plugin's flags ({@code -version} instead of the jar).
 */
public final class ColdStartBench {
  /**
   * One checkout's runs in ms; with a trace, when each phase of the start was reached, in ms after
   * the {@code :edit}, by phase in the order first seen ({@link org.nvimpam.nvim.StartTrace}).
   */
  public record Row(Path root, double[] openMs, double[] jvmCpuMs, double[] nvimCpuMs, Map<String, List<Double>> phases) {}

  public record Result(List<Row> rows, double[] editMs, double[] jvmMs) {}

  private static final String OPEN = """
      vim.opt.rtp:prepend(%s)
      vim.cmd('filetype on')
      local uv = vim.uv or vim.loop
      local out = %s
      local plugin = %s
      if plugin then require('nvimpam').setup({}) end
      local trace = os.getenv('NVIMPAM_START_TRACE')
      local function mark(phase, t)
        if trace then
          local f = io.open(trace, 'a')
          f:write('L ', phase, ' ', string.format('%%d', t), '\\n')
          f:close()
        end
      end
      -- CPU time of a process so far, in ms (/proc/PID/stat: utime and stime, in 1/100 s)
      local function cpu(pid)
        local st = pid and vim.fn.readfile('/proc/' .. pid .. '/stat')[1]
        if not st then return -1 end
        local f = vim.split(st:match('%%) (.*)'), ' ')
        return (tonumber(f[12]) + tonumber(f[13])) * 10
      end
      local own0 = cpu(vim.fn.getpid())
      local t0 = uv.hrtime()
      vim.cmd('edit ' .. vim.fn.fnameescape(%s))
      local ok = true
      if plugin then
        ok = vim.wait(30000, function() return require('nvimpam.fold').applied_tick(0) ~= nil end, 1)
      end
      local t1 = uv.hrtime()
      local jvm = plugin and cpu(require('nvimpam.host').pid()) or -1
      local own = cpu(vim.fn.getpid()) - own0
      mark('edit', t0)
      mark('folds in place', t1)
      local ms = (t1 - t0) / 1e6
      local cmd = plugin and require('nvimpam.host').jvm_command_line() or {}
      vim.fn.writefile({ ok and string.format('%%.3f', ms) or 'NO FOLDS', jvm .. ' ' .. own, unpack(cmd) }, out)
      vim.cmd('qa!')
      """;

  private final String nvim;
  private final PrintStream log;

  public ColdStartBench(String nvim, PrintStream log) {
    this.nvim = nvim;
    this.log = log;
  }

  /** With {@code trace}, each run also records when the phases of the start were reached. */
  public Result run(List<Path> roots, Path deck, int runs, boolean trace) throws IOException, InterruptedException {
    Path tmp = Files.createTempDirectory("nvimpam-cold");
    Path traceFile = trace ? tmp.resolve("trace.txt") : null;
    List<Map<String, List<Double>>> phases = new ArrayList<>();
    for (int k = 0; k < roots.size(); k++) phases.add(new LinkedHashMap<>());
    double[][] open = new double[roots.size()][runs];
    double[][] jvmCpu = new double[roots.size()][runs];
    double[][] nvimCpu = new double[roots.size()][runs];
    double[] edit = new double[runs];
    double[] jvm = new double[runs];
    List<String> jvmCommand = null;
    for (int warm = 0; warm < 2; warm++) { // the first start after a build writes the CDS archive
      for (Path root : roots) once(tmp, root, deck, true, null);
    }
    for (int r = 0; r < runs; r++) {
      for (int k = 0; k < roots.size(); k++) {
        List<String> got = once(tmp, roots.get(k), deck, true, traceFile);
        open[k][r] = parse(got.get(0), roots.get(k));
        String[] cpu = got.get(1).split(" ");
        jvmCpu[k][r] = Double.parseDouble(cpu[0]);
        nvimCpu[k][r] = Double.parseDouble(cpu[1]);
        if (trace) addPhases(traceFile, phases.get(k));
        if (k == roots.size() - 1) jvmCommand = got.subList(2, got.size()); // the last root's flags
      }
      edit[r] = parse(once(tmp, roots.get(0), deck, false, null).get(0), roots.get(0));
      jvm[r] = jvmStart(jvmCommand);
      log.println(String.format(Locale.ROOT, "run %d: open %s ms, :edit %.1f ms, JVM %.1f ms", r + 1,
          Arrays.toString(column(open, r)), edit[r], jvm[r]));
    }
    List<Row> rows = new ArrayList<>();
    for (int k = 0; k < roots.size(); k++) rows.add(new Row(roots.get(k), open[k], jvmCpu[k], nvimCpu[k], phases.get(k)));
    return new Result(rows, edit, jvm);
  }

  /** The phases of one traced run, in ms after its {@code :edit}; the file is emptied for the next. */
  private static void addPhases(Path traceFile, Map<String, List<Double>> into) throws IOException {
    if (!Files.exists(traceFile)) return;
    List<String> lines = Files.readAllLines(traceFile, StandardCharsets.UTF_8);
    Files.delete(traceFile);
    Long edit = null;
    for (String l : lines) {
      if (l.startsWith("L edit ")) edit = Long.parseLong(l.substring(l.lastIndexOf(' ') + 1));
    }
    if (edit == null) return;
    for (String l : lines) {
      int sp = l.lastIndexOf(' ');
      if (sp < 2 || l.startsWith("L edit ")) continue;
      String phase = (l.charAt(0) == 'J' ? "JVM: " : "Neovim: ") + l.substring(2, sp);
      into.computeIfAbsent(phase, p -> new ArrayList<>()).add((Long.parseLong(l.substring(sp + 1)) - edit) / 1e6);
    }
  }

  private static double[] column(double[][] m, int r) {
    double[] c = new double[m.length];
    for (int k = 0; k < m.length; k++) c[k] = Math.round(m[k][r] * 10) / 10.0;
    return c;
  }

  private static double parse(String s, Path root) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      throw new IllegalStateException("no folds opening the deck with the plugin of " + root + ": " + s, e);
    }
  }

  /** One fresh Neovim: its time, then (with the plugin) the JVM's command line, a line each. */
  private List<String> once(Path tmp, Path root, Path deck, boolean plugin, Path trace)
      throws IOException, InterruptedException {
    Path out = tmp.resolve("out.txt");
    Files.deleteIfExists(out);
    Path script = tmp.resolve("open.lua");
    Files.writeString(script, String.format(Locale.ROOT, OPEN, lua(root.toAbsolutePath().toString()),
        lua(out.toString()), plugin, lua(deck.toAbsolutePath().toString())));
    // cquit: a script that failed before its qa! ends Neovim with an error instead of leaving it waiting
    ProcessBuilder b = new ProcessBuilder(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile " + script,
        "-c", "cquit")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    if (trace != null) b.environment().put(StartTrace.ENV, trace.toString()); // the JVM inherits it
    Process p = b.start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("Neovim did not finish opening " + deck + " within 60 s");
    }
    if (!Files.exists(out)) throw new IllegalStateException("Neovim exited with " + p.exitValue() + " and no figure");
    return Files.readAllLines(out, StandardCharsets.UTF_8);
  }

  /** The plugin's JVM command line with {@code -version} for {@code -jar JAR serve}: the JVM's own start. */
  private static double jvmStart(List<String> cmd) throws IOException, InterruptedException {
    List<String> c = new ArrayList<>(cmd.subList(0, cmd.indexOf("-jar")));
    c.add("-version");
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(c).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    p.waitFor(30, TimeUnit.SECONDS);
    return (System.nanoTime() - t0) / 1e6;
  }

  private static String lua(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  private static double median(double[] a) {
    double[] s = a.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static String spread(double[] a) {
    double[] s = a.clone();
    Arrays.sort(s);
    return String.format(Locale.ROOT, "%.0f (%.0f–%.0f)", median(a), s[0], s[s.length - 1]);
  }

  public static void print(Result r, PrintStream out) {
    out.println("| what | ms, median (min–max) | / first root |");
    out.println("|---|---:|---:|");
    double first = median(r.rows().get(0).openMs());
    for (Row row : r.rows()) {
      out.println(String.format(Locale.ROOT, "| open → folds, %s | %s | %.2f× |", row.root(), spread(row.openMs()),
          median(row.openMs()) / first));
    }
    out.println("| floor: Neovim's own :edit | " + spread(r.editMs()) + " | |");
    out.println("| floor: the JVM's bare start (-version) | " + spread(r.jvmMs()) + " | |");
    // The CPU both processes spent from :edit to folds in place: divided by the cores, no open can be faster.
    int cores = Runtime.getRuntime().availableProcessors();
    for (Row row : r.rows()) {
      double[] both = new double[row.openMs().length];
      for (int i = 0; i < both.length; i++) both[i] = (row.jvmCpuMs()[i] + row.nvimCpuMs()[i]) / cores;
      out.println(String.format(Locale.ROOT, "| CPU to folds, %s: JVM / Neovim | %s / %s | |", row.root(),
          spread(row.jvmCpuMs()), spread(row.nvimCpuMs())));
      out.println(String.format(Locale.ROOT, "| floor: that CPU on %d cores, %s | %s | |", cores, row.root(), spread(both)));
    }
    if (r.rows().stream().allMatch(row -> row.phases().isEmpty())) return;
    out.println();
    StringBuilder head = new StringBuilder("| phase reached, ms after :edit (median) |");
    StringBuilder rule = new StringBuilder("|---|");
    Map<String, Boolean> all = new LinkedHashMap<>();
    for (Row row : r.rows()) {
      head.append(' ').append(row.root()).append(" |");
      rule.append("---:|");
      for (String p : row.phases().keySet()) all.put(p, true);
    }
    out.println(head);
    out.println(rule);
    List<String> order = new ArrayList<>(all.keySet()); // by when the first root reached them
    Map<String, List<Double>> lead = r.rows().get(0).phases();
    order.sort(java.util.Comparator.comparingDouble(p -> lead.containsKey(p)
        ? median(lead.get(p).stream().mapToDouble(Double::doubleValue).toArray()) : Double.MAX_VALUE));
    for (String p : order) {
      StringBuilder line = new StringBuilder("| " + p + " |");
      for (Row row : r.rows()) {
        List<Double> v = row.phases().get(p);
        line.append(v == null ? " — |"
            : String.format(Locale.ROOT, " %.1f |", median(v.stream().mapToDouble(Double::doubleValue).toArray())));
      }
      out.println(line);
    }
  }
}
