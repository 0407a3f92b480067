package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.FoldTree;

/**
 * The plugin installed as a user installs it, on Neovim 0.12 (the one .ci/neovim installs): the
 * repository's files copied into a package of a fresh 'packpath', built there with the documented
 * build line, and a user config that only calls setup(). Nothing points Neovim at the checkout.
 */
class UserInstallIT {
  /** README's and doc/nvimpam.txt's build line, run in the plugin's folder. */
  static final List<String> BUILD_LINE = List.of("./mvnw", "-q", "package", "-DskipTests");
  private static final long WAIT_MS = 30_000;

  @TempDir Path home;

  /** .ci/neovim's 0.12 install: ${NVIMPAM_NEOVIM_CACHE:-~/.cache/nvimpam-neovim}/sid. */
  static Path nvim012() {
    String cache = System.getenv("NVIMPAM_NEOVIM_CACHE");
    // $HOME as the script sees it (Java's user.home comes from the password database instead).
    String home = System.getenv("HOME");
    Path base = cache != null && !cache.isBlank() ? Path.of(cache)
        : Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"), ".cache", "nvimpam-neovim");
    return base.resolve("sid/usr/bin/nvim");
  }

  @Test
  void aPackageBuiltWithTheDocumentedLineFoldsExamplePc() throws Exception {
    Path nvimBin = nvim012();
    if (!Files.isExecutable(nvimBin)) {
      System.err.println("SKIPPED UserInstallIT: no Neovim 0.12 at " + nvimBin + " (run .ci/neovim)");
    }
    assumeTrue(Files.isExecutable(nvimBin), "no Neovim 0.12 at " + nvimBin + " (run .ci/neovim)");

    // stdpath('data')/site is on the default 'packpath': the plugin goes where a user's would.
    Path data = home.resolve("data");
    Path plugin = data.resolve("nvim/site/pack/x/start/nvimpam");
    copyCheckout(EmbeddedNvim.root(), plugin);
    build(plugin);
    assertTrue(Files.isRegularFile(plugin.resolve("target/nvimpam.jar")), "the build line wrote target/nvimpam.jar");

    Path config = home.resolve("config/nvim/init.lua");
    Files.createDirectories(config.getParent());
    Files.writeString(config, "require('nvimpam').setup{}\n");
    Path deck = home.resolve("example.pc");
    Files.write(deck, EmbeddedNvim.exampleDeck());

    // A user's Neovim: the user config and plugins load (no -u NONE), in a home of its own.
    List<String> argv = new ArrayList<>(List.of("env",
        "XDG_CONFIG_HOME=" + home.resolve("config"), "XDG_DATA_HOME=" + data,
        "XDG_STATE_HOME=" + home.resolve("state"), "XDG_CACHE_HOME=" + home.resolve("cache"),
        nvimBin.toString(), "--embed", "--headless", "-n", "-i", "NONE"));
    try (Nvim nvim = Nvim.embed(argv)) {
      assertTrue(nvim.apiInfo().atLeast(0, 12), nvim.apiInfo().toString());
      Object ours = nvim.execLua("return vim.api.nvim_get_runtime_file('lua/nvimpam/init.lua', true)",
          out -> out.packArrayHeader(0)).join();
      assertEquals(List.of(plugin.resolve("lua/nvimpam/init.lua").toString()), ours, "loaded from the package only");
      assertEquals("", nvim.eval("v:errmsg").join(), "setup() in init.lua, before VimEnter, raised no error");

      nvim.command("edit " + deck).join();
      assertEquals("pamcrash", nvim.eval("&filetype").join());
      FoldTree want = FoldTree.of(FoldParser.parse(Lines.split(Files.readAllBytes(deck)), new FoldOptions(true)).plan(false));
      long end = System.currentTimeMillis() + WAIT_MS;
      FoldTree got = FoldTree.read(nvim);
      while (!want.equals(got) && System.currentTimeMillis() < end) {
        Thread.sleep(50);
        got = FoldTree.read(nvim);
      }
      assertEquals(want, got, "example.pc folds on opening");
    }
  }

  /** The files git knows in {@code root} (tracked, and new ones not ignored): no target/. */
  private static void copyCheckout(Path root, Path to) throws IOException, InterruptedException {
    Process git = new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z", "--cached", "--others",
        "--exclude-standard").redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] out = git.getInputStream().readAllBytes();
    assertEquals(0, git.waitFor(), "git ls-files in " + root);
    int copied = 0;
    for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
      Path from = root.resolve(name);
      if (name.isEmpty() || !Files.isRegularFile(from)) {
        continue; // deleted in the work tree, or a submodule
      }
      Path dest = to.resolve(name);
      Files.createDirectories(dest.getParent());
      Files.copy(from, dest, StandardCopyOption.COPY_ATTRIBUTES); // keeps mvnw executable
      copied++;
    }
    assertTrue(copied > 10 && Files.isExecutable(to.resolve("mvnw")), copied + " files copied, with ./mvnw");
  }

  private static void build(Path plugin) throws IOException, InterruptedException {
    Path log = plugin.resolveSibling("build.log");
    Process p = new ProcessBuilder(BUILD_LINE).directory(plugin.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    p.getOutputStream().close();
    boolean done = p.waitFor(10, TimeUnit.MINUTES);
    if (!done) {
      p.destroyForcibly();
    }
    assertTrue(done && p.exitValue() == 0, String.join(" ", BUILD_LINE) + " failed:\n" + Files.readString(log));
  }
}
