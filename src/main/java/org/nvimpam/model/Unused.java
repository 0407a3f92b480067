package org.nvimpam.model;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.ChunkLines;
import org.nvimpam.deck.DeckChunk;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdScanner;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.ids.IntList;
import org.nvimpam.lines.LineSource;

/**
 * The definitions of a deck's include tree that nothing references (:NvimpamUnused, {@code
 * unused}): nodes, materials (each material kind), functions, groups and frames no reference
 * names, and parts no element names. A reference is every id field of the card-layout table with
 * {@code ref=KIND} and every GES item ({@code NOD 17}, {@code GRP 'doors'}) and range ({@code NOD
 * 3:9} uses every node from 3 to 9), as {@link IdScanner} reports them, wherever they are: elements,
 * constraints, rigid bodies, loads, contacts, outputs, other groups. A reference inside a card that
 * is itself unused (a MATER's FUNCT nobody else names, a GROUP's items) does not count: the
 * definitions are found again without those cards until nothing changes.
 *
 * <p>A definition's lines are its card's (a NODE line; a PART, MATER, FUNCT or GROUP card through
 * its last line that is no comment or blank); a card that defines an id of another kind too (an
 * element) is never removed. The rows the table does not fully describe (cards without an entry,
 * extra lines, blocks, integer fields of no kind that may name one) are read for numbers that are
 * unused ids, and for unused groups' titles: those are {@link Warning}s (refusals of a removal),
 * as are include files that cannot be read.
 *
 * <p>Feed it each file of the tree in pieces that begin where a card begins ({@link #scan}), then
 * {@link #finish}. Not thread-safe.
 */
public final class Unused {
  /** The kinds whose unused definitions are found, in the order they are told. */
  public static final List<String> KIND_NAMES = List.of("node", "part", "material", "thmat", "vamat", "pfmat", "mmat", "function",
      "group", "frame");

  /**
   * One unused definition: file {@code file} (its index in the tree), 0-based {@code line} of its
   * card and byte columns {@code [col, end)} of its id; {@code lines} from {@code line} are what a
   * removal takes (0: it is kept, {@code message} says why); {@code name}: the id as the deck writes
   * it (a group's title).
   */
  public record Item(int file, int line, int col, int end, int kind, int id, String name, int lines, String message) {
    public boolean removable() {
      return lines > 0;
    }

    public long key() {
      return IdKinds.key(kind, id);
    }
  }

  /** A reason the list may be wrong (a refusal of a removal), at 0-based {@code line} and byte {@code col} of file {@code file}. */
  public record Warning(int file, int line, int col, String message) {}

  /** What was found: the items in file and line order, then the warnings. */
  public record Result(List<Path> files, List<Item> items, List<Warning> warnings, long lines) {
    /** The items a removal takes out. */
    public List<Item> removable() {
      return items.stream().filter(Item::removable).toList();
    }
  }

  private final CardLayouts table = CardLayouts.bundled();
  private final IdScanner scanner = new IdScanner(table);
  private final boolean[] target = new boolean[IdKinds.NAMES.size()];
  private final int elementKind = IdKinds.ELEMENT;

  // the definitions of the target kinds, in file and line order
  private int nDefs;
  private int[] dId = new int[1024];
  private byte[] dKind = new byte[1024];
  private long[] dLoc = new long[1024]; // file << 40 | line of its card
  private int[] dCol = new int[1024]; // col | end << 16 of its id
  private int[] dLines = new int[1024]; // the lines its card's removal takes; 0: its card defines another kind too
  private int[] dCard = new int[1024]; // its card in cFirst..., or -1 (a card of one definition and no reference)
  private final java.util.Map<Integer, String> titles = new java.util.HashMap<>(); // by definition: a group's title

  // cards that define ids of the target kinds only and hold references or several definitions
  private final IntList cFirst = new IntList(); // first definition
  private final IntList cCount = new IntList();
  private final IntList cRefFrom = new IntList(); // its references: cRefs[3 * from, 3 * to)
  private final IntList cRefTo = new IntList();
  private final IntList cRefs = new IntList(); // kind, lo, hi each

