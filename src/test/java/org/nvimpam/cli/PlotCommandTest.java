package org.nvimpam.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plot}: its exit status and messages; the SVG itself is CurvesTest's. */
class PlotCommandTest {
  @TempDir Path dir;

  private Path deck() throws Exception {
    Files.writeString(dir.resolve("f.inc"), String.join("\n",
        "FUNCT /        9       0",
        "NAME included",
        "                              0.              1.",
        "                              5.             -1.",
        "        END",
        "FUNCT /       11       0",
        "NAME empty",
        "        END", ""), StandardCharsets.ISO_8859_1);
    Path p = dir.resolve("d.pc");
    Files.writeString(p, String.join("\n",
        "INPUTVERSION 2011",
        "INCLU / f.inc",
        "INCLU / missing.inc",
        "FUNCT /        7       0      2.",
        "NAME load",
        "                              0.              0.",
        "                              1.              1.",
        "        END", ""), StandardCharsets.ISO_8859_1);
    return p;
  }

  private static void noStackTrace(CliRun r) {
    assertFalse(r.err().contains("\tat "), r.err());
    assertFalse(r.out().contains("\tat "), r.out());
  }

  @Test
  void writesTheSvgOfCurvesInTheDeckAndItsIncludes() throws Exception {
    Path out = dir.resolve("p.svg");
    CliRun r = CliRun.of("plot", deck().toString(), "--function", "7,9", "-o", out.toString());
    assertEquals(0, r.code(), r.err());
    String svg = Files.readString(out);
    assertTrue(svg.contains("data-id=\"7\"") && svg.contains("data-id=\"9\""), svg);
    assertTrue(r.err().contains("missing.inc not found"), r.err()); // the tree's problems are told
    noStackTrace(r);
  }

  @Test
  void aFunctNotDefinedOrWithoutPointsIs1AndWritesNothing() throws Exception {
    Path out = dir.resolve("p.svg");
    Path d = deck();
    for (String ids : List.of("7,12", "11")) {
      CliRun r = CliRun.of("plot", d.toString(), "--function", ids, "-o", out.toString());
      assertEquals(1, r.code(), r.err());
      assertTrue(r.err().contains(ids.equals("11") ? "FUNCT 11 has no point" : "FUNCT 12 is not defined"), r.err());
      assertFalse(Files.exists(out));
      noStackTrace(r);
    }
  }

  @Test
  void badUsageAndUnreadableFilesAre2() throws Exception {
    Path d = deck();
    Path out = dir.resolve("p.svg");
    List<List<String>> cases = List.of(
        List.of("plot", d.toString(), "--function", "x", "-o", out.toString()),
        List.of("plot", d.toString(), "--function", "0", "-o", out.toString()),
        List.of("plot", d.toString(), "-o", out.toString()),
        List.of("plot", d.toString(), "--function", "7"),
        List.of("plot", "--function", "7", "-o", out.toString()),
        List.of("plot", dir.resolve("nope.pc").toString(), "--function", "7", "-o", out.toString()),
        List.of("plot", dir.toString(), "--function", "7", "-o", out.toString()),
        List.of("plot", d.toString(), "--function", "7", "-o", dir.resolve("no/such/p.svg").toString()),
        List.of("plot", d.toString(), "--bogus"));
    for (List<String> args : cases) {
      CliRun r = CliRun.of(args.toArray(String[]::new));
      assertEquals(2, r.code(), args + ": " + r.err());
      assertTrue(r.err().contains("nvimpam plot: ") || r.err().contains("Unknown option"), args + ": " + r.err());
      noStackTrace(r);
    }
    assertFalse(Files.exists(out));
  }
}
