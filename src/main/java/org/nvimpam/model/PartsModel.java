package org.nvimpam.model;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.ChunkLines;
import org.nvimpam.deck.DeckChunk;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.LineSource;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.deck.RowLayout;
import org.nvimpam.deck.RowWalker;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.ids.IncludeWalk;

/**
 * The parts table of a model ({@link PartsTable}): mass, centre of gravity and bounding box per
 * PART, from the NODE, element, PART, MATER and MASS cards of a deck and its include tree. Cards
 * are read through the card-layout table: every column is the table's field of that name (NODE's
 * X, SHELL's H, PART's IDMAT and H and A, MATER's RHO), at the deck's version. No Neovim here.
 *
 * <p>Feed it the files of a model with {@link #add} (in any order: elements may come before their
 * nodes), then {@link #table()}; or {@link #read} a deck and its include tree from files. Not
 * thread-safe.
 */
public final class PartsModel {
  // What a card is to the table, by entry of the layout table.
  private static final int OTHER = 0, NODE = 1, ELEMENT = 2, PART = 3, MATER = 4, LAYER = 5, MASS = 6, NSMAS = 7,
      RBODY_MASS = 8;
  // The fields read, by slot.
  private static final int F_ID = 0, F_X = 1, F_Y = 2, F_Z = 3, F_PART = 4, F_H = 5, F_A = 6, F_MAT = 7, F_MATYP = 8,
      F_RHO = 9, F_TYPE = 10, F_MATNAME = 11, F_TITLE = 12, F_FRAME = 13, F_MX = 14, F_MY = 15, F_MZ = 16, F_MRB = 17,
      F_NODE1 = 18; // F_NODE1 + k - 1: IDNODk, k 1..20
  private static final int SLOTS = F_NODE1 + 20;
  private static final int TEXT = 1 << 20; // a slot read as text

  // Element shapes.
  static final byte TRIA = 1, QUAD = 2, HEXA = 3, PENTA = 4, TETRA = 5, PYRA = 6, LINE = 7, NONE = 8;

  private final CardLayouts table = CardLayouts.bundled();
  private final RowWalker walker = new RowWalker(table);
  private final int[] roles;
  private final int[][][] fields; // by entry, then row: slot, from (0-based), to; in triples
  private final double[] v = new double[SLOTS];
  private final String[] text = new String[SLOTS];
  private int cardLine;
  private boolean ges;

  // Nodes.
  private final IntIntMap nodeIndex = new IntIntMap();
  private double[] xyz = new double[3 * 1024];
  private int nodeCount;
  // Elements: part id, shape, the word's index, first node in the pool, element thickness.
  private int[] elPart = new int[1024];
  private byte[] elShape = new byte[1024];
  private short[] elWord = new short[1024];
  private int[] elFirst = new int[1025];
  private double[] elH = new double[1024];
  private int elCount;
  private int[] pool = new int[4096];
  private int poolSize;
  private final List<String> words = new ArrayList<>(); // the element cards' words, by wordOf
  private final short[] wordOf; // by entry
  // Parts, materials, layers, point masses.
  private final Map<Integer, PartCard> partCards = new LinkedHashMap<>();
  private final Map<Integer, Mater> maters = new HashMap<>();
  private final Map<String, Integer> materByName = new HashMap<>();
  private final java.util.Set<Integer> layers = new java.util.HashSet<>();
  private final List<MassCard> massCards = new ArrayList<>();
  private final List<PartsTable.NotIncluded> notIncluded = new ArrayList<>();
  private long lines;
  private final CardReader reader = new CardReader(); // for read() only

  private record PartCard(int id, String name, String type, int idmat, String matname, double h, double a, Path file,
      int line) {}

  private record Mater(int id, int type, double rho) {}

  private record MassCard(int node, int frame, double[] offset, double mx, double my, double mz, String name,
      boolean selection, Path file, int line) {}