  // references that always count (their cards stay)
  private final KeyBits refs = new KeyBits();
  private final IntList[] ranges = new IntList[IdKinds.NAMES.size()]; // lo, hi each
  private final KeyBits elementParts = new KeyBits(); // parts an element names

  // what the table does not describe
  private final List<byte[]> uText = new ArrayList<>();
  private final IntList uAt = new IntList(); // file, line each
  private final IntList uFields = new IntList(); // file, line, col, kind, value each
  private final List<Warning> warnings = new ArrayList<>();

  // the card being read
  private int file;
  private int base;
  private LineSource src;
  private int lastLine;
  private int card; // its header line in the piece, -1 before the first
  private int cardDefs; // its first definition
  private boolean cardOther; // it defines an id of another kind
  private boolean cardElement; // it defines an element
  private final IntList pending = new IntList(); // its references: kind, lo, hi each

  public Unused() {
    for (String k : KIND_NAMES) target[IdKinds.code(k)] = true;
  }

  /** Whether unused ids of {@code kind} are found. */
  public boolean target(int kind) {
    return kind > 0 && kind < target.length && target[kind];
  }

  /**
   * Reads lines {@code [0, src.lineCount())} of file {@code file}, which are its lines from {@code
   * base} on; {@code src} begins where a card begins (or at the file's first line) and ends where
   * one ends.
   */
  public void scan(int file, LineSource src, int base, int version) {
    this.file = file;
    this.base = base;
    this.src = src;
    lastLine = -1;
    card = -1;
    cardDefs = nDefs;
    cardOther = false;
    cardElement = false;
    pending.size = 0;
    scanner.undescribed(new IdScanner.Undescribed() {
      @Override
      public void line(int line, int entry) {
        if (entry >= 0 && "Control".equals(table.entry(entry).category())) return; // solver controls: no ids
        int s = src.start(line);
        uText.add(Arrays.copyOfRange(src.bytes(line), s, s + src.contentLength(line)));
        uAt.add(Unused.this.file);
        uAt.add(Unused.this.base + line);
      }

      @Override
      public void field(int line, int from, int to, int kind, int value) {
        if (!target(kind) || value <= 0) return;
        uFields.add(Unused.this.file);
        uFields.add(Unused.this.base + line);
        uFields.add(from);
        uFields.add(kind);
        uFields.add(value);
      }
    });
    try {
      scanner.scan(src, 0, src.lineCount(), version, true, this::id);
      flush();
    } finally {
      scanner.undescribed(null);
      this.src = null;
    }
  }

  /** An include file of the tree could not be read: its references are unknown. */
  public void includeProblem(int file, int line, int col, String message) {
    warnings.add(new Warning(file, line, col, message + ": the ids it references are not known"));
  }

  private void id(int line, int from, int to, int kind, int lo, int hi, boolean def) {
    int cs = cardAt(line);
    if (cs != card) {
      flush();
      card = cs;
    }
    if (def) {
      if (kind == elementKind) cardElement = true;
      if (!target(kind)) {
        cardOther = true;
        return;
      }
      grow();
      dId[nDefs] = lo;
      dKind[nDefs] = (byte) kind;
      dLoc[nDefs] = ((long) file << 40) | (base + (card < 0 ? line : card));
      dCol[nDefs] = Math.min(from, 0xFFFF) | Math.min(to, 0xFFFF) << 16;
      dCard[nDefs] = -1;
      if (IdKinds.named(kind)) {
        titles.put(nDefs, new String(src.bytes(line), src.start(line) + from, to - from, StandardCharsets.ISO_8859_1));
      }
      nDefs++;
    } else if (target(kind)) {
      pending.add(kind);
      pending.add(lo);
      pending.add(hi);
    }
  }

  /** The header line of the card holding {@code line} (lines come in order): -1 before the first. */
  private int cardAt(int line) {
    for (int i = line; i > lastLine; i--) {
      if (LineBytes.headerWord(src.bytes(i), src.start(i), src.contentLength(i)) != 0) {
        lastLine = line;
        return i;
      }
    }
    lastLine = line;
    return card;
  }

