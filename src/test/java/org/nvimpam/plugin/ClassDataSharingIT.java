package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;

/**
 * The JVM's class-data sharing archive only ever costs speed: a missing one is written by the
 * start that lacks it, and an unusable one (garbage, or another Java's) never fails a start.
 */
class ClassDataSharingIT extends PluginTestBase {
  private Path archive() {
    setup("");
    return Path.of((String) lua("local h = require('nvimpam.host') "
        + "return require('nvimpam.host.java').cds_archive(h.java_version(), h.jar(), h.java())"));
  }

  private void assertDeckFolds() throws Exception {
    nvim.command("filetype on").join();
    EmbeddedNvim.edit(nvim, example(), dir);
    assertEquals(true, lua("return vim.wait(20000, function() return vim.fn.foldlevel(29) > 0 end, 10)"),
        () -> "folds; notes " + lua("return _G.notes"));
  }

  @Test
  void aMissingArchiveIsWrittenByTheStartThatLacksIt() throws Exception {
    Path a = archive();
    Files.deleteIfExists(a);
    assertDeckFolds();
    lua("require('nvimpam.host').stop()"); // the archive is written as the JVM exits
    long end = System.currentTimeMillis() + 20_000;
    while (!Files.exists(a) && System.currentTimeMillis() < end) Thread.sleep(20);
    assertTrue(Files.exists(a), "an archive at " + a);
  }

  @Test
  void aStartThatWritesAnArchiveKeepsOnlyTheNewestOthers() throws Exception {
    Path a = archive();
    Files.deleteIfExists(a);
    Path cache = a.getParent();
    Files.createDirectories(cache);
    long keep = (Long) lua("return require('nvimpam.host.java').KEEP_ARCHIVES");
    java.util.List<Path> old = new java.util.ArrayList<>();
    for (int k = 0; k < keep + 2; k++) { // older than any real one: these go first
      Path f = cache.resolve("nvimpam-17-" + k + "-" + k + ".jsa");
      Files.write(f, new byte[] {1});
      Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.fromMillis(1_000_000_000_000L + k * 1000L));
      old.add(f);
    }
    try {
      assertDeckFolds();
      long left;
      try (var files = Files.list(cache)) {
        left = files.filter(f -> f.getFileName().toString().matches("nvimpam-.+\\.jsa")).count();
      }
      assertTrue(left <= keep, left + " archives left of " + (keep + 2) + " and more");
      assertTrue(Files.notExists(old.get(0)) && Files.notExists(old.get(1)), "the oldest went");
    } finally {
      lua("require('nvimpam.host').stop()");
      for (Path f : old) Files.deleteIfExists(f);
    }
  }

  @Test
  void anUnusableArchiveOnlyCostsSpeed() throws Exception {
    Path a = archive();
    Path kept = dir.resolve("kept.jsa");
    boolean had = Files.exists(a);
    if (had) Files.move(a, kept);
    try {
      byte[] garbage = new byte[64 << 10];
      new Random(1).nextBytes(garbage);
      Files.createDirectories(a.getParent());
      Files.write(a, garbage);
      assertDeckFolds();
      assertEquals(0L, lua("return #vim.tbl_filter(function(n) return n[2] >= vim.log.levels.WARN end, _G.notes)"),
          () -> "no warning or error for the user; notes " + lua("return _G.notes"));
    } finally {
      lua("require('nvimpam.host').stop()");
      Files.deleteIfExists(a);
      if (had) Files.move(kept, a);
    }
  }
}