  public PartsModel() {
    int n = table.entries().size();
    roles = new int[n];
    fields = new int[n][][];
    wordOf = new short[n];
    Map<String, Integer> wordIndex = new HashMap<>();
    for (int e = 0; e < n; e++) {
      CardLayout c = table.entry(e);
      int role = roleOf(c);
      roles[e] = role;
      if (role == OTHER || role == NSMAS) continue;
      if (role == ELEMENT) {
        wordOf[e] = (short) (int) wordIndex.computeIfAbsent(c.word(), w -> {
          words.add(w);
          return words.size() - 1;
        });
      }
      fields[e] = new int[c.rows().size()][];
      for (int r = 0; r < c.rows().size(); r++) {
        RowLayout row = c.rows().get(r);
        List<Integer> f = new ArrayList<>();
        for (FieldLayout fl : row.fields()) {
          int slot = slotOf(role, row, fl.name());
          if (slot < 0) continue;
          f.add(slot);
          f.add(fl.from() - 1);
          f.add(fl.to());
        }
        fields[e][r] = f.stream().mapToInt(Integer::intValue).toArray();
      }
    }
  }

  private static int roleOf(CardLayout c) {
    String w = c.word();
    switch (c.key()) {
      case "RBODY:3", "RBODY:4" -> {
        return RBODY_MASS;
      }
      default -> {}
    }
    return switch (w) {
      case "NODE", "CNODE" -> NODE;
      case "PART" -> c.key().contains(":") ? PART : OTHER; // the base entry: a type with no rows of its own
      case "MATER" -> MATER;
      case "LAYER" -> LAYER;
      case "MASS" -> MASS;
      case "NSMAS", "NSMAS2" -> NSMAS;
      default -> c.category().equals("Element") || c.category().equals("Link") ? ELEMENT : OTHER;
    };
  }

  private static int slotOf(int role, RowLayout row, String name) {
    if (row.kind() == RowLayout.Kind.NAME && name.equals("TITLE")) return TEXT | F_TITLE;
    switch (role) {
      case NODE -> {
        return switch (name) {
          case "IDNOD" -> F_ID;
          case "X" -> F_X;
          case "Y" -> F_Y;
          case "Z" -> F_Z;
          default -> -1;
        };
      }
      case ELEMENT -> {
        if (name.equals("IDPRT")) return F_PART;
        if (name.equals("H")) return F_H;
        if (name.startsWith("IDNOD") && name.length() > 5) {
          try {
            int k = Integer.parseInt(name.substring(5));
            return k >= 1 && k <= 20 ? F_NODE1 + k - 1 : -1;
          } catch (NumberFormatException e) {
            return -1;
          }
        }
        return -1;
      }
      case PART -> {
        return switch (name) {
          case "IDPRT" -> F_ID;
          case "ATYPE" -> TEXT | F_TYPE;
          case "IDMAT" -> F_MAT;
          case "MATNAME" -> TEXT | F_MATNAME;
          case "H" -> F_H;
          case "A" -> F_A;
          default -> -1;
        };
      }
      case MATER -> {
        return switch (name) {
          case "IDMAT" -> F_ID;
          case "MATYP" -> F_MATYP;
          case "RHO" -> F_RHO;
          default -> -1;
        };
      }
      case LAYER -> {
        return name.equals("IDLAYER") ? F_ID : -1;
      }
      case MASS -> {
        return switch (name) {
          case "IDNOD" -> F_ID;
          case "IFRA" -> F_FRAME;
          case "DISr" -> F_X;
          case "DISs" -> F_Y;
          case "DISt" -> F_Z;
          case "Mx" -> F_MX;
          case "My" -> F_MY;
          case "Mz" -> F_MZ;
          default -> -1;
        };
      }
      case RBODY_MASS -> {
        return switch (name) {
          case "ITRB" -> F_MATYP;
          case "Mrb" -> F_MRB;
          default -> -1;
        };
      }
      default -> {
        return -1;
      }
    }
  }