  /** The card read ends: its definitions and references are kept. */
  private void flush() {
    int nd = nDefs - cardDefs;
    if (nd > 0 && !cardOther && card >= 0) {
      int lines = extent(src, card);
      for (int d = cardDefs; d < nDefs; d++) dLines[d] = lines;
      if (nd > 1 || pending.size > 0) {
        int c = cFirst.size;
        cFirst.add(cardDefs);
        cCount.add(nd);
        cRefFrom.add(cRefs.size / 3);
        for (int i = 0; i < pending.size; i++) cRefs.add(pending.a[i]);
        cRefTo.add(cRefs.size / 3);
        for (int d = cardDefs; d < nDefs; d++) dCard[d] = c;
      }
    } else {
      for (int d = cardDefs; d < nDefs; d++) dLines[d] = 0;
      for (int i = 0; i < pending.size; i += 3) {
        int kind = pending.a[i];
        int lo = pending.a[i + 1];
        int hi = pending.a[i + 2];
        if (kind == IdKinds.PART && cardElement) elementParts.add(IdKinds.key(kind, lo));
        if (lo == hi) {
          refs.add(IdKinds.key(kind, lo));
        } else {
          if (ranges[kind] == null) ranges[kind] = new IntList();
          ranges[kind].add(lo);
          ranges[kind].add(hi);
        }
      }
    }
    pending.size = 0;
    cardDefs = nDefs;
    cardOther = false;
    cardElement = false;
  }

  /** How many lines the card at {@code h} takes: through its last line that is no comment or blank. */
  private static int extent(LineSource src, int h) {
    int e = IdScanner.cardEnd(src, h + 1);
    while (e > h + 1 && blankOrComment(src, e - 1)) e--;
    return e - h;
  }

  private static boolean blankOrComment(LineSource src, int i) {
    byte[] a = src.bytes(i);
    int off = src.start(i);
    int len = src.contentLength(i);
    if (LineBytes.isComment(a, off, len)) return true;
    return LineBytes.skipSpaces(a, off, off + len) == off + len;
  }

  private void grow() {
    if (nDefs < dId.length) return;
    int n = dId.length * 2;
    dId = Arrays.copyOf(dId, n);
    dKind = Arrays.copyOf(dKind, n);
    dLoc = Arrays.copyOf(dLoc, n);
    dCol = Arrays.copyOf(dCol, n);
    dLines = Arrays.copyOf(dLines, n);
    dCard = Arrays.copyOf(dCard, n);
  }

  /** Sorted disjoint ranges: lo, hi each. */
  private static int[] merged(IntList r) {
    if (r == null || r.size == 0) return new int[0];
    int n = r.size / 2;
    long[] p = new long[n];
    for (int i = 0; i < n; i++) p[i] = ((long) r.a[2 * i] << 32) | (r.a[2 * i + 1] & 0xFFFFFFFFL);
    Arrays.sort(p);
    IntList out = new IntList();
    for (long x : p) {
      int lo = (int) (x >>> 32);
      int hi = (int) x;
      if (out.size > 0 && lo <= out.a[out.size - 1] + 1L) {
        out.a[out.size - 1] = Math.max(out.a[out.size - 1], hi);
      } else {
        out.add(lo);
        out.add(hi);
      }
    }
    return Arrays.copyOf(out.a, out.size);
  }

  private static boolean inRanges(int[] r, int id) {
    int lo = 0;
    int hi = r.length / 2 - 1;
    while (lo <= hi) {
      int m = (lo + hi) >>> 1;
      if (id < r[2 * m]) hi = m - 1;
      else if (id > r[2 * m + 1]) lo = m + 1;
      else return true;
    }
    return false;
  }

