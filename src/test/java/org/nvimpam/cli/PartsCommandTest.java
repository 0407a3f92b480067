package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.testutil.DeckText;
import org.nvimpam.testutil.Json;

/** {@code nvimpam parts}: the JSON parsed back, text and CSV, exit status and errors. */
class PartsCommandTest {
  @TempDir Path dir;

  /** A plate of 2 × 1 quads (200 × 100, t 2, rho 7.85e-9), a cube of tetrahedra with no density, a MASS, an NSMAS. */
  private Path deck() throws Exception {
    DeckText d = new DeckText(2011);
    d.mater(1, 103, 7.85e-9, "steel");
    d.mater(2, 1, 0, "none");
    d.shellPart(10, 1, 2, "plate, front");
    d.part(20, "TETRA", 2, null, "block", "    0", "    0");
    int[] n = new int[6];
    for (int k = 0; k < 6; k++) n[k] = d.node(100 * (k % 3), 100 * (k / 3), 0);
    d.shell(10, n[0], n[1], n[4], n[3], Double.NaN);
    d.shell(10, n[1], n[2], n[5], n[4], Double.NaN);
    int a = d.node(0, 0, 10), b = d.node(1, 0, 10), c = d.node(0, 1, 10), e = d.node(0, 0, 11);
    d.solid("TETR4", 20, a, b, c, e);
    d.line("MASS  / " + DeckText.i(8, n[5]) + DeckText.i(8, 0));
    d.line("NAME lump");
    d.line("        " + DeckText.f(16, 0.5) + DeckText.f(16, 0.5) + DeckText.f(16, 0.5));
    d.line("");
    d.line("        END");
    d.line("NSMAS / " + DeckText.i(8, 3) + DeckText.f(16, 1.5));
    d.line("NAME paint");
    d.line("        PART 10");
    d.line("        END");
    Path p = dir.resolve("deck.pc");
    Files.writeString(p, d.text(), StandardCharsets.ISO_8859_1);
    return p;
  }

  @Test
  void jsonParsesBackWithEveryKey() throws Exception {
    Path p = deck();
    CliRun r = CliRun.of("parts", "--format", "json", p.toString());
    assertEquals(1, r.code(), r.err()); // the block has no density
    Map<?, ?> doc = (Map<?, ?>) Json.parse(r.out());
    assertEquals(List.of("parts", "masses", "not_included", "total"), new ArrayList<>(doc.keySet()));
    List<?> parts = (List<?>) doc.get("parts");
    assertEquals(2, parts.size());
    Map<?, ?> plate = (Map<?, ?>) parts.get(0);
    assertEquals(List.of("id", "name", "type", "material", "elements", "nodes", "thickness", "mass", "reason", "cog", "bbox"),
        new ArrayList<>(plate.keySet()));
    assertEquals(10L, plate.get("id"));
    assertEquals("plate, front", plate.get("name"));
    assertEquals("SHELL", plate.get("type"));
    assertEquals(1L, plate.get("material"));
    assertEquals(2L, plate.get("elements"));
    assertEquals(6L, plate.get("nodes"));
    assertEquals(2.0, ((Number) plate.get("thickness")).doubleValue());
    double m = 200 * 100 * 2 * 7.85e-9;
    assertEquals(m, ((Number) plate.get("mass")).doubleValue(), 1e-9 * m);
    assertNull(plate.get("reason"));
    assertEquals(List.of(100.0, 50.0, 0.0), doubles(plate.get("cog")));
    List<?> bbox = (List<?>) plate.get("bbox");
    assertEquals(List.of(0.0, 0.0, 0.0), doubles(bbox.get(0)));
    assertEquals(List.of(200.0, 100.0, 0.0), doubles(bbox.get(1)));
    Map<?, ?> block = (Map<?, ?>) parts.get(1);
    assertNull(block.get("mass"));
    assertNull(block.get("cog"));
    assertEquals("material 2 has no density", block.get("reason"));
    List<?> masses = (List<?>) doc.get("masses");
    Map<?, ?> lump = (Map<?, ?>) masses.get(0);
    assertEquals("lump", lump.get("name"));
    assertEquals(0.5, ((Number) lump.get("mass")).doubleValue());
    assertEquals(List.of(200.0, 100.0, 0.0), doubles(lump.get("cog")));
    Map<?, ?> total = (Map<?, ?>) doc.get("total");
    assertEquals(m + 0.5, ((Number) total.get("mass")).doubleValue(), 1e-9 * (m + 0.5));
    List<Double> cog = doubles(total.get("cog"));
    assertEquals((m * 100 + 0.5 * 200) / (m + 0.5), cog.get(0), 1e-9 * 200);
    List<?> left = (List<?>) doc.get("not_included");
    Map<?, ?> ns = (Map<?, ?>) left.get(0);
    assertEquals(p.toString(), ns.get("file"));
    assertTrue(((String) ns.get("what")).startsWith("NSMAS"));
    assertTrue(((String) ns.get("text")).startsWith("NSMAS / "));
    assertTrue(((Number) ns.get("line")).longValue() > 1);
  }

