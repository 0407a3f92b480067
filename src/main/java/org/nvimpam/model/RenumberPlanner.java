package org.nvimpam.model;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdScanner;
import org.nvimpam.ids.IntList;
import org.nvimpam.lines.LineSource;
import org.nvimpam.model.Renumber.Change;
import org.nvimpam.model.Renumber.Options;
import org.nvimpam.model.Renumber.Refusal;
import org.nvimpam.model.Renumber.Scope;

/**
 * What a renumber changes and what it refuses, before anything is written: which ids change (the
 * old-to-new maps of the changed kinds; a scope's ids, parts with their elements and nodes) and
 * the refusals the whole tree gives (a scope's new ids defined outside it, ids a dense renumber
 * cannot number, lines and fields the table does not describe that may hold a changed id, files
 * that cannot be written). Runs the passes of the pieces ({@link RenumberPiece}) on the workers.
 */
final class RenumberPlanner {
  final Options options;
  final TreeCheck.Progress progress;
  final CardLayouts table = CardLayouts.bundled();
  final int nk = IdKinds.NAMES.size();
  final int[] changeOf = new int[nk]; // by kind: the index of its change, -1 none
  final long[] offsetOf = new long[nk]; // by kind: its offset (0: none, or dense)
  final int mask;
  Scope scope = Scope.ALL;
  // the new bytes of streamed pieces once written, for the next pieces: less garbage, fewer pages touched
  final ConcurrentLinkedQueue<byte[]> spares = new ConcurrentLinkedQueue<>();
  final int[][][] columns = RenumberPiece.columns(table); // by entry, row: [from, to) of each field, 0-based
  final ThreadLocal<IdScanner> scanners = ThreadLocal.withInitial(() -> new IdScanner(table));

  RenumberPlanner(Options options, TreeCheck.Progress progress) {
    this.options = options;
    this.progress = progress;
    Arrays.fill(changeOf, -1);
    int m = 0;
    for (int i = 0; i < options.changes().size(); i++) {
      Change c = options.changes().get(i);
      if (changeOf[c.kind()] >= 0) throw new IllegalArgumentException(IdKinds.name(c.kind()) + " is changed twice");
      changeOf[c.kind()] = i;
      if (!c.dense()) offsetOf[c.kind()] = c.amount();
      m |= IdKinds.bit(c.kind());
    }
    mask = m;
  }

  /** The workers of a run. */
  ExecutorService pool() {
    return Executors.newFixedThreadPool(options.threads(), r -> {
      Thread t = new Thread(r, "nvimpam-renumber");
      t.setDaemon(true);
      return t;
    });
  }

  /** Cuts the files, finds their definitions and rewrites them; the values changed per change. */
  long[] rewrite(List<RenumberFile> files, List<Refusal> refusals) throws IOException {
    int threads = options.threads();
    ExecutorService pool = pool();
    try {
      for (RenumberFile f : files) cut(f, threads);
      int[][] subset = subset(files);
      // an offset's map needs no definitions: they are gathered while the values are rewritten;
      // a scope's new ids are checked against the definitions first
      boolean first = subset != null || options.changes().stream().anyMatch(Change::dense);
      if (first) runAll(pool, files, p -> p.pass1());
      Maps maps = first ? maps(files, subset, refusals) : offsets();
      if (subset != null) clashes(files, maps, refusals);
      for (RenumberFile f : files) {
        for (RenumberPiece p : f.pieces) p.maps = maps;
      }
      runAll(pool, files, p -> p.pass2(!first));
      undescribed(files, first ? maps : maps(files, null, refusals), refusals);
    } finally {
      pool.shutdownNow();
    }
    return changed(files, refusals);
  }

  /** The values changed per change, summed over the pieces of {@code files}; their refusals go to {@code refusals}. */
  long[] changed(List<RenumberFile> files, List<Refusal> refusals) {
    long[] changed = new long[options.changes().size()];
    for (RenumberFile f : files) {
      for (RenumberPiece p : f.pieces) {
        refusals.addAll(p.refusals);
        for (int i = 0; i < changed.length; i++) changed[i] += p.changed[i];
      }
    }
    return changed;
  }

