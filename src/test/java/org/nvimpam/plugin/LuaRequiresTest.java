package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;

/**
 * The Lua modules' require graph (docs/ARCHITECTURE.md): every module a module needs, at load time
 * or inside a function, or through a {@code v:lua.require'...'} string it hands to Neovim, points
 * down. No cycle, however long; no require of a module that does not exist; and from folder to
 * folder, only down the layers. Read from the files, comments and other strings left out.
 */
class LuaRequiresTest {
  /**
   * The folders of lua/nvimpam from the top down; "" is the modules in lua/nvimpam itself (the
   * wiring: init, health, commands, live, mappings). A module requires modules of its own folder
   * or of a folder in a layer below.
   */
  private static final List<List<String>> LAYERS = List.of(List.of(""), List.of("deck", "edit", "view", "tools"),
      List.of("ids"), List.of("tree"), List.of("ui"), List.of("fold"), List.of("host"), List.of("model"), List.of("core"));

  /** A string literal that Neovim evaluates into a call of a module ('formatexpr', 'omnifunc', ...). */
  private static final Pattern V_LUA = Pattern.compile("v:lua\\.require\\s*\\(?\\s*['\"]([\\w.]+)['\"]");
  /** {@code require 'm'}, {@code require('m')}, {@code pcall(require, 'm')}: a string follows. */
  private static final Pattern REQUIRE = Pattern.compile("\\brequire\\s*(?:\\(\\s*|,\\s*)?$");

  @Test
  void theRequireGraphHasNoCycle() throws IOException {
    Map<String, TreeSet<String>> graph = graph(EmbeddedNvim.root().resolve("lua"));
    assertEquals(List.of(), cycles(graph), "require cycles (a -> b: a requires b)");
  }

  @Test
  void everyRequireOfAnNvimpamModuleNamesOneThatExists() throws IOException {
    Map<String, TreeSet<String>> raw = requires(EmbeddedNvim.root().resolve("lua"));
    List<String> unknown = new ArrayList<>();
    raw.forEach((m, deps) -> deps.stream()
        .filter(d -> (d.equals("nvimpam") || d.startsWith("nvimpam.")) && !raw.containsKey(d))
        .forEach(d -> unknown.add(m + " -> " + d)));
    assertEquals(List.of(), unknown);
  }

  @Test
  void everyRequireBetweenFoldersPointsDownTheLayers() throws IOException {
    Path lua = EmbeddedNvim.root().resolve("lua");
    Map<String, String> folders = folders(lua);
    List<String> wrong = new ArrayList<>();
    graph(lua).forEach((m, deps) -> {
      int from = layer(folders.get(m));
      if (from < 0) {
        wrong.add(m + ": in no layer (a folder of LAYERS, or lua/nvimpam itself)");
        return;
      }
      for (String d : deps) {
        int to = layer(folders.get(d));
        if (!folders.get(d).equals(folders.get(m)) && to <= from) {
          wrong.add(m + " -> " + d + " (" + (to == from ? "a folder of the same layer" : "a layer above") + ")");
        }
      }
    });
    assertEquals(List.of(), wrong);
  }

