package org.nvimpam.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginRuntimeTest {
  @TempDir Path dir;

  private Path jar(String... entries) throws IOException {
    Path jar = dir.resolve("nvimpam.jar");
    try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
      for (String name : entries) {
        out.putNextEntry(new JarEntry(name));
        out.write(("-- " + name).getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
      }
    }
    return jar;
  }

  @Test
  void extractsTheRuntimeFilesOfAJarAndDeletesThemOnClose() throws IOException {
    Path jar = jar("runtime/lua/nvimpam/fold/init.lua", "runtime/autoload/nvimpam.vim", "org/nvimpam/X.class");
    Path root;
    try (PluginRuntime runtime = PluginRuntime.extract(jar)) {
      root = runtime.root();
      assertTrue(runtime.temporary());
      assertEquals("-- runtime/lua/nvimpam/fold/init.lua", Files.readString(root.resolve("lua/nvimpam/fold/init.lua")));
      assertTrue(Files.isRegularFile(root.resolve("autoload/nvimpam.vim")));
      assertFalse(Files.exists(root.resolve("org")));
    }
    assertFalse(Files.exists(root));
  }

  @Test
  void aJarWithoutTheRuntimeIsAClearError() throws IOException {
    Path jar = jar("org/nvimpam/X.class");
    IOException e = assertThrows(IOException.class, () -> PluginRuntime.extract(jar));
    assertTrue(e.getMessage().contains("runtime/lua/nvimpam/fold/init.lua"), e.getMessage());
  }

  @Test
  void theBuildFindsTheCheckout() throws IOException {
    try (PluginRuntime runtime = PluginRuntime.locate()) {
      assertTrue(Files.isRegularFile(runtime.root().resolve(PluginRuntime.MARKER)), runtime.toString());
      assertTrue(Files.isRegularFile(runtime.root().resolve("autoload/nvimpam.vim")), runtime.toString());
    }
  }
}
