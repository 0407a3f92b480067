package org.nvimpam.model;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.deck.RowWalker;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdNames;
import org.nvimpam.ids.IdScanner;
import org.nvimpam.ids.IntList;
import org.nvimpam.ids.RenamePlan;
import org.nvimpam.lines.LineSource;
import org.nvimpam.lines.Lines;
import org.nvimpam.model.Merge.LeftOut;
import org.nvimpam.model.MergeTree.Src;

/**
 * A merge's output: each deck's files with renamed group titles, the top file without its control
 * section (the lines left out listed), the master deck, and the write of all files into place.
 */
final class MergeOutput {
  private static final long INCLU = LineBytes.headerWord(LineBytes.ascii("INCLU /"), 0, 7);

  private final Merge m;

  MergeOutput(Merge m) {
    this.m = m;
  }

  /**
   * The control section of a deck's top file: lines {@code [0, end)} but those {@code kept} (INCLU
   * cards); {@code listed}: its lines that name what is left out (the lines before the first card
   * that are no comment, the header line of each control card).
   */
  record ControlSection(Lines lines, int end, boolean[] kept, IntList listed) {}

  /** One output file: its bytes, or the file they are in; {@code src} the deck and file it comes from. */
  record Output(Path target, byte[] bytes, Path from, int[] src) {}

  /**
   * The deck's files as they go out: renamed group titles, the top file without its control
   * section (the first deck's goes to the master); the others as the offset wrote them.
   */
  ControlSection finish(MergeTree t, List<Output> outputs, List<LeftOut> left, List<Renumber.Refusal> refusals) throws IOException {
    ControlSection section = null;
    for (int n = 0; n < t.files.size(); n++) {
      Src f = t.files.get(n);
      Path target = t.outFolder().resolve(f.rel);
      int[] from = {t.index, n};
      boolean top = n == 0;
      if (!top && t.renames.isEmpty()) {
        outputs.add(f.result != null ? new Output(target, bytes(f.result, null, f.terminated), null, from) : new Output(target, null, f.current, from));
        continue;
      }
      boolean terminated = f.result != null ? f.terminated : FileBytes.lastTerminated(f.current, Files.size(f.current));
      Lines src = renamed(f, f.result != null ? f.result : Lines.split(Files.readAllBytes(f.current)), t.renames, refusals);
      if (top) {
        section = section(src);
        if (t.index > 0) {
          for (int k = 0; k < section.listed().size; k++) {
            int i = section.listed().a[k];
            left.add(new LeftOut(f.path, i, new String(src.bytes(i), src.start(i), src.contentLength(i), StandardCharsets.ISO_8859_1).trim()));
          }
        }
      }
      outputs.add(new Output(target, bytes(src, top ? section : null, terminated), null, from));
    }
    return section;
  }

  /**
   * {@code src} with its group titles renamed, each as {@link RenamePlan} renames one: one scan
   * finds the cards that name a title being renamed, and the plans read those cards only (a
   * refused plan is made again on the whole file, whose line numbers its message gives).
   */
  private Lines renamed(Src f, Lines src, Map<String, String> renames, List<Renumber.Refusal> refusals) {
    if (renames.isEmpty()) return src;
    Set<Integer> titles = new HashSet<>();
    for (String t : renames.keySet()) titles.add(IdNames.intern(t));
    boolean[] hits = new boolean[src.lineCount()];
    boolean[] any = {false};
    IdScanner sc = new IdScanner(m.table);
    Lines all = src;
    sc.scan(src, 0, src.lineCount(), f.version, true, IdKinds.bit(IdKinds.GROUP), (line, a, b, kind, lo, hi, def) -> {
      if (kind != IdKinds.GROUP || !titles.contains(lo) || hits[line]) return;
      Arrays.fill(hits, IdScanner.cardStart(all, line), IdScanner.cardEnd(all, line + 1), true);
      any[0] = true;
    });
    if (!any[0]) return src;
    int[] lines = indices(hits);
    for (Map.Entry<String, String> e : renames.entrySet()) {
      long key = IdKinds.key(IdKinds.GROUP, IdNames.intern(e.getKey()));
      RenamePlan plan = RenamePlan.make(new Picked(src, lines), f.version, sc, key, e.getValue());
      if (plan.refusal() != null) {
        plan = RenamePlan.make(src, f.version, sc, key, e.getValue());
        refusals.add(new Renumber.Refusal(f.path, 0, 0, "group '" + e.getKey() + "' cannot become '" + e.getValue() + "': " + plan.refusal()));
        continue;
      }
      if (plan.count() == 0) continue;
      src = applied(src, plan, lines);
      if (plan.addCount() > 0) lines = indices(shifted(lines, plan, src.lineCount()));
    }
    return src;
  }

