package org.nvimpam.model;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IncludeWalk;
import org.nvimpam.ids.IntList;
import org.nvimpam.lines.LineSource;
import org.nvimpam.model.Merge.Copied;
import org.nvimpam.model.MergeOutput.Output;
import org.nvimpam.model.MergeTree.Rewrite;
import org.nvimpam.model.MergeTree.Src;

/**
 * What a merge changes and what it refuses, before anything is written: each deck's offsets (the
 * explicit steps, else the next round number above the earlier decks' ids), the ids that would
 * still clash, decks of other settings, group titles that get a suffix, the place of each file
 * under its deck's folder (files outside it copied in) and the INCLU names rewritten to reach
 * them, files that cannot be written.
 */
final class MergePlanner {
  private final Merge m;

  MergePlanner(Merge m) {
    this.m = m;
  }

  /** Decks that declare another INPUTVERSION or other units than the first that declares them. */
  static void sameSettings(List<MergeTree> trees, List<Renumber.Refusal> refusals) {
    MergeTree v = null;
    MergeTree u = null;
    for (MergeTree t : trees) {
      if (t.declared > 0) {
        if (v == null) v = t;
        else if (t.declared != v.declared) {
          refusals.add(new Renumber.Refusal(t.top, 0, 0, t.top.getFileName() + " declares INPUTVERSION " + t.declared + ", "
              + v.top.getFileName() + " INPUTVERSION " + v.declared + ": decks of different versions are not merged"));
        }
      }
      if (t.units != null) {
        if (u == null) u = t;
        else if (!t.units.equals(u.units)) {
          refusals.add(new Renumber.Refusal(t.top, t.unitsLine, 0, t.top.getFileName() + " is in units " + t.units + ", "
              + u.top.getFileName() + " in " + u.units + ": decks of different units are not merged"));
        }
      }
    }
  }

  /** Each deck's offset per kind: the explicit steps, else the next round number above the earlier decks' ids. */
  void offsets(List<MergeTree> trees) {
    for (int k = 1; k < m.nk; k++) {
      if (IdKinds.named(k)) continue;
      Long step = m.options.steps().get(k);
      long max = 0; // the highest id the earlier decks define, after their offsets
      for (MergeTree t : trees) {
        int[] d = t.defs[k];
        if (step != null) {
          t.offsets[k] = t.index * step;
        } else if (d.length > 0 && max > 0 && d[0] <= max) {
          t.offsets[k] = Merge.roundAbove(max);
          t.auto[k] = true;
        }
        if (d.length > 0) max = Math.max(max, d[d.length - 1] + t.offsets[k]);
      }
    }
  }

  /** Ids two decks define after their offsets, per kind and pair of decks, as runs. */
  void clashes(List<MergeTree> trees, List<Renumber.Refusal> refusals) {
    for (int k = 1; k < m.nk; k++) {
      for (int j = 1; j < trees.size(); j++) {
        MergeTree b = trees.get(j);
        for (int i = 0; i < j; i++) {
          MergeTree a = trees.get(i);
          IntList both = common(a.defs[k], a.offsets[k], b.defs[k], b.offsets[k]);
          if (both.size == 0) continue;
          refusals.add(new Renumber.Refusal(null, 0, 0, both.size + " " + IdKinds.name(k) + " id" + (both.size == 1 ? "" : "s") + " of "
              + b.top.getFileName() + " (offset " + b.offsets[k] + ") " + (both.size == 1 ? "is" : "are") + " defined by "
              + a.top.getFileName() + " (offset " + a.offsets[k] + ") too: " + runs(both) + " (choose another --offset "
              + IdKinds.name(k) + "=N, or auto)"));
        }
      }
    }
  }

  /** The values of {@code x + dx} that are also values of {@code y + dy}. */
  private static IntList common(int[] x, long dx, int[] y, long dy) {
    IntList out = new IntList();
    int i = 0;
    int j = 0;
    while (i < x.length && j < y.length) {
      long a = x[i] + dx;
      long b = y[j] + dy;
      if (a < b) i++;
      else if (a > b) j++;
      else {
        if (a <= Integer.MAX_VALUE) out.add((int) a);
        i++;
        j++;
      }
    }
    return out;
  }

  /** Ascending ids as runs {@code a:b}, the first 8 of them. */
  private static String runs(IntList v) {
    StringBuilder sb = new StringBuilder();
    int n = 0;
    for (int k = 0; k < v.size;) {
      int e = k;
      while (e + 1 < v.size && v.a[e + 1] == v.a[e] + 1) e++;
      if (n == 8) return sb.append(" …").toString();
      if (n++ > 0) sb.append(' ');
      sb.append(v.a[k]);
      if (e > k) sb.append(':').append(v.a[e]);
      k = e + 1;
    }
    return sb.toString();
  }

