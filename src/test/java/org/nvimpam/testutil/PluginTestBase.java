package org.nvimpam.testutil;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.nvim.Nvim;

/**
 * What the plugin tests share: a headless Neovim per test that collects the plugin's
 * notifications ({@link EmbeddedNvim#startCollectingNotes}), closed after it, a directory of its
 * own, and the helpers they all call. A subclass's {@code @BeforeEach} runs after this one's, its
 * {@code @AfterEach} before.
 */
public abstract class PluginTestBase {
  @TempDir protected Path dir;
  /** The test's Neovim; a test may close it and start another, which is closed in turn. */
  protected Nvim nvim;

  @BeforeEach
  void startNvim() throws IOException {
    nvim = EmbeddedNvim.startCollectingNotes();
  }

  @AfterEach
  void stopNvim() {
    nvim.close();
  }

  protected Object lua(String code) {
    return EmbeddedNvim.lua(nvim, code);
  }

  protected void setup(String options) {
    EmbeddedNvim.setupPlugin(nvim, options);
  }

  protected static byte[] example() throws IOException {
    return EmbeddedNvim.exampleDeck();
  }
}
