package org.nvimpam.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/PACKAGES.md is true of the code: its graph is the packages' dependencies as the sources
 * name them (imports and names written out in code, comments left out), every package has its
 * row, the graph has no cycle, and the product never depends on its tools.
 */
class PackagesTest {
  private static final Path SOURCES = Path.of("src/main/java/org/nvimpam");
  private static final Path DOC = Path.of("docs/PACKAGES.md");
  /** The tools: they use the product; the product never uses them. */
  private static final Set<String> TOOLS = Set.of("gen", "bench", "soak", "cli");
  private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
  private static final Pattern NAMED = Pattern.compile("\\borg\\.nvimpam\\.([a-z]+)\\.");

  /** Package -> the packages its sources name, from the sources. */
  static SortedMap<String, SortedSet<String>> graph() throws IOException {
    SortedMap<String, SortedSet<String>> graph = new TreeMap<>();
    try (Stream<Path> dirs = Files.list(SOURCES)) {
      for (Path dir : (Iterable<Path>) dirs.filter(Files::isDirectory).sorted()::iterator) {
        String pkg = dir.getFileName().toString();
        SortedSet<String> uses = new TreeSet<>();
        try (Stream<Path> files = Files.walk(dir)) {
          for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
            String code = COMMENT.matcher(Files.readString(f)).replaceAll("");
            Matcher m = NAMED.matcher(code);
            while (m.find()) {
              if (!m.group(1).equals(pkg)) {
                uses.add(m.group(1));
              }
            }
          }
        }
        graph.put(pkg, uses);
      }
    }
    return graph;
  }

  /** The graph block as docs/PACKAGES.md shows it. */
  static String render(SortedMap<String, SortedSet<String>> graph) {
    int width = graph.keySet().stream().mapToInt(String::length).max().orElse(0);
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, SortedSet<String>> e : graph.entrySet()) {
      out.append(String.format("%-" + width + "s -> %s%n", e.getKey(),
          e.getValue().isEmpty() ? "(none)" : String.join(" ", e.getValue())));
    }
    return out.toString();
  }

  @Test
  void theDocumentedGraphIsTheSourcesGraph() throws IOException {
    String doc = Files.readString(DOC);
    String head = "<!-- graph: checked by PackagesTest -->\n```\n";
    int from = doc.indexOf(head);
    assertTrue(from >= 0, "docs/PACKAGES.md has no graph block");
    from += head.length();
    assertEquals(render(graph()), doc.substring(from, doc.indexOf("```", from)),
        "docs/PACKAGES.md's graph differs from the sources' dependencies");
  }

  @Test
  void everyPackageHasItsRow() throws IOException {
    String doc = Files.readString(DOC);
    List<String> missing = new ArrayList<>();
    for (String pkg : graph().keySet()) {
      if (!doc.contains("\n| `" + pkg + "` |")) {
        missing.add(pkg);
      }
    }
    assertEquals(List.of(), missing, "packages without a row in docs/PACKAGES.md");
  }

  @Test
  void theProductNeverUsesItsTools() throws IOException {
    List<String> up = new ArrayList<>();
    graph().forEach((pkg, uses) -> {
      if (!TOOLS.contains(pkg)) {
        uses.stream().filter(TOOLS::contains).forEach(t -> up.add(pkg + " -> " + t));
      }
    });
    assertEquals(List.of(), up);
  }

  @Test
  void theGraphHasNoCycle() throws IOException {
    SortedMap<String, SortedSet<String>> graph = graph();
    for (String start : graph.keySet()) {
      // Every package reachable from start, by a walk over the edges; start among them is a cycle.
      Set<String> seen = new TreeSet<>();
      List<String> todo = new ArrayList<>(graph.get(start));
      while (!todo.isEmpty()) {
        String p = todo.remove(todo.size() - 1);
        if (seen.add(p)) {
          todo.addAll(graph.getOrDefault(p, new TreeSet<>()));
        }
      }
      assertTrue(!seen.contains(start), start + " depends on itself through " + seen);
    }
  }
}
