package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.testutil.FoldTree;
import org.nvimpam.testutil.SharedNvimTestBase;

/** The plugin's whole refreshes (:NvimpamFold, a reload) in a real headless Neovim. */
class FolderTest extends SharedNvimTestBase {
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"lua", "viml"})
  void refreshesAfterTheFirstLeaveTheCommandsOutWhereNeovimCreatesNatively(String strategy) throws IOException {
    assumeTrue(Boolean.TRUE.equals(lua("return require('nvimpam.fold').creates_natively()")),
        "this Neovim creates no folds natively");
    byte[] deck = DeckGenerator.foldCountDeck(2000);
    Buffer buf = open(deck);
    Folder folder = new Folder(nvim, new AtomicReference<>(Settings.DEFAULTS.merge(Map.of("strategy", strategy))));

    long first = sent(() -> folder.fold(buf));
    long second = sent(() -> folder.fold(buf));

    // Each command is at least "S,Efold|": 8 bytes.
    assertTrue(first - second >= 8L * 2000, "first refresh " + first + " bytes, the next " + second);
    assertEquals(FoldTree.of(FoldParser.parse(Lines.split(deck), new FoldOptions(true)).plan(false)),
        FoldTree.read(nvim));
  }

  private static long sent(Runnable refresh) {
    long before = nvim.rpc().bytesWritten();
    refresh.run();
    return nvim.rpc().bytesWritten() - before;
  }
}
