package org.nvimpam.model.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.FieldType;
import org.nvimpam.deck.FieldValues;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.deck.RowLayout;
import org.nvimpam.deck.RowWalker;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.lines.Lines;

class DeckDiffTest {
  static final CardLayouts TABLE = CardLayouts.bundled();
  static final int VERSION = 2011;

  @TempDir Path dir;

  static List<String> generated(long seed, int lines) {
    String text = new String(new DeckGenerator(seed).generate(lines), StandardCharsets.ISO_8859_1);
    return new ArrayList<>(List.of(text.split("\n", -1)).subList(0, lines));
  }

  Path write(String name, List<String> lines) throws Exception {
    Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, String.join("\n", lines) + "\n", StandardCharsets.ISO_8859_1);
    return p;
  }

  DeckDiff.Result diff(Path a, Path b, double tol) throws Exception {
    return DeckDiff.compare(DeckDiff.index(DiffTree.read(a)), DeckDiff.index(DiffTree.read(b)), tol);
  }

  static boolean header(String l) {
    byte[] b = l.getBytes(StandardCharsets.ISO_8859_1);
    return LineBytes.headerWord(b, 0, b.length) != 0;
  }

  /** The deck as its control section and its cards, each card its lines. */
  static List<List<String>> cards(List<String> deck) {
    List<List<String>> out = new ArrayList<>();
    List<String> cur = new ArrayList<>();
    for (String l : deck) {
      if (header(l)) {
        out.add(cur);
        cur = new ArrayList<>();
      }
      cur.add(l);
    }
    out.add(cur);
    return out;
  }

  /**
   * Every value of every row a field layout describes moved within its columns, floats written in
   * another form the solver reads alike (1.5 as 1.50, 1.5E0, 15.D-1), blank numbers with no default
   * written as 0: what the solver reads stays, every line's bytes change.
   */
  static List<String> realign(List<String> deck, Random rnd) {
    Lines src = Lines.ofLatin1(deck.toArray(String[]::new));
    RowWalker w = new RowWalker(TABLE);
    int[] picks = TABLE.picks(VERSION);
    List<String> out = new ArrayList<>(deck);
    int i = 0;
    int n = src.lineCount();
    while (i < n) {
      int g = w.groupAt(src, i);
      if (g < 0) {
        i++;
        continue;
      }
      int e = picks[g] >= 0 ? picks[g] : TABLE.group(g)[0];
      CardLayout card = TABLE.entry(e);
      i = w.walkCard(src, i, e, (line, code) -> {
        if (code < 0) return;
        RowLayout row = card.rows().get(code);
        RowLayout.Kind k = row.kind();
        if (k != RowLayout.Kind.ROW && k != RowLayout.Kind.NAME && k != RowLayout.Kind.IF && k != RowLayout.Kind.REPEAT) return;
        out.set(line, realignLine(out.get(line), row, code == 0 ? base(card) : null, rnd));
      });
    }
    return out;
  }

  /**
   * {@code header}: the card, on its header row, whose select columns pick its variant by their
   * text (the table's rule): their numbers keep their digits there.
   */
  static String realignLine(String line, RowLayout row, CardLayout header, Random rnd) {
    StringBuilder b = new StringBuilder(line.length() > 80 ? line.substring(0, 80) : line);
    while (b.length() < 80) b.append(' ');
    for (FieldLayout f : row.fields()) {
      FieldType t = f.type();
      if (t == FieldType.KW || t == FieldType.FIXED || t == FieldType.BLANK || t == FieldType.CONT || f.to() > 80) continue;
      int from = f.from() - 1;
      int w = f.to() - from;
      String v = b.substring(from, f.to()).trim();
      if (v.isEmpty() && f.defaultValue() == null && (t == FieldType.FLOAT || t == FieldType.INT) && rnd.nextBoolean()) {
        v = t == FieldType.FLOAT ? "0." : "0";
      }
      if (t == FieldType.FLOAT && !v.isEmpty()) v = otherForm(v, w, rnd);
      boolean select = header != null && header.selectFrom() > 0 && f.from() <= header.selectTo() && f.to() >= header.selectFrom();
      if (t == FieldType.INT && !select && !v.isEmpty() && v.length() < w && rnd.nextBoolean() && v.charAt(0) != '-') v = "0" + v;
      int at = from + rnd.nextInt(w - v.length() + 1);
      for (int k = from; k < f.to(); k++) b.setCharAt(k, ' ');
      for (int k = 0; k < v.length(); k++) b.setCharAt(at + k, v.charAt(k));
    }
    String rest = line.length() > 80 ? line.substring(80) : "";
    String s = b.toString();
    return rest.isEmpty() ? s.stripTrailing() : s + rest;
  }

  /** The entry whose select columns pick a card's variant: the one keyed by the word alone. */
  static CardLayout base(CardLayout card) {
    for (CardLayout c : TABLE.entries()) {
      if (c.key().equals(card.word())) return c;
    }
    return card;
  }

  /** A float in another form the solver reads alike, when it fits its columns. */
  static String otherForm(String v, int width, Random rnd) {
    if (!v.matches("[+-]?[0-9]*\\.[0-9]*") || v.equals(".")) return v;
    String alt = switch (rnd.nextInt(3)) {
      case 0 -> v + "0";
      case 1 -> v + "E0";
      default -> {
        int dot = v.indexOf('.');
        String digits = v.substring(0, dot) + v.substring(dot + 1);
        int scale = v.length() - dot - 1; // v == digits * 10^-scale
        yield digits + ".D-" + scale;
      }
    };
    return alt.length() <= width ? alt : v;
  }

  /** Comments and $# lines before some cards, the cards shuffled, spread over {@code parts} files; returns the main file. */
  Path scatter(String name, List<String> deck, int parts, Random rnd) throws Exception {
    List<List<String>> cs = cards(deck);
    List<String> head = cs.remove(0);
    Collections.shuffle(cs, rnd);
    List<List<String>> files = new ArrayList<>();
    for (int k = 0; k < parts; k++) files.add(new ArrayList<>());
    files.get(0).addAll(head);
    for (List<String> c : cs) {
      List<String> f = files.get(rnd.nextInt(parts));
      if (rnd.nextInt(5) == 0) f.add(rnd.nextBoolean() ? "$ a comment " + rnd.nextInt(100) : "$#         IDNOD               X");
      f.addAll(c);
    }
    for (int k = 1; k < parts; k++) {
      String inc = name + "_" + k + ".inc";
      write(inc, files.get(k));
      List<String> main = files.get(0);
      int at = head.size() + rnd.nextInt(main.size() - head.size() + 1);
      while (at < main.size() && !header(main.get(at))) at++; // between cards
      main.add(at, "INCLU / " + inc);
    }
    return write(name + ".pc", files.get(0));
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void aDeckRealignedReorderedAndSplitIsTheSameModel(long seed) throws Exception {
    Random rnd = new Random(seed);
    List<String> deck = generated(seed, 3000);
    Path a = write("a.pc", deck);
    List<String> other = realign(deck, rnd);
    assertNotEquals(deck, other, "the realigned deck differs in bytes");
    Path b = scatter("b", other, 4, rnd);
    DeckDiff.Result r = diff(a, b, 0);
    assertEquals(List.of(), r.changed());
    assertEquals(List.of(), r.added());
    assertEquals(List.of(), r.removed());
    assertTrue(r.same());
    assertEquals(r.oldCards(), r.newCards());
    assertFalse(r.moved().isEmpty(), "cards in the include files moved there");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void oneMovedNodeOneDensityOneRemovedElementAreExactlyThoseThree(long seed) throws Exception {
    Random rnd = new Random(seed + 100);
    List<String> deck = generated(seed, 3000);
    Path a = write("a.pc", deck);
    List<String> edited = new ArrayList<>(deck);
    int node = indexOf(edited, "NODE  / ", rnd);
    String nl = edited.get(node);
    String nodeId = nl.substring(8, 16).trim();
    String x = nl.substring(16, 32).trim();
    String newX = String.format("%16.4f", Double.parseDouble(x) + 12.5);
    edited.set(node, nl.substring(0, 16) + newX + nl.substring(32));
    int mater = indexOf(edited, "MATER / ", rnd);
    String ml = String.format("%-80s", edited.get(mater));
    String matId = ml.substring(8, 16).trim();
    String rho = ml.substring(24, 40).trim();
    edited.set(mater, (ml.substring(0, 24) + String.format("%16s", "9.99E-6") + ml.substring(40)).stripTrailing());
    int shell = indexOf(edited, "SHELL / ", rnd);
    String shellId = edited.get(shell).substring(8, 16).trim();
    edited.remove(shell);
    Path b = scatter("b", realign(edited, rnd), 3, rnd);

    DeckDiff.Result r = diff(a, b, 0);
    assertEquals(List.of(), r.added());
    assertEquals(1, r.removed().size(), () -> "removed: " + r.removed());
    DeckDiff.Card gone = r.removed().get(0);
    assertEquals("SHELL " + shellId, gone.what());
    assertEquals("element", gone.kind());
    assertEquals(shellId, gone.id());
    assertEquals(shell, gone.place().line());
    assertEquals(2, r.changed().size(), () -> "changed: " + r.changed());
    DeckDiff.Change n = find(r, "NODE " + nodeId);
    assertEquals(1, n.fields().size(), () -> n.fields().toString());
    assertEquals("X", n.fields().get(0).field());
    assertEquals(x, n.fields().get(0).oldValue());
    assertEquals(Double.parseDouble(newX), real(n.fields().get(0).newValue()), 1e-9);
    assertEquals(node, n.old().line());
    DeckDiff.Change m = find(r, "MATER " + matId);
    assertEquals(1, m.fields().size(), () -> m.fields().toString());
    assertEquals("RHO", m.fields().get(0).field());
    assertEquals(rho, m.fields().get(0).oldValue());
    assertEquals(9.99e-6, real(m.fields().get(0).newValue()), 1e-20);
    // the new place is the line that holds the new value
    List<String> newLines = Files.readAllLines(dir.resolve(m.now().file()), StandardCharsets.ISO_8859_1);
    assertTrue(newLines.get(m.fields().get(0).now().line()).startsWith("MATER / "));
    assertFalse(r.same());
  }

  static DeckDiff.Change find(DeckDiff.Result r, String what) {
    for (DeckDiff.Change c : r.changed()) {
      if (c.what().equals(what)) return c;
    }
    throw new AssertionError(what + " not among " + r.changed());
  }

  /** A random line starting with {@code prefix}. */
  static int indexOf(List<String> deck, String prefix, Random rnd) {
    List<Integer> at = new ArrayList<>();
    for (int i = 0; i < deck.size(); i++) {
      if (deck.get(i).startsWith(prefix)) at.add(i);
    }
    assertFalse(at.isEmpty(), "the deck has a " + prefix);
    return at.get(rnd.nextInt(at.size()));
  }

  @Test
  void floatsWithinTheToleranceAreEqual() throws Exception {
    List<String> deck = generated(7, 400);
    int node = indexOf(deck, "NODE  / ", new Random(1));
    String nl = deck.get(node);
    double x = Double.parseDouble(nl.substring(16, 32).trim());
    List<String> edited = new ArrayList<>(deck);
    edited.set(node, nl.substring(0, 16) + String.format("%16.6f", x * (1 + 1e-7)) + nl.substring(32));
    Path a = write("a.pc", deck);
    Path b = write("b.pc", edited);
    assertEquals(1, diff(a, b, 0).changed().size());
    assertEquals(1, diff(a, b, 1e-9).changed().size());
    assertTrue(diff(a, b, 1e-5).same());
  }

  @Test
  void valuesAsTheSolverReadsThem() {
    double one = real("1.");
    for (String s : List.of("1", "1.0", "1.0E0", "1.0e+0", "1.0D0", "10.E-1", "0.1E1", "10.-1", "+1.", "1.000000000000000000000")) {
      assertEquals(Values.bits(one), Values.bits(real(s)), s);
    }
    assertEquals(Values.bits(0.0), Values.bits(real("-0.")));
    assertEquals(Values.bits(1.5e-3), Values.bits(real("1.5-3")));
    assertEquals(Values.bits(0.1), Values.bits(real(".1")));
    assertEquals(Values.bits(123456789.123456789), Values.bits(real("123456789.123456789")));
    assertEquals(Values.bits(7.85e-9), Values.bits(real("7.85E-9")));
    assertTrue(Double.isNaN(real("<RHO>")));
    assertTrue(Double.isNaN(real(".")));
    assertEquals(Values.bits(1.0), Values.bits(real("1e"))); // an exponent letter alone is E0, as FieldForms reads it
    assertEquals(Values.bits(1.0), Values.bits(real("1e-")));
    assertTrue(Double.isNaN(real("1-")));
    assertTrue(Double.isNaN(real("1.5S")));
    assertEquals(7, integer("007"));
    assertEquals(-7, integer("-7"));
    assertEquals(Long.MIN_VALUE, integer("7."));
    // random decimals: the fast path agrees with Java's parser
    Random rnd = new Random(5);
    for (int k = 0; k < 100_000; k++) {
      String s = (rnd.nextBoolean() ? "-" : "") + rnd.nextInt(100000) + "." + rnd.nextInt(1000000)
          + (rnd.nextBoolean() ? "E" + (rnd.nextInt(40) - 20) : "");
      assertEquals(Double.parseDouble(s), real(s), s);
    }
  }

  static double real(String s) {
    byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
    return FieldValues.real(b, 0, b.length);
  }

  static long integer(String s) {
    byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
    return Values.integer(b, 0, b.length);
  }

  @Test
  void cardsWithoutIdAreMatchedByKeywordAndTitleThenOrder() throws Exception {
    String v = "INPUTVERSION 2011";
    List<String> one = List.of(v, "TITLE /  run A", "RUNEND/", " TIME      120.0", "END_RUNEND");
    List<String> two = List.of(v, "RUNEND/", " TIME      130.0", "END_RUNEND", "TITLE /  run A");
    DeckDiff.Result r = diff(write("a.pc", one), write("b.pc", two), 0);
    assertEquals(1, r.changed().size(), () -> r.changed().toString());
    DeckDiff.Change c = r.changed().get(0);
    assertEquals("RUNEND", c.what());
    assertEquals(List.of(new DeckDiff.FieldChange("line", "TIME 120.0", "TIME 130.0", new DeckDiff.Place("a.pc", dir.resolve("a.pc"), 3),
        new DeckDiff.Place("b.pc", dir.resolve("b.pc"), 2))), c.fields());
  }
}