  /** Reads the cards of one file's lines, {@code version} its INPUTVERSION. */
  public void add(Path file, LineSource src, int version) {
    add(file, src, version, 0);
  }

  private void add(Path file, LineSource src, int version, int base) {
    int[] picks = table.picks(version);
    int n = src.lineCount();
    int i = 0;
    while (i < n) {
      int g = walker.groupAt(src, i);
      if (g < 0) {
        i = walker.skipCard(src, i);
        continue;
      }
      int e = picks[g] >= 0 ? picks[g] : table.group(g)[0];
      int role = roles[e];
      if (role == OTHER) {
        i = walker.skipCard(src, i);
      } else if (role == NSMAS) {
        notIncluded.add(new PartsTable.NotIncluded(table.entry(e).word() + ": nonstructural mass spread by the solver over a selection",
            lineText(src, i), file, base + i));
        i = walker.skipCard(src, i);
      } else {
        Arrays.fill(v, Double.NaN);
        Arrays.fill(text, null);
        cardLine = base + i;
        ges = false;
        int[][] f = fields[e];
        int end = walker.walkCard(src, i, e, (line, code) -> {
          if (code >= 0) read(f[code]);
          else if (code == RowWalker.GES) ges = true;
        });
        card(role, e, file, src, i);
        i = end;
      }
    }
    lines += n;
  }

  private void read(int[] f) {
    byte[] a = walker.lineBytes();
    int off = walker.lineStart();
    int len = walker.lineLength();
    for (int k = 0; k < f.length; k += 3) {
      int slot = f[k];
      if ((slot & TEXT) != 0) {
        int s = Math.min(f[k + 1], len);
        int t = Math.min(f[k + 2], len);
        while (s < t && a[off + s] == ' ') s++;
        while (t > s && a[off + t - 1] == ' ') t--;
        text[slot & ~TEXT] = new String(a, off + s, t - s, StandardCharsets.ISO_8859_1);
      } else {
        v[slot] = DeckNumber.read(a, off, len, f[k + 1], f[k + 2], 0);
      }
    }
  }

  private static String lineText(LineSource src, int i) {
    return new String(src.bytes(i), src.start(i), src.contentLength(i), StandardCharsets.ISO_8859_1).stripTrailing();
  }

  private static int id(double d) {
    return Double.isNaN(d) || d < 0 || d > Integer.MAX_VALUE ? 0 : (int) d;
  }

  private void card(int role, int e, Path file, LineSource src, int header) {
    CardLayout c = table.entry(e);
    switch (role) {
      case NODE -> node(id(v[F_ID]), v[F_X], v[F_Y], v[F_Z]);
      case ELEMENT -> element(c.word(), wordOf[e]);
      case PART -> {
        int id = id(v[F_ID]);
        String type = text[F_TYPE] == null ? "" : text[F_TYPE];
        partCards.put(id, new PartCard(id, text[F_TITLE] == null ? "" : text[F_TITLE], type, id(v[F_MAT]),
            text[F_MATNAME], v[F_H], v[F_A], file, cardLine));
      }
      case MATER -> {
        int id = id(v[F_ID]);
        maters.put(id, new Mater(id, id(v[F_MATYP]), v[F_RHO]));
        if (text[F_TITLE] != null && !text[F_TITLE].isEmpty()) materByName.putIfAbsent(text[F_TITLE], id);
      }
      case LAYER -> layers.add(id(v[F_ID]));
      case MASS -> massCards.add(new MassCard(id(v[F_ID]), id(v[F_FRAME]),
          new double[] {nan0(v[F_X]), nan0(v[F_Y]), nan0(v[F_Z])}, nan0(v[F_MX]), nan0(v[F_MY]), nan0(v[F_MZ]),
          text[F_TITLE] == null ? "" : text[F_TITLE], ges, file, cardLine));
      case RBODY_MASS -> notIncluded.add(new PartsTable.NotIncluded(
          "RBODY type " + id(v[F_MATYP]) + ": mass " + num(nan0(v[F_MRB])) + " imposed by the solver on the rigid body",
          lineText(src, header), file, cardLine));
      default -> {}
    }
  }