  /** Each module's folder in lua/nvimpam: "view" for view/cells/draw.lua, "ids" for ids/init.lua, "" for live.lua. */
  private static Map<String, String> folders(Path lua) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> files = Files.walk(lua)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".lua"))::iterator) {
        Path rel = lua.relativize(f);
        out.put(module(lua, f), rel.getNameCount() > 2 && rel.getName(0).toString().equals("nvimpam")
            ? rel.getName(1).toString() : rel.getName(0).toString().equals("nvimpam") ? "" : "(outside nvimpam)");
      }
    }
    return out;
  }

  private static int layer(String folder) {
    for (int i = 0; i < LAYERS.size(); i++) {
      if (LAYERS.get(i).contains(folder)) {
        return i;
      }
    }
    return -1;
  }

  /** The module name of a file under lua/: nvimpam.view.cells.draw, nvimpam.ids for ids/init.lua. */
  private static String module(Path lua, Path f) {
    return lua.relativize(f).toString().replace('\\', '/').replaceAll("\\.lua$", "")
        .replaceAll("/init$", "").replace('/', '.');
  }

  /** The check itself finds a cycle through a require inside a function, and one through v:lua. */
  @Test
  void aCycleIsFound() {
    Map<String, TreeSet<String>> g = new TreeMap<>();
    g.put("a", new TreeSet<>(deps("local b = require('b')")));
    g.put("b", new TreeSet<>(deps("local function f() return require 'c'.x end")));
    g.put("c", new TreeSet<>(deps("vim.bo.omnifunc = \"v:lua.require'a'.omnifunc\" -- require('d')")));
    g.put("d", new TreeSet<>(deps("local s = \"require('a')\" local ok, ffi = pcall(require, 'ffi')")));
    assertEquals(List.of("a -> b -> c -> a"), cycles(g));
    assertEquals(new TreeSet<>(List.of("ffi")), g.get("d"), "strings and comments are no requires");
  }

  /** Module -> the nvimpam modules it needs (those that exist), by module name. */
  static Map<String, TreeSet<String>> graph(Path lua) throws IOException {
    Map<String, TreeSet<String>> raw = requires(lua);
    Map<String, TreeSet<String>> g = new TreeMap<>();
    raw.forEach((m, deps) -> {
      TreeSet<String> in = new TreeSet<>(deps);
      in.retainAll(raw.keySet());
      in.remove(m);
      g.put(m, in);
    });
    return g;
  }

  private static Map<String, TreeSet<String>> requires(Path lua) throws IOException {
    Map<String, TreeSet<String>> raw = new TreeMap<>();
    try (Stream<Path> files = Files.walk(lua)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".lua")).sorted()::iterator) {
        raw.put(module(lua, f), new TreeSet<>(deps(Files.readString(f))));
      }
    }
    return raw;
  }

  /**
   * The modules a Lua source names in require calls and v:lua strings. Comments are skipped;
   * a string counts only as the argument of a require, or as a v:lua call.
   */
  static List<String> deps(String src) {
    List<String> out = new ArrayList<>();
    StringBuilder code = new StringBuilder(); // the code since the last string, to see what precedes one
    int i = 0;
    int n = src.length();
    while (i < n) {
      char c = src.charAt(i);
      if (c == '-' && src.startsWith("--", i)) {
        int level = longBracket(src, i + 2);
        if (level >= 0) {
          i = closeLong(src, i + 2, level);
        } else {
          int nl = src.indexOf('\n', i);
          i = nl < 0 ? n : nl;
        }
        continue;
      }
      String literal = null;
      int level = c == '[' ? longBracket(src, i) : -1;
      if (level >= 0) {
        int end = closeLong(src, i, level);
        literal = src.substring(Math.min(end, i + level + 2), Math.max(i + level + 2, end - level - 2));
        i = end;
      } else if (c == '\'' || c == '"') {
        StringBuilder s = new StringBuilder();
        int j = i + 1;
        while (j < n && src.charAt(j) != c && src.charAt(j) != '\n') {
          if (src.charAt(j) == '\\' && j + 1 < n) {
            j++;
          }
          s.append(src.charAt(j));
          j++;
        }
        literal = s.toString();
        i = j + 1;
      }
      if (literal == null) {
        code.append(c);
        i++;
        continue;
      }
      if (REQUIRE.matcher(code).find()) {
        out.add(literal);
      }
      Matcher v = V_LUA.matcher(literal);
      while (v.find()) {
        out.add(v.group(1));
      }
      code.setLength(0);
      code.append(' ');
    }
    return out;
  }

  /** The level of a long bracket ([[ = 0, [=[ = 1, ...) opening at {@code i}, or -1. */
  private static int longBracket(String s, int i) {
    if (i >= s.length() || s.charAt(i) != '[') {
      return -1;
    }
    int j = i + 1;
    while (j < s.length() && s.charAt(j) == '=') {
      j++;
    }
    return j < s.length() && s.charAt(j) == '[' ? j - i - 1 : -1;
  }

  /** Past the long bracket of {@code level} that closes the one opening at {@code i}. */
  private static int closeLong(String s, int i, int level) {
    String close = "]" + "=".repeat(level) + "]";
    int end = s.indexOf(close, i + level + 2);
    return end < 0 ? s.length() : end + close.length();
  }

  /** One cycle per strongly connected component of more than one module, as "a -> b -> a". */
  static List<String> cycles(Map<String, TreeSet<String>> g) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    List<List<String>> components = new ArrayList<>();
    int[] next = {0};
    for (String v : g.keySet()) {
      if (!index.containsKey(v)) {
        connect(v, g, index, low, stack, components, next);
      }
    }
    List<String> out = new ArrayList<>();
    for (List<String> comp : components) {
      if (comp.size() > 1) {
        List<String> cycle = cycleIn(comp, g);
        out.add(String.join(" -> ", cycle) + (cycle.size() - 1 < comp.size() ? " (" + comp.size() + " modules tied: "
            + String.join(", ", new TreeSet<>(comp)) + ")" : ""));
      }
    }
    return out;
  }

  // Tarjan's algorithm, with an explicit stack of iterators: no recursion limit to meet.
  private static void connect(String root, Map<String, TreeSet<String>> g, Map<String, Integer> index,
      Map<String, Integer> low, Deque<String> stack, List<List<String>> components, int[] next) {
    Deque<Object[]> work = new ArrayDeque<>();
    index.put(root, next[0]);
    low.put(root, next[0]++);
    stack.push(root);
    work.push(new Object[] {root, g.getOrDefault(root, new TreeSet<>()).iterator()});
    while (!work.isEmpty()) {
      Object[] top = work.peek();
      String v = (String) top[0];
      @SuppressWarnings("unchecked")
      java.util.Iterator<String> it = (java.util.Iterator<String>) top[1];
      if (it.hasNext()) {
        String w = it.next();
        if (!g.containsKey(w)) {
          continue;
        }
        if (!index.containsKey(w)) {
          index.put(w, next[0]);
          low.put(w, next[0]++);
          stack.push(w);
          work.push(new Object[] {w, g.get(w).iterator()});
        } else if (stack.contains(w)) {
          low.put(v, Math.min(low.get(v), index.get(w)));
        }
        continue;
      }
      work.pop();
      if (!work.isEmpty()) {
        String parent = (String) work.peek()[0];
        low.put(parent, Math.min(low.get(parent), low.get(v)));
      }
      if (low.get(v).equals(index.get(v))) {
        List<String> comp = new ArrayList<>();
        String w;
        do {
          w = stack.pop();
          comp.add(w);
        } while (!w.equals(v));
        components.add(comp);
      }
    }
  }

  /** A shortest cycle through the first module (by name) of a component: breadth first, inside it. */
  private static List<String> cycleIn(List<String> comp, Map<String, TreeSet<String>> g) {
    String start = new TreeSet<>(comp).first();
    Map<String, String> from = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>(List.of(start));
    while (!queue.isEmpty()) {
      String v = queue.poll();
      for (String w : g.get(v)) {
        if (!comp.contains(w)) {
          continue;
        }
        if (w.equals(start)) {
          List<String> cycle = new ArrayList<>(List.of(start));
          List<String> back = new ArrayList<>();
          for (String x = v; !x.equals(start); x = from.get(x)) {
            back.add(0, x);
          }
          cycle.addAll(back);
          cycle.add(start);
          return cycle;
        }
        if (!from.containsKey(w) && !w.equals(start)) {
          from.put(w, v);
          queue.add(w);
        }
      }
    }
    return List.of(start);
  }
}