  /** New titles for the group titles an earlier deck defines too: the first free {@code TITLE_N}. */
  static void titles(List<MergeTree> trees) {
    Set<String> taken = new HashSet<>();
    for (MergeTree t : trees) taken.addAll(t.titles);
    Set<String> seen = new HashSet<>();
    for (MergeTree t : trees) {
      for (String title : t.titles) {
        if (!seen.contains(title)) continue;
        int n = 2;
        while (taken.contains(title + "_" + n)) n++;
        t.renames.put(title, title + "_" + n);
        taken.add(title + "_" + n);
      }
      seen.addAll(t.titles);
    }
  }

  /** Each file's place under its deck's folder: its path in the deck's folder, else {@code outside/NAME}. */
  static void places(MergeTree t, List<Copied> copied) {
    Path dir = t.top.getParent();
    Set<Path> used = new HashSet<>();
    for (Src f : t.files) {
      Path rel = dir.relativize(f.path);
      if (!rel.startsWith("..") && !rel.isAbsolute()) {
        f.rel = rel;
        used.add(rel);
      }
    }
    for (Src f : t.files) {
      if (f.rel != null) continue;
      f.outside = true;
      String name = f.path.getFileName().toString();
      Path rel = Path.of("outside", name);
      for (int n = 2; used.contains(rel); n++) {
        int dot = name.lastIndexOf('.');
        rel = Path.of("outside", dot > 0 ? name.substring(0, dot) + "_" + n + name.substring(dot) : name + "_" + n);
      }
      used.add(rel);
      f.rel = rel;
      copied.add(new Copied(f.path, t.outFolder().resolve(rel)));
    }
  }

  /**
   * The INCLU names that would not reach their file in the output as the solver looks for it (in
   * the including file's folder first): rewritten relative to that folder.
   */
  void rewrites(MergeTree t, List<Renumber.Refusal> refusals) {
    Path rootDir = t.top.getParent();
    Map<Path, Src> byPath = new HashMap<>();
    for (Src f : t.files) byPath.put(f.path, f);
    for (Src f : t.files) {
      for (IncludeLine il : IncludeLine.of(f.deck)) {
        Path p = IncludeWalk.resolve(il.name(), f.path.getParent(), rootDir);
        Src target = p == null ? null : byPath.get(p);
        if (target == null) continue; // refused by the walk
        Path from = t.outFolder().resolve(f.rel).getParent();
        Path to = t.outFolder().resolve(target.rel);
        Path named;
        try {
          named = Path.of(il.name());
        } catch (java.nio.file.InvalidPathException e) {
          named = null;
        }
        if (named != null && !named.isAbsolute() && from.resolve(named).normalize().equals(to)) continue;
        String name = from.relativize(to).toString().replace('\\', '/');
        if (name.indexOf(' ') >= 0 && il.from() + name.length() + 2 > 80) { // a continued name's pieces are trimmed
          refusals.add(new Renumber.Refusal(f.path, il.line(), il.from(), "the include name " + name + " holds blanks and does not fit one line"));
          continue;
        }
        int span = 1;
        while (IncludeLine.continued(f.deck, il.line() + span - 1) && il.line() + span < f.deck.lineCount()) span++;
        f.rewrites.add(new Rewrite(il, span, name, inclu(f.deck, il, name)));
      }
    }
  }

  /** Output files that exist already or cannot be written. */
  static void targets(List<MergeTree> trees, Path out, List<Renumber.Refusal> refusals) {
    List<Path> all = new ArrayList<>();
    all.add(out.resolve(Merge.MASTER));
    for (MergeTree t : trees) {
      for (Src f : t.files) all.add(t.outFolder().resolve(f.rel));
    }
    for (Path p : all) {
      if (Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        refusals.add(new Renumber.Refusal(null, 0, 0, p + " exists already: merge writes no file over another (choose an empty OUTDIR)"));
        continue;
      }
      String why = TreeWrite.unwritable(p);
      if (why != null) refusals.add(new Renumber.Refusal(null, 0, 0, p + " cannot be written: " + why));
    }
  }

  /**
   * INCLU line {@code il} of {@code src} naming {@code name} instead: the bytes before the old name
   * kept, the name (in the old one's quotes) where the old one began, continued past column 80 on
   * lines of their own with {@code &} in column 81.
   */
  private static byte[][] inclu(LineSource src, IncludeLine il, String name) {
    byte[] a = src.bytes(il.line());
    int off = src.start(il.line());
    int from = il.from();
    byte q = a[off + from] == '"' || a[off + from] == '\'' ? a[off + from] : 0;
    byte[] n = (q == 0 ? name : (char) q + name + (char) q).getBytes(StandardCharsets.UTF_8);
    List<byte[]> out = new ArrayList<>();
    int p = 0;
    int at = from;
    do {
      int e = Math.min(n.length, p + 80 - at);
      byte[] l = new byte[e < n.length ? 81 : at + e - p];
      Arrays.fill(l, (byte) ' ');
      if (out.isEmpty()) System.arraycopy(a, off, l, 0, from);
      System.arraycopy(n, p, l, at, e - p);
      if (e < n.length) l[80] = '&';
      out.add(l);
      p = e;
      at = 0;
    } while (p < n.length);
    return out.toArray(new byte[0][]);
  }
}