  private static double nan0(double d) {
    return Double.isNaN(d) ? 0 : d;
  }

  static String num(double d) {
    return Double.toString(d);
  }

  private void node(int id, double x, double y, double z) {
    int at = nodeIndex.get(id);
    if (at < 0) {
      at = nodeCount++;
      if (3 * nodeCount > xyz.length) xyz = Arrays.copyOf(xyz, 2 * xyz.length);
      nodeIndex.put(id, at);
    }
    xyz[3 * at] = nan0(x);
    xyz[3 * at + 1] = nan0(y);
    xyz[3 * at + 2] = nan0(z);
  }

  private void element(String word, short wordIndex) {
    byte shape;
    int corners;
    switch (word) {
      case "SHELL", "TSHEL", "MEMBR" -> {
        int n3 = id(v[F_NODE1 + 2]);
        int n4 = id(v[F_NODE1 + 3]);
        boolean tria = n4 == 0 || n4 == n3;
        shape = tria ? TRIA : QUAD;
        corners = tria ? 3 : 4;
      }
      case "SHEL6" -> {
        shape = TRIA;
        corners = 3;
      }
      case "SHEL8" -> {
        shape = QUAD;
        corners = 4;
      }
      case "SOLID", "BSHEL", "HEXA20" -> {
        shape = HEXA;
        corners = 8;
      }
      case "PENTA6", "PENT15" -> {
        shape = PENTA;
        corners = 6;
      }
      case "TETR4", "TETR10", "TETRA" -> {
        shape = TETRA;
        corners = 4;
      }
      case "PYRA5", "PYRA13" -> {
        shape = PYRA;
        corners = 5;
      }
      case "BEAM", "BAR" -> {
        shape = LINE;
        corners = 2;
      }
      default -> {
        shape = NONE;
        corners = 0;
        for (int k = 0; k < 20; k++) {
          if (!Double.isNaN(v[F_NODE1 + k])) corners = k + 1;
        }
      }
    }
    if (elCount == elPart.length) {
      int m = 2 * elPart.length;
      elPart = Arrays.copyOf(elPart, m);
      elShape = Arrays.copyOf(elShape, m);
      elWord = Arrays.copyOf(elWord, m);
      elH = Arrays.copyOf(elH, m);
      elFirst = Arrays.copyOf(elFirst, m + 1);
    }
    if (poolSize + corners > pool.length) pool = Arrays.copyOf(pool, Math.max(2 * pool.length, poolSize + corners));
    int k = elCount++;
    elPart[k] = id(v[F_PART]);
    elShape[k] = shape;
    elWord[k] = wordIndex;
    elH[k] = v[F_H];
    elFirst[k] = poolSize;
    for (int c = 0; c < corners; c++) {
      int id = id(v[F_NODE1 + c]);
      if (shape == NONE && id == 0) continue;
      pool[poolSize++] = id;
    }
    elFirst[k + 1] = poolSize;
  }

