package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.testutil.Json;

class DiffCommandTest {
  static final String V = "INPUTVERSION 2011";

  @TempDir Path dir;

  Path write(String name, String... lines) throws Exception {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, String.join("\n", lines) + "\n", StandardCharsets.ISO_8859_1);
    return p;
  }

  static String node(String id, String x) {
    return String.format("NODE  / %8s%16s%16s%16s", id, x, "0.", "0.");
  }

  @Test
  void theSameModelExitsWith0AndADifferentOneWith1() throws Exception {
    Path a = write("a.pc", V, node("1", "0."), node("2", "1.5"), "$ a comment");
    Path b = write("b.pc", V, "$#         IDNOD               X", String.format("NODE  / %-8s%-16s", "2", "1.50E0"),
        "INCLU / more.inc");
    write("more.inc", String.format("NODE  / %8s%16s", "1", "0.0"));
    CliRun same = CliRun.of("diff", a.toString(), b.toString());
    assertEquals(0, same.code(), same.err());
    assertEquals("moved: 1 card from " + a + " to " + dir.resolve("more.inc") + "\n", same.out());
    assertTrue(same.err().contains("0 changed (0 fields), 0 added, 0 removed, 1 moved between files"), same.err());

    Path c = write("c.pc", V, node("1", "0.5"), node("3", "1.5"));
    CliRun diff = CliRun.of("diff", a.toString(), c.toString());
    assertEquals(1, diff.code(), diff.err());
    assertEquals(String.join("\n",
        c + ":2: changed NODE 1 X: 0. -> 0.5 (was " + a + ":2)",
        c + ":3: added NODE 3",
        a + ":3: removed NODE 2", ""), diff.out());
  }

  @Test
  void theToleranceMakesCloseFloatsEqual() throws Exception {
    Path a = write("a.pc", V, node("1", "100."));
    Path b = write("b.pc", V, node("1", "100.001"));
    assertEquals(1, CliRun.of("diff", a.toString(), b.toString()).code());
    assertEquals(1, CliRun.of("diff", "--tol", "1e-6", a.toString(), b.toString()).code());
    assertEquals(0, CliRun.of("diff", "--tol", "1e-4", a.toString(), b.toString()).code());
  }

  @Test
  void errorsExitWith2NamingTheFile() throws Exception {
    Path a = write("a.pc", V, node("1", "0."));
    CliRun missing = CliRun.of("diff", a.toString(), dir.resolve("gone.pc").toString());
    assertEquals(2, missing.code());
    assertEquals("nvimpam diff: " + dir.resolve("gone.pc") + " not found\n", missing.err());
    assertEquals("", missing.out());

    Path inc = write("inc.pc", V, "INCLU / nowhere.inc");
    CliRun include = CliRun.of("diff", inc.toString(), a.toString());
    assertEquals(2, include.code());
    assertTrue(include.err().startsWith("nvimpam diff: inc.pc:2: include file nowhere.inc not found"), include.err());
    assertFalse(include.err().contains("Exception"), include.err());

    Files.createDirectories(dir.resolve("folder.pc"));
    assertEquals(2, CliRun.of("diff", a.toString(), dir.resolve("folder.pc").toString()).code());
    assertEquals(2, CliRun.of("diff", a.toString()).code(), "NEW missing");
    assertEquals(2, CliRun.of("diff", "--tol", "-1", a.toString(), a.toString()).code());
    assertEquals(2, CliRun.of("diff", "--format", "xml", a.toString(), a.toString()).code());
  }

  @Test
  @SuppressWarnings("unchecked")
  void jsonIsParsedBack() throws Exception {
    Path a = write("a.pc", V, node("1", "0."), node("2", "1.5"), "GROUP /        doors", "NAME doors");
    Path b = write("b.pc", V, node("1", "0.25"), "GROUP /        doors", "NAME doors", "INCLU / sub/two.inc");
    write("sub/two.inc", node("2", "1.5"));
    CliRun r = CliRun.of("diff", "--format", "json", a.toString(), b.toString());
    assertEquals(1, r.code(), r.err());
    Map<String, Object> j = (Map<String, Object>) Json.parse(r.out());
    assertEquals(a.toString(), j.get("old"));
    assertEquals(b.toString(), j.get("new"));
    assertEquals(false, j.get("same"));
    assertEquals(List.of(), j.get("added"));
    assertEquals(List.of(), j.get("removed"));
    List<Object> changed = (List<Object>) j.get("changed");
    assertEquals(1, changed.size());
    Map<String, Object> c = (Map<String, Object>) changed.get(0);
    assertEquals("NODE 1", c.get("card"));
    assertEquals("NODE", c.get("keyword"));
    assertEquals("node", c.get("kind"));
    assertEquals("1", c.get("id"));
    assertEquals(Map.of("file", a.toString(), "line", 2L), c.get("old"));
    assertEquals(Map.of("file", b.toString(), "line", 2L), c.get("new"));
    assertEquals(List.of(Map.of("field", "X", "old", "0.", "new", "0.25", "old_at", Map.of("file", a.toString(), "line", 2L),
        "new_at", Map.of("file", b.toString(), "line", 2L))), c.get("fields"));
    List<Object> moved = (List<Object>) j.get("moved");
    assertEquals(List.of(Map.of("card", "NODE 2", "old", Map.of("file", a.toString(), "line", 3L),
        "new", Map.of("file", dir.resolve("sub/two.inc").toString(), "line", 1L))), moved);

    CliRun same = CliRun.of("diff", "--format", "json", a.toString(), a.toString());
    assertEquals(0, same.code());
    assertEquals(true, ((Map<String, Object>) Json.parse(same.out())).get("same"));
  }
}
