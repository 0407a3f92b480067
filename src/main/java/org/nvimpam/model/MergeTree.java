package org.nvimpam.model;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.lines.LineSource;
import org.nvimpam.lines.Lines;

/** One deck's tree in a merge: its files, what it defines, and where it goes. */
final class MergeTree {
  /** One file of a deck's tree. */
  static final class Src {
    final Path path;
    LineSource deck; // until the tree is staged
    int version;
    boolean terminated = true; // a file's last line ends with a line feed (for a plan)
    Lines result; // after the offset (for a plan)
    Path rel; // its place under the deck's folder
    boolean outside;
    final List<Rewrite> rewrites = new ArrayList<>();
    Path staged; // the tree's copy the offset reads
    Path current; // the file holding its bytes after the offset

    Src(Path path, LineSource deck) {
      this.path = path;
      this.deck = deck;
    }
  }

  /** An INCLU line whose name becomes {@code name}, written as {@code lines} (no line ends); it took {@code span} lines. */
  record Rewrite(IncludeLine at, int span, String name, byte[][] lines) {}

  private static final int NK = IdKinds.NAMES.size();

  final int index;
  final Path top;
  private final Path outDir;
  final List<Src> files = new ArrayList<>();
  boolean complete = true;
  int declared = -1; // INPUTVERSION
  String units; // the UNIT line's words
  int unitsLine;
  final int[][] defs = new int[NK][]; // by kind: the defined ids, ascending, unique
  final List<String> titles = new ArrayList<>(); // the group titles it defines, in order
  final long[] offsets = new long[NK];
  final boolean[] auto = new boolean[NK];
  final Map<String, String> renames = new LinkedHashMap<>();
  String folder;

  MergeTree(int index, Path top, Path outDir) {
    this.index = index;
    this.top = top;
    this.outDir = outDir;
  }

  Path outFolder() {
    return outDir.toAbsolutePath().normalize().resolve(folder);
  }
}
