package org.nvimpam.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.FoldTree;

/**
 * The plan as Lua reads it (lua/nvimpam/fold/plan.lua): name indexes of every width, level-2 counts,
 * with LuaJIT's FFI and without it, checked through what Neovim shows: fold tree and fold texts.
 */
class PlanPayloadTest {
  @TempDir static Path dir;

  @Test
  void nameIndexesTakeTheFewestBytesThatHoldThemAll() {
    assertEquals(List.of(1, 1, 2, 2, 4), List.of(PlanPayload.nameWidth(1), PlanPayload.nameWidth(256),
        PlanPayload.nameWidth(257), PlanPayload.nameWidth(65_536), PlanPayload.nameWidth(65_537)));
  }

  /** {@code cards} generic cards of two lines, each with a name of its own: G00000, G00001, ... */
  static byte[] distinctNames(int cards) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < cards; i++) {
      b.append(String.format("G%05d/ %d%n", i, i)).append("        1\n");
    }
    return b.toString().getBytes(StandardCharsets.US_ASCII);
  }

  static FoldPlan plan(byte[] deck) {
    return FoldParser.parse(Lines.split(deck), FoldOptions.GENERIC).plan(false);
  }

  static Buffer open(Nvim nvim, byte[] deck) throws IOException {
    return EmbeddedNvim.openAlone(nvim, deck, dir);
  }

  /** Applies the plan of {@code deck} and checks the tree and the texts of some of its folds. */
  static void appliesWithItsTexts(Nvim nvim, String strategy, byte[] deck, int... sampled) throws IOException {
    Buffer buf = open(nvim, deck);
    FoldPlan plan = plan(deck);

    FoldStrategies.byName(strategy).apply(nvim, buf, plan);

    assertEquals(FoldTree.of(plan), FoldTree.read(nvim), strategy);
    for (int i : sampled) {
      String name = plan.names()[plan.nameIndex(i)];
      String want = plan.count(i) > 0 ? " " + plan.count(i) + " " + name + "s "
          : " " + (plan.end(i) - plan.start(i) + 1) + " lines: " + name + " ";
      assertEquals(want, nvim.eval("foldtextresult(" + plan.start(i) + ")").join(),
          strategy + ", fold " + i + " of " + plan.size());
    }
  }

  /** Folds to sample: the first, the last, and ones in between. */
  static int[] sample(int size) {
    return new int[] {0, 1, size / 3, size / 2, size - 2, size - 1};
  }

  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class WithFfi {
    Nvim nvim;

    @BeforeAll
    void start() throws IOException {
      nvim = EmbeddedNvim.start();
    }

    @AfterAll
    void stop() {
      nvim.close();
    }

    Stream<Arguments> cases() {
      List<Arguments> out = new ArrayList<>();
      for (String strategy : FoldStrategies.names()) {
        out.add(Arguments.of(strategy, 300)); // two bytes per name
      }
      out.add(Arguments.of(LuaStrategy.NAME, 70_000)); // four
      out.add(Arguments.of(NotifiedCommandsStrategy.PIPE, 70_000));
      return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.nvimpam.strategy.FoldStrategyTest#strategyNames")
    void aPlanWithoutFoldsClearsTheFoldsThere(String strategy) throws IOException {
      byte[] example = EmbeddedNvim.exampleDeck();
      Buffer buf = open(nvim, example);
      FoldStrategies.byName(strategy).apply(nvim, buf, plan(example));
      FoldPlan none = plan("$ only a comment\n".getBytes(StandardCharsets.US_ASCII));
      assertEquals(0, none.size());

      FoldStrategies.byName(strategy).apply(nvim, buf, none);

      assertEquals(new FoldTree(List.of()), FoldTree.read(nvim), strategy);
      assertEquals(0L, EmbeddedNvim.lua(nvim, "return require('nvimpam.fold').applied(0).n"));
    }

    @ParameterizedTest(name = "{0}, {1} names")
    @MethodSource("cases")
    void foldTextsNameEveryFold(String strategy, int names) throws IOException {
      byte[] deck = distinctNames(names);
      FoldPlan plan = plan(deck);
      assertEquals(names, plan.size());
      appliesWithItsTexts(nvim, strategy, deck, sample(plan.size()));
    }
  }

  /** A Neovim whose Lua has no FFI (as a build on PUC Lua): the plan is read with string.byte. */
  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class WithoutFfi {
    Nvim nvim;

    @BeforeAll
    void start() throws IOException {
      nvim = EmbeddedNvim.start("--cmd",
          "lua package.loaded.ffi = nil; package.preload.ffi = function() error('no FFI in this test') end");
      assertEquals(false, EmbeddedNvim.lua(nvim, "return (pcall(require, 'ffi'))"), "FFI is gone");
    }

    @AfterAll
    void stop() {
      nvim.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.nvimpam.strategy.FoldStrategyTest#strategyNames")
    void theExampleDeckAndWideNames(String strategy) throws IOException {
      byte[] example = EmbeddedNvim.exampleDeck();
      FoldPlan plan = plan(example);
      int group = 0;
      while (plan.count(group) == 0) {
        group++;
      }
      appliesWithItsTexts(nvim, strategy, example, 0, group - 1, group, plan.size() - 1);
      appliesWithItsTexts(nvim, strategy, distinctNames(300), sample(300));
    }

    @Test
    void aRefreshKeepsFoldStatesAndALiveRefoldFollowsAnEdit() throws IOException {
      byte[] deck = EmbeddedNvim.exampleDeck();
      Buffer buf = open(nvim, deck);
      FoldStrategy lua = FoldStrategies.byName(LuaStrategy.NAME);
      nvim.command("setlocal foldlevel=1").join();
      lua.apply(nvim, buf, plan(deck));
      nvim.command("809foldopen").join(); // the first member of a PartShell group
      nvim.command("29foldclose").join();
      String states = "[foldclosed(809), foldclosed(823), foldclosed(29)]";
      assertEquals(List.of(-1L, 823L, 29L), nvim.eval(states).join());

      lua.apply(nvim, buf, plan(deck));
      assertEquals(List.of(-1L, 823L, 29L), nvim.eval(states).join());

      nvim.command("1delete").join();
      long tick = nvim.bufChangedtick(buf).join();
      FoldPlan edited = FoldParser.parse(nvim.bufGetLines(buf, 0, -1, false).join(), FoldOptions.GENERIC).plan(false);
      LiveRefold.Result r = LiveRefold.apply(nvim, buf, edited, tick);
      assertEquals(LiveRefold.Outcome.CHANGED, r.outcome());
      assertEquals(FoldTree.of(edited), FoldTree.read(nvim));
      nvim.command("normal! zM").join(); // the group's own text, not a member's
      assertEquals(" 2 PartShells ", nvim.eval("foldtextresult(808)").join());
    }
  }
}