  /** The ids of each changed kind the scope takes, sorted and unique; null for all of them. */
  private int[][] subset(List<RenumberFile> files) {
    if (scope.source() < 0 && scope.parts() == null) return null;
    IntList[] ids = new IntList[nk];
    for (Change c : options.changes()) ids[c.kind()] = new IntList();
    IdScanner s = scanners.get();
    if (scope.parts() == null) {
      LineSource d = files.get(scope.source()).deck;
      int from = IdScanner.cardStart(d, scope.from());
      int to = IdScanner.cardEnd(d, Math.max(scope.to(), from + 1));
      s.scan(d, from, to, files.get(scope.source()).version, false, mask, (line, a, b, kind, lo, hi, def) -> {
        if (def && ids[kind] != null) ids[kind].add(lo);
      });
    } else {
      int[] parts = Arrays.copyOf(scope.parts(), scope.parts().length);
      Arrays.sort(parts);
      for (Change c : options.changes()) {
        if (c.kind() != IdKinds.NODE && c.kind() != IdKinds.ELEMENT && c.kind() != IdKinds.PART) {
          throw new IllegalArgumentException("part= takes the parts, their elements and their nodes: not " + IdKinds.name(c.kind()));
        }
      }
      if (ids[IdKinds.PART] != null) {
        for (int p : parts) ids[IdKinds.PART].add(p);
      }
      int kinds = IdKinds.bit(IdKinds.NODE) | IdKinds.bit(IdKinds.ELEMENT) | IdKinds.bit(IdKinds.PART);
      for (RenumberFile f : files) {
        PartElements pe = new PartElements(s, parts, ids[IdKinds.ELEMENT], ids[IdKinds.NODE]);
        s.scan(f.deck, 0, f.deck.lineCount(), f.version, true, kinds, pe);
        pe.end();
      }
    }
    int[][] out = new int[nk][];
    for (int k = 0; k < nk; k++) {
      if (ids[k] == null) continue;
      int[] v = Arrays.copyOf(ids[k].a, ids[k].size);
      Arrays.sort(v);
      int u = 0;
      for (int i = 0; i < v.length; i++) {
        if (i == 0 || v[i] != v[i - 1]) v[u++] = v[i];
      }
      out[k] = Arrays.copyOf(v, u);
    }
    return out;
  }

  /**
   * The elements of some parts and their nodes, from a scan of element cards: an element's
   * definition opens it, the part and node references after it in the same card are its own.
   */
  private final class PartElements implements IdScanner.Sink {
    final IdScanner s;
    final int[] parts;
    final IntList elements;
    final IntList nodes;
    final IntList own = new IntList(); // the open element's nodes
    int element; // the open element, 0 none
    int entry = -1;
    int part;

    PartElements(IdScanner s, int[] parts, IntList elements, IntList nodes) {
      this.s = s;
      this.parts = parts;
      this.elements = elements;
      this.nodes = nodes;
    }

    @Override
    public void id(int line, int a, int b, int kind, int lo, int hi, boolean def) {
      if (element != 0 && s.entry() != entry) end();
      if (def && kind == IdKinds.ELEMENT) {
        end();
        element = lo;
        entry = s.entry();
        return;
      }
      if (element == 0 || def) return;
      if (kind == IdKinds.PART) part = lo;
      else if (kind == IdKinds.NODE) {
        for (long n = lo; n <= hi; n++) own.add((int) n);
      }
    }

    void end() {
      if (element != 0 && part != 0 && Arrays.binarySearch(parts, part) >= 0) {
        if (elements != null) elements.add(element);
        if (nodes != null) {
          for (int i = 0; i < own.size; i++) nodes.add(own.a[i]);
        }
      }
      element = 0;
      part = 0;
      own.size = 0;
    }
  }

