package org.nvimpam.model;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.lines.LineSource;
import org.nvimpam.lines.Lines;
import org.nvimpam.model.MergeOutput.Out;
import org.nvimpam.model.MergeTree.Rewrite;
import org.nvimpam.model.MergeTree.Src;

/**
 * The offset of a deck's tree for a merge ({@link Renumber}): from a staging copy whose INCLU
 * names are already rewritten, or in memory for a plan.
 */
final class MergeOffset {
  private final Merge m;

  MergeOffset(Merge m) {
    this.m = m;
  }

  /** The deck's tree in {@code dir/FOLDER}, INCLU names rewritten; the other files linked (or copied). */
  void stage(MergeTree t, Path dir) throws IOException {
    Path base = dir.resolve(t.folder);
    for (Src f : t.files) {
      f.deck = null; // the offset reads the staged files
      f.staged = base.resolve(f.rel);
      Files.createDirectories(f.staged.getParent());
      if (f.rewrites.isEmpty()) {
        try {
          Files.createSymbolicLink(f.staged, f.path);
        } catch (UnsupportedOperationException | IOException e) {
          Files.copy(f.path, f.staged);
        }
        continue;
      }
      Lines l = Lines.split(Files.readAllBytes(f.path));
      try (OutputStream o = Files.newOutputStream(f.staged)) {
        o.write(rewritten(l, f.rewrites, FileBytes.lastTerminated(f.path, Files.size(f.path))));
      }
    }
  }

  /** The file's bytes with its INCLU names rewritten. */
  private static byte[] rewritten(LineSource l, List<Rewrite> rewrites, boolean lastTerminated) {
    Out o = new Out();
    int next = 0;
    for (Rewrite r : rewrites) {
      int line = r.at().line();
      for (int i = next; i < line; i++) o.line(l, i, lastTerminated);
      byte[] a = l.bytes(line);
      int off = l.start(line);
      byte[] cr = Arrays.copyOfRange(a, off + l.contentLength(line), off + l.length(line));
      for (int k = 0; k < r.lines().length; k++) {
        o.put(r.lines()[k]);
        o.put(cr);
        if (k + 1 < r.lines().length || !(line + r.span() == l.lineCount() && !lastTerminated)) o.nl();
      }
      next = line + r.span();
    }
    for (int i = next; i < l.lineCount(); i++) o.line(l, i, lastTerminated);
    return o.bytes();
  }

  /** Offsets the staged tree into {@code dir/FOLDER}; a deck with no offset is used as staged. */
  void offset(MergeTree t, Path dir, List<Renumber.Refusal> refusals) throws IOException {
    List<Renumber.Change> changes = new ArrayList<>();
    for (int k = 1; k < m.nk; k++) {
      if (t.offsets[k] != 0 && t.defs[k].length > 0) changes.add(new Renumber.Change(k, false, t.offsets[k]));
    }
    if (changes.isEmpty()) {
      for (Src f : t.files) f.current = f.staged;
      return;
    }
    Renumber.Result r;
    try {
      r = new Renumber(new Renumber.Options(changes, dir.resolve(t.folder), false, m.options.threads()), m.progress).run(t.files.get(0).staged);
    } catch (IncludeFiles.Unreadable e) {
      throw new IOException(t.files.get(0).staged + " " + e.getMessage(), e);
    }
    Map<Path, Src> byStaged = new HashMap<>();
    for (Src f : t.files) byStaged.put(f.staged, f);
    for (Renumber.Refusal x : r.refusals()) {
      Src f = x.file() == null ? null : byStaged.get(x.file());
      refusals.add(f == null ? new Renumber.Refusal(t.top, 0, 0, x.message())
          : new Renumber.Refusal(f.path, original(f, x.line()), x.col(), x.message()));
    }
    for (int i = 0; i < r.written().size(); i++) byStaged.get(r.files().get(i)).current = r.written().get(i);
  }

  /** Offsets the tree in memory, its INCLU names rewritten first, as {@link Renumber#plan} changes it: each file's {@code result}. */
  void offset(MergeTree t, List<Renumber.Refusal> refusals) throws IOException {
    List<Renumber.Source> sources = new ArrayList<>();
    for (Src f : t.files) {
      LineSource staged = f.rewrites.isEmpty() ? f.deck : Lines.split(rewritten(f.deck, f.rewrites, f.terminated));
      sources.add(new Renumber.Source(f.path, staged, f.version));
    }
    List<Renumber.Change> changes = new ArrayList<>();
    for (int k = 1; k < m.nk; k++) {
      if (t.offsets[k] != 0 && t.defs[k].length > 0) changes.add(new Renumber.Change(k, false, t.offsets[k]));
    }
    Renumber.Plan p = changes.isEmpty() ? null
        : new Renumber(new Renumber.Options(changes, null, false, m.options.threads()), m.progress).plan(sources, Renumber.Scope.ALL);
    if (p != null && p.refused()) {
      for (Renumber.Refusal x : p.refusals()) {
        Src f = x.source() < 0 ? null : t.files.get(x.source());
        refusals.add(f == null ? new Renumber.Refusal(t.top, 0, 0, x.message())
            : new Renumber.Refusal(f.path, original(f, x.line()), x.col(), x.message()));
      }
      return;
    }
    for (int i = 0; i < t.files.size(); i++) {
      t.files.get(i).result = patched(sources.get(i).lines(), p == null ? List.of() : p.hunks().get(i));
    }
  }

  /** {@code src} with the hunks' lines in place of theirs, as a copy. */
  private static Lines patched(LineSource src, List<Renumber.Hunk> hunks) {
    int n = src.lineCount();
    long bytes = 0;
    for (int i = 0; i < n; i++) bytes += src.length(i);
    Lines.Builder b = new Lines.Builder(n + 8, (int) Math.min(Integer.MAX_VALUE - 64, bytes + 64));
    int next = 0;
    for (Renumber.Hunk h : hunks) {
      for (int i = next; i < h.first(); i++) b.add(src.bytes(i), src.start(i), src.length(i));
      LineSource l = h.lines();
      for (int i = 0; i < l.lineCount(); i++) b.add(l.bytes(i), l.start(i), l.length(i));
      next = h.last();
    }
    for (int i = next; i < n; i++) b.add(src.bytes(i), src.start(i), src.length(i));
    return b.build();
  }

  /** The line of the original file that staged line {@code line} comes from. */
  private static int original(Src f, int line) {
    int shift = 0;
    for (Rewrite r : f.rewrites) {
      int staged = r.at().line() + shift;
      int lines = r.lines().length;
      if (line < staged) break;
      if (line < staged + lines) return r.at().line();
      shift += lines - r.span();
    }
    return line - shift;
  }
}