  /**
   * The unused definitions, found again without the cards found unused until nothing changes;
   * then the rows the table does not describe that may name one of them.
   */
  public Result finish(List<Path> files, long lines) {
    int nk = IdKinds.NAMES.size();
    int[][] fixed = new int[nk][];
    for (int k = 0; k < nk; k++) fixed[k] = merged(ranges[k]);
    int nc = cFirst.size;
    boolean[] gone = new boolean[nc];
    int[] round = new int[nDefs]; // by definition: the round it was found unused in, from 1; 0 used
    boolean[] removable = new boolean[nDefs];
    for (int r = 1;; r++) {
      KeyBits cond = new KeyBits();
      IntList[] cr = new IntList[nk];
      for (int c = 0; c < nc; c++) {
        if (gone[c]) continue;
        for (int i = cRefFrom.a[c]; i < cRefTo.a[c]; i++) {
          int kind = cRefs.a[3 * i];
          int lo = cRefs.a[3 * i + 1];
          int hi = cRefs.a[3 * i + 2];
          if (lo == hi) {
            cond.add(IdKinds.key(kind, lo));
          } else {
            if (cr[kind] == null) cr[kind] = new IntList();
            cr[kind].add(lo);
            cr[kind].add(hi);
          }
        }
      }
      int[][] condRanges = new int[nk][];
      for (int k = 0; k < nk; k++) condRanges[k] = merged(cr[k]);
      for (int d = 0; d < nDefs; d++) {
        int kind = dKind[d];
        long key = IdKinds.key(kind, dId[d]);
        boolean named = refs.has(key) || inRanges(fixed[kind], dId[d]) || cond.has(key) || inRanges(condRanges[kind], dId[d]);
        boolean unused = kind == IdKinds.PART ? !elementParts.has(key) : !named;
        if (unused && round[d] == 0) round[d] = r;
        removable[d] = unused && !named && dLines[d] > 0;
      }
      boolean changed = false;
      for (int c = 0; c < nc; c++) {
        if (gone[c]) continue;
        boolean all = true;
        for (int d = cFirst.a[c]; d < cFirst.a[c] + cCount.a[c]; d++) all &= removable[d];
        if (all) {
          gone[c] = true;
          changed = true;
        }
      }
      if (!changed) break;
    }
    List<Item> items = new ArrayList<>();
    KeyBits going = new KeyBits();
    for (int d = 0; d < nDefs; d++) {
      if (round[d] == 0) continue;
      int kind = dKind[d];
      long key = IdKinds.key(kind, dId[d]);
      int c = dCard[d];
      boolean cardGoes = dLines[d] > 0 && (c < 0 || gone[c]);
      String name = IdKinds.named(kind) ? titles.get(d) : Integer.toString(dId[d]);
      String what = IdKinds.name(kind) + " " + (IdKinds.named(kind) ? "'" + name + "'" : name);
      String message;
      if (!removable[d]) {
        message = kind == IdKinds.PART && dLines[d] > 0
            ? what + " has no elements, but other cards name it (kept)"
            : "unused " + what + " (kept: its card defines another kind of id too)";
      } else if (!cardGoes) {
        message = "unused " + what + " (kept: its card defines other ids still used)";
      } else {
        message = "unused " + what + (kind == IdKinds.PART ? ": no element names it" : "")
            + (round[d] > 1 ? " (only unused definitions name it)" : "");
        going.add(key);
      }
      int f = (int) (dLoc[d] >>> 40);
      int line = (int) (dLoc[d] & 0xFFFFFFFFFFL);
      items.add(new Item(f, line, dCol[d] & 0xFFFF, dCol[d] >>> 16, kind, dId[d], name, removable[d] && cardGoes ? dLines[d] : 0, message));
    }
    List<Warning> all = new ArrayList<>(warnings);
    undescribed(going, items, all);
    return new Result(java.util.Collections.unmodifiableList(new ArrayList<>(files)), items, all, lines); // a buffer without a file: null
  }

  /** The rows the table does not describe that may name an id going. */
  private void undescribed(KeyBits going, List<Item> items, List<Warning> out) {
    if (going.isEmpty()) return;
    List<byte[]> titles = new ArrayList<>();
    List<String> titleNames = new ArrayList<>();
    for (Item it : items) {
      if (it.removable() && IdKinds.named(it.kind())) {
        titles.add(it.name().getBytes(StandardCharsets.ISO_8859_1));
        titleNames.add("group '" + it.name() + "'");
      }
    }
    for (int i = 0; i < uText.size(); i++) {
      byte[] a = uText.get(i);
      String why = numberNaming(a, going);
      for (int t = 0; why == null && t < titles.size(); t++) {
        if (indexOf(a, titles.get(t)) >= 0) why = "the title of " + titleNames.get(t) + ", which is unused";
      }
      if (why != null) {
        out.add(new Warning(uAt.a[2 * i], uAt.a[2 * i + 1], 0, "a line the table does not describe holds " + why
            + ": an id there would be missed (describe the card's rows in the table, or edit the line yourself)"));
      }
    }
    for (int i = 0; i < uFields.size; i += 5) {
      int kind = uFields.a[i + 3];
      int value = uFields.a[i + 4];
      if (!going.has(IdKinds.key(kind, value))) continue;
      out.add(new Warning(uFields.a[i], uFields.a[i + 1], uFields.a[i + 2], "a field that names no id kind in the table holds "
          + value + ", which may name unused " + IdKinds.name(kind) + " " + value + " (edit it yourself, or tell the table its kind)"));
    }
  }

