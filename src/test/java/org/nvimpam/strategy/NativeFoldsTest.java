package org.nvimpam.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.FoldTree;
import org.nvimpam.testutil.SharedNvimTestBase;

/**
 * The lua and viml strategies' folds made by Neovim's foldCreate() through LuaJIT's FFI
 * (lua/nvimpam/fold/native.lua) and by :fold commands, in a real headless Neovim: where each is used,
 * that both give the plan's exact tree, and that the JVM stops sending the commands a Neovim does
 * not need, and what happens when Neovim needs them again.
 */
class NativeFoldsTest extends SharedNvimTestBase {
  /** The Neovims CI runs; nvimpam.fold.native's declaration was checked against their sources. */
  private static final List<String> CHECKED = List.of("0.7.2", "0.10.4", "0.12.4");

  @AfterEach
  void defaults() {
    lua("require('nvimpam.core.config').set({})");
  }

  private static String version() {
    return (String) lua("local v = vim.version() return v.major .. '.' .. v.minor .. '.' .. v.patch");
  }

  private static boolean createsNatively() {
    return Boolean.TRUE.equals(lua("return require('nvimpam.fold.native').creator() ~= nil"));
  }

  private static void nativeFolds(boolean on) {
    lua("require('nvimpam.core.config').set({ native_folds = " + on + " })");
  }

  private static FoldPlan plan(byte[] deck, boolean oneLineFolds) {
    return FoldParser.parse(Lines.split(deck), new FoldOptions(true)).plan(oneLineFolds);
  }

  @Test
  void theNeovimsCiRunsCreateNatively() {
    String version = version();
    assumeTrue(CHECKED.contains(version), "Neovim " + version + " is not one CI runs");
    assertTrue(createsNatively(), "Neovim " + version + ": " + lua("return select(2, require('nvimpam.fold.native').creator())"));
  }

  @Test
  void aReloadedModuleStillCreatesNatively() {
    assumeTrue(createsNatively(), "this Neovim creates no folds natively");

    Object again = lua("local first = package.loaded['nvimpam.fold.native'] package.loaded['nvimpam.fold.native'] = nil"
        + " local _, why = require('nvimpam.fold.native').creator() package.loaded['nvimpam.fold.native'] = first"
        + " return why or 'made'");

    assertEquals("made", again, "the C declarations of the first load are reused");
  }

  @Test
  void nativeFoldsFalseInSetupMeansCommandsAndSaysSo() {
    nativeFolds(false);

    assertEquals(List.of(false, "native_folds = false in setup()"),
        lua("local c, why = require('nvimpam.fold.native').creator() return { c ~= nil, why }"));
  }

  /** The strategies that create natively where they can. */
  static List<String> natives() {
    return List.of(LuaStrategy.NAME, VimlStrategy.NAME);
  }