  /** Lines {@code lines} of {@code src}, in order. */
  private record Picked(Lines src, int[] lines) implements LineSource {
    @Override
    public int lineCount() {
      return lines.length;
    }

    @Override
    public byte[] bytes(int i) {
      return src.bytes(lines[i]);
    }

    @Override
    public int start(int i) {
      return src.start(lines[i]);
    }

    @Override
    public int length(int i) {
      return src.length(lines[i]);
    }
  }

  private static int[] indices(boolean[] picked) {
    IntList l = new IntList();
    for (int i = 0; i < picked.length; i++) {
      if (picked[i]) l.add(i);
    }
    return Arrays.copyOf(l.a, l.size);
  }

  /** The lines picked after the plan, in a file of {@code count} lines: those of {@code lines}, and those the plan adds. */
  private static boolean[] shifted(int[] lines, RenamePlan p, int count) {
    boolean[] out = new boolean[count];
    int added = 0;
    int k = 0;
    for (int i = 0; i < lines.length; i++) {
      out[lines[i] + added] = true;
      for (; k < p.addCount() && p.addAt()[k] == i; k++) {
        for (int x = 0; x < p.adds()[k].length; x++) out[lines[i] + ++added] = true;
      }
    }
    return out;
  }

  /**
   * The control section of a top file: the lines before its first card, and its control cards
   * after them (each up to its last line that is no comment), up to the first card that is none.
   * INCLU cards are kept where they are.
   */
  private ControlSection section(Lines src) {
    int n = src.lineCount();
    boolean[] kept = new boolean[n];
    IntList listed = new IntList();
    RowWalker w = new RowWalker(m.table);
    int i = 0;
    int end = 0;
    while (i < n) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int len = src.contentLength(i);
      long word = LineBytes.headerWord(a, off, len);
      if (word == 0) {
        i++;
        if (!LineBytes.isComment(a, off, len) && !LineBytes.isBlank(a, off, len)) {
          end = i;
          listed.add(i - 1);
        }
        continue;
      }
      int g = w.groupAt(src, i);
      if (g < 0 || !"Control".equals(m.table.entry(m.table.group(g)[0]).category())) break;
      int next = w.skipCard(src, i);
      int last = next;
      while (last > i + 1 && (LineBytes.isComment(src.bytes(last - 1), src.start(last - 1), src.contentLength(last - 1))
          || LineBytes.isBlank(src.bytes(last - 1), src.start(last - 1), src.contentLength(last - 1)))) last--;
      if (word == INCLU) { // kept where it is, and no end of the section
        Arrays.fill(kept, i, last, true);
      } else {
        listed.add(i);
        end = last;
      }
      i = next;
    }
    return new ControlSection(src, end, kept, listed);
  }

  /** {@code src} with the plan's edits and added lines; the plan's line {@code i} is line {@code lines[i]}. */
  private static Lines applied(Lines src, RenamePlan p, int[] lines) {
    Lines.Builder b = new Lines.Builder(src.lineCount() + 8, 64 * src.lineCount() + 64);
    int e = 0;
    int add = 0;
    for (int i = 0; i < src.lineCount(); i++) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int raw = src.length(i);
      if (e < p.count() && lines[p.at()[3 * e]] == i) {
        Out o = new Out();
        int pos = 0;
        while (e < p.count() && lines[p.at()[3 * e]] == i) {
          int s = p.at()[3 * e + 1];
          o.put(Arrays.copyOfRange(a, off + pos, off + s));
          o.put(p.texts()[e]);
          pos = p.at()[3 * e + 2];
          e++;
        }
        o.put(Arrays.copyOfRange(a, off + pos, off + raw));
        byte[] l = o.bytes();
        b.add(l, 0, l.length);
      } else {
        b.add(a, off, raw);
      }
      while (add < p.addCount() && lines[p.addAt()[add]] == i) {
        byte[] cr = Arrays.copyOfRange(a, off + src.contentLength(i), off + raw);
        for (byte[] l : p.adds()[add]) {
          byte[] x = Arrays.copyOf(l, l.length + cr.length);
          System.arraycopy(cr, 0, x, l.length, cr.length);
          b.add(x, 0, x.length);
        }
        add++;
      }
    }
    return b.build();
  }

  /** The file's bytes, the lines of {@code drop}'s control section that are not kept left out. */
  private static byte[] bytes(LineSource src, ControlSection drop, boolean terminated) {
    Out o = new Out();
    for (int i = 0; i < src.lineCount(); i++) {
      if (drop != null && i < drop.end() && !drop.kept()[i]) continue;
      o.line(src, i, terminated);
    }
    return o.bytes();
  }

  /** The first deck's control section, then an INCLU line per deck (in the first deck's line ending). */
  static byte[] master(List<MergeTree> trees, ControlSection c, Path out) {
    Out o = new Out();
    byte[] cr = new byte[0];
    if (c != null) {
      Lines l = c.lines();
      for (int i = 0; i < c.end(); i++) {
        if (c.kept()[i]) continue;
        o.put(l.bytes(i), l.start(i), l.length(i));
        o.nl();
      }
      if (l.lineCount() > 0 && l.length(0) > l.contentLength(0)) cr = new byte[] {'\r'};
    }
    for (MergeTree t : trees) {
      String name = out.relativize(t.outFolder().resolve(t.files.get(0).rel)).toString().replace('\\', '/');
      o.put(("INCLU / " + name).getBytes(StandardCharsets.UTF_8));
      o.put(cr);
      o.nl();
    }
    return o.bytes();
  }

  /** Writes every output to a temporary file beside its target, then moves them all into place. */
  static List<Path> write(List<Output> outputs) throws IOException {
    List<Path> temps = new ArrayList<>();
    List<Path> written = new ArrayList<>();
    try {
      for (Output x : outputs) {
        Files.createDirectories(x.target().getParent());
        Path tmp = TreeWrite.temp(x.target(), "merge");
        temps.add(tmp);
        if (x.bytes() != null) {
          try (OutputStream o = Files.newOutputStream(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            o.write(x.bytes());
          }
        } else {
          Files.copy(x.from(), tmp, StandardCopyOption.REPLACE_EXISTING);
        }
      }
      for (int i = 0; i < outputs.size(); i++) {
        Files.move(temps.get(i), outputs.get(i).target(), StandardCopyOption.ATOMIC_MOVE);
        written.add(outputs.get(i).target());
      }
      temps.clear();
    } finally {
      for (Path t : temps) Files.deleteIfExists(t);
    }
    return written;
  }

  static void delete(Path dir) throws IOException {
    if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
        Files.delete(d);
        return FileVisitResult.CONTINUE;
      }
    });
  }

  /** A growable byte array. */
  static final class Out {
    byte[] a = new byte[256];
    int size;

    void put(byte[] b) {
      put(b, 0, b.length);
    }

    void put(byte[] b, int off, int n) {
      if (n <= 0) return;
      if (size + n > a.length) a = Arrays.copyOf(a, Math.max(size + n, a.length * 2));
      System.arraycopy(b, off, a, size, n);
      size += n;
    }

    void nl() {
      put(new byte[] {'\n'});
    }

    void line(LineSource l, int i, boolean lastTerminated) {
      put(l.bytes(i), l.start(i), l.length(i));
      if (i < l.lineCount() - 1 || lastTerminated) nl();
    }

    byte[] bytes() {
      return Arrays.copyOf(a, size);
    }
  }
}