  /**
   * Reads {@code deck} and its include tree (the walk {@code check} makes): files streamed in
   * pieces that begin where a card begins. A deck that cannot be read throws why; include files
   * that cannot be read are told to {@code problems} (may be null) and left out.
   */
  public static PartsTable read(Path deck, TreeCheck.Progress progress, List<String> problems)
      throws IncludeFiles.Unreadable, IOException {
    Path root = deck.toAbsolutePath().normalize();
    IncludeFiles.readable(root);
    PartsModel m = new PartsModel();
    int[] treeVersion = {-1};
    try {
      IncludeWalk.walk(root, new IncludeWalk.Members<Path>() {
        @Override
        public Path path(Path f) {
          return f;
        }

        @Override
        public List<IncludeLine> includes(Path f) {
          try {
            return m.stream(f, f == root, treeVersion, progress);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }

        @Override
        public Path open(Path p) throws IncludeFiles.Unreadable {
          IncludeFiles.readable(p);
          return p;
        }

        @Override
        public void problem(Path in, IncludeLine at, IncludeLine via, ProblemCode code, String message) {
          if (problems != null) problems.add(in + ":" + (at.line() + 1) + ": " + message);
        }
      });
      m.reader.finish();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } finally {
      m.reader.stop();
    }
    return m.table();
  }

  /** Streams one file through {@link #add}, in pieces cut before a card header; returns its INCLU lines. */
  private List<IncludeLine> stream(Path f, boolean root, int[] treeVersion, TreeCheck.Progress progress) throws IOException {
    BasicFileAttributes at;
    try {
      at = IncludeFiles.attributes(f);
    } catch (IncludeFiles.Unreadable e) {
      throw new IOException(f + " " + e.getMessage());
    }
    Pieces s = new Pieces(f, root, treeVersion, progress);
    DeckFile.read(f, at.size(), false, s::take);
    s.end();
    return s.includes;
  }

  /** A file's chunks as pieces of whole cards ({@link CardPieces}), read in order. */
  private final class Pieces {
    final Path f;
    final boolean root;
    final int[] treeVersion;
    final TreeCheck.Progress progress;
    final List<IncludeLine> includes = new ArrayList<>();
    final CardPieces pieces = new CardPieces(this::piece);
    int version = -1;
    int base; // the file's line of the next piece's first line
    long bytes;

    Pieces(Path f, boolean root, int[] treeVersion, TreeCheck.Progress progress) {
      this.f = f;
      this.root = root;
      this.treeVersion = treeVersion;
      this.progress = progress;
    }

    void take(DeckChunk c) {
      if (version < 0) {
        int own = DeckVersion.declared(ChunkLines.of(c));
        version = own > 0 ? own : root || treeVersion[0] < 0 ? table.newestVersion() : treeVersion[0];
        if (root) treeVersion[0] = version;
      }
      bytes += c.byteSize();
      pieces.take(c);
    }

    void end() {
      pieces.end();
    }

    /** One piece of whole cards: its includes noted here, its cards read on the reader thread. */
    private void piece(ChunkLines lines) {
      List<IncludeLine> found = new ArrayList<>();
      IncludeLine.read(lines, 0, lines.lineCount(), found);
      for (IncludeLine il : found) includes.add(new IncludeLine(il.line() + base, il.from(), il.to(), il.name()));
      int at = base;
      int v = version;
      base += lines.lineCount();
      long read = bytes;
      int upTo = base;
      reader.submit(() -> {
        add(f, lines, v, at);
        if (progress != null) progress.read(f, read, upTo);
      });
    }
  }

  /**
   * The thread that reads the cards of the pieces, in file order, while the next are read from
   * disk; at most a few pieces ahead.
   */
  private static final class CardReader {
    private final java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "nvimpam-parts-cards");
      t.setDaemon(true);
      return t;
    });
    private final java.util.concurrent.Semaphore ahead = new java.util.concurrent.Semaphore(4);
    private volatile Throwable failed;

    void submit(Runnable r) {
      ahead.acquireUninterruptibly();
      thread.execute(() -> {
        try {
          if (failed == null) r.run();
        } catch (Throwable t) {
          failed = t;
        } finally {
          ahead.release();
        }
      });
    }

    /** Waits for every piece handed over; rethrows what failed. */
    void finish() {
      thread.shutdown();
      try {
        while (!thread.awaitTermination(1, java.util.concurrent.TimeUnit.SECONDS)) {
          // the last pieces are still being read
        }
      } catch (InterruptedException e) {
        thread.shutdownNow();
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
      if (failed instanceof RuntimeException r) throw r;
      if (failed instanceof Error e) throw e;
      if (failed != null) throw new IllegalStateException(failed);
    }

    void stop() {
      thread.shutdownNow();
    }
  }

  /** The table of everything read so far. */
  public PartsTable table() {
    int[] at = new int[poolSize]; // node index of each pool entry, -1 when the node is not defined
    for (int i = 0; i < poolSize; i++) at[i] = nodeIndex.get(pool[i]);
    // Parts in the order of their cards, then the part ids elements name without a card.
    IntIntMap partIndex = new IntIntMap();
    List<Integer> ids = new ArrayList<>();
    for (int id : partCards.keySet()) {
      partIndex.put(id, ids.size());
      ids.add(id);
    }
    int[] elIdx = new int[elCount];
    for (int k = 0; k < elCount; k++) {
      int p = partIndex.get(elPart[k]);
      if (p < 0) {
        p = ids.size();
        partIndex.put(elPart[k], p);
        ids.add(elPart[k]);
      }
      elIdx[k] = p;
    }
    int np = ids.size();
    int[] start = new int[np + 1];
    for (int k = 0; k < elCount; k++) start[elIdx[k] + 1]++;
    for (int p = 0; p < np; p++) start[p + 1] += start[p];
    int[] order = new int[elCount];
    int[] fill = Arrays.copyOf(start, np);
    for (int k = 0; k < elCount; k++) order[fill[elIdx[k]]++] = k;
    int[] stamp = new int[nodeCount];
    double[] out = new double[4];
    int[] hex = new int[8];
    List<PartsTable.Part> rows = new ArrayList<>();
    double total = 0;
    double[] moment = new double[3];
    for (int p = 0; p < np; p++) {
      int id = ids.get(p);
      PartCard pc = partCards.get(id);
      String reason = pc == null ? "no PART card" : null;
      double rho = Double.NaN;
      String material = "";
      if (pc != null) {
        int mid = pc.idmat();
        if (mid == 0 && pc.matname() != null && !pc.matname().isEmpty()) {
          String mn = pc.matname();
          Integer byName = materByName.get(mn);
          if (mn.chars().allMatch(Character::isDigit)) mid = Integer.parseInt(mn);
          else if (byName != null) mid = byName;
          material = mid != 0 ? Integer.toString(mid) : "RMAT " + mn;
        } else if (mid != 0) {
          material = Integer.toString(mid);
        }
        Mater mat = maters.get(mid);
        if (mid == 0) reason = "no material";
        else if (mat == null && layers.contains(mid)) reason = "composite (LAYER and PLY): not computed";
        else if (mat == null) reason = "material " + mid + " not found";
        else if (mat.type() == 131 || mat.type() == 132) reason = "composite (MATER " + mat.type() + ", LAYER and PLY): not computed";
        else if (!(mat.rho() > 0)) reason = "material " + mid + " has no density";
        else rho = mat.rho();
      }
      double mass = 0;
      double mx = 0, my = 0, mz = 0;
      double[] box = null;
      int nodes = 0;
      for (int q = start[p]; q < start[p + 1]; q++) {
        int k = order[q];
        int first = elFirst[k];
        int last = elFirst[k + 1];
        boolean missing = false;
        for (int i = first; i < last; i++) {
          int ni = at[i];
          if (ni < 0) {
            if (reason == null) reason = "node " + pool[i] + " not found";
            missing = true;
            continue;
          }
          if (stamp[ni] != p + 1) {
            stamp[ni] = p + 1;
            nodes++;
            if (box == null) box = new double[] {xyz[3 * ni], xyz[3 * ni + 1], xyz[3 * ni + 2], xyz[3 * ni], xyz[3 * ni + 1], xyz[3 * ni + 2]};
            for (int c = 0; c < 3; c++) {
              box[c] = Math.min(box[c], xyz[3 * ni + c]);
              box[3 + c] = Math.max(box[3 + c], xyz[3 * ni + c]);
            }
          }
        }
        byte shape = elShape[k];
        if (shape == NONE) {
          reason = firstReason(reason, words.get(elWord[k]) + " elements: mass not computed");
          continue;
        }
        if (missing || reason != null) continue;
        double factor;
        switch (shape) {
          case TRIA, QUAD -> {
            double t = elH[k] > 0 ? elH[k] : pc.h();
            if (!(t > 0)) {
              reason = "MEMBR".equals(words.get(elWord[k])) ? "MEMBR part with no thickness" : "no thickness";
              continue;
            }
            if (shape == TRIA) MassShapes.triangle(xyz, at[first], at[first + 1], at[first + 2], out);
            else MassShapes.quad(xyz, at[first], at[first + 1], at[first + 2], at[first + 3], out);
            factor = t;
          }
          case LINE -> {
            if (!(pc.a() > 0)) {
              reason = "no section area (A)";
              continue;
            }
            MassShapes.line(xyz, at[first], at[first + 1], out);
            factor = pc.a();
          }
          case TETRA -> {
            MassShapes.tetra(xyz, at[first], at[first + 1], at[first + 2], at[first + 3], out);
            factor = 1;
          }
          default -> {
            if (shape == HEXA) {
              for (int c = 0; c < 8; c++) hex[c] = at[first + c];
            } else if (shape == PENTA) {
              int[] m6 = {0, 1, 2, 2, 3, 4, 5, 5};
              for (int c = 0; c < 8; c++) hex[c] = at[first + m6[c]];
            } else {
              for (int c = 0; c < 8; c++) hex[c] = at[first + Math.min(c, 4)];
            }
            MassShapes.hexa(xyz, hex, out);
            factor = 1;
          }
        }
        double m = out[0] * factor * rho;
        mass += m;
        mx += m * out[1];
        my += m * out[2];
        mz += m * out[3];
      }
      double[] cog = reason == null && mass > 0 ? new double[] {mx / mass, my / mass, mz / mass} : null;
      if (reason == null) {
        total += mass;
        moment[0] += mx;
        moment[1] += my;
        moment[2] += mz;
      }
      rows.add(new PartsTable.Part(id, pc == null ? "" : pc.name(), pc == null ? "" : pc.type(), material,
          start[p + 1] - start[p], nodes, pc == null || Double.isNaN(pc.h()) ? Double.NaN : pc.h(),
          reason == null ? mass : Double.NaN, reason, cog, box, pc == null ? null : pc.file(), pc == null ? -1 : pc.line()));
    }
    List<PartsTable.PointMass> masses = new ArrayList<>();
    for (MassCard mc : massCards) {
      String reason = null;
      double[] cog = null;
      double m = mc.mx();
      int ni = nodeIndex.get(mc.node());
      if (mc.node() == 0) reason = mc.selection() ? "on the nodes of a selection: not included" : "no node";
      else if (ni < 0) reason = "node " + mc.node() + " not found";
      else if (mc.mx() != mc.my() || mc.mx() != mc.mz()) reason = "Mx, My and Mz differ: not included";
      else if (mc.frame() != 0 && (mc.offset()[0] != 0 || mc.offset()[1] != 0 || mc.offset()[2] != 0)) {
        reason = "offset in frame " + mc.frame() + ": not included";
      }
      if (reason == null) {
        cog = new double[3];
        for (int c = 0; c < 3; c++) cog[c] = xyz[3 * ni + c] + mc.offset()[c];
        total += m;
        for (int c = 0; c < 3; c++) moment[c] += m * cog[c];
      }
      masses.add(new PartsTable.PointMass(mc.node(), mc.name(), reason == null ? m : Double.NaN, reason, cog, mc.file(),
          mc.line()));
    }
    double[] cog = total > 0 ? new double[] {moment[0] / total, moment[1] / total, moment[2] / total} : null;
    return new PartsTable(rows, masses, List.copyOf(notIncluded), total, cog, lines);
  }

  private static String firstReason(String had, String now) {
    return had != null ? had : now;
  }
}