  @ParameterizedTest(name = "{0}, one-line folds: {1}")
  @CsvSource({"lua, false", "lua, true", "viml, false", "viml, true"})
  void bothWaysGiveThePlansExactTree(String strategy, boolean oneLineFolds) throws IOException {
    for (byte[] deck : List.of(EmbeddedNvim.exampleDeck(), DeckGenerator.foldCountDeck(5000))) {
      FoldPlan plan = plan(deck, oneLineFolds);
      for (boolean on : new boolean[] {true, false}) {
        nativeFolds(on);
        Buffer buf = open(deck);
        FoldStrategy s = FoldStrategies.byName(strategy);
        s.apply(nvim, buf, plan); // the first call carries the commands, the second not
        s.apply(nvim, buf, plan);
        nvim.command("setlocal foldminlines=0").join(); // so that the reader sees one-line folds closed
        assertEquals(FoldTree.of(plan), FoldTree.read(nvim), "native_folds = " + on);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("natives")
  void aHighFoldminlinesKeepsCreatingNatively(String strategy) throws IOException {
    assumeTrue(createsNatively(), "this Neovim creates no folds natively");
    byte[] deck = EmbeddedNvim.exampleDeck();
    FoldPlan plan = plan(deck, true);
    Buffer buf = open(deck);
    nvim.command("setlocal foldminlines=50").join(); // folds that never show closed

    FoldStrategies.byName(strategy).apply(nvim, buf, plan);

    assertTrue(createsNatively(), "the check of the first fold does not rely on foldclosed()");
    nvim.command("setlocal foldminlines=0").join(); // so that the reader sees one-line folds closed
    assertEquals(FoldTree.of(plan), FoldTree.read(nvim));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("natives")
  void onlyTheFirstPlanToANativeNeovimCarriesCommands(String strategy) throws IOException {
    assumeTrue(createsNatively(), "this Neovim creates no folds natively");
    byte[] deck = DeckGenerator.foldCountDeck(2000);
    FoldPlan plan = plan(deck, false);
    Buffer buf = open(deck);

    long[] nativeSent = sentPerApply(FoldStrategies.byName(strategy), buf, plan, 3);
    nativeFolds(false);
    long[] commandsSent = sentPerApply(FoldStrategies.byName(strategy), buf, plan, 3);

    // Each command is at least "S,Efold|": 8 bytes.
    assertTrue(nativeSent[0] - nativeSent[1] >= 8L * plan.size(), "first " + nativeSent[0] + ", then " + nativeSent[1]);
    assertEquals(nativeSent[1], nativeSent[2]);
    assertEquals(nativeSent[0], commandsSent[0], "with native_folds = false, every plan carries its commands");
    assertEquals(commandsSent[0], commandsSent[2]);
    assertEquals(FoldTree.of(plan), FoldTree.read(nvim));
  }

  private static long[] sentPerApply(FoldStrategy s, Buffer buf, FoldPlan plan, int times) {
    return sentPerApply(nvim, s, buf, plan, times);
  }

  private static long[] sentPerApply(Nvim to, FoldStrategy s, Buffer buf, FoldPlan plan, int times) {
    long[] sent = new long[times];
    for (int i = 0; i < times; i++) {
      long before = to.rpc().bytesWritten();
      s.apply(to, buf, plan);
      sent[i] = to.rpc().bytesWritten() - before;
    }
    return sent;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("natives")
  void aPlanSentWithoutCommandsGetsItsFoldsWhenNeovimStoppedCreatingNatively(String strategy) throws IOException {
    assumeTrue(createsNatively(), "this Neovim creates no folds natively");
    try (Nvim own = EmbeddedNvim.start()) { // the disable lasts for the session
      byte[] deck = DeckGenerator.foldCountDeck(2000);
      FoldPlan plan = plan(deck, false);
      EmbeddedNvim.edit(own, deck, dir);
      Buffer buf = own.currentBuffer().join();
      FoldStrategy s = FoldStrategies.byName(strategy);
      s.apply(own, buf, plan); // says that Neovim creates natively
      EmbeddedNvim.lua(own, "require('nvimpam.fold.native').disable('a test said so')");

      long without = sentPerApply(own, s, buf, plan, 1)[0];
      FoldTree made = FoldTree.read(own);
      long with = sentPerApply(own, s, buf, plan, 1)[0];

      assertEquals(FoldTree.of(plan), made, "made by the commands Neovim built itself");
      assertTrue(with - without >= 8L * plan.size(), "the first plan came without commands (" + without
          + " bytes), the one after it with them (" + with + ")");
      assertEquals(FoldTree.of(plan), FoldTree.read(own));
    }
  }

  /**
   * In a Neovim of its own (whose options and native module start untouched): runs {@code before},
   * then the lua strategy on example.pc, and checks the tree; returns that Neovim's answer to
   * {@code after}.
   */
  private static Object inOwnNeovim(String before, String after) throws IOException {
    try (Nvim own = EmbeddedNvim.start()) {
      byte[] deck = EmbeddedNvim.exampleDeck();
      FoldPlan plan = plan(deck, false);
      EmbeddedNvim.edit(own, deck, dir);
      Buffer buf = own.currentBuffer().join();
      EmbeddedNvim.lua(own, before);

      FoldStrategies.byName(LuaStrategy.NAME).apply(own, buf, plan);

      assertEquals(FoldTree.of(plan), FoldTree.read(own));
      return EmbeddedNvim.lua(own, after);
    }
  }

  @Test
  void optionsThatDoNotValidateStillLetTheFoldsBeMade() throws IOException {
    // No setup(): g:nvimpam_strategy is read on first use.
    assertEquals(createsNatively(), inOwnNeovim("vim.g.nvimpam_strategy = 'nope'",
        "return require('nvimpam.fold.native').creator() ~= nil"), "the same way as with valid options");
  }

  @Test
  void afterADisableTheCommandsMakeTheFoldsAndSayWhy() throws IOException {
    assertEquals(List.of(false, "a test said so"), inOwnNeovim("require('nvimpam.fold.native').disable('a test said so')",
        "local c, why = require('nvimpam.fold.native').creator() return { c ~= nil, why }"));
  }
}