  private static List<Double> doubles(Object o) {
    List<Double> out = new ArrayList<>();
    for (Object x : (List<?>) o) out.add(((Number) x).doubleValue());
    return out;
  }

  @Test
  void textHasOneLinePerPartAndTheTotalLast() throws Exception {
    CliRun r = CliRun.of("parts", deck().toString());
    String[] lines = r.out().split("\n");
    assertTrue(lines[0].trim().startsWith("ID  NAME"), lines[0]);
    assertTrue(lines[0].contains("MASS") && lines[0].contains("COG_X") && lines[0].contains("ZMAX"), lines[0]);
    assertTrue(lines[1].trim().startsWith("10  plate, front"), lines[1]);
    assertTrue(lines[2].contains("no mass: material 2 has no density"), lines[2]);
    assertTrue(lines[3].trim().startsWith("MASS  lump"), lines[3]);
    assertTrue(lines[4].startsWith("not included: "), lines[4]);
    assertTrue(lines[lines.length - 1].startsWith("TOTAL"), lines[lines.length - 1]);
    assertTrue(lines[lines.length - 1].contains("units: the deck's own, no conversion"));
  }

  @Test
  void csvHasARowPerPartMassAndTotal() throws Exception {
    CliRun r = CliRun.of("parts", "--format", "csv", deck().toString());
    String[] lines = r.out().split("\n");
    assertEquals(5, lines.length, r.out());
    assertTrue(lines[1].startsWith("part,10,\"plate, front\",SHELL,1,2,6,2.0,"), lines[1]);
    assertTrue(lines[3].startsWith("mass,"), lines[3]);
    assertTrue(lines[4].startsWith("total,"), lines[4]);
    for (String l : lines) assertEquals(19, l.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1).length, l);
  }

  @Test
  void everyMassComputedExitsZero() throws Exception {
    DeckText d = new DeckText(2011);
    d.mater(1, 103, 1, "m");
    d.shellPart(1, 1, 1, "p");
    d.shell(1, d.node(0, 0, 0), d.node(1, 0, 0), d.node(1, 1, 0), 0, Double.NaN);
    Path p = dir.resolve("ok.pc");
    Files.writeString(p, d.text(), StandardCharsets.ISO_8859_1);
    CliRun r = CliRun.of("parts", "--format", "json", p.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals(0.5, ((Number) ((Map<?, ?>) ((Map<?, ?>) Json.parse(r.out())).get("total")).get("mass")).doubleValue());
  }

  @Test
  void aDeckThatCannotBeReadIsExitTwoWithoutAStackTrace() {
    CliRun r = CliRun.of("parts", dir.resolve("missing.pc").toString());
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("nvimpam parts: "), r.err());
    assertFalse(r.err().contains("Exception"), r.err());
    assertEquals("", r.out());
    CliRun none = CliRun.of("parts");
    assertEquals(2, none.code());
    assertTrue(none.err().contains("no DECK given"), none.err());
    CliRun bad = CliRun.of("parts", "--format", "xml", dir.resolve("missing.pc").toString());
    assertEquals(2, bad.code());
  }
}