  /** The new ids of a scope that are ids defined outside it: each a refusal, where that id is defined. */
  private void clashes(List<RenumberFile> files, Maps maps, List<Refusal> refusals) {
    for (Change c : options.changes()) {
      int kind = c.kind();
      int[] in = maps.subset[kind];
      IntIntMap clash = new IntIntMap(); // the id defined elsewhere -> the id of the scope that would become it
      for (int id : in) {
        if (!maps.defined(kind, id)) continue;
        long v = maps.map(kind, id);
        if (v > 0 && v != id && maps.defined(kind, (int) v) && Arrays.binarySearch(in, (int) v) < 0 && clash.get((int) v) < 0) {
          clash.put((int) v, id);
        }
      }
      if (clash.size() == 0) continue;
      for (RenumberFile f : files) {
        for (RenumberPiece p : f.pieces) {
          IntList d = p.defs[changeOf[kind]];
          IntList at = p.defLines[changeOf[kind]];
          for (int i = 0; i < d.size; i++) {
            int old = clash.get(d.a[i]);
            if (old < 0) continue;
            refusals.add(f.refusal(at.a[i], 0, IdKinds.name(kind) + " " + old + " would become " + d.a[i]
                + ", which is defined already, outside what is renumbered"));
            clash.put(d.a[i], -1);
          }
        }
      }
    }
  }

  /** Where each file goes, and whether it may be written there. */
  void targets(List<RenumberFile> files, List<Refusal> refusals) {
    List<Path> paths = new ArrayList<>();
    for (RenumberFile f : files) paths.add(f.path);
    List<TreeWrite.Refusal> cannot = new ArrayList<>();
    List<Path> targets = TreeWrite.targets(paths, options.outDir(), options.inPlace(), "renumbers", cannot);
    for (int i = 0; i < files.size(); i++) files.get(i).target = targets.get(i);
    for (TreeWrite.Refusal x : cannot) refusals.add(new Refusal(paths.get(x.file()), 0, 0, x.message()));
  }

  /** Cuts {@code f} into about {@code 4 * threads} pieces that begin where cards begin. */
  private void cut(RenumberFile f, int threads) {
    int n = f.deck.lineCount();
    int parts = Math.max(1, Math.min(4 * threads, n / 20_000));
    int from = 0;
    for (int k = 1; k <= parts; k++) {
      int to = k == parts ? n : IdScanner.cardEnd(f.deck, Math.max(from + 1, (int) ((long) n * k / parts)));
      if (to <= from) continue;
      f.pieces.add(new RenumberPiece(this, f, from, to, k == parts || to == n));
      from = to;
    }
    if (f.pieces.isEmpty()) f.pieces.add(new RenumberPiece(this, f, 0, n, true));
  }

  private interface Pass {
    void run(RenumberPiece p) throws Exception;
  }

