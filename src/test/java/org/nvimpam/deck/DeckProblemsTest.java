package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nvimpam.lines.LineSource;
import org.nvimpam.lines.Lines;

/** The field checks of docs/CARDS.md on the small test table. */
class DeckProblemsTest {
  private static final CardLayouts MINI = RowWalkerTest.mini();

  static List<String> problems(CardLayouts t, LineSource src, int version) {
    DeckProblems p = new DeckProblems(t);
    p.checkAll(src, version);
    return list(p, src);
  }

  static List<String> list(DeckProblems p, LineSource src) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < p.total(); i++) {
      out.add(p.line(i) + ":" + p.col(i) + "-" + p.end(i) + " " + p.severity(i) + " "
          + new String(p.message(i, src), StandardCharsets.UTF_8));
    }
    return out;
  }

  static List<String> check(String... lines) {
    return problems(MINI, Lines.ofLatin1(lines), 2011);
  }

  private static String node(String x) {
    return String.format("NODE  /        1%16s%16s%16s", x, "0.", "0.");
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "1.", ".5", "-1.5E-3", "1e5", "+.5e+2", "1.5D-3", "1.5-3", "2.+4", ".", "-", "1e",
      "<PARAM>", "[X]", "{Y}", "0.", "-1263.9"})
  void floatFormsThatPamCrashReadsPass(String x) {
    assertEquals(List.of(), check(node(x)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1263.9S", "1.2.3", "1 5", "1,5", "e5x", "<A<B>", "-+1", "1.5-", "--1", "1e5.0"})
  void floatFormsThatItDoesNotReadAreErrors(String x) {
    List<String> p = check(node(x));
    assertEquals(1, p.size(), p.toString());
    assertEquals("0:16-32 1 NODE / X: \"" + x + "\" is not a number", p.get(0));
  }

  @Test
  void aParameterInOneFieldDoesNotExcuseTheNextOne() {
    assertEquals(List.of("0:24-32 1 SHELL / IDNOD1: \"1    2\" is not an integer",
        "0:32-40 1 SHELL / IDNOD2: \"220    7\" is not an integer", "0:40-48 1 SHELL / IDNOD3: \"688    7\" is not an integer",
        "0:48-56 1 SHELL / IDNOD4: \"694    7\" is not an integer"),
        check("SHELL /     9279  <P>     1    2220    7688    7694    7692"));
  }

  @Test
  void anIntegerWithALetterIsAnError() {
    assertEquals(List.of("0:8-16 1 NODE / IDNOD: \"12a\" is not an integer"),
        check("NODE  /     12a              0."));
  }

  @Test
  void aValueCutByTheColumnBoundaryRunsIntoTheNextField() {
    // X is 16 columns of digits and Y starts with its tail: one number in two fields.
    assertEquals(List.of("0:16-32 1 NODE / X: \"1234567890.12345\" runs into Y"),
        check("NODE  /        11234567890.1234567                0."));
  }

  @Test
  void twoFullWidthNumbersSideBySideAreFine() {
    assertEquals(List.of(), check("NODE  /        11234567890.12345-234567890.12345"));
  }

  @Test
  void aTabAndTextPastColumn80AreErrors() {
    String l = "NODE  /       1\t" + " ".repeat(64) + "xyz";
    assertEquals(List.of("0:8-16 1 NODE / IDNOD: \"1\t\" is not an integer", "0:15-16 1 NODE / IDNOD: tab in column 16",
        "0:80-83 1 NODE: text past column 80: \"xyz\""), check(l));
  }

  @Test
  void aContinuationMarkIsNoTextPastColumn80WhereTheRowHasOne() {
    assertEquals(List.of(), check("MASS  /        1", "NAME m", String.format("%-80s&", "             1."),
        "             2.", "        NOD 1", "        END"));
    assertEquals(List.of("2:80-81 1 MASS / CONT: \"x\" is not a continuation mark (& or -)"),
        check("MASS  /        1", "NAME m", String.format("%-80sx", "             1.")));
  }

  @Test
  void textInABlankFieldIsAWarning() {
    assertEquals(List.of("2:16-23 2 MASS / BLANK: \"7\" in columns 17-80, which this layout leaves blank"),
        check("MASS  /        1", "NAME m", "             1.       7"));
  }

  @Test
  void aChoiceOutsideItsListIsAnError() {
    assertEquals(List.of("0:16-24 1 PART / ATYPE: \"FLUID\" is not one of SHELL, SOLID, BEAM"),
        check("PART  /        1   FLUID       3"));
  }

  @Test
  void gesLinesGetOnlyTheTabAndPast80Tests() {
    assertEquals(List.of("3:13-14 1 MASS: tab in column 14"),
        check("MASS  /        1", "NAME m", "             1.", "        NOD 1\t2xy"));
  }

  @Test
  void aTabOnALineNoRowTakesIsAnErrorWithItsColumn() {
    // The prologue, a GES line whose 8 blanks became a tab (no GES line then: an extra line), a
    // tab right after the selection word (likewise), a card the table lacks, an extra line after
    // a one-line card; a tab past column 80 too. Comments may hold tabs.
    assertEquals(List.of("0:12-13 1 tab in column 13",
        "4:0-1 1 MASS: tab in column 1",
        "5:11-12 1 MASS: tab in column 12",
        "7:9-10 1 tab in column 10",
        "9:84-85 1 NODE: tab in column 85"),
        check("INPUTVERSION\t2011", "MASS  /        1", "NAME m", "             1.", "\tNOD 3", "        NOD\t3",
            "$ a\tcomment", "MATER /  \t   3", "NODE  /        1", " ".repeat(84) + "\t"));
  }

  @Test
  void aKnownKeywordThatIsNoCardHeaderIsAWarningNamingTheForm() {
    String form = " header: \"/\" must be in column 7, a blank after it: ";
    assertEquals(List.of("1:0-8 2 NODE" + form + "\"NODE  / \"",
        "2:0-6 2 NODE" + form + "\"NODE  / \"",
        "3:0-8 2 SHELL" + form + "\"SHELL / \"",
        "4:0-8 2 NODE" + form + "\"NODE  / \"",
        "5:0-7 2 NODE" + form + "\"NODE  / \"",
        "5:7-8 1 NODE: tab in column 8"),
        check("NODE  /        1", "NODE   /       2", "NODE /        3", "SHELL         4       1", "NODE          5",
            "NODE  /\t      6"));
  }

  @Test
  void anUnknownWordInAHeadersPlaceIsAHintOnly() {
    assertEquals(List.of("1:0-8 4 MATERX: not a card header: \"/\" must be in column 7, a blank after it",
        "2:0-7 4 FOO: not a card header: \"/\" must be in column 7, a blank after it"),
        check("NODE  /        1", "MATERX /       3", "FOO   /x"));
  }

  @Test
  void linesTheSolverAcceptsAreNoHeaderProblems() {
    // Valid headers of cards the table lacks, control lines, comments, a continuation line, the
    // rows of a card, lines of a card the table lacks that name a keyword without a slash.
    assertEquals(List.of(),
        check("INPUTVERSION 2011", "ANALYSIS EXPLICIT", "NODE          1", "TITLE / x", "RUNEND/", "$NODE   /",
            "# NODE /", "MATER /        3", "NODE          9", String.format("%-80s&", "TITLE / x"),
            "NODE   /  continued", "MASS  /        1", "NAME NODE  /"));
  }

  @Test
  void aDeckOlderThanEveryLayoutKeepsOnlyErrorsAllLayoutsFind() {
    // 2011 reads NINT where 2020 has a blank field: "3" there is fine in 2011, a warning in 2020.
    Lines l = Lines.ofLatin1("SHELL /        1       1       1       2       3       4       3",
        "SHELL /        2       1       1       2       3      4x");
    assertEquals(List.of("1:48-56 1 SHELL / IDNOD4: \"4x\" is not an integer"), problems(MINI, l, 2000));
    assertEquals(List.of("0:56-64 2 SHELL / BLANK: \"3\" in columns 57-64, which this layout leaves blank",
        "1:48-56 1 SHELL / IDNOD4: \"4x\" is not an integer"), problems(MINI, l, 2020));
  }

  @Test
  void theGenerationMovesOnlyWhenAnEditMayChangeTheProblems() {
    Deck deck = Deck.of(Lines.ofLatin1("NODE  /        1              0.", node("-1263.9S"), "NODE  /        3              0."));
    DeckProblems p = new DeckProblems(MINI);
    p.checkAll(deck, 2011);
    long g = p.generation();
    deck.replace(2, 3, Lines.ofLatin1("NODE  /        3              1."));
    p.edit(deck, 2, 3, 1, 2011); // a clean line below the problem, no lines moved
    assertEquals(g, p.generation());
    deck.replace(1, 2, Lines.ofLatin1(node("-1263.9")));
    p.edit(deck, 1, 2, 1, 2011); // the problem fixed
    assertEquals(g + 1, p.generation());
    assertEquals(0, p.total());
  }

  private static final String[] POOL = {"NODE  /        1              0.              0.              0.", node("-1263.9S"),
        "SHELL /        1       1       1       2       3       4", "SHELL /        1       1       1       2       3      4x",
        "PART  /        1   SHELL       0", "PART  /        1   SHELL       3", "RMATsteel", "NAME p", "        1.    2",
        "  0.5", "  x.5", "END_PART", "$ comment", "MASS  /        1", "             1.       7", "        NOD 1",
        "        END", "junk\tline", "GROUP / g", "META", "END_META", String.format("%-80s&", "  1."), "",
        "\tNOD 3", "        NOD\t3", "NODE   /       5", "NODE          7   1.", "MATER /        2", "FOO  / x"};

  /** A random edit of {@code deck} and its copy {@code lines}: {first, last, count}. */
  private static int[] randomEdit(Random rnd, Deck deck, List<String> lines) {
    int n = lines.size();
    int first = rnd.nextInt(n + 1);
    int last = Math.min(n, first + rnd.nextInt(4));
    int k = rnd.nextInt(4);
    String[] repl = new String[k];
    for (int j = 0; j < k; j++) repl[j] = POOL[rnd.nextInt(POOL.length)];
    deck.replace(first, last, Lines.ofLatin1(repl));
    for (int j = first; j < last; j++) lines.remove(first);
    for (int j = 0; j < k; j++) lines.add(first + j, repl[j]);
    return new int[] {first, last, k};
  }

  private static List<String> fullCheck(List<String> lines) {
    return problems(MINI, Lines.ofLatin1(lines.toArray(String[]::new)), 2011);
  }

  @Test
  void editsCheckAgainOnlyWhatTheyTouchAndEqualAFullCheck() {
    Random rnd = new Random(7);
    String[] pool = POOL;
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 60; i++) lines.add(pool[rnd.nextInt(pool.length)]);
    Deck deck = Deck.of(Lines.ofLatin1(lines.toArray(String[]::new)));
    DeckProblems inc = new DeckProblems(MINI);
    inc.checkAll(deck, 2011);
    for (int step = 0; step < 2000; step++) {
      int[] e = randomEdit(rnd, deck, lines);
      inc.edit(deck, e[0], e[1], e[2], 2011);
      assertEquals(fullCheck(lines), list(inc, deck), "after step " + step);
    }
  }

  @Test
  void aWholeCheckInStepsWithEditsInBetweenEqualsAFullCheck() {
    Random rnd = new Random(11);
    for (int round = 0; round < 500; round++) {
      List<String> lines = new ArrayList<>();
      int n0 = 1 + rnd.nextInt(80);
      for (int i = 0; i < n0; i++) lines.add(POOL[rnd.nextInt(POOL.length)]);
      Deck deck = Deck.of(Lines.ofLatin1(lines.toArray(String[]::new)));
      DeckProblems inc = new DeckProblems(MINI);
      inc.beginCheck(2011);
      boolean done = false;
      int edits = 0;
      while (!done) {
        if (rnd.nextInt(3) == 0) {
          int[] e = randomEdit(rnd, deck, lines);
          inc.edit(deck, e[0], e[1], e[2], 2011);
          edits++;
        } else {
          done = inc.checkStep(deck, 1 + rnd.nextInt(12));
        }
      }
      assertEquals(false, inc.checking());
      assertEquals(fullCheck(lines), list(inc, deck), "round " + round + ", after " + edits + " edits");
      int[] e = randomEdit(rnd, deck, lines); // and edits after it are followed as usual
      inc.edit(deck, e[0], e[1], e[2], 2011);
      assertEquals(fullCheck(lines), list(inc, deck), "round " + round + ", an edit after the check");
    }
  }
}
