package org.nvimpam.nvim;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.nvimpam.rpc.Encoder;

/**
 * Every function of the plugin's Neovim side that the JVM calls, declared once: its module, its
 * name and its parameters. A call site writes only the arguments, in this order; the entry writes
 * the code and the argument count. ContractIT loads each module in Neovim and checks that the
 * function exists and takes these parameters, so that a rename on the Lua side fails a test
 * instead of a user's command.
 */
public enum LuaEntry {
  // lua/nvimpam/fold/init.lua: framing a refresh, the single-call strategies, the live refold
  FOLDS_BEGIN("nvimpam.fold", "begin", true, "buf"),
  FOLDS_ADOPT("nvimpam.fold", "adopt", false, "plan"),
  FOLDS_FINISH("nvimpam.fold", "finish", true, "buf", "failed"),
  FOLDS_APPLY("nvimpam.fold", "apply", true, "plan"),
  FOLDS_STAGE("nvimpam.fold", "stage", false, "plan"),
  FOLDS_REFOLD("nvimpam.fold", "refold", true, "plan"),
  /** The tick of the buffer text that the folds in place were made from (bench and soak). */
  FOLDS_APPLIED_TICK("nvimpam.fold", "applied_tick", true, "buf"),
  /** When the folds in place were put there, on Neovim's clock (bench). */
  FOLDS_APPLIED_AT("nvimpam.fold", "applied_at", true, "buf"),
  // lua/nvimpam/host/init.lua: the answer to every nvimpam_call; the rest for bench and soak
  HOST_DONE("nvimpam.host", "_done", false, "id", "err", "result"),
  HOST_RUNNING("nvimpam.host", "running", true),
  HOST_PID("nvimpam.host", "pid", true),
  HOST_LAST_ERROR("nvimpam.host", "last_error", true),
  // lua/nvimpam/init.lua: the rplugin manifest's commands; setup and info for bench and soak
  MANIFEST_SPECS("nvimpam", "manifest_specs", true),
  COMMAND("nvimpam", "command", false, "name", "fargs", "ctx"),
  SETUP("nvimpam", "setup", false, "opts"),
  INFO_LINES("nvimpam", "info_lines", true),
  /** The field problems of a buffer at a changedtick: a flat item list and how many there are. */
  DIAGNOSTICS_SET("nvimpam.ui.diagnostics", "set", false, "buf", "changedtick", "items", "total"),
  /** The cross-reference problems of a buffer (namespace nvimpam.refs): flat items and their count. */
  IDS_SET("nvimpam.ids", "set", false, "buf", "items", "total"),
  /** Whether (and where) a buffer's file is its text, for the disk fast path ({@link DiskCheck}). */
  FILESTATE_CHECK("nvimpam.host.filestate", "check", true, "buf", "samples"),
  // lua/nvimpam/tools/bench.lua: the benchmark's reset, verification and floor
  BENCH_RESET("nvimpam.tools.bench", "reset", false, "buf"),
  BENCH_CLEAR("nvimpam.tools.bench", "clear", false, "buf"),
  BENCH_VERIFY("nvimpam.tools.bench", "verify", true, "buf"),
  BENCH_FLOOR_PREPARE("nvimpam.tools.bench", "floor_prepare", false, "buf", "chunk", "per_line"),
  BENCH_FLOOR("nvimpam.tools.bench", "floor", true, "buf", "name"),
  BENCH_FLOOR_CANDIDATES("nvimpam.tools.bench", "floor_candidates", true),
  BENCH_INSIDE_MEASURES("nvimpam.tools.bench", "inside_measures", true),
  /** How far :NvimpamParts got: a line of text for the table buffer {@code tbuf}. */
  PARTS_PROGRESS("nvimpam.deck.parts", "_progress", false, "tbuf", "text");

  /**
   * The buffer variable lua/nvimpam/model/version.lua reads for the version of an include file, which the
   * JVM sets from the deck that includes it.
   */
  public static final String INHERITED_VERSION = "nvimpam_inherited_version";

  /** The buffer variables the JVM sets for the Lua side to read. */
  public static final List<String> BUFFER_VARIABLES = List.of(INHERITED_VERSION, "nvimpam_root_dir");

  /** The folder a buffer's include files resolve from (its top deck's), which lua/nvimpam/ids/init.lua reads. */
  public static final String ROOT_DIR = BUFFER_VARIABLES.get(1);

  /** A function of autoload/nvimpam.vim that the JVM calls with {@code nvim_call_function}. */
  public record VimlFunction(String name, List<String> params) {}

  /** The viml strategy's one call: the buffer and its fold commands, {@code |}-joined lines. */
  public static final VimlFunction VIML_APPLY = new VimlFunction("nvimpam#apply", List.of("buf", "cmds"));

  /** The VimL functions the JVM calls. */
  public static final List<VimlFunction> VIML_FUNCTIONS = List.of(VIML_APPLY);

  private final String module;
  private final String function;
  private final List<String> params;
  private final String code;

  /** With {@code returns} the code returns the function's value; without, Neovim sends nil back. */
  LuaEntry(String module, String function, boolean returns, String... params) {
    this.module = module;
    this.function = function;
    this.params = List.of(params);
    this.code = (returns ? "return " : "") + expression("...");
  }

  /** The module, as {@code require()} takes it, e.g. {@code nvimpam.fold}. */
  public String module() {
    return module;
  }

  /** The function's name in its module. */
  public String function() {
    return function;
  }

  /** The parameters' names, in order: what a call site writes. */
  public List<String> params() {
    return params;
  }

  /** The call of the function with {@code luaArgs}, for code that uses it in an expression. */
  public String expression(String luaArgs) {
    return "require('" + module + "')." + function + "(" + luaArgs + ")";
  }

  /** The code {@code nvim_exec_lua} runs, with its arguments as {@code ...}. */
  public String code() {
    return code;
  }

  /**
   * The params of {@code nvim_exec_lua}: the code, then an array of this entry's arguments, which
   * {@code args} writes (exactly {@link #params()}.size() values).
   */
  public Encoder execLuaParams(Encoder args) {
    int n = params.size();
    return out -> {
      out.packArrayHeader(2).packString(code).packArrayHeader(n);
      args.write(out);
    };
  }

  /** Calls it; {@code args} writes exactly {@link #params()}.size() values. */
  public CompletableFuture<Object> call(Nvim nvim, Encoder args) {
    return nvim.call("nvim_exec_lua", execLuaParams(args), nvim.objects());
  }

  /** Calls a function without parameters. */
  public CompletableFuture<Object> call(Nvim nvim) {
    if (!params.isEmpty()) throw new IllegalArgumentException(this + " takes " + params.size() + " arguments");
    return call(nvim, out -> {});
  }

  /** Calls it as a notification: nothing comes back, not even an error. */
  public void notify(Nvim nvim, Encoder args) {
    nvim.rpc().notify("nvim_exec_lua", execLuaParams(args));
  }

  @Override
  public String toString() {
    return expression(String.join(", ", params));
  }
}
