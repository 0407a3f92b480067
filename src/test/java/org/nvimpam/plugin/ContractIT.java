package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.nvimpam.fold.Fold;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.ErrorValue;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.strategy.FoldStrategies;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;

/**
 * The Java side and the Lua side agree on lua/nvimpam/contract.properties: strategy names, the
 * options the JVM acts on and their defaults, and the shape of errors; on the fold texts
 * (FoldSet writes them in Java, nvimpam.fold in Neovim); and on every function the JVM calls
 * ({@link LuaEntry}). Fails when either side drifts.
 */
class ContractIT extends PluginTestBase {

  /** Each declared Lua entry's module loads and has the function, with the declared parameters. */
  @Test
  void everyLuaEntryTheJvmCallsExistsWithItsParameters() {
    StringBuilder entries = new StringBuilder();
    for (LuaEntry e : LuaEntry.values()) {
      entries.append("{'").append(e.module()).append("','").append(e.function()).append("',")
          .append(e.params().size()).append("},");
    }
    // debug.getinfo's 'u' gives nparams and isvararg on 0.7's LuaJIT too; a vararg function takes
    // the declared arguments when it names no more than that.
    Object wrong = lua("local wrong = {} for _, e in ipairs({" + entries + "}) do "
        + "local ok, m = pcall(require, e[1]) local f = ok and type(m) == 'table' and m[e[2]] "
        + "local what = e[1] .. '.' .. e[2] "
        + "if not ok then wrong[#wrong + 1] = what .. ': module does not load: ' .. tostring(m) "
        + "elseif type(f) ~= 'function' then wrong[#wrong + 1] = what .. ': no such function' "
        + "else local i = debug.getinfo(f, 'u') "
        + "if not (i.nparams == e[3] or (i.isvararg and i.nparams <= e[3])) then "
        + "wrong[#wrong + 1] = what .. ': takes ' .. i.nparams .. (i.isvararg and ' and ...' or '') "
        + ".. ' parameters, the JVM sends ' .. e[3] end end end return wrong");
    assertEquals(List.of(), wrong);
  }

  /** `:help nvimpam-options` lists exactly the schema's options, at their defaults. */
  @Test
  void theHelpOptionListIsTheOptionSchema() throws IOException {
    String help = java.nio.file.Files.readString(EmbeddedNvim.root().resolve("doc/nvimpam.txt"));
    String head = "Pass options to `require('nvimpam').setup({...})`. Defaults: >lua\n\n";
    int from = help.indexOf(head) + head.length();
    String block = help.substring(from, help.indexOf("\n<\n", from));
    Object expected = lua("return table.concat(require('nvimpam.core.options').help_lines("
        + "require('nvimpam.core.config').defaults), '\\n')");
    assertEquals(expected, block,
        "doc/nvimpam.txt's option list differs from lua/nvimpam/core/options.lua; paste its help_lines()");
  }

