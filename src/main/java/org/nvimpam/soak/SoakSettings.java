package org.nvimpam.soak;

import java.nio.file.Path;

/**
 * What a soak run does.
 *
 * @param edits random edits to make
 * @param buffers live buffers, each a copy of the bundled example deck at the start
 * @param windows windows showing some of them
 * @param checkEvery edits between two checks of every window's folds against a full parse
 * @param seed seed of the random edits
 * @param nvim the Neovim to run
 * @param jar the nvimpam jar the plugin starts
 * @param maxHeapGrowth the largest accepted growth of the JVM's heap after GC, e.g. 0.10
 */
public record SoakSettings(int edits, int buffers, int windows, int checkEvery, long seed, String nvim, Path jar,
    double maxHeapGrowth) {
  public SoakSettings {
    if (edits < 0 || buffers < 1 || windows < 1 || windows > buffers || checkEvery < 1) {
      throw new IllegalArgumentException("need edits >= 0, 1 <= windows <= buffers, check every >= 1 edit");
    }
  }
}
