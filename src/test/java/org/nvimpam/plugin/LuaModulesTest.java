package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.SharedNvimTestBase;

/**
 * The Lua side's rooms: nvimpam.fold and nvimpam.host keep every function they had before they
 * were split (lua/nvimpam/fold/, lua/nvimpam/host/), the product never loads what only the tests
 * and the benchmark need, and every module annotates every public function (LuaCATS). The
 * require graph is LuaRequiresTest's.
 */
class LuaModulesTest extends SharedNvimTestBase {
  /** Module, function, parameter count (-1: any, a vararg function). */
  private static final List<String[]> KEPT = List.of(
      new String[] {"nvimpam.fold", "begin", "1"}, new String[] {"nvimpam.fold", "adopt", "1"},
      new String[] {"nvimpam.fold", "prepare", "1"}, new String[] {"nvimpam.fold", "stage", "1"},
      new String[] {"nvimpam.fold", "prepare_staged", "1"}, new String[] {"nvimpam.fold", "finish", "2"},
      new String[] {"nvimpam.fold", "apply", "1"}, new String[] {"nvimpam.fold", "creates_natively", "0"},
      new String[] {"nvimpam.fold", "create_natively_in", "2"}, new String[] {"nvimpam.fold", "commands", "1"},
      new String[] {"nvimpam.fold", "failing_fold", "3"}, new String[] {"nvimpam.fold", "refold", "1"},
      new String[] {"nvimpam.fold", "applied", "1"}, new String[] {"nvimpam.fold", "applied_tick", "1"},
      new String[] {"nvimpam.fold", "forget", "1"}, new String[] {"nvimpam.fold", "foldtext", "0"},
      new String[] {"nvimpam.host", "on_restart", "1"}, new String[] {"nvimpam.host", "root", "0"},
      new String[] {"nvimpam.host", "jar", "0"}, new String[] {"nvimpam.host", "java", "0"},
      new String[] {"nvimpam.host", "java_version", "1"}, new String[] {"nvimpam.host", "java_version_async", "2"},
      new String[] {"nvimpam.host", "java_version_known", "0"}, new String[] {"nvimpam.host", "jvm_command_line", "1"},
      new String[] {"nvimpam.host", "running", "0"}, new String[] {"nvimpam.host", "pid", "0"},
      new String[] {"nvimpam.host", "last_error", "0"}, new String[] {"nvimpam.host", "error", "3"},
      new String[] {"nvimpam.host", "as_error", "1"}, new String[] {"nvimpam.host", "serving", "2"},
      new String[] {"nvimpam.host", "channel", "0"}, new String[] {"nvimpam.host", "channel_for_rplugin", "1"},
      new String[] {"nvimpam.host", "read_early", "2"},
      new String[] {"nvimpam.host", "call", "4"}, new String[] {"nvimpam.host", "send", "1"},
      new String[] {"nvimpam.host", "_done", "3"}, new String[] {"nvimpam.host", "wait", "4"},
      new String[] {"nvimpam.host", "notify", "-1"}, new String[] {"nvimpam.host", "stop", "0"},
      new String[] {"nvimpam.tools.testing", "refold_error", "1"}, new String[] {"nvimpam.tools.testing", "record_refolds", "0"});

  /** What asks which Neovim this is; only lua/nvimpam/core/compat.lua may. */
  private static final Pattern VERSION_CHECK = Pattern.compile("vim\\.version\\(\\)|has\\(['\"]nvim-");

