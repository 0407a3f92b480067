package org.nvimpam.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.ErrorValue;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.FoldTree;
import org.nvimpam.testutil.SharedNvimTestBase;

/** Every strategy, on real decks in a real headless Neovim, gives the plan's exact fold tree. */
class FoldStrategyTest extends SharedNvimTestBase {
  static byte[] exampleDeck() throws IOException {
    return EmbeddedNvim.exampleDeck();
  }

  static Stream<Arguments> decks() throws IOException {
    List<Arguments> out = new ArrayList<>();
    List<String> decks = List.of("example.pc", "10 folds", "1000 folds", "50000 folds");
    for (String name : FoldStrategies.names()) {
      for (String deck : decks) {
        out.add(Arguments.of(name, deck));
      }
    }
    return out.stream();
  }

  static byte[] deck(String name) throws IOException {
    return name.equals("example.pc") ? exampleDeck()
        : DeckGenerator.foldCountDeck(Integer.parseInt(name.substring(0, name.indexOf(' '))));
  }

  private static FoldPlan plan(byte[] deck) {
    return FoldParser.parse(Lines.split(deck), new FoldOptions(true)).plan(false);
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("decks")
  void createsExactlyThePlansFoldTree(String strategy, String deckName) throws IOException {
    byte[] deck = deck(deckName);
    Buffer buf = open(deck);
    FoldPlan plan = plan(deck);
    if (!deckName.equals("example.pc")) {
      int requested = Integer.parseInt(deckName.substring(0, deckName.indexOf(' ')));
      assertEquals(requested, plan.size(), "the synthetic deck's fold count");
    }

    FoldStrategies.byName(strategy).apply(nvim, buf, plan);

    assertEquals(FoldTree.of(plan), FoldTree.read(nvim));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("strategyNames")
  void keepsFoldlevelCursorAndOpenFoldsAcrossARefresh(String strategy) throws IOException {
    byte[] deck = exampleDeck();
    Buffer buf = open(deck);
    FoldPlan plan = plan(deck);
    FoldStrategy s = FoldStrategies.byName(strategy);
    nvim.command("setlocal foldlevel=1").join();
    s.apply(nvim, buf, plan);
    // Open the PartShell group's first member (depth 2, closed by foldlevel 1) and close the
    // top-level Node fold (open by foldlevel 1); put the cursor somewhere recognisable.
    nvim.command("809foldopen").join();
    nvim.command("29foldclose").join();
    nvim.command("call cursor(815, 3)").join();
    Object before = nvim.eval("[foldclosed(809), foldclosed(29), foldclosed(823), line('.'), col('.')]").join();

    s.apply(nvim, buf, plan);

    assertEquals(before,
        nvim.eval("[foldclosed(809), foldclosed(29), foldclosed(823), line('.'), col('.')]").join());
    assertEquals(1L, nvim.eval("&foldlevel").join());
    assertEquals(FoldTree.of(plan), FoldTree.read(nvim));
  }

  static Stream<String> strategyNames() {
    return FoldStrategies.names().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("strategyNames")
  void foldsEveryWindowOfTheBufferWithItsTextsAndLeavesOtherWindowsAlone(String strategy) throws IOException {
    byte[] deck = exampleDeck();
    Buffer buf = open(deck);
    nvim.command("split").join();
    nvim.command("botright new | setlocal foldmethod=indent").join(); // another buffer's window
    FoldPlan plan = plan(deck);

    FoldStrategies.byName(strategy).apply(nvim, buf, plan);

    for (Object win : (List<?>) nvim.eval("win_findbuf(" + buf.id() + ")").join()) {
      nvim.command("call win_gotoid(" + win + ")").join();
      assertEquals(FoldTree.of(plan), FoldTree.read(nvim), "window " + win);
      assertEquals(" 725 lines: Node ", nvim.eval("foldtextresult(29)").join());
      assertEquals(" 2 PartShells ", nvim.eval("foldtextresult(809)").join());
    }
    nvim.command("wincmd b").join();
    assertEquals("indent", nvim.eval("&l:foldmethod").join(), "the other buffer's window");
    nvim.command("only").join();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("strategyNames")
  void anOpenFoldStaysOpenWhenLinesAreInsertedAboveIt(String strategy) throws IOException {
    byte[] deck = exampleDeck();
    Buffer buf = open(deck);
    FoldStrategy s = FoldStrategies.byName(strategy);
    s.apply(nvim, buf, plan(deck));
    nvim.command("984foldopen").join(); // the Shell run
    nvim.command("1put! ='\\$ a comment'").join();
    nvim.command("1put! ='\\$ another'").join();
    Lines lines = nvim.bufGetLines(buf, 0, -1, false).join();
    FoldPlan shifted = FoldParser.parse(lines, new FoldOptions(true)).plan(false);

    s.apply(nvim, buf, shifted);

    assertEquals(-1L, nvim.eval("foldclosed(986)").join(), "the Shell fold, two lines lower, is still open");
    assertEquals(31L, nvim.eval("foldclosed(31)").join(), "the Node fold, moved from line 29, stays closed");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("strategyNames")
  void aFailingFoldIsReportedAndLeavesNoHalfAppliedFolds(String strategy) throws IOException {
    byte[] deck = exampleDeck();
    Buffer buf = open(deck);
    FoldPlan plan = planPastTheEnd(deck);

    FoldStrategyException e = assertThrows(FoldStrategyException.class,
        () -> FoldStrategies.byName(strategy).apply(nvim, buf, plan));

    assertEquals(strategy, e.strategy());
    assertTrue(e.getMessage().contains(strategy), e.getMessage());
    assertTrue(e.getMessage().contains("E16") || e.getMessage().contains("Invalid range"), e.getMessage());
    assertEquals(new FoldTree(List.of()), FoldTree.read(nvim), "no partial folds");
  }

  @Test
  void everyStrategyAndTheLiveRefoldNameTheFailingFoldByTheSameValue() throws IOException {
    byte[] deck = exampleDeck();
    FoldPlan plan = planPastTheEnd(deck);
    int bad = firstPastTheEnd(plan, deck);
    List<String> failing = new ArrayList<>(FoldStrategies.names());
    failing.add("live refold");

    for (String strategy : failing) {
      Buffer buf = open(deck);
      FoldStrategyException e = assertThrows(FoldStrategyException.class, () -> {
        if (strategy.equals("live refold")) {
          LiveRefold.apply(nvim, buf, plan, nvim.bufChangedtick(buf).join());
        } else {
          FoldStrategies.byName(strategy).apply(nvim, buf, plan);
        }
      }, strategy);

      ErrorValue v = e.error();
      assertEquals(List.of(ErrorValue.Code.FOLD_FAILED, bad + 1, plan.size(), plan.start(bad), plan.end(bad), strategy),
          List.of(v.code(), v.fold(), v.of(), v.firstLine(), v.lastLine(), v.strategy()), strategy + ": " + v);
      String wording = "nvimpam: strategy '" + strategy + "' failed on fold " + (bad + 1) + " of " + plan.size()
          + " (lines " + plan.start(bad) + "-" + plan.end(bad) + "): ";
      assertTrue(v.message().startsWith(wording + "E16: Invalid range"), v.message());
      assertEquals(new FoldTree(List.of()), FoldTree.read(nvim), strategy + ": no partial folds");
    }
  }

  @Test
  void luaAndVimlNameTheFailingFoldWhereverItSitsOnItsCommandLine() throws IOException {
    byte[] deck = exampleDeck();
    FoldPlan plan = planPastTheEnd(deck);
    int bad = firstPastTheEnd(plan, deck);
    assertTrue(bad > 2, "the failing fold has folds before it");
    // First, second and last of its line, alone on it, on the one line of all folds.
    for (int perLine : new int[] {bad, bad - 1, bad + 1, 1, plan.size()}) {
      for (String strategy : List.of(LuaStrategy.NAME, VimlStrategy.NAME)) {
        Buffer buf = open(deck);
        FoldStrategy s = FoldStrategies.withSize(strategy, perLine);
        ErrorValue v = assertThrows(FoldStrategyException.class, () -> s.apply(nvim, buf, plan)).error();
        String what = strategy + " with " + perLine + " per line";
        assertEquals(List.of(ErrorValue.Code.FOLD_FAILED, bad + 1, plan.size(), plan.start(bad), plan.end(bad)),
            List.of(v.code(), v.fold(), v.of(), v.firstLine(), v.lastLine()), what + ": " + v);
        assertEquals(new FoldTree(List.of()), FoldTree.read(nvim), what + ": no partial folds");
      }
    }
  }

  @Test
  void luaAndVimlNameTheFailingFoldAlsoInAPlanThatCameWithoutCommands() throws IOException {
    byte[] deck = exampleDeck();
    FoldPlan bad = planPastTheEnd(deck);
    int at = firstPastTheEnd(bad, deck);
    for (String strategy : List.of(LuaStrategy.NAME, VimlStrategy.NAME)) {
      Buffer buf = open(deck);
      FoldStrategy s = FoldStrategies.byName(strategy);
      s.apply(nvim, buf, plan(deck)); // where Neovim creates natively, the next plan comes without commands

      ErrorValue v = assertThrows(FoldStrategyException.class, () -> s.apply(nvim, buf, bad)).error();

      assertEquals(List.of(ErrorValue.Code.FOLD_FAILED, at + 1, bad.size(), bad.start(at), bad.end(at)),
          List.of(v.code(), v.fold(), v.of(), v.firstLine(), v.lastLine()), strategy + ": " + v);
      assertEquals(new FoldTree(List.of()), FoldTree.read(nvim), strategy + ": no partial folds");
      s.apply(nvim, buf, plan(deck));
      assertEquals(FoldTree.of(plan(deck)), FoldTree.read(nvim), strategy + ": the next plan is made again");
    }
  }

  @ParameterizedTest(name = "{0}:{1}")
  @MethodSource("sizedLines")
  void luaAndVimlGiveTheExactTreeWithAnyCommandsPerLine(String strategy, int perLine) throws IOException {
    byte[] deck = DeckGenerator.foldCountDeck(1000);
    Buffer buf = open(deck);
    FoldPlan plan = plan(deck);

    FoldStrategies.withSize(strategy, perLine).apply(nvim, buf, plan);

    assertEquals(FoldTree.of(plan), FoldTree.read(nvim));
  }

  static Stream<Arguments> sizedLines() {
    return Stream.of(1, 7, 999, 1000, 5000).flatMap(k -> Stream.of(Arguments.of(LuaStrategy.NAME, k),
        Arguments.of(VimlStrategy.NAME, k)));
  }

  /** A plan for a longer deck than the buffer: its last fold reaches past the end. */
  private static FoldPlan planPastTheEnd(byte[] deck) {
    return FoldParser.parse(Lines.ofLatin1(lines(deck, "NODE  /        1")), new FoldOptions(true)).plan(false);
  }

  /** The index of the first fold that ends past the deck's last line. */
  private static int firstPastTheEnd(FoldPlan plan, byte[] deck) {
    int lineCount = Lines.split(deck).count();
    int bad = 0;
    while (plan.end(bad) <= lineCount) {
      bad++;
    }
    return bad;
  }

  /** The deck's lines plus extra ones, as Latin-1 strings. */
  private static String[] lines(byte[] deck, String... extra) {
    Lines l = Lines.split(deck);
    String[] out = new String[l.count() + extra.length];
    for (int i = 0; i < l.count(); i++) {
      out[i] = new String(l.line(i), java.nio.charset.StandardCharsets.ISO_8859_1);
    }
    System.arraycopy(extra, 0, out, l.count(), extra.length);
    return out;
  }

  @Test
  void anUnknownNameListsTheValidOnes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FoldStrategies.byName("fast"));
    assertEquals("unknown fold strategy 'fast'; valid names: per-command, call-atomic, pipe, lua, viml",
        e.getMessage());
  }
}
