package org.nvimpam.plugin;

import java.nio.file.Path;
import java.util.Collection;
import org.nvimpam.ids.IncludeWalk;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;

/**
 * The version an include file takes from the open deck that includes it (an include file declares
 * none): for its checks, and for Lua ({@link LuaEntry#INHERITED_VERSION}, which
 * lua/nvimpam/model/version.lua reads).
 */
final class InheritedVersions {
  private final Nvim nvim;
  private final Collection<LiveBuffer> live;

  InheritedVersions(Nvim nvim, Collection<LiveBuffer> live) {
    this.nvim = nvim;
    this.live = live;
  }

  /**
   * Whether deck {@code d}'s INCLU lines name {@code file}, each resolved by the one INCLU rule
   * ({@link IncludeWalk#resolve}) with {@code d} as the top deck.
   */
  private static boolean includes(LiveBuffer d, Path file) {
    Path deck = d.file();
    if (deck == null || file == null) return false;
    Path dir = deck.getParent();
    for (String name : d.includes()) {
      if (file.equals(IncludeWalk.resolve(name, dir, dir))) return true;
    }
    return false;
  }

  /** The version of an open deck that includes {@code lb}'s file, or -1; tells Lua too. */
  int inherited(LiveBuffer lb) {
    for (LiveBuffer d : live) {
      if (d == lb) continue;
      int v = d.declaredVersion();
      if (v > 0 && includes(d, lb.file())) {
        setInheritedVersion(lb, v);
        return v;
      }
    }
    return -1;
  }

  /** A deck was checked: the open decks it includes that declare no version take its version. */
  void checkedFirst(LiveBuffer d) {
    int v = d.declaredVersion();
    if (v <= 0) return;
    for (LiveBuffer x : live) {
      if (x != d && x.declaredVersion() < 0 && includes(d, x.file())) {
        setInheritedVersion(x, v);
        x.inherit(v);
      }
    }
  }

  private void setInheritedVersion(LiveBuffer lb, int v) {
    nvim.bufSetVar(lb.buffer(), LuaEntry.INHERITED_VERSION, v);
  }
}