  private static int indexOf(byte[] a, byte[] b) {
    if (b.length == 0) return -1;
    outer:
    for (int i = 0; i + b.length <= a.length; i++) {
      for (int j = 0; j < b.length; j++) {
        if (a[i + j] != b[j]) continue outer;
      }
      return i;
    }
    return -1;
  }

  /**
   * The first integer of the line (no part of a real number) that is an id going, as {@code "N,
   * which may name unused KIND N"}; or a run of more digits than an id has; null when none.
   */
  private String numberNaming(byte[] a, KeyBits going) {
    IntList values = new IntList();
    String run = LineIntegers.read(a, 0, a.length, values);
    for (int i = 0; i < values.size; i++) {
      int v = values.a[i];
      List<String> kinds = new ArrayList<>();
      for (String k : KIND_NAMES) {
        int kind = IdKinds.code(k);
        if (!IdKinds.named(kind) && going.has(IdKinds.key(kind, v))) kinds.add(k);
      }
      if (!kinds.isEmpty()) return v + ", which may name unused " + String.join(" or ", kinds) + " " + v;
    }
    return run == null ? null : run + " (digits side by side, which may hold ids)";
  }

  // Removal from files ----------------------------------------------------------------------------

  /** What a removal did: the files written (none when refused), the refusals, the lines taken out. */
  public record Removal(List<Path> written, List<Warning> refusals, long lines) {
    public boolean refused() {
      return !refusals.isEmpty();
    }
  }

  /**
   * Writes the tree of {@code r} without its removable definitions' lines, every other byte as it
   * was, under {@code outDir} ({@link TreeWrite}); refuses, writing nothing, when {@code r} has
   * warnings or a file cannot be written.
   */
  public static Removal remove(Result r, Path outDir, boolean inPlace) throws IOException {
    List<Warning> refusals = new ArrayList<>(r.warnings());
    List<TreeWrite.Refusal> cannot = new ArrayList<>();
    List<Path> targets = TreeWrite.targets(r.files(), outDir, inPlace, "writes", cannot);
    for (TreeWrite.Refusal x : cannot) refusals.add(new Warning(x.file(), 0, 0, x.message()));
    if (!refusals.isEmpty()) return new Removal(List.of(), refusals, 0);
    long[][] runs = runs(r);
    long lines = 0;
    for (long[] f : runs) {
      for (int i = 0; i < f.length; i += 2) lines += f[i + 1] - f[i];
    }
    List<Path> written = TreeWrite.write(targets, "unused", (i, out) -> copyWithout(r.files().get(i), runs[i], out));
    return new Removal(written, List.of(), lines);
  }

  /** By file: the lines removed, as sorted disjoint runs {@code [from, to)}. */
  public static long[][] runs(Result r) {
    long[][] out = new long[r.files().size()][];
    for (int f = 0; f < out.length; f++) {
      List<long[]> l = new ArrayList<>();
      for (Item it : r.items()) {
        if (it.file() == f && it.removable()) l.add(new long[] {it.line(), it.line() + it.lines()});
      }
      l.sort((a, b) -> Long.compare(a[0], b[0]));
      long[] x = new long[2 * l.size()];
      int n = 0;
      for (long[] run : l) {
        if (n > 0 && run[0] <= x[n - 1]) {
          x[n - 1] = Math.max(x[n - 1], run[1]); // a card of several definitions: once
        } else {
          x[n++] = run[0];
          x[n++] = run[1];
        }
      }
      out[f] = Arrays.copyOf(x, n);
    }
    return out;
  }

