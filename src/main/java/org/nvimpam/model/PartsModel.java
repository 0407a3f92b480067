package org.nvimpam.model;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.ChunkLines;
import org.nvimpam.deck.DeckChunk;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.deck.RowLayout;
import org.nvimpam.deck.RowWalker;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.ids.IncludeWalk;
import org.nvimpam.lines.LineSource;

/**
 * The parts table of a model ({@link PartsTable}): mass, centre of gravity and bounding box per
 * PART, from the NODE, element, PART, MATER and MASS cards of a deck and its include tree. Cards
 * are read through the card-layout table: every column is the table's field of that name (NODE's
 * X, SHELL's H, PART's IDMAT and H and A, MATER's RHO), at the deck's version. No Neovim here.
 *
 * <p>Feed it the files of a model with {@link #add} (in any order: elements may come before their
 * nodes), then {@link #table()}; or {@link #read} a deck and its include tree from files, whose
 * pieces worker threads read at once, each into arrays of its own, merged in file order. The
 * masses are computed once everything is read, the parts shared among threads. Not thread-safe.
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

  // Node coordinates in blocks of 2^16 nodes (x y z each), never moved once written.
  private static final int BLOCK_BITS = 16, BLOCK = 1 << BLOCK_BITS;

  private final CardLayouts table = CardLayouts.bundled();
  private final int[] roles;
  private final int[][][] fields; // by entry, then row: slot, from (0-based), to; in triples
  private final List<String> words = new ArrayList<>(); // the element cards' words, by wordOf
  private final short[] wordOf; // by entry

  // Merged in file order: nodes (id -> index, coordinates by index), the pieces with elements.
  private final IntIntMap nodeIndex = new IntIntMap();
  private double[][] coords = new double[16][];
  private int nodeCount;
  private final List<Piece> pieces = new ArrayList<>();
  // Parts, materials, layers, point masses.
  private final Map<Integer, PartCard> partCards = new LinkedHashMap<>();
  private final Map<Integer, Mater> maters = new HashMap<>();
  private final Map<String, Integer> materByName = new HashMap<>();
  private final Set<Integer> layers = new HashSet<>();
  private final List<MassCard> massCards = new ArrayList<>();
  private final List<PartsTable.NotIncluded> notIncluded = new ArrayList<>();
  private long lines;
  private Parser parser; // add()'s

  private record PartCard(int id, String name, String type, int idmat, String matname, double h, double a, Path file,
      int line) {}

  private record Mater(int id, int type, double rho, String name) {}

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
    if (parser == null) parser = new Parser();
    merge(parser.parse(file, src, version, 0));
  }

  /**
   * The cards of one piece of a file as one worker read them: nodes and elements in arrays of
   * their own, the few other cards in lists, until merged in file order.
   */
  private static final class Piece {
    int[] nodeId = new int[256];
    double[] nodeXyz = new double[3 * 256];
    int nodes;
    // Elements: part id, shape, the word's index, first node in the pool, element thickness.
    int[] elPart = new int[256];
    byte[] elShape = new byte[256];
    short[] elWord = new short[256];
    double[] elH = new double[256];
    int[] elFirst = new int[257];
    int els;
    int[] pool = new int[1024];
    int poolSize;
    final List<PartCard> parts = new ArrayList<>(0);
    final List<Mater> maters = new ArrayList<>(0);
    final List<Integer> layers = new ArrayList<>(0);
    final List<MassCard> masses = new ArrayList<>(0);
    final List<PartsTable.NotIncluded> notIncluded = new ArrayList<>(0);
    long lines;
    // For the progress: the file, its bytes read and its lines up to the piece's end.
    Path file;
    long bytes;
    long upTo;

    void node(int id, double x, double y, double z) {
      if (nodes == nodeId.length) {
        nodeId = Arrays.copyOf(nodeId, 2 * nodes);
        nodeXyz = Arrays.copyOf(nodeXyz, 6 * nodes);
      }
      nodeId[nodes] = id;
      nodeXyz[3 * nodes] = x;
      nodeXyz[3 * nodes + 1] = y;
      nodeXyz[3 * nodes + 2] = z;
      nodes++;
    }

    /** A new element; its nodes follow with {@link #corner}. */
    void element(int part, byte shape, short word, double h, int corners) {
      if (els == elPart.length) {
        int m = 2 * els;
        elPart = Arrays.copyOf(elPart, m);
        elShape = Arrays.copyOf(elShape, m);
        elWord = Arrays.copyOf(elWord, m);
        elH = Arrays.copyOf(elH, m);
        elFirst = Arrays.copyOf(elFirst, m + 1);
      }
      if (poolSize + corners > pool.length) pool = Arrays.copyOf(pool, Math.max(2 * pool.length, poolSize + corners));
      elPart[els] = part;
      elShape[els] = shape;
      elWord[els] = word;
      elH[els] = h;
      elFirst[els] = poolSize;
      els++;
      elFirst[els] = poolSize;
    }

    void corner(int id) {
      pool[poolSize++] = id;
      elFirst[els] = poolSize;
    }

    /** Kept for the table: the nodes are merged, the element arrays cut to their use. */
    void keep() {
      nodeId = null;
      nodeXyz = null;
      elPart = Arrays.copyOf(elPart, els);
      elShape = Arrays.copyOf(elShape, els);
      elWord = Arrays.copyOf(elWord, els);
      elH = Arrays.copyOf(elH, els);
      elFirst = Arrays.copyOf(elFirst, els + 1);
      pool = Arrays.copyOf(pool, poolSize);
    }
  }

  /** Reads cards into a {@link Piece}: one per thread. */
  private final class Parser {
    private final RowWalker walker = new RowWalker(table);
    private final double[] v = new double[SLOTS];
    private final String[] text = new String[SLOTS];
    private final int[] dirty = new int[SLOTS]; // the slots read since the last card, to blank
    private final boolean[] isDirty = new boolean[SLOTS];
    private int dirtyCount;
    private int[][] cardFields;
    private int cardLine;
    private boolean ges;
    private final RowWalker.Visitor visit = (line, code) -> {
      if (code >= 0) read(cardFields[code]);
      else if (code == RowWalker.GES) ges = true;
    };

    Parser() {
      Arrays.fill(v, Double.NaN);
    }

    /** The cards of lines {@code src} of {@code file}, the first the file's line {@code base}. */
    Piece parse(Path file, LineSource src, int version, int base) {
      Piece out = new Piece();
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
          out.notIncluded.add(new PartsTable.NotIncluded(
              table.entry(e).word() + ": nonstructural mass spread by the solver over a selection", lineText(src, i), file,
              base + i));
          i = walker.skipCard(src, i);
        } else {
          cardLine = base + i;
          ges = false;
          cardFields = fields[e];
          int end = walker.walkCard(src, i, e, visit);
          card(role, e, file, src, i, out);
          for (int k = 0; k < dirtyCount; k++) {
            int s = dirty[k];
            v[s] = Double.NaN;
            text[s] = null;
            isDirty[s] = false;
          }
          dirtyCount = 0;
          i = end;
        }
      }
      out.lines = n;
      return out;
    }

    private void read(int[] f) {
      byte[] a = walker.lineBytes();
      int off = walker.lineStart();
      int len = walker.lineLength();
      for (int k = 0; k < f.length; k += 3) {
        int slot = f[k];
        int s = slot & ~TEXT;
        if (!isDirty[s]) {
          isDirty[s] = true;
          dirty[dirtyCount++] = s;
        }
        if ((slot & TEXT) != 0) {
          int from = Math.min(f[k + 1], len);
          int to = Math.min(f[k + 2], len);
          while (from < to && a[off + from] == ' ') from++;
          while (to > from && a[off + to - 1] == ' ') to--;
          text[s] = new String(a, off + from, to - from, StandardCharsets.ISO_8859_1);
        } else {
          v[s] = DeckNumber.read(a, off, len, f[k + 1], f[k + 2], 0);
        }
      }
    }

    private void card(int role, int e, Path file, LineSource src, int header, Piece out) {
      switch (role) {
        case NODE -> out.node(id(v[F_ID]), nan0(v[F_X]), nan0(v[F_Y]), nan0(v[F_Z]));
        case ELEMENT -> element(table.entry(e).word(), wordOf[e], out);
        case PART -> out.parts.add(new PartCard(id(v[F_ID]), text[F_TITLE] == null ? "" : text[F_TITLE],
            text[F_TYPE] == null ? "" : text[F_TYPE], id(v[F_MAT]), text[F_MATNAME], v[F_H], v[F_A], file, cardLine));
        case MATER -> out.maters.add(new Mater(id(v[F_ID]), id(v[F_MATYP]), v[F_RHO], text[F_TITLE]));
        case LAYER -> out.layers.add(id(v[F_ID]));
        case MASS -> out.masses.add(new MassCard(id(v[F_ID]), id(v[F_FRAME]),
            new double[] {nan0(v[F_X]), nan0(v[F_Y]), nan0(v[F_Z])}, nan0(v[F_MX]), nan0(v[F_MY]), nan0(v[F_MZ]),
            text[F_TITLE] == null ? "" : text[F_TITLE], ges, file, cardLine));
        case RBODY_MASS -> out.notIncluded.add(new PartsTable.NotIncluded(
            "RBODY type " + id(v[F_MATYP]) + ": mass " + num(nan0(v[F_MRB])) + " imposed by the solver on the rigid body",
            lineText(src, header), file, cardLine));
        default -> {}
      }
    }

    private void element(String word, short wordIndex, Piece out) {
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
      out.element(id(v[F_PART]), shape, wordIndex, v[F_H], corners);
      for (int c = 0; c < corners; c++) {
        int id = id(v[F_NODE1 + c]);
        if (shape == NONE && id == 0) continue;
        out.corner(id);
      }
    }
  }

  private static String lineText(LineSource src, int i) {
    return new String(src.bytes(i), src.start(i), src.contentLength(i), StandardCharsets.ISO_8859_1).stripTrailing();
  }

  private static int id(double d) {
    return Double.isNaN(d) || d < 0 || d > Integer.MAX_VALUE ? 0 : (int) d;
  }

  private static double nan0(double d) {
    return Double.isNaN(d) ? 0 : d;
  }

  static String num(double d) {
    return Double.toString(d);
  }

  /** Adds a piece's cards to the model, after those of the pieces before it in file order. */
  private void merge(Piece p) {
    double[] xyz = p.nodeXyz;
    for (int k = 0; k < p.nodes; k++) {
      int id = p.nodeId[k];
      int at = nodeIndex.putIfAbsent(id, nodeCount);
      if (at < 0) {
        at = nodeCount++;
        int b = at >>> BLOCK_BITS;
        if (b == coords.length) coords = Arrays.copyOf(coords, 2 * b);
        if (coords[b] == null) coords[b] = new double[3 * BLOCK];
      }
      double[] c = coords[at >>> BLOCK_BITS];
      int o = 3 * (at & (BLOCK - 1));
      c[o] = xyz[3 * k];
      c[o + 1] = xyz[3 * k + 1];
      c[o + 2] = xyz[3 * k + 2];
    }
    for (PartCard pc : p.parts) partCards.put(pc.id(), pc);
    for (Mater m : p.maters) {
      maters.put(m.id(), m);
      if (m.name() != null && !m.name().isEmpty()) materByName.putIfAbsent(m.name(), m.id());
    }
    layers.addAll(p.layers);
    massCards.addAll(p.masses);
    notIncluded.addAll(p.notIncluded);
    lines += p.lines;
    if (p.els > 0) {
      p.keep();
      pieces.add(p);
    }
  }

  /** The coordinate {@code c} (0 x, 1 y, 2 z) of the node of index {@code ni}. */
  private double coord(int ni, int c) {
    return coords[ni >>> BLOCK_BITS][3 * (ni & (BLOCK - 1)) + c];
  }

  /**
   * Reads {@code deck} and its include tree (the walk {@code check} makes): files streamed in
   * pieces that begin where a card begins, read by worker threads. A deck that cannot be read
   * throws why; include files that cannot be read are told to {@code problems} (may be null) and
   * left out.
   */
  public static PartsTable read(Path deck, TreeCheck.Progress progress, List<String> problems)
      throws IncludeFiles.Unreadable, IOException {
    Path root = deck.toAbsolutePath().normalize();
    IncludeFiles.readable(root);
    PartsModel m = new PartsModel();
    Workers w = m.new Workers(threads(), progress);
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
            return m.stream(f, f == root, treeVersion, w);
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
      w.finish();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } finally {
      w.stop();
    }
    return m.table();
  }

  private static int threads() {
    return Math.max(1, Runtime.getRuntime().availableProcessors());
  }

  /** Streams one file to the workers, in pieces cut before a card header; returns its INCLU lines. */
  private List<IncludeLine> stream(Path f, boolean root, int[] treeVersion, Workers w) throws IOException {
    long size = FileBytes.size(f);
    Pieces s = new Pieces(f, root, treeVersion, w);
    DeckFile.read(f, size, false, s::take);
    s.end();
    return s.includes;
  }

  /** A file's chunks as pieces of whole cards ({@link CardPieces}), handed to the workers in order. */
  private final class Pieces {
    final Path f;
    final boolean root;
    final int[] treeVersion;
    final Workers w;
    final List<IncludeLine> includes = new ArrayList<>();
    final CardPieces pieces = new CardPieces(this::piece);
    int version = -1;
    int base; // the file's line of the next piece's first line
    long bytes;

    Pieces(Path f, boolean root, int[] treeVersion, Workers w) {
      this.f = f;
      this.root = root;
      this.treeVersion = treeVersion;
      this.w = w;
    }

    void take(DeckChunk c) {
      if (version < 0) {
        version = DeckVersion.readAs(ChunkLines.of(c), root ? 0 : treeVersion[0], table.newestVersion());
        if (root) treeVersion[0] = version;
      }
      bytes += c.byteSize();
      pieces.take(c);
    }

    void end() {
      pieces.end();
    }

    /** One piece of whole cards: its includes noted here, its cards read by a worker. */
    private void piece(ChunkLines lines) {
      List<IncludeLine> found = new ArrayList<>();
      IncludeLine.read(lines, 0, lines.lineCount(), found);
      for (IncludeLine il : found) includes.add(new IncludeLine(il.line() + base, il.from(), il.to(), il.name()));
      int at = base;
      base += lines.lineCount();
      w.submit(f, lines, version, at, bytes, base);
    }
  }

  /**
   * The worker threads: each reads whole pieces into a {@link Piece} with a parser of its own,
   * while the next are read from disk (at most a few ahead); the pieces read are merged in file
   * order by one worker at a time.
   */
  private final class Workers {
    private static final Piece FAILED = new Piece();
    private final ExecutorService threads;
    private final ThreadLocal<Parser> parsers = ThreadLocal.withInitial(Parser::new);
    private final Semaphore ahead;
    private final TreeCheck.Progress progress;
    private final Map<Integer, Piece> done = new HashMap<>();
    private int submitted; // on the reading thread
    private int next; // the next piece to merge
    private boolean merging;
    private volatile Throwable failed;

    Workers(int n, TreeCheck.Progress progress) {
      this.progress = progress;
      ahead = new Semaphore(2 * n + 1);
      int[] count = {0};
      threads = Executors.newFixedThreadPool(n, r -> {
        Thread t = new Thread(r, "nvimpam-parts-" + count[0]++);
        t.setDaemon(true);
        return t;
      });
    }

    void submit(Path f, ChunkLines lines, int version, int base, long bytes, long upTo) {
      ahead.acquireUninterruptibly();
      int seq = submitted++;
      threads.execute(() -> {
        Piece p = FAILED;
        try {
          if (failed == null) {
            p = parsers.get().parse(f, lines, version, base);
            p.file = f;
            p.bytes = bytes;
            p.upTo = upTo;
          }
        } catch (Throwable t) {
          failed = t;
        } finally {
          lines.done(); // the piece is read into arrays of its own: its segments may be read into again
          ahead.release();
        }
        done(seq, p);
      });
    }

    /** Piece {@code seq} is read: merges it and those after it already read, unless a worker is at it. */
    private void done(int seq, Piece p) {
      synchronized (this) {
        done.put(seq, p);
        if (merging) return;
        merging = true;
      }
      while (true) {
        Piece q;
        synchronized (this) {
          q = done.remove(next);
          if (q == null) {
            merging = false;
            notifyAll();
            return;
          }
          next++;
        }
        try {
          if (failed == null && q != FAILED) {
            merge(q);
            if (progress != null) progress.read(q.file, q.bytes, q.upTo);
          }
        } catch (Throwable t) {
          failed = t;
        }
      }
    }

    /** Waits until every piece handed over is merged; rethrows what failed. */
    synchronized void finish() {
      threads.shutdown();
      while (next < submitted || merging) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted", e);
        }
      }
      if (failed instanceof RuntimeException r) throw r;
      if (failed instanceof Error e) throw e;
      if (failed != null) throw new IllegalStateException(failed);
    }

    void stop() {
      threads.shutdownNow();
    }
  }

  /** A part's row while its elements are summed, by one thread. */
  private static final class PartSum {
    final int id;
    final PartCard pc;
    String reason;
    double rho = Double.NaN;
    String material = "";
    long elements;
    long nodes;
    double mass;
    double mx;
    double my;
    double mz;
    double[] box;

    PartSum(int id, PartCard pc) {
      this.id = id;
      this.pc = pc;
    }
  }

  /** The table of everything read so far. */
  public PartsTable table() {
    // Parts in the order of their cards, then the part ids elements name without a card.
    IntIntMap partIndex = new IntIntMap();
    List<PartSum> sums = new ArrayList<>();
    for (PartCard pc : partCards.values()) {
      partIndex.put(pc.id(), sums.size());
      sums.add(new PartSum(pc.id(), pc));
    }
    int[][] partOf = new int[pieces.size()][]; // each element's part, by piece
    for (int q = 0; q < pieces.size(); q++) {
      Piece pc = pieces.get(q);
      int[] po = partOf[q] = new int[pc.els];
      int lastId = 0;
      int last = -1;
      for (int k = 0; k < pc.els; k++) {
        int id = pc.elPart[k];
        int p = last >= 0 && id == lastId ? last : partIndex.get(id);
        if (p < 0) {
          p = sums.size();
          partIndex.put(id, p);
          sums.add(new PartSum(id, null));
        }
        sums.get(p).elements++;
        po[k] = p;
        lastId = id;
        last = p;
      }
    }
    for (PartSum s : sums) material(s);
    sumElements(sums, partOf);
    List<PartsTable.Part> rows = new ArrayList<>();
    double total = 0;
    double[] moment = new double[3];
    for (PartSum s : sums) {
      PartCard pc = s.pc;
      double[] cog = s.reason == null && s.mass > 0 ? new double[] {s.mx / s.mass, s.my / s.mass, s.mz / s.mass} : null;
      if (s.reason == null) {
        total += s.mass;
        moment[0] += s.mx;
        moment[1] += s.my;
        moment[2] += s.mz;
      }
      rows.add(new PartsTable.Part(s.id, pc == null ? "" : pc.name(), pc == null ? "" : pc.type(), s.material, s.elements,
          s.nodes, pc == null || Double.isNaN(pc.h()) ? Double.NaN : pc.h(), s.reason == null ? s.mass : Double.NaN,
          s.reason, cog, s.box, pc == null ? null : pc.file(), pc == null ? -1 : pc.line()));
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
        for (int c = 0; c < 3; c++) cog[c] = coord(ni, c) + mc.offset()[c];
        total += m;
        for (int c = 0; c < 3; c++) moment[c] += m * cog[c];
      }
      masses.add(new PartsTable.PointMass(mc.node(), mc.name(), reason == null ? m : Double.NaN, reason, cog, mc.file(),
          mc.line()));
    }
    double[] cog = total > 0 ? new double[] {moment[0] / total, moment[1] / total, moment[2] / total} : null;
    return new PartsTable(rows, masses, List.copyOf(notIncluded), total, cog, lines);
  }

  /** A part's material and density, or why its mass cannot be computed. */
  private void material(PartSum s) {
    PartCard pc = s.pc;
    if (pc == null) {
      s.reason = "no PART card";
      return;
    }
    int mid = pc.idmat();
    if (mid == 0 && pc.matname() != null && !pc.matname().isEmpty()) {
      String mn = pc.matname();
      Integer byName = materByName.get(mn);
      if (mn.chars().allMatch(Character::isDigit)) mid = Integer.parseInt(mn);
      else if (byName != null) mid = byName;
      s.material = mid != 0 ? Integer.toString(mid) : "RMAT " + mn;
    } else if (mid != 0) {
      s.material = Integer.toString(mid);
    }
    Mater mat = maters.get(mid);
    if (mid == 0) s.reason = "no material";
    else if (mat == null && layers.contains(mid)) s.reason = "composite (LAYER and PLY): not computed";
    else if (mat == null) s.reason = "material " + mid + " not found";
    else if (mat.type() == 131 || mat.type() == 132) s.reason = "composite (MATER " + mat.type() + ", LAYER and PLY): not computed";
    else if (!(mat.rho() > 0)) s.reason = "material " + mid + " has no density";
    else s.rho = mat.rho();
  }

  /**
   * Sums the elements into their parts, the parts shared among threads by their elements' count:
   * each part's elements are summed by one thread, in file order.
   */
  private void sumElements(List<PartSum> sums, int[][] partOf) {
    int np = sums.size();
    int nt = Math.min(threads(), Math.max(1, np));
    int[] owner = new int[np];
    Integer[] big = new Integer[np];
    for (int p = 0; p < np; p++) big[p] = p;
    Arrays.sort(big, (a, b) -> Long.compare(sums.get(b).elements, sums.get(a).elements));
    long[] load = new long[nt];
    for (int p : big) {
      int t = 0;
      for (int u = 1; u < nt; u++) if (load[u] < load[t]) t = u;
      owner[p] = t;
      load[t] += sums.get(p).elements;
    }
    if (nt == 1) {
      sumElements(0, owner, sums, partOf);
      return;
    }
    Thread[] ts = new Thread[nt];
    Throwable[] failed = new Throwable[nt];
    for (int t = 0; t < nt; t++) {
      int u = t;
      ts[t] = new Thread(() -> {
        try {
          sumElements(u, owner, sums, partOf);
        } catch (Throwable e) {
          failed[u] = e;
        }
      }, "nvimpam-parts-sum-" + t);
      ts[t].setDaemon(true);
      ts[t].start();
    }
    for (Thread t : ts) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    for (Throwable e : failed) {
      if (e instanceof RuntimeException r) throw r;
      if (e instanceof Error r) throw r;
    }
  }

  private static final int[] PENTA_CORNERS = {0, 1, 2, 2, 3, 4, 5, 5}, PYRA_CORNERS = {0, 1, 2, 3, 4, 4, 4, 4},
      HEXA_CORNERS = {0, 1, 2, 3, 4, 5, 6, 7};

  /** Thread {@code t}'s share: the elements of the parts it owns. */
  private void sumElements(int t, int[] owner, List<PartSum> sums, int[][] partOf) {
    int[] seen = new int[nodeCount]; // the first part (+ 1) that counted a node
    int[] seen2 = new int[nodeCount]; // the second
    Set<Long> shared = new HashSet<>(); // node << 32 | part: a node counted by a third part or more
    double[] x = new double[3 * 20]; // the element's corners' coordinates
    double[] out = new double[4];
    for (int q = 0; q < pieces.size(); q++) {
      Piece pc = pieces.get(q);
      int[] po = partOf[q];
      for (int k = 0; k < pc.els; k++) {
        int p = po[k];
        if (owner[p] != t) continue;
        PartSum s = sums.get(p);
        int first = pc.elFirst[k];
        int last = pc.elFirst[k + 1];
        boolean missing = false;
        for (int i = first; i < last; i++) {
          int ni = nodeIndex.get(pc.pool[i]);
          if (ni < 0) {
            if (s.reason == null) s.reason = "node " + pc.pool[i] + " not found";
            missing = true;
            continue;
          }
          double[] b = coords[ni >>> BLOCK_BITS];
          int o = 3 * (ni & (BLOCK - 1));
          int c = 3 * (i - first);
          double nx = x[c] = b[o], ny = x[c + 1] = b[o + 1], nz = x[c + 2] = b[o + 2];
          int st = seen[ni];
          int st2 = seen2[ni];
          boolean fresh;
          if (st == 0) {
            seen[ni] = p + 1;
            fresh = true;
          } else if (st == p + 1 || st2 == p + 1) {
            fresh = false;
          } else if (st2 == 0) {
            seen2[ni] = p + 1;
            fresh = true;
          } else {
            fresh = shared.add(((long) ni << 32) | p);
          }
          if (fresh) {
            s.nodes++;
            if (s.box == null) s.box = new double[] {nx, ny, nz, nx, ny, nz};
            double[] box = s.box;
            box[0] = Math.min(box[0], nx);
            box[1] = Math.min(box[1], ny);
            box[2] = Math.min(box[2], nz);
            box[3] = Math.max(box[3], nx);
            box[4] = Math.max(box[4], ny);
            box[5] = Math.max(box[5], nz);
          }
        }
        byte shape = pc.elShape[k];
        if (shape == NONE) {
          if (s.reason == null) s.reason = words.get(pc.elWord[k]) + " elements: mass not computed";
          continue;
        }
        if (missing || s.reason != null) continue;
        double factor;
        switch (shape) {
          case TRIA, QUAD -> {
            double h = pc.elH[k] > 0 ? pc.elH[k] : s.pc.h();
            if (!(h > 0)) {
              s.reason = "MEMBR".equals(words.get(pc.elWord[k])) ? "MEMBR part with no thickness" : "no thickness";
              continue;
            }
            if (shape == TRIA) MassShapes.triangle(x, 0, 1, 2, out);
            else MassShapes.quad(x, 0, 1, 2, 3, out);
            factor = h;
          }
          case LINE -> {
            if (!(s.pc.a() > 0)) {
              s.reason = "no section area (A)";
              continue;
            }
            MassShapes.line(x, 0, 1, out);
            factor = s.pc.a();
          }
          case TETRA -> {
            MassShapes.tetra(x, 0, 1, 2, 3, out);
            factor = 1;
          }
          default -> {
            MassShapes.hexa(x, shape == HEXA ? HEXA_CORNERS : shape == PENTA ? PENTA_CORNERS : PYRA_CORNERS, out);
            factor = 1;
          }
        }
        double m = out[0] * factor * s.rho;
        s.mass += m;
        s.mx += m * out[1];
        s.my += m * out[2];
        s.mz += m * out[3];
      }
    }
  }
}
