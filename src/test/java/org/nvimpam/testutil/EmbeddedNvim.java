package org.nvimpam.testutil;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.ChildProcessTransport;

/** A headless Neovim spawned for a test, with this repository on its 'runtimepath'. */
public final class EmbeddedNvim {
  private EmbeddedNvim() {}

  /**
   * The nvim executable the build was told to use: -Dnvimpam.nvim=..., else the environment's
   * NVIMPAM_TEST_NVIM (set when a test runs outside Maven, e.g. from an IDE), else "nvim".
   */
  public static String executable() {
    String property = System.getProperty("nvimpam.nvim", "");
    if (!property.isBlank()) {
      return property;
    }
    String env = System.getenv("NVIMPAM_TEST_NVIM");
    return env == null || env.isBlank() ? "nvim" : env;
  }

  /** The repository root, holding lua/, autoload/ and target/. */
  public static Path root() {
    return Path.of(System.getProperty("nvimpam.root", System.getProperty("user.dir"))).toAbsolutePath();
  }

  /** The built plugin jar the ITs start (-Dnvimpam.jar=..., set by failsafe), as a string for Lua. */
  public static String jar() {
    return System.getProperty("nvimpam.jar", root().resolve("target/nvimpam.jar").toString());
  }

  /** The bundled sample deck, example.pc. */
  public static byte[] exampleDeck() throws IOException {
    try (var in = EmbeddedNvim.class.getResourceAsStream("/decks/example.pc")) {
      if (in == null) {
        throw new IOException("no test resource /decks/example.pc");
      }
      return in.readAllBytes();
    }
  }

  /** {@code nvim --embed --headless -u NONE -i NONE -n} with the build's nvim. */
  public static List<String> argv() {
    return ChildProcessTransport.nvimArgv(executable());
  }

  public static Nvim start(String... extraArgs) throws IOException {
    List<String> argv = new ArrayList<>(argv());
    argv.addAll(List.of("--cmd", "set rtp^=" + root()));
    argv.addAll(List.of(extraArgs));
    return Nvim.embed(argv);
  }

  /**
   * A Neovim for a plugin test: notifications are collected in {@code _G.notes} as {@code { msg,
   * level }} instead of being shown, so tests can read them and no message waits at a prompt.
   */
  public static Nvim startCollectingNotes() throws IOException {
    Nvim nvim = start();
    lua(nvim, "_G.notes = {} vim.notify = function(m, l) table.insert(_G.notes, { m, l or 2 }) end");
    return nvim;
  }

  /** Runs Lua code without arguments and returns its result. */
  public static Object lua(Nvim nvim, String code) {
    return nvim.execLua(code, out -> out.packArrayHeader(0)).join();
  }

  /** {@code require('nvimpam').setup{}} with the built jar and more options (a Lua table body). */
  public static void setupPlugin(Nvim nvim, String options) {
    lua(nvim, "require('nvimpam').setup({ jar = '" + jar() + "', " + options + " })");
  }

  /** Opens {@code deck} (written to a temporary file) in the current window. */
  public static Path edit(Nvim nvim, byte[] deck, Path dir) throws IOException {
    Path file = Files.createTempFile(dir, "deck", ".pc");
    Files.write(file, deck);
    nvim.command("edit " + file).join();
    return file;
  }

  /**
   * Opens {@code deck} as the only buffer, with 'foldlevel' 0 in its window (window-local: no
   * earlier test's value is inherited), and returns it.
   */
  public static Buffer openAlone(Nvim nvim, byte[] deck, Path dir) throws IOException {
    nvim.command("silent! %bwipeout!").join();
    edit(nvim, deck, dir);
    nvim.command("setlocal foldlevel=0").join();
    return nvim.currentBuffer().join();
  }

  /** The text of a test resource. */
  public static String resource(String name) throws IOException {
    try (var in = EmbeddedNvim.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("no test resource " + name);
      }
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }
}
