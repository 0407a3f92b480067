package org.nvimpam.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgChartTest {
  private static final String[] STRATEGIES = {"lua", "pipelined", "a<b&c"};

  private static List<BenchResult> results() {
    List<BenchResult> results = new ArrayList<>();
    long[] folds = {10, 1_000, 100_000};
    for (int d = 0; d < folds.length; d++) {
      for (int s = 0; s < STRATEGIES.length; s++) {
        double ms = folds[d] * 0.002 * (s + 1);
        results.add(new BenchResult("deck" + d, folds[d] * 10, folds[d] * 600, folds[d], 1, 1,
            STRATEGIES[s], ms, ms, ms, 100, folds[d] * 0.0015));
      }
    }
    return results;
  }

  private static Document parse(String svg) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory.newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void isWellFormedSvgWithOneSeriesPerStrategyAndADashedFloor() throws Exception {
    Document doc = parse(SvgChart.render(results()));
    assertEquals("svg", doc.getDocumentElement().getLocalName());
    List<String> strategies = new ArrayList<>();
    NodeList groups = doc.getElementsByTagName("g");
    Element floor = null;
    for (int i = 0; i < groups.getLength(); i++) {
      Element g = (Element) groups.item(i);
      if (g.getAttribute("class").equals("series")) {
        strategies.add(g.getAttribute("data-strategy"));
        Element line = (Element) g.getElementsByTagName("polyline").item(0);
        assertEquals(3, line.getAttribute("points").split(" ").length, "one point per deck");
      }
      if (g.getAttribute("class").equals("floor")) floor = g;
    }
    assertEquals(List.of(STRATEGIES), strategies);
    assertTrue(floor != null, "floor series");
    Element floorLine = (Element) floor.getElementsByTagName("polyline").item(0);
    assertTrue(!floorLine.getAttribute("stroke-dasharray").isEmpty(), "floor is dashed");
  }

  @Test
  void labelsAxesDecadesAndLegend() throws Exception {
    Document doc = parse(SvgChart.render(results()));
    List<String> texts = new ArrayList<>();
    NodeList nodes = doc.getElementsByTagName("text");
    for (int i = 0; i < nodes.getLength(); i++) texts.add(nodes.item(i).getTextContent());
    for (String label : List.of("folds", "ms to apply", "10", "1k", "100k", "0.01", "1", "100",
        "lua", "pipelined", "a<b&c", "floor: Lua loop in Neovim")) {
      assertTrue(texts.contains(label), "missing text " + label + " in " + texts);
    }
    assertTrue(texts.stream().anyMatch(t -> t.startsWith("Time to apply folds")), "title");
  }

  @Test
  void decadeLabelsReadAsNumbers() {
    assertEquals("0.001", SvgChart.decadeLabel(-3));
    assertEquals("1", SvgChart.decadeLabel(0));
    assertEquals("100", SvgChart.decadeLabel(2));
    assertEquals("10k", SvgChart.decadeLabel(4));
    assertEquals("1M", SvgChart.decadeLabel(6));
  }

  @Test
  void refusesResultsThatCannotBePlottedOnALogScale() {
    BenchResult zero = new BenchResult("d", 1, 1, 0, 1, 1, "lua", 0, 0, 0, 0, Double.NaN);
    assertThrows(IllegalArgumentException.class, () -> SvgChart.render(List.of(zero)));
  }
}
