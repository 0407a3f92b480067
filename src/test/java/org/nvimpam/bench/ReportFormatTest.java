package org.nvimpam.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportFormatTest {
  private static final BenchResult LUA = new BenchResult(
      "example.pc", 20586, 1_234_567, 23, 4.5, 12.3456, "lua", 2.0004, 1.5, 3.25, 4096, 1.6);
  private static final BenchResult ODD = new BenchResult(
      "deck \"a\", b\\c\n", 7, 70, 1, 0.1, 0.2, "pipe,chunked", 10, 9, 11, 100, Double.NaN);
  private static final BenchReport REPORT =
      new BenchReport("v0.7.2", "17.0.15+6", "2 cores, Debian 12", List.of(LUA, ODD));

  private static String write(ReportFormat format) throws IOException {
    StringBuilder out = new StringBuilder();
    REPORT.write(format, out);
    return out.toString();
  }

  @Test
  void csvHasAHeaderRowAndOneQuotedRowPerResult() throws IOException {
    String csv = write(ReportFormat.CSV);
    assertEquals(
        "deck,lines,bytes,folds,get_lines_ms,parse_ms,strategy,median_ms,min_ms,max_ms,bytes_sent,floor_ms\n"
            + "example.pc,20586,1234567,23,4.5,12.346,lua,2,1.5,3.25,4096,1.6\n"
            + "\"deck \"\"a\"\", b\\c\n\",7,70,1,0.1,0.2,\"pipe,chunked\",10,9,11,100,\n",
        csv);
  }

  @Test
  void jsonHasTheDocumentedShape() throws IOException {
    Object parsed = new MiniJson(write(ReportFormat.JSON)).parse();
    @SuppressWarnings("unchecked")
    Map<String, Object> top = (Map<String, Object>) parsed;
    assertEquals(List.of("nvim", "java", "results"), new ArrayList<>(top.keySet()));
    assertEquals("v0.7.2", top.get("nvim"));
    assertEquals("17.0.15+6", top.get("java"));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> results = (List<Map<String, Object>>) top.get("results");
    assertEquals(2, results.size());
    Map<String, Object> first = results.get(0);
    assertEquals(List.of("deck", "lines", "bytes", "folds", "get_lines_ms", "parse_ms", "strategy",
        "median_ms", "min_ms", "max_ms", "bytes_sent", "floor_ms"), new ArrayList<>(first.keySet()));
    assertEquals("example.pc", first.get("deck"));
    assertEquals(20586.0, first.get("lines"));
    assertEquals(12.346, first.get("parse_ms"));
    assertEquals(2.0, first.get("median_ms"));
    assertEquals("lua", first.get("strategy"));
    Map<String, Object> odd = results.get(1);
    assertEquals("deck \"a\", b\\c\n", odd.get("deck"), "escaping round-trips");
    assertNull(odd.get("floor_ms"), "no floor measured");
    assertTrue(odd.containsKey("floor_ms"));
  }

  @Test
  void jsonOfNoResultsIsAnEmptyList() throws IOException {
    StringBuilder out = new StringBuilder();
    new BenchReport("v", "j", "m", List.of()).write(ReportFormat.JSON, out);
    assertEquals("{\"nvim\": \"v\", \"java\": \"j\", \"results\": []}\n", out.toString());
  }

  @Test
  void tableAlignsColumnsAndShowsTheRatioToTheFloor() throws IOException {
    String[] lines = write(ReportFormat.TABLE).split("\n");
    assertEquals("Neovim v0.7.2, Java 17.0.15+6, 2 cores, Debian 12", lines[0]);
    String header = lines[1];
    String lua = lines[2];
    // Text columns start where their heading starts.
    assertEquals(header.indexOf("strategy"), lua.indexOf("lua"));
    // Number columns end where their heading ends.
    int medianEnd = header.indexOf("median ms") + "median ms".length();
    assertEquals(medianEnd, lua.indexOf("2.000") + "2.000".length());
    assertTrue(lua.endsWith("1.25"), "2.0004 / 1.6: " + lua);
    assertTrue(write(ReportFormat.TABLE).contains(" -"), "NaN floor shows as -");
  }

  /** Just enough JSON to read the report back: objects keep their key order; numbers are doubles. */
  private static final class MiniJson {
    private final String s;
    private int i;

    MiniJson(String s) {
      this.s = s;
    }

    Object parse() {
      Object v = value();
      skip();
      assertEquals(s.length(), i, "trailing text");
      return v;
    }

    private Object value() {
      skip();
      char c = s.charAt(i);
      if (c == '{') {
        Map<String, Object> map = new LinkedHashMap<>();
        i++;
        skip();
        if (s.charAt(i) == '}') { i++; return map; }
        do {
          skip();
          String key = string();
          skip();
          expect(':');
          map.put(key, value());
          skip();
        } while (s.charAt(i++) == ',');
        assertEquals('}', s.charAt(i - 1));
        return map;
      }
      if (c == '[') {
        List<Object> list = new ArrayList<>();
        i++;
        skip();
        if (s.charAt(i) == ']') { i++; return list; }
        do {
          list.add(value());
          skip();
        } while (s.charAt(i++) == ',');
        assertEquals(']', s.charAt(i - 1));
        return list;
      }
      if (c == '"') return string();
      if (s.startsWith("null", i)) { i += 4; return null; }
      int start = i;
      while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
      return Double.parseDouble(s.substring(start, i));
    }

    private String string() {
      expect('"');
      StringBuilder b = new StringBuilder();
      for (char c = s.charAt(i++); c != '"'; c = s.charAt(i++)) {
        if (c != '\\') { b.append(c); continue; }
        char e = s.charAt(i++);
        switch (e) {
          case 'n' -> b.append('\n');
          case 't' -> b.append('\t');
          case 'r' -> b.append('\r');
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'u' -> { b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; }
          default -> b.append(e);
        }
      }
      return b.toString();
    }

    private void expect(char c) {
      assertEquals(c, s.charAt(i++), "at " + (i - 1));
    }

    private void skip() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }
  }
}