  /**
   * Every call and notification the Lua sources make into the JVM is declared in
   * contract.properties with no fewer arguments, and every declared one is made somewhere.
   */
  @Test
  void luaCallsIntoTheJvmAreTheDeclaredOnes() throws IOException {
    java.util.Properties contract = new java.util.Properties();
    try (var in = java.nio.file.Files.newBufferedReader(EmbeddedNvim.root().resolve("lua/nvimpam/contract.properties"))) {
      contract.load(in);
    }
    // host.call/wait('m', { a, b }), nvimpam.ids' call/ask('m', { ... }), forward(event, 'm'),
    // rpcnotify(chan, 'm', a, b), host.notify('m', a, b), and the page calls of host.pages:
    // pages.fetch/drop/source('m', ...) (their arguments are the page call's own).
    java.util.regex.Pattern site = java.util.regex.Pattern.compile(
        "\\b(?:call|wait|ask)\\('([a-z_]+)', \\{([^}]*)\\}|forward\\('\\w+', '([a-z_]+)'\\)|(?:rpcnotify\\([\\w.]+, |\\bnotify\\()'([a-z_]+)'((?:, [^,)]+)*)\\)"
        + "|pages\\.(?:fetch|drop|source)\\('([a-z_]+)'");
    java.util.Set<String> made = new java.util.TreeSet<>();
    List<String> wrong = new java.util.ArrayList<>();
    try (var files = java.nio.file.Files.walk(EmbeddedNvim.root().resolve("lua"))) {
      for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files.filter(p -> p.toString().endsWith(".lua"))::iterator) {
        java.util.regex.Matcher m = site.matcher(java.nio.file.Files.readString(f));
        while (m.find()) {
          String key;
          int args;
          if (m.group(1) != null) {
            key = "call." + m.group(1);
            args = m.group(2).isBlank() ? 0 : m.group(2).split(",").length;
          } else if (m.group(3) != null) {
            key = "notify." + m.group(3);
            args = 1;
          } else if (m.group(6) != null) {
            key = "call." + m.group(6);
            args = 0;
          } else {
            key = "notify." + m.group(4);
            args = m.group(5).isEmpty() ? 0 : m.group(5).split(",").length - 1;
          }
          made.add(key);
          String declared = contract.getProperty(key);
          if (declared == null) {
            wrong.add(f.getFileName() + ": " + key + " is not declared");
          } else if ((declared.isBlank() ? 0 : declared.split(",").length) < args) {
            wrong.add(f.getFileName() + ": " + key + " is sent " + args + " arguments, declared " + declared);
          }
        }
      }
    }
    for (String key : contract.stringPropertyNames()) {
      if ((key.startsWith("call.") || key.startsWith("notify.")) && !made.contains(key)) {
        wrong.add(key + " is declared but Lua never makes it");
      }
    }
    assertEquals(List.of(), wrong);
  }

  /** The README's option table names options of the schema, with their defaults. */
  @Test
  void theReadmesOptionTableAgreesWithTheSchema() throws IOException {
    List<String> wrong = new java.util.ArrayList<>();
    int rows = 0;
    for (String line : java.nio.file.Files.readAllLines(EmbeddedNvim.root().resolve("README.md"))) {
      java.util.regex.Matcher row = java.util.regex.Pattern.compile("^\\| (`\\w+`(?:, `\\w+`)*) \\| ([^|]+) \\|").matcher(line);
      if (!row.find() || line.startsWith("| `:")) {
        continue;
      }
      String shown = row.group(2).trim();
      for (String name : row.group(1).replace("`", "").split(", ")) {
        rows++;
        Object value = lua("local o = require('nvimpam.core.options').get('" + name + "') "
            + "if not o then return 'no such option' end "
            + "local d = require('nvimpam.core.config').defaults['" + name + "'] "
            + "return type(d) == 'table' and (next(d) == nil and '{}' or 'a table') or tostring(d)");
        if (shown.startsWith("`") && !shown.equals("`" + value + "`") || value.equals("no such option")) {
          wrong.add(name + ": README shows " + shown + ", the schema " + value);
        }
      }
    }
    assertTrue(rows >= 5, "found the README's option table");
    assertEquals(List.of(), wrong);
  }

  /** Every option.* of the contract is an option the schema sends to the JVM, and back. */
  @Test
  void theContractsOptionsAreTheSchemasJvmOptions() throws IOException {
    java.util.Properties contract = new java.util.Properties();
    try (var in = java.nio.file.Files.newBufferedReader(EmbeddedNvim.root().resolve("lua/nvimpam/contract.properties"))) {
      contract.load(in);
    }
    List<String> inContract = contract.stringPropertyNames().stream().filter(k -> k.startsWith("option."))
        .map(k -> k.substring("option.".length())).sorted().toList();
    Object jvm = lua("local out = {} for _, o in ipairs(require('nvimpam.core.options').list) do "
        + "if o.jvm then out[#out + 1] = o.name end end table.sort(out) return out");
    assertEquals(inContract, jvm);
    assertEquals(inContract, lua("return require('nvimpam.core.config').jvm_options"));
  }

  /** setup() refuses a value of the wrong type for every option of the schema, naming it. */
  @Test
  void setupRefusesAWrongTypeForEveryOption() {
    Object wrong = lua("local wrong = {} for _, o in ipairs(require('nvimpam.core.options').list) do "
        + "local bad = (o.type == 'string' or o.type == 'table') and 12 or 'x' "
        + "local ok, e = pcall(require('nvimpam.core.config').set, { [o.name] = bad }) "
        + "if ok or not tostring(e):find('option ' .. o.name .. ': expected ' .. o.type, 1, true) then "
        + "wrong[#wrong + 1] = o.name .. ': ' .. tostring(e) end end "
        + "require('nvimpam.core.config').set({}) return wrong");
    assertEquals(List.of(), wrong);
  }

  @Test
  void theVimlFunctionsTheJvmCallsExistWithTheirParameters() {
    for (LuaEntry.VimlFunction f : LuaEntry.VIML_FUNCTIONS) {
      String script = "autoload/" + f.name().substring(0, f.name().indexOf('#')) + ".vim";
      Object header = lua("vim.cmd('runtime " + script + "') "
          + "return vim.split(vim.fn.execute('function " + f.name() + "'), '\\n', { trimempty = true })[1]");
      assertEquals("function " + f.name() + "(" + String.join(", ", f.params()) + ") abort",
          String.valueOf(header).trim());
    }
  }

  /** A buffer variable the JVM sets is read somewhere in the Lua side, by that name. */
  @Test
  void theBufferVariablesTheJvmSetsAreReadInLua() {
    for (String name : LuaEntry.BUFFER_VARIABLES) {
      // Named in code, not in a comment: as a string literal, or as a field of vim.b.
      Object readers = lua("local n = '" + name + "' local out = {} "
          + "for _, f in ipairs(vim.fn.globpath(vim.o.runtimepath, 'lua/nvimpam/**/*.lua', false, true)) do "
          + "local h = io.open(f) local text = h:read('*a') h:close() "
          + "if text:find(\"'\" .. n .. \"'\", 1, true) or text:find('\"' .. n .. '\"', 1, true) "
          + "or text:find('vim.b.' .. n, 1, true) then out[#out + 1] = vim.fn.fnamemodify(f, ':t') end end "
          + "return out");
      assertTrue(!((List<?>) readers).isEmpty(), name + " is read by no Lua module");
    }
  }

  @Test
  void strategyNamesAreTheRegistrysOnBothSides() {
    assertEquals(FoldStrategies.names(), Contract.list("strategies"));
    assertEquals(FoldStrategies.names(), lua("return require('nvimpam.core.config').strategies"));
    assertEquals(FoldStrategies.DEFAULT, Settings.DEFAULTS.strategy());
  }

  @Test
  void theOptionsTheJvmActsOnHaveTheSameNamesAndDefaultsOnBothSides() {
    Map<String, Object> java = new TreeMap<>(Map.of("strategy", Settings.DEFAULTS.strategy(), "generic_cards",
        Settings.DEFAULTS.genericCards(), "one_line_folds", Settings.DEFAULTS.oneLineFolds(), "debounce_ms",
        Settings.DEFAULTS.debounceMs(), "notify_lines", Settings.DEFAULTS.notifyLines(), "checks",
        Settings.DEFAULTS.checks(), "max_diagnostics", Settings.DEFAULTS.maxDiagnostics()));
    assertEquals(java.keySet(), new java.util.TreeSet<>(Settings.KEYS));

    Map<?, ?> luaDefaults = (Map<?, ?>) lua("return require('nvimpam.core.config').for_jvm()");
    assertEquals(java, new TreeMap<>(luaDefaults));
    // Settings.merge takes what Lua sends without complaint.
    assertEquals(Settings.DEFAULTS, Settings.DEFAULTS.merge(luaDefaults));
  }

  @Test
  void errorsHaveTheContractsKeysAndCodes() {
    assertEquals(Contract.list("error.keys"), ErrorValue.KEYS);
    assertEquals(Contract.list("error.codes"),
        Arrays.stream(ErrorValue.Code.values()).map(ErrorValue.Code::wire).toList());
  }

  @Test
  void foldTextsAreTheSameInJavaAndInLua() throws IOException {
    String jar = EmbeddedNvim.jar();
    lua("require('nvimpam').setup({ jar = '" + jar + "', auto_attach = false })");
    byte[] deck = example();
    EmbeddedNvim.edit(nvim, deck, dir);
    nvim.command("NvimpamFold").join();
    List<Fold> folds = FoldParser.parse(Lines.split(deck), new FoldOptions(true)).toList().stream()
        .filter(f -> f.end() > f.start()).toList();
    List<Fold> groups = folds.stream().filter(f -> f.level() == 2).toList();

    // Neovim shows a fold's text when it is closed and its parents are open: 'foldlevel' = depth - 1.
    StringBuilder pairs = new StringBuilder();
    for (Fold f : folds) {
      boolean member = f.level() == 1 && groups.stream().anyMatch(g -> g.start() <= f.start() && f.end() <= g.end());
      pairs.append('{').append(f.start()).append(',').append(member ? 1 : 0).append("},");
    }
    Object texts = lua("local out = {} for _, p in ipairs({" + pairs + "}) do vim.wo.foldlevel = p[2] "
        + "out[#out + 1] = vim.fn.foldtextresult(p[1]) end return out");

    assertEquals(folds.stream().map(Fold::text).toList(), texts);
  }

  @Test
  void anErrorFromTheJvmReachesLuaAsAValueWithTheContractsShape() {
    String jar = EmbeddedNvim.jar();
    lua("require('nvimpam').setup({ jar = '" + jar + "', auto_attach = false })");

    Map<?, ?> e = (Map<?, ?>) lua("local ok, e = pcall(require('nvimpam.host').wait, 'fold', { 'not a buffer' }) "
        + "return { ok = ok, code = e.code, message = e.message, keys = vim.tbl_keys(e) }");

    assertEquals(false, e.get("ok"));
    assertEquals("bad_argument", e.get("code"));
    assertTrue(String.valueOf(e.get("message")).contains("expected a buffer number as argument 1"), String.valueOf(e));
    assertTrue(Contract.list("error.keys").containsAll((List<?>) e.get("keys")), String.valueOf(e));
    assertTrue(Contract.list("error.codes").contains(e.get("code")));
  }

  @Test
  void luaRefusesACallThatIsNotDeclaredBeforeItReachesTheJvm() {
    Object e = lua("local ok, e = pcall(require('nvimpam.host').call, 'no_such_call', {}, function() end) "
        + "local ok2, e2 = pcall(require('nvimpam.host').call, 'fold', { 1, 2 }, function() end) "
        + "return { ok, tostring(e), ok2, tostring(e2) }");

    assertEquals(List.of(false, "nvimpam: call no_such_call is not declared in contract.properties",
        false, "nvimpam: call fold takes 1 arguments (buf), not 2"), ((List<?>) e).stream()
            .map(x -> x instanceof String str ? str.replaceFirst("^[^:]*:\\d+: ", "") : x).toList());
  }
}