  private static void runAll(ExecutorService pool, List<RenumberFile> files, Pass pass) throws IOException {
    List<Future<?>> done = new ArrayList<>();
    for (RenumberFile f : files) {
      for (RenumberPiece p : f.pieces) {
        done.add(pool.submit((Callable<Void>) () -> {
          pass.run(p);
          return null;
        }));
      }
    }
    for (Future<?> d : done) {
      try {
        d.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof IOException io) throw io;
        if (c instanceof RuntimeException r) throw r;
        if (c instanceof Error er) throw er;
        throw new IllegalStateException(c);
      }
    }
  }

  /** The old-to-new maps of the changed kinds. */
  final class Maps {
    final int[][] sorted = new int[nk][]; // by kind: the defined ids, ascending, unique
    final IntIntMap[] dense = new IntIntMap[nk];
    final int[][] subset; // by kind: the ids the scope takes, ascending; null: all

    Maps(int[][] subset) {
      this.subset = subset == null ? new int[nk][] : subset;
    }

    boolean defined(int kind, int id) {
      return sorted[kind] != null && Arrays.binarySearch(sorted[kind], id) >= 0;
    }

    /** Whether {@code id} is an id that changes: defined, and in the scope. */
    boolean changes(int kind, int id) {
      return subset[kind] != null ? Arrays.binarySearch(subset[kind], id) >= 0 : defined(kind, id);
    }

    /**
     * The new id of {@code id}: {@code > 0} ({@code id} itself outside the scope); 0 when it has
     * none (a dense renumber of an id defined nowhere); -1 out of range.
     */
    long map(int kind, int id) {
      if (subset[kind] != null && Arrays.binarySearch(subset[kind], id) < 0) return id;
      IntIntMap d = dense[kind];
      if (d == null) {
        long v = id + offsetOf[kind];
        return v < 1 || v > Integer.MAX_VALUE ? -1 : v;
      }
      int v = d.get(id);
      return v < 0 ? 0 : v;
    }
  }

  /** The maps of offsets only, which need no definitions. */
  Maps offsets() {
    return new Maps(null);
  }

  /** The maps of the definitions {@code files}' pieces found; {@code subset}: the ids the scope takes, null all. */
  Maps maps(List<RenumberFile> files, int[][] subset, List<Refusal> refusals) {
    Maps m = new Maps(subset);
    for (Change c : options.changes()) {
      int kind = c.kind();
      IntList all = new IntList();
      IntIntMap map = c.dense() ? new IntIntMap() : null;
      long next = c.amount();
      for (RenumberFile f : files) {
        for (RenumberPiece p : f.pieces) {
          IntList defs = p.defs[changeOf[kind]];
          for (int i = 0; i < defs.size; i++) {
            int id = defs.a[i];
            all.add(id);
            if (map != null && map.get(id) < 0 && (m.subset[kind] == null || Arrays.binarySearch(m.subset[kind], id) >= 0)) {
              if (next > Integer.MAX_VALUE) {
                refusals.add(new Refusal(null, 0, 0, IdKinds.name(kind) + " " + id + " would get an id past " + Integer.MAX_VALUE));
                next = Integer.MIN_VALUE; // told once
              }
              if (next > 0) map.put(id, (int) next++);
            }
          }
        }
      }
      int[] s = Arrays.copyOf(all.a, all.size);
      Arrays.sort(s);
      int u = 0;
      for (int i = 0; i < s.length; i++) {
        if (i == 0 || s[i] != s[i - 1]) s[u++] = s[i];
      }
      m.sorted[kind] = Arrays.copyOf(s, u);
      m.dense[kind] = map;
    }
    return m;
  }

  /** Lines and fields the table does not describe that hold a number that is an id being changed. */
  void undescribed(List<RenumberFile> files, Maps maps, List<Refusal> refusals) {
    for (RenumberFile f : files) {
      for (RenumberPiece p : f.pieces) {
        for (Unread u : p.unread) {
          int line = u.line();
          int entry = u.entry();
          String hit = numberNamingId(u, maps);
          if (hit == null) continue;
          String card = entry < 0 ? "a card the card-layout table does not know"
              : table.entry(entry).key() + ", a line its layout does not describe";
          refusals.add(f.refusal(line, 0, "line of " + card + " holds " + hit
              + ": an id there would be missed (describe the card's rows in the table, or edit the line yourself)"));
        }
        IntList uf = p.uncertainFields;
        for (int i = 0; i < uf.size; i += 6) {
          int kind = uf.a[i + 3];
          int value = uf.a[i + 4];
          if (value <= 0 || !maps.changes(kind, value)) continue;
          CardLayout c = table.entry(uf.a[i + 5]);
          refusals.add(f.refusal(uf.a[i], uf.a[i + 1], c.key() + " holds " + value + " in a field that names no id kind in the table, "
              + "but may name " + IdKinds.name(kind) + " " + value + " (edit it yourself, or tell the table its kind)"));
        }
      }
    }
  }

  /**
   * A line the table does not describe: its integers (no part of a real number; blanks, commas and
   * letters around them) that may be ids, up to a run of more digits than an id has ({@code run},
   * which may be ids side by side), kept until the definitions are known.
   */
  record Unread(int line, int entry, int[] values, String run) {}

  /**
   * The first integer of the line that is a changed id, as {@code "N, which may be a KIND id"};
   * or a run of more digits than an id has; null when none.
   */
  private String numberNamingId(Unread u, Maps maps) {
    for (int v : u.values()) {
      List<String> kinds = new ArrayList<>();
      for (Change c : options.changes()) {
        if (maps.changes(c.kind(), v)) kinds.add(IdKinds.name(c.kind()));
      }
      if (!kinds.isEmpty()) return v + ", which may be a " + String.join(" or ", kinds) + " id";
    }
    return u.run() == null ? null : u.run() + " (digits side by side, which may hold ids)";
  }

  static Unread unread(LineSource d, int line, int base, int entry) {
    IntList values = new IntList();
    String run = LineIntegers.read(d.bytes(line), d.start(line), d.contentLength(line), values);
    return new Unread(base + line, entry, Arrays.copyOf(values.a, values.size), run);
  }
}
