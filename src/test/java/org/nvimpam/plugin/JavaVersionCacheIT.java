package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;

/** The versions of several Javas are kept across Neovim sessions: none is asked again. */
class JavaVersionCacheIT extends PluginTestBase {
  /** A `java` that logs each run to {@code log} and says it is Java {@code major}. */
  private Path fakeJava(String name, int major, Path log) throws Exception {
    Path java = dir.resolve(name + "/bin/java");
    Files.createDirectories(java.getParent());
    Files.writeString(java, "#!/bin/sh\necho run >> '" + log + "'\necho 'openjdk version \"" + major
        + ".0.9\" 2023-10-17' >&2\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return java;
  }

  private Object version(Path java) {
    return lua("return require('nvimpam.host.java').java_version('" + java + "')");
  }

  @Test
  void twoJavasAreBothKnownInTheNextSession() throws Exception {
    Path log = dir.resolve("runs.log");
    Path a = fakeJava("a", 17, log);
    Path b = fakeJava("b", 21, log);
    assertEquals(17L, version(a));
    assertEquals(21L, version(b));
    nvim.close();
    nvim = EmbeddedNvim.startCollectingNotes(); // no versions in memory: only the cache file
    assertEquals(17L, version(a));
    assertEquals(21L, version(b));
    assertEquals(List.of("run", "run"), Files.readAllLines(log), "each Java asked once");
  }
}
