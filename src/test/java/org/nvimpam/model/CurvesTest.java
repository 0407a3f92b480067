package org.nvimpam.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.FieldValues;
import org.nvimpam.testutil.FunctDecks;
import org.nvimpam.testutil.FunctDecks.Funct;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** FUNCT curves read from decks and include trees, and their SVG parsed back. */
class CurvesTest {
  @TempDir Path dir;

  private final Curves curves = new Curves(CardLayouts.bundled());

  private Path write(String name, List<String> lines) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, String.join("\n", lines) + "\n", StandardCharsets.ISO_8859_1);
    return p;
  }

  private static double number(String s) {
    byte[] a = s.getBytes(StandardCharsets.ISO_8859_1);
    return FieldValues.number(a, 0, a.length);
  }

  @Test
  void floatFormsReadAsTheSolverReadsThem() {
    assertEquals(0, number("        "));
    assertEquals(1.5, number("  1.5"));
    assertEquals(1.0, number("1."));
    assertEquals(500, number(".5E3"));
    assertEquals(0.0015, number("1.5D-3"), 1e-18);
    assertEquals(0.0015, number("1.5-3"), 1e-18);
    assertEquals(-150, number("-1.5+2"));
    assertEquals(7, number("7"));
    assertEquals(2.5, number("2.5E"));
    assertEquals(2.5, number("2.5D-"));
    assertTrue(Double.isNaN(number("<PARAM>")));
    assertTrue(Double.isNaN(number("1.2.3")));
    assertTrue(Double.isNaN(number(".")));
  }

  /** Scaled first, then shifted: x = 3, SCALX 2, SHIFTX 10 is 16 (shifted first it would be 26). */
  @Test
  void scaledThenShifted() throws Exception {
    Path deck = write("d.pc", List.of("INPUTVERSION 2011",
        "FUNCT /        5       0      2.     -3.     10.    100.",
        "NAME scaled",
        "                              3.              4.",
        "        END"));
    Curves.Curve c = curves.find(deck, Set.of(5)).curves().get(5);
    assertEquals(16, c.x(0));
    assertEquals(88, c.y(0));
    assertEquals("scaled", c.title());
  }

  /** Blank and zero scale factors are 1, blank shifts 0. */
  @Test
  void blankFactors() throws Exception {
    Path deck = write("d.pc", List.of("INPUTVERSION 2011",
        "FUNCT /        5       0      0.",
        "NAME blank",
        "                              3.              4.",
        "        END"));
    Curves.Curve c = curves.find(deck, Set.of(5)).curves().get(5);
    assertEquals(3, c.x(0));
    assertEquals(4, c.y(0));
  }

  /**
   * Random FUNCTs over a deck and two include files (one in a subfolder, found from the deck's
   * folder): every one is found, with its points, factors and title as written.
   */
  @Test
  void randomFunctsInAnIncludeTree() throws Exception {
    for (long seed = 1; seed <= 30; seed++) {
      Random r = new Random(seed);
      Path d = Files.createDirectories(dir.resolve("s" + seed));
      Files.createDirectories(d.resolve("sub"));
      List<List<String>> files = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
      files.get(0).add("INPUTVERSION 2011");
      files.get(0).add("INCLU / sub/a.inc");
      files.get(1).add("INCLU / b.inc"); // resolved against the root deck's folder
      Map<Integer, Funct> all = new HashMap<>();
      for (int id = 1; id <= 12; id++) {
        Funct f = FunctDecks.random(r, id * 7, 40);
        all.put(f.id(), f);
        files.get(r.nextInt(3)).addAll(f.lines());
        if (r.nextBoolean()) files.get(r.nextInt(3)).add("NODE  /        1              0.              0.              0.");
      }
      Path deck = write("s" + seed + "/top.pc", files.get(0));
      write("s" + seed + "/sub/a.inc", files.get(1));
      write("s" + seed + "/b.inc", files.get(2));
      Curves.Found found = curves.find(deck, all.keySet());
      assertTrue(found.problems().isEmpty(), found.problems().toString());
      for (Funct f : all.values()) {
        Curves.Curve c = found.curves().get(f.id());
        assertNotNull(c, "seed " + seed + ": FUNCT " + f.id());
        assertEquals(f.title(), c.title());
        assertEquals(f.xs().length, c.size(), "seed " + seed + ": FUNCT " + f.id());
        for (int i = 0; i < c.size(); i++) {
          assertEquals(f.x(i), c.x(i), 1e-12 * Math.max(1, Math.abs(f.x(i))), "seed " + seed + " FUNCT " + f.id() + " x" + i);
          assertEquals(f.y(i), c.y(i), 1e-12 * Math.max(1, Math.abs(f.y(i))), "seed " + seed + " FUNCT " + f.id() + " y" + i);
        }
      }
    }
  }

  private static Document parse(String svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  private static List<Element> byClass(Document d, String tag, String cls) {
    List<Element> out = new ArrayList<>();
    NodeList l = d.getElementsByTagName(tag);
    for (int i = 0; i < l.getLength(); i++) {
      Element e = (Element) l.item(i);
      if (e.getAttribute("class").equals(cls)) out.add(e);
    }
    return out;
  }

  private static double attr(Element e, String name) {
    return Double.parseDouble(e.getAttribute(name));
  }

  /**
   * The SVG of random curves, parsed back with an XML parser: its axes, the minimum and maximum of
   * X and Y, tick labels at their places, a title per curve, and each polyline's points, mapped
   * back through the frame, are the curve's points as the solver uses them (scaled, then shifted).
   */
  @Test
  void svgParsedBack() throws Exception {
    for (long seed = 1; seed <= 40; seed++) {
      Random r = new Random(seed);
      List<String> lines = new ArrayList<>(List.of("INPUTVERSION 2011"));
      Set<Integer> ids = new LinkedHashSet<>();
      Map<Integer, Funct> all = new HashMap<>();
      int n = 1 + r.nextInt(4);
      for (int k = 0; k < n; k++) {
        Funct f = FunctDecks.random(r, 100 + k, 25);
        lines.addAll(f.lines());
        ids.add(f.id());
        all.put(f.id(), f);
      }
      Path deck = write("svg" + seed + ".pc", lines);
      Curves.Found found = curves.find(deck, ids);
      List<Curves.Curve> list = new ArrayList<>();
      for (int id : ids) list.add(found.curves().get(id));
      Document d = parse(CurveSvg.render(list));
      // the box, from the test's own values
      double x0 = Double.POSITIVE_INFINITY, x1 = Double.NEGATIVE_INFINITY, y0 = x0, y1 = x1;
      for (Funct f : all.values()) {
        for (int i = 0; i < f.xs().length; i++) {
          x0 = Math.min(x0, f.x(i));
          x1 = Math.max(x1, f.x(i));
          y0 = Math.min(y0, f.y(i));
          y1 = Math.max(y1, f.y(i));
        }
      }
      if (x0 == x1) {
        double w = x0 == 0 ? 1 : Math.abs(x0) * 0.5;
        x0 -= w;
        x1 += w;
      }
      if (y0 == y1) {
        double w = y0 == 0 ? 1 : Math.abs(y0) * 0.5;
        y0 -= w;
        y1 += w;
      }
      Element frame = byClass(d, "rect", "plot").get(0);
      double left = attr(frame, "x");
      double top = attr(frame, "y");
      double width = attr(frame, "width");
      double height = attr(frame, "height");
      Element ax = byClass(d, "line", "axis x").get(0);
      assertEquals(top + height, attr(ax, "y1"));
      assertEquals(top + height, attr(ax, "y2"));
      assertEquals(left, attr(ax, "x1"));
      assertEquals(left + width, attr(ax, "x2"));
      Element ay = byClass(d, "line", "axis y").get(0);
      assertEquals(left, attr(ay, "x1"));
      assertEquals(left, attr(ay, "x2"));
      double[][] ends = {{x0, 0}, {x1, 0}, {y0, 0}, {y1, 0}};
      String[] names = {"min x", "max x", "min y", "max y"};
      for (int k = 0; k < 4; k++) {
        String t = byClass(d, "text", names[k]).get(0).getTextContent();
        assertTrue(t.startsWith(names[k].substring(0, 4)), t);
        double v = Double.parseDouble(t.substring(4));
        assertEquals(ends[k][0], v, 1e-5 * Math.abs(ends[k][0]) + 1e-300, "seed " + seed + " " + names[k]);
      }
      List<Element> xt = byClass(d, "text", "tick x");
      assertTrue(xt.size() >= 2, "seed " + seed + ": x ticks");
      for (Element t : xt) {
        double v = Double.parseDouble(t.getTextContent());
        assertTrue(v >= x0 - 1e-9 * Math.abs(x0) && v <= x1 + 1e-9 * Math.abs(x1), "tick " + v);
        assertEquals(left + (v - x0) / (x1 - x0) * width, attr(t, "x"), 0.002 + 1e-5 * width, "x tick " + v);
      }
      List<Element> yt = byClass(d, "text", "tick y");
      assertTrue(yt.size() >= 2, "seed " + seed + ": y ticks");
      for (Element t : yt) {
        double v = Double.parseDouble(t.getTextContent());
        assertEquals(top + height - (v - y0) / (y1 - y0) * height, attr(t, "y"), 0.002 + 1e-5 * height, "y tick " + v);
      }
      List<Element> titles = byClass(d, "text", "title");
      List<Element> polys = byClass(d, "polyline", "curve");
      assertEquals(n, titles.size());
      assertEquals(n, polys.size());
      Set<String> colours = new LinkedHashSet<>();
      for (int k = 0; k < n; k++) {
        Element p = polys.get(k);
        colours.add(p.getAttribute("stroke"));
        Funct f = all.get(Integer.parseInt(p.getAttribute("data-id")));
        assertTrue(titles.get(k).getTextContent().startsWith("FUNCT " + f.id() + "  " + f.title()));
        String[] pts = p.getAttribute("points").trim().split(" ");
        assertEquals(f.xs().length, pts.length);
        for (int i = 0; i < pts.length; i++) {
          String[] xy = pts[i].split(",");
          double x = x0 + (Double.parseDouble(xy[0]) - left) / width * (x1 - x0);
          double y = y0 + (top + height - Double.parseDouble(xy[1])) / height * (y1 - y0);
          assertEquals(f.x(i), x, 0.001 / width * (x1 - x0), "seed " + seed + " FUNCT " + f.id() + " point " + i);
          assertEquals(f.y(i), y, 0.001 / height * (y1 - y0), "seed " + seed + " FUNCT " + f.id() + " point " + i);
        }
      }
      assertEquals(n, colours.size(), "one colour per curve");
    }
  }
}
