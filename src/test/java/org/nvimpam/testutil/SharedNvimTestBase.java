package org.nvimpam.testutil;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;

/**
 * What the strategy tests share: one headless Neovim for all tests of a class (started before the
 * first, closed after the last), a directory for their decks, and opening a deck in it. Test
 * classes run one after another, so each gets the fields to itself while it runs.
 */
public abstract class SharedNvimTestBase {
  @TempDir protected static Path dir;
  protected static Nvim nvim;

  @BeforeAll
  static void startNvim() throws IOException {
    nvim = EmbeddedNvim.start();
  }

  @AfterAll
  static void stopNvim() {
    nvim.close();
  }

  /** Opens {@code deck} as the only buffer of the class's Neovim ({@link EmbeddedNvim#openAlone}). */
  protected static Buffer open(byte[] deck) throws IOException {
    return EmbeddedNvim.openAlone(nvim, deck, dir);
  }

  protected static Object lua(String code) {
    return EmbeddedNvim.lua(nvim, code);
  }
}