  /** The bytes of {@code file} without the lines of {@code runs}. */
  private static void copyWithout(Path file, long[] runs, java.io.OutputStream out) throws IOException {
    try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
      byte[] buf = new byte[1 << 20];
      long line = 0;
      int run = 0;
      int n;
      while ((n = in.read(buf)) > 0) {
        int from = 0;
        while (from < n) {
          boolean skip = run < runs.length && line >= runs[run] && line < runs[run + 1];
          int nl = from;
          while (nl < n && buf[nl] != '\n') nl++;
          int end = nl < n ? nl + 1 : n;
          if (!skip) out.write(buf, from, end - from);
          from = end;
          if (nl < n) {
            line++;
            while (run < runs.length && line >= runs[run + 1]) run += 2;
          }
        }
      }
    }
  }

  // The tree from files ---------------------------------------------------------------------------

  /**
   * Whether lines {@code [line, line + lines)} of {@code src} still hold the card of {@code keys} (its
   * definitions, and no line more): a buffer edited since it was read does not. Not while a
   * {@link #scan} runs.
   */
  public boolean holds(LineSource src, int version, int line, int lines, long[] keys) {
    if (line + lines > src.lineCount() || LineBytes.headerWord(src.bytes(line), src.start(line), src.contentLength(line)) == 0) return false;
    if (extent(src, line) != lines) return false;
    IntList found = new IntList(); // kind, id each
    scanner.scan(src, line, line + lines, version, false, (l, a, b, kind, lo, hi, def) -> {
      if (!def) return;
      found.add(kind);
      found.add(lo);
    });
    long[] f = new long[found.size / 2];
    for (int i = 0; i < f.length; i++) f[i] = IdKinds.key(found.a[2 * i], found.a[2 * i + 1]);
    Arrays.sort(f);
    long[] k = keys.clone();
    Arrays.sort(k);
    return Arrays.equals(f, k);
  }

  /** The unused definitions of {@code deck}'s tree, read from its files. */
  public static Result find(Path deck, TreeCheck.Progress progress) throws IncludeFiles.Unreadable, IOException {
    Path root = deck.toAbsolutePath().normalize();
    IncludeFiles.readable(root);
    Unused u = new Unused();
    List<Path> files = new ArrayList<>(List.of(root));
    long[] lines = new long[1];
    int[] treeVersion = {-1};
    TreeWalk.walk(root, files, new TreeWalk.Members<Path>() {
      @Override
      public Path path(Path f) {
        return f;
      }

      @Override
      public List<IncludeLine> includes(Path f) throws IOException {
        return u.read(f, files.indexOf(f), treeVersion, lines, progress);
      }

      @Override
      public Path open(Path p) {
        return p;
      }

      @Override
      public void problem(Path in, IncludeLine at, ProblemCode code, String message) {
        if (code != ProblemCode.INCLUDE_CYCLE) u.includeProblem(files.indexOf(in), at.line(), at.from(), message); // a cycle: read once
      }
    });
    return u.finish(files, lines[0]);
  }

  /** Streams file {@code f} through {@link #scan} in pieces of whole cards; its INCLU lines. */
  private List<IncludeLine> read(Path f, int index, int[] treeVersion, long[] lines, TreeCheck.Progress progress) throws IOException {
    long size = FileBytes.size(f);
    List<IncludeLine> includes = new ArrayList<>();
    int[] version = {-1};
    long[] seen = new long[2]; // lines, bytes
    CardPieces pieces = new CardPieces(p -> {
      int b = (int) seen[0];
      List<IncludeLine> found = new ArrayList<>();
      IncludeLine.read(p, 0, p.lineCount(), found);
      for (IncludeLine il : found) includes.add(new IncludeLine(il.line() + b, il.from(), il.to(), il.name()));
      scan(index, p, b, version[0]);
      seen[0] += p.lineCount();
      if (progress != null) progress.read(f, seen[1], seen[0]);
    });
    DeckFile.read(f, size, false, (DeckChunk c) -> {
      if (version[0] < 0) {
        version[0] = DeckVersion.readAs(ChunkLines.of(c), treeVersion[0], table.newestVersion());
        if (treeVersion[0] < 0) treeVersion[0] = version[0];
      }
      seen[1] += c.byteSize();
      pieces.take(c);
    });
    pieces.end();
    lines[0] += seen[0];
    return includes;
  }
}