  @Test
  void theFoldAndHostModulesKeepEveryFunctionWithItsParameters() {
    StringBuilder entries = new StringBuilder();
    for (String[] e : KEPT) {
      entries.append("{'").append(e[0]).append("','").append(e[1]).append("',").append(e[2]).append("},");
    }
    Object wrong = lua("local wrong = {} for _, e in ipairs({" + entries + "}) do "
        + "local f = require(e[1])[e[2]] local what = e[1] .. '.' .. e[2] "
        + "if type(f) ~= 'function' then wrong[#wrong + 1] = what .. ': no such function' "
        + "else local i = debug.getinfo(f, 'u') "
        + "if (e[3] < 0) ~= i.isvararg or (e[3] >= 0 and i.nparams ~= e[3]) then "
        + "wrong[#wrong + 1] = what .. ': takes ' .. i.nparams .. (i.isvararg and ' and ...' or '') end end end "
        + "return wrong");
    assertEquals(List.of(), wrong);
  }

  @Test
  void theProductLoadsNeitherTheTestHooksNorTheBenchOnlyMeasures() {
    Object loaded = lua("for _, m in ipairs({ 'nvimpam', 'nvimpam.fold', 'nvimpam.host', 'nvimpam.health', "
        + "'nvimpam.host.filestate', 'nvimpam.tools.bench' }) do require(m) end "
        + "return { package.loaded['nvimpam.tools.testing'] ~= nil, package.loaded['nvimpam.tools.bench_inside'] ~= nil }");
    assertEquals(List.of(false, false), loaded);
  }

  @Test
  void everyPublicFunctionHasLuaCatsAnnotations() throws IOException {
    Pattern function = Pattern.compile("^function M\\.(\\w+)\\(([^)]*)\\)");
    List<String> missing = new ArrayList<>();
    for (Path file : luaFiles()) {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = function.matcher(lines.get(i));
        if (!m.find()) {
          continue;
        }
        List<String> doc = new ArrayList<>();
        for (int k = i - 1; k >= 0 && lines.get(k).startsWith("---"); k--) {
          doc.add(lines.get(k));
        }
        String where = EmbeddedNvim.root().relativize(file) + ":" + (i + 1) + " M." + m.group(1);
        if (doc.isEmpty()) {
          missing.add(where + ": no --- comment");
        } else if (doc.stream().noneMatch(d -> d.startsWith("---@"))) {
          missing.add(where + ": no ---@ annotation (---@return nil when it takes and returns nothing)");
        }
        for (String param : m.group(2).split(",")) {
          String p = param.trim();
          if (!p.isEmpty() && !p.equals("...") && doc.stream().noneMatch(d -> d.startsWith("---@param " + p + " ") || d.startsWith("---@param " + p + "? "))) {
            missing.add(where + ": no ---@param " + p);
          }
        }
      }
    }
    assertEquals(List.of(), missing);
  }

  /** Version checks live in one module, so that a new Neovim release is one file to read. */
  @Test
  void onlyCompatAsksWhichNeovimThisIs() throws IOException {
    List<String> found = new ArrayList<>();
    for (String dir : List.of("lua", "plugin", "ftplugin", "ftdetect", "autoload", "syntax", "compiler")) {
      Path root = EmbeddedNvim.root().resolve(dir);
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> s = Files.walk(root)) {
        for (Path f : (Iterable<Path>) s.filter(x -> x.toString().matches(".*\\.(lua|vim)$")).sorted()::iterator) {
          if (f.endsWith(Path.of("lua", "nvimpam", "core", "compat.lua"))) {
            continue;
          }
          List<String> lines = Files.readAllLines(f);
          for (int i = 0; i < lines.size(); i++) {
            if (VERSION_CHECK.matcher(lines.get(i)).find()) {
              found.add(EmbeddedNvim.root().relativize(f) + ":" + (i + 1) + ": " + lines.get(i).trim());
            }
          }
        }
      }
    }
    assertEquals(List.of(), found, "version checks outside lua/nvimpam/core/compat.lua");
  }

  /** Every module of lua/nvimpam, in every folder. */
  private static List<Path> luaFiles() throws IOException {
    try (Stream<Path> s = Files.walk(EmbeddedNvim.root().resolve("lua/nvimpam"))) {
      return s.filter(f -> f.toString().endsWith(".lua")).sorted().toList();
    }
  }
}
