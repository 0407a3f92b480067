package org.nvimpam.model;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.FieldValues;
import org.nvimpam.deck.RowLayout;
import org.nvimpam.deck.RowWalker;
import org.nvimpam.ids.IntList;
import org.nvimpam.lines.LineSource;

/**
 * Moves the nodes of a model: translate, rotate, scale or mirror the X, Y and Z of NODE and CNODE
 * cards, read and written through the card-layout table's columns. No Neovim here: the plan is a
 * list of line edits per file, which the headless {@code transform} writes to a new tree and
 * :NvimpamTransform puts into buffers.
 *
 * <p>The arithmetic is decimal: a coordinate's text is read exactly (as {@link FieldValues#real}
 * reads it) and the result rounded once, to the most significant digits its field holds; a
 * coordinate the transform leaves equal keeps its bytes. A transform that turns space over (a
 * mirror, a negative scale) also reverses the node order of each element all of whose nodes move,
 * so that normals and volumes keep their sign; an element only some of whose nodes move is refused.
 * Everything is checked before any edit is made, and a refusal lists every reason.
 */
public final class Transform {
  /** What a transform does: {@code p' = m (p - c) + c + d}; {@code text} as the user wrote it. */
  public record Op(String text, BigDecimal[][] m, BigDecimal[] c, BigDecimal[] d) {
    /** Whether it turns space over (determinant below 0): elements reverse their node order. */
    public boolean reflects() {
      BigDecimal det = m[0][0].multiply(m[1][1].multiply(m[2][2]).subtract(m[1][2].multiply(m[2][1])))
          .subtract(m[0][1].multiply(m[1][0].multiply(m[2][2]).subtract(m[1][2].multiply(m[2][0]))))
          .add(m[0][2].multiply(m[1][0].multiply(m[2][1]).subtract(m[1][1].multiply(m[2][0]))));
      return det.signum() < 0;
    }

    /** Coordinate {@code k} of the image of {@code p}, exact but for a rotation's sine and cosine. */
    BigDecimal apply(BigDecimal[] p, int k) {
      BigDecimal v = c[k].add(d[k]);
      for (int j = 0; j < 3; j++) {
        if (m[k][j].signum() != 0) v = v.add(m[k][j].multiply(p[j].subtract(c[j])));
      }
      return v;
    }
  }

  /** The words of each operation, for usage messages. */
  public static final String USAGE = "translate DX DY DZ | rotate x|y|z DEG [X Y Z] | scale S [X Y Z] | mirror x|y|z [C]";

  /** The operation {@code words} name ({@link #USAGE}); else why not. */
  public static Op parse(List<String> words) {
    if (words.isEmpty()) throw new IllegalArgumentException("no transform given: " + USAGE);
    String op = words.get(0).toLowerCase(Locale.ROOT);
    List<String> a = words.subList(1, words.size());
    String text = String.join(" ", words);
    BigDecimal[] zero = {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
    switch (op) {
      case "translate" -> {
        count(op, a, 3, 3);
        return new Op(text, identity(), zero, new BigDecimal[] {num(a.get(0)), num(a.get(1)), num(a.get(2))});
      }
      case "rotate" -> {
        count(op, a, 2, 5);
        int axis = axis(a.get(0));
        BigDecimal deg = num(a.get(1));
        BigDecimal[] cs = cosSin(deg);
        BigDecimal[][] m = identity();
        int i = (axis + 1) % 3;
        int j = (axis + 2) % 3;
        m[i][i] = cs[0];
        m[i][j] = cs[1].negate();
        m[j][i] = cs[1];
        m[j][j] = cs[0];
        return new Op(text, m, centre(op, a, 2), zero);
      }
      case "scale" -> {
        count(op, a, 1, 4);
        BigDecimal s = num(a.get(0));
        if (s.signum() == 0) throw new IllegalArgumentException("scale 0 would put every node on one point");
        BigDecimal[][] m = identity();
        for (int k = 0; k < 3; k++) m[k][k] = s;
        return new Op(text, m, centre(op, a, 1), zero);
      }
      case "mirror" -> {
        count(op, a, 1, 2);
        int axis = axis(a.get(0));
        BigDecimal[][] m = identity();
        m[axis][axis] = BigDecimal.ONE.negate();
        BigDecimal[] c = zero.clone();
        if (a.size() == 2) c[axis] = num(a.get(1));
        return new Op(text, m, c, zero);
      }
      default -> throw new IllegalArgumentException("no transform \"" + words.get(0) + "\": " + USAGE);
    }
  }

  private static void count(String op, List<String> a, int min, int max) {
    if (a.size() < min || a.size() > max || (op.equals("rotate") || op.equals("scale")) && a.size() != min && a.size() != max) {
      throw new IllegalArgumentException(op + " takes " + switch (op) {
        case "translate" -> "DX DY DZ";
        case "rotate" -> "an axis (x, y or z), the degrees, and optionally the centre X Y Z";
        case "scale" -> "the factor S, and optionally the centre X Y Z";
        default -> "an axis (x, y or z), and optionally the plane's coordinate C on it";
      } + ", not \"" + String.join(" ", a) + "\"");
    }
  }

  private static BigDecimal[] centre(String op, List<String> a, int from) {
    if (a.size() == from) return new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
    return new BigDecimal[] {num(a.get(from)), num(a.get(from + 1)), num(a.get(from + 2))};
  }

  private static BigDecimal[][] identity() {
    BigDecimal[][] m = new BigDecimal[3][3];
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) m[i][j] = i == j ? BigDecimal.ONE : BigDecimal.ZERO;
    }
    return m;
  }

  private static int axis(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "x" -> 0;
      case "y" -> 1;
      case "z" -> 2;
      default -> throw new IllegalArgumentException("no axis \"" + s + "\" (x, y or z)");
    };
  }

  private static BigDecimal num(String s) {
    try {
      return new BigDecimal(s.replace('d', 'e').replace('D', 'E'));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("\"" + s + "\" is no number");
    }
  }

  /** Cosine and sine of {@code deg} degrees: exact at multiples of 90, else the doubles'. */
  private static BigDecimal[] cosSin(BigDecimal deg) {
    BigDecimal[] q = deg.divideAndRemainder(BigDecimal.valueOf(90));
    if (q[1].signum() == 0) {
      int k = Math.floorMod(q[0].intValue(), 4);
      int[][] cs = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
      return new BigDecimal[] {BigDecimal.valueOf(cs[k][0]), BigDecimal.valueOf(cs[k][1])};
    }
    double r = Math.toRadians(deg.remainder(BigDecimal.valueOf(360)).doubleValue());
    return new BigDecimal[] {BigDecimal.valueOf(Math.cos(r)), BigDecimal.valueOf(Math.sin(r))};
  }

  // Writing numbers ---------------------------------------------------------------------------

  private static final int MAX_DIGITS = 17; // a double's: more would be noise to the solver

  /**
   * {@code v} in at most {@code width} characters with the most significant digits that fit (up to
   * 17), always with a point so that no reader takes it for an integer: plain ({@code -2.25},
   * {@code 100.}), with no 0 before the point where that gains a digit, or with an exponent
   * ({@code 1.5E-12}); null when not even one digit fits, or the value is beyond a double's range.
   */
  public static String format(BigDecimal v, int width) {
    if (v.signum() == 0) return width >= 2 ? "0." : null;
    double d = v.doubleValue();
    if (Double.isInfinite(d) || d == 0) return null; // beyond what the solver's doubles hold
    for (int p = MAX_DIGITS; p >= 1; p--) {
      BigDecimal r = v.round(new MathContext(p, RoundingMode.HALF_EVEN)).stripTrailingZeros();
      String plain = r.toPlainString();
      if (plain.indexOf('.') < 0) plain += ".";
      if (plain.length() <= width) return plain;
      if (plain.startsWith("0.") || plain.startsWith("-0.")) {
        String shorter = plain.startsWith("-") ? "-" + plain.substring(2) : plain.substring(1);
        if (shorter.length() <= width) return shorter;
      }
      String digits = r.unscaledValue().abs().toString();
      long exp = (long) digits.length() - 1 - r.scale();
      String e = (r.signum() < 0 ? "-" : "") + digits.charAt(0) + "." + digits.substring(1) + "E" + exp;
      if (e.length() <= width) return e;
    }
    return null;
  }

  /**
   * The number in {@code a[s, e)} exactly as written (blank: 0), or null when it is no float form
   * (a parameter, text).
   */
  static BigDecimal read(byte[] a, int s, int e) {
    while (s < e && a[s] == ' ') s++;
    while (e > s && a[e - 1] == ' ') e--;
    if (s == e) return BigDecimal.ZERO;
    if (Double.isNaN(FieldValues.number(a, s, e))) return null;
    StringBuilder b = new StringBuilder(e - s + 2);
    boolean digit = false;
    boolean exp = false;
    for (int i = s; i < e; i++) {
      char c = (char) a[i];
      if (c == 'd' || c == 'D' || c == 'e' || c == 'E') {
        c = 'E';
        exp = true;
      } else if ((c == '+' || c == '-') && digit && !exp) {
        b.append('E');
        exp = true;
      }
      digit |= c >= '0' && c <= '9';
      b.append(c);
    }
    char last = b.charAt(b.length() - 1);
    if (exp && (last == 'E' || last == '+' || last == '-')) b.append('0');
    if (b.charAt(0) == '.' || b.charAt(0) == 'E') b.insert(0, '0');
    if (b.length() > 1 && (b.charAt(0) == '-' || b.charAt(0) == '+') && b.charAt(1) == '.') b.insert(1, '0');
    try {
      return new BigDecimal(b.toString());
    } catch (NumberFormatException x) {
      return null;
    }
  }

  // The plan ------------------------------------------------------------------------------------

  /** One file of the tree: its lines are read only inside {@link #read}, which may lock them. */
  public interface Source {
    /** Its name in messages. */
    String label();

    /** Its INPUTVERSION (the tree's where it declares none). */
    int version();

    /** Runs {@code f} on the file's lines. */
    <T> T read(Function<LineSource, T> f);
  }

  /** Which nodes move: every node of the tree, the NODE cards of some lines, or the nodes of some parts' elements. */
  public sealed interface Scope permits All, Lines, Parts {}

  public record All() implements Scope {}

  /** The node cards on lines {@code [from, to]} (0-based) of file {@code file}. */
  public record Lines(int file, int from, int to) implements Scope {}

  /** The nodes of the elements of {@code ids}; {@code shared}: also the nodes other parts' elements use. */
  public record Parts(int[] ids, boolean shared) implements Scope {}

  /** An edit of line {@code line}: its bytes {@code [from, to)} (no final CR) become {@code text}; they were {@code old}. */
  public record Edit(int line, int from, int to, byte[] text, byte[] old) {}

  /** A message about a place: {@code file} -1 for the tree; {@code line} and {@code col} 0-based. */
  public record Note(int file, int line, int col, String message) {}

  /** A file's edits, in line order; {@code lines} the lines they change. */
  public record FileEdits(int file, List<Edit> edits) {}

  /**
   * The plan: the edits (none when refused), the reasons to refuse, the geometric cards of the
   * scope that were not transformed, and the counts of nodes moved and elements reversed.
   */
  public record Result(List<FileEdits> files, List<Note> refusals, List<Note> untouched, int nodes, int reversed) {
    public boolean refused() {
      return !refusals.isEmpty();
    }
  }

  // Roles of a card, by entry.
  static final int OTHER = 0, NODE = 1, ELEMENT = 2, GEOMETRY = 3, PART = 4;
  // Fields read, by slot: the id, the coordinates, the part, the nodes (IDNODk is NODE1 + k - 1).
  static final int S_ID = 0, S_X = 1, S_PART = 4, S_NODE1 = 5, S_GEO = 25, S_COG = 26;

  /** The fields that hold a direction, offset or position of their own, which a node's move does not carry. */
  private static final Set<String> GEOMETRIC = Set.of("FRAME.UX", "FRAME.UY", "FRAME.UZ", "FRAME.VX", "FRAME.VY", "FRAME.VZ",
      "FRAME.TX", "FRAME.TY", "FRAME.TZ", "MASS.DISr", "MASS.DISs", "MASS.DISt", "PLANE.OFFSET", "PLANE.NX", "PLANE.NY",
      "PLANE.NZ");

  static final CardLayouts TABLE = CardLayouts.bundled();
  static final int[] ROLES; // what each entry of the table is here, by entry
  static final int[][][] FIELDS; // by entry, then row: slot, from (0-based), to; in triples

  static {
    int n = TABLE.entries().size();
    ROLES = new int[n];
    FIELDS = new int[n][][];
    for (int e = 0; e < n; e++) {
      CardLayout c = TABLE.entry(e);
      int role = switch (c.word()) {
        case "NODE", "CNODE" -> NODE;
        case "FRAME", "MASS", "PLANE", "RBODY" -> GEOMETRY;
        case "PART" -> PART;
        default -> c.category().equals("Element") || c.category().equals("Link") ? ELEMENT : OTHER;
      };
      ROLES[e] = role;
      if (role == OTHER) continue;
      FIELDS[e] = new int[c.rows().size()][];
      for (int r = 0; r < c.rows().size(); r++) {
        IntList f = new IntList();
        for (FieldLayout fl : c.rows().get(r).fields()) {
          int slot = slot(role, c.word(), c.rows().get(r), fl);
          if (slot < 0) continue;
          f.add(slot);
          f.add(fl.from() - 1);
          f.add(fl.to());
        }
        FIELDS[e][r] = Arrays.copyOf(f.a, f.size);
      }
    }
  }

  private static int slot(int role, String word, RowLayout row, FieldLayout f) {
    String name = f.name();
    switch (role) {
      case NODE -> {
        return switch (name) {
          case "IDNOD" -> S_ID;
          case "X" -> S_X;
          case "Y" -> S_X + 1;
          case "Z" -> S_X + 2;
          default -> -1;
        };
      }
      case ELEMENT -> {
        if (name.equals("IDEL")) return S_ID;
        if (name.equals("IDPRT")) return S_PART;
        if (name.startsWith("IDNOD") && name.length() > 5 && Character.isDigit(name.charAt(5))) {
          int k = Integer.parseInt(name.substring(5));
          return k >= 1 && k <= 20 ? S_NODE1 + k - 1 : -1;
        }
        return -1;
      }
      default -> {
        if (f.defines() != null && !f.defines().isEmpty() || word.equals("MASS") && name.equals("IDNOD")) return S_ID;
        if (word.equals("RBODY") && name.equals("IDNODcog")) return S_COG;
        return GEOMETRIC.contains(word + "." + name) ? S_GEO : -1;
      }
    }
  }


  /**
   * The order a reflected element takes, by word: field k gets the node field {@code src[k]} had
   * (0-based IDNOD fields); the shape's orientation turns back over. Null: an element with no
   * orientation (a line, a point, a link), whose order stays.
   */
  static int[] reversal(String word, int[] nodes) {
    return switch (word) {
      // quadrilateral 1234 -> 1432; a triangle 1233 -> 1322, or 123 (N4 blank) -> 132
      case "SHELL", "TSHEL", "MEMBR" -> nodes.length < 4 || nodes[3] == 0 ? new int[] {0, 2, 1, 3}
          : nodes[3] == nodes[2] ? new int[] {0, 2, 1, 1} : new int[] {0, 3, 2, 1};
      case "SOLID", "BSHEL" -> new int[] {0, 3, 2, 1, 4, 7, 6, 5}; // both faces 1234 -> 1432
      case "PENTA6" -> new int[] {0, 2, 1, 3, 5, 4}; // both triangles 123 -> 132
      case "TETR4" -> new int[] {0, 2, 1, 3};
      case "PYRA5" -> new int[] {0, 3, 2, 1, 4}; // the base 1234 -> 1432, the apex stays
      default -> null;
    };
  }

  /** Element words whose orientation has no reversal here: their mid-side nodes would need one of their own. */
  private static final Set<String> NO_REVERSAL = Set.of("HEXA20", "PENT15", "TETR10", "TETRA", "PYRA13", "SHEL6", "SHEL8");

  /** What the first pass finds in one file. */
  private static final class Scan {
    final IntList nodeLines = new IntList(); // line, id
    final IntList elements = new IntList(); // header line, entry, part, id, first, count (into pool)
    final IntList pool = new IntList(); // node id, line, from, to: per node field
    final List<Note> geometry = new ArrayList<>(); // cards with geometry of their own, to list when in scope
    final IntList geometryCog = new IntList(); // by geometry note: the centre node, 0 none
  }

  private final List<Source> files;
  private final Scope scope;
  private final Op op;
  private final RowWalker walker = new RowWalker(TABLE);
  private final double[] v = new double[S_COG + 1];
  private final int[] fieldLine = new int[20];
  private final int[] fieldFrom = new int[20];
  private final int[] fieldTo = new int[20];
  private boolean geoSet;

  private Transform(List<Source> files, Scope scope, Op op) {
    this.files = files;
    this.scope = scope;
    this.op = op;
  }

  /** The plan of {@code op} on the nodes of {@code scope} in the tree {@code files} (the root first). */
  public static Result plan(List<Source> files, Scope scope, Op op) {
    return new Transform(files, scope, op).plan();
  }

  private Result plan() {
    List<Scan> scans = new ArrayList<>();
    for (Source s : files) scans.add(s.read(src -> scan(src, s.version())));
    List<Note> refusals = new ArrayList<>();
    Set<Integer> moving = moving(scans, refusals);
    // the node cards to rewrite: every definition of a moving node, or those in the lines
    boolean reflects = op.reflects();
    List<Map<Integer, int[]>> reorder = new ArrayList<>(); // by file: header line -> [entry-free pool triples]
    int reversed = 0;
    for (int f = 0; f < scans.size(); f++) {
      Scan s = scans.get(f);
      Map<Integer, int[]> mine = new HashMap<>();
      reorder.add(mine);
      if (!reflects) continue;
      IntList el = s.elements;
      for (int i = 0; i < el.size; i += 6) {
        int first = el.a[i + 4];
        int count = el.a[i + 5];
        int in = 0;
        int all = 0;
        int[] ids = new int[count];
        for (int k = 0; k < count; k++) {
          int id = s.pool.a[4 * (first + k)];
          ids[k] = id;
          if (id == 0) continue;
          all++;
          if (moving.contains(id)) in++;
        }
        if (in == 0) continue;
        CardLayout c = TABLE.entry(el.a[i + 1]);
        String what = c.word() + " " + el.a[i + 3];
        if (in < all) {
          refusals.add(new Note(f, el.a[i], 0, what + " has " + in + " of its " + all + " nodes moved: turned over, it would "
              + "be neither mirrored nor as it was"));
          continue;
        }
        if (NO_REVERSAL.contains(c.word())) {
          refusals.add(new Note(f, el.a[i], 0, what + ": nvimpam cannot reverse the order of a " + c.word()
              + "'s nodes (its mid-side nodes), and mirrored as it is its volume or normal would turn over"));
          continue;
        }
        int[] src = reversal(c.word(), ids);
        if (src == null) continue;
        int[] perm = Arrays.copyOf(src, Math.min(src.length, count));
        mine.put(i, perm);
        reversed++;
      }
    }
    List<FileEdits> out = new ArrayList<>();
    int[] moved = {0};
    for (int f = 0; f < scans.size(); f++) {
      int file = f;
      Scan s = scans.get(f);
      Map<Integer, int[]> mine = reorder.get(f);
      List<Edit> edits = files.get(f).read(src -> edits(file, src, s, moving, mine, refusals, moved));
      if (!edits.isEmpty()) out.add(new FileEdits(f, edits));
    }
    List<Note> untouched = untouched(scans, moving);
    if (!refusals.isEmpty()) return new Result(List.of(), refusals, untouched, moved[0], reversed);
    return new Result(out, List.of(), untouched, moved[0], reversed);
  }

  /** The ids of the nodes that move; refusals for parts with no element, and nodes other parts share. */
  private Set<Integer> moving(List<Scan> scans, List<Note> refusals) {
    Set<Integer> moving = new HashSet<>();
    if (scope instanceof All) {
      for (Scan s : scans) {
        for (int i = 0; i < s.nodeLines.size; i += 2) moving.add(s.nodeLines.a[i + 1]);
      }
    } else if (scope instanceof Lines l) {
      Scan s = scans.get(l.file());
      for (int i = 0; i < s.nodeLines.size; i += 2) {
        int line = s.nodeLines.a[i];
        if (line >= l.from() && line <= l.to()) moving.add(s.nodeLines.a[i + 1]);
      }
    } else if (scope instanceof Parts p) {
      Set<Integer> parts = new HashSet<>();
      for (int id : p.ids()) parts.add(id);
      Set<Integer> withElements = new HashSet<>();
      Map<Integer, Integer> otherUse = new HashMap<>(); // node -> a part not moved that uses it
      for (Scan s : scans) {
        IntList el = s.elements;
        for (int i = 0; i < el.size; i += 6) {
          int part = el.a[i + 2];
          boolean mine = parts.contains(part);
          if (mine) withElements.add(part);
          for (int k = 0; k < el.a[i + 5]; k++) {
            int id = s.pool.a[4 * (el.a[i + 4] + k)];
            if (id == 0) continue;
            if (mine) moving.add(id);
            else otherUse.putIfAbsent(id, part);
          }
        }
      }
      for (int id : new TreeSet<>(parts)) {
        if (!withElements.contains(id)) refusals.add(new Note(-1, 0, 0, "part " + id + " has no element in the tree: it has no nodes to move"));
      }
      if (!p.shared()) {
        for (int id : new TreeSet<>(moving)) {
          Integer other = otherUse.get(id);
          if (other != null) refusals.add(new Note(-1, 0, 0, "node " + id + " is shared with part " + other + " (! moves shared nodes too)"));
        }
      }
    }
    return moving;
  }

  /** The cards with geometry of their own that the scope holds, which the transform leaves as they are. */
  private List<Note> untouched(List<Scan> scans, Set<Integer> moving) {
    List<Note> out = new ArrayList<>();
    for (int f = 0; f < scans.size(); f++) {
      Scan s = scans.get(f);
      for (int i = 0; i < s.geometry.size(); i++) {
        Note n = s.geometry.get(i);
        if (scope instanceof Lines l && (f != l.file() || n.line() < l.from() || n.line() > l.to())) continue;
        int cog = s.geometryCog.a[i];
        if (n.message().startsWith("RBODY") && (cog == 0 || moving.contains(cog))) continue; // its centre moves with its node
        out.add(new Note(f, n.line(), n.col(), n.message()));
      }
    }
    return out;
  }

  // The first pass: node lines, elements, geometric cards -------------------------------------------

  private Scan scan(LineSource src, int version) {
    Scan out = new Scan();
    int[] picks = TABLE.picks(version);
    int n = src.lineCount();
    int i = 0;
    while (i < n) {
      int g = walker.groupAt(src, i);
      if (g < 0) {
        i = walker.skipCard(src, i);
        continue;
      }
      int e = picks[g] >= 0 ? picks[g] : TABLE.group(g)[0];
      int role = ROLES[e];
      if (role == OTHER || role == PART) {
        i = walker.skipCard(src, i);
        continue;
      }
      Arrays.fill(v, Double.NaN);
      Arrays.fill(fieldLine, -1);
      geoSet = false;
      int header = i;
      int[][] f = FIELDS[e];
      int end = walker.walkCard(src, i, e, (line, code) -> {
        if (code >= 0 && code < f.length) read(f[code], line);
        if (role == NODE && code == 0) out.nodeLines.add(line);
      });
      if (role == NODE) {
        out.nodeLines.add(id(v[S_ID]));
        // a NODE card is one line; a second NODE line would be a card of its own
      } else if (role == ELEMENT) {
        int count = 0;
        for (int k = 0; k < 20; k++) {
          if (fieldLine[k] >= 0) count = k + 1;
        }
        out.elements.add(header);
        out.elements.add(e);
        out.elements.add(id(v[S_PART]));
        out.elements.add(id(v[S_ID]));
        out.elements.add(out.pool.size / 4);
        out.elements.add(count);
        for (int k = 0; k < count; k++) {
          out.pool.add(fieldLine[k] < 0 ? 0 : id(v[S_NODE1 + k]));
          out.pool.add(fieldLine[k]);
          out.pool.add(fieldFrom[k]);
          out.pool.add(fieldTo[k]);
        }
      } else if (geoSet || id(v[S_COG]) != 0) {
        CardLayout c = TABLE.entry(e);
        String what = c.word() + " " + id(v[S_ID]);
        String why = switch (c.word()) {
          case "FRAME" -> what + ": its vectors are not transformed";
          case "MASS" -> what + ": its offsets from the node are not transformed";
          case "PLANE" -> what + ": its normal and offset are not transformed";
          default -> what + ": its centre node " + id(v[S_COG]) + " does not move";
        };
        out.geometry.add(new Note(-1, header, 0, why));
        out.geometryCog.add(c.word().equals("RBODY") ? id(v[S_COG]) : 0);
      }
      i = end;
    }
    return out;
  }

  private void read(int[] f, int line) {
    byte[] a = walker.lineBytes();
    int off = walker.lineStart();
    int len = walker.lineLength();
    for (int k = 0; k < f.length; k += 3) {
      int slot = f[k];
      int s = Math.min(f[k + 1], len);
      int t = Math.min(f[k + 2], len);
      if (slot == S_GEO) {
        BigDecimal b = read(a, off + s, off + t);
        geoSet |= b == null || b.signum() != 0;
        continue;
      }
      v[slot] = DeckNumber.read(a, off, len, f[k + 1], f[k + 2], 0);
      if (slot >= S_NODE1 && slot < S_NODE1 + 20) {
        fieldLine[slot - S_NODE1] = line;
        fieldFrom[slot - S_NODE1] = f[k + 1];
        fieldTo[slot - S_NODE1] = f[k + 2];
      }
    }
  }

  private static int id(double d) {
    return Double.isNaN(d) || d < 0 || d > Integer.MAX_VALUE ? 0 : (int) d;
  }

  // The second pass: the new lines -------------------------------------------------------------------

  private List<Edit> edits(int file, LineSource src, Scan s, Set<Integer> moving, Map<Integer, int[]> reorder,
      List<Note> refusals, int[] moved) {
    Map<Integer, byte[]> lines = new java.util.TreeMap<>(); // line -> its new content
    int[] nodeEntry = nodeFields();
    for (int i = 0; i < s.nodeLines.size; i += 2) {
      int line = s.nodeLines.a[i];
      int id = s.nodeLines.a[i + 1];
      if (!moving.contains(id)) continue;
      if (scope instanceof Lines l && (file != l.file() || line < l.from() || line > l.to())) continue;
      if (line >= src.lineCount()) continue;
      byte[] neu = node(file, src, line, id, nodeEntry, refusals);
      if (neu != null) lines.put(line, neu);
      moved[0]++;
    }
    for (Map.Entry<Integer, int[]> r : reorder.entrySet()) {
      int at = r.getKey();
      int[] perm = r.getValue();
      int first = s.elements.a[at + 4];
      byte[][] old = new byte[perm.length][];
      for (int k = 0; k < perm.length; k++) {
        int p = 4 * (first + k);
        int line = s.pool.a[p + 1];
        old[k] = slice(lines.containsKey(line) ? lines.get(line) : content(src, line), s.pool.a[p + 2], s.pool.a[p + 3]);
      }
      for (int k = 0; k < perm.length; k++) {
        if (perm[k] == k) continue;
        int p = 4 * (first + k);
        int line = s.pool.a[p + 1];
        if (old[perm[k]].length != s.pool.a[p + 3] - s.pool.a[p + 2]) {
          throw new IllegalStateException(TABLE.entry(s.elements.a[at + 1]).word() + "'s node fields differ in width");
        }
        byte[] cur = lines.containsKey(line) ? lines.get(line) : content(src, line);
        lines.put(line, put(cur, src.contentLength(line), s.pool.a[p + 2], old[perm[k]]));
      }
    }
    List<Edit> out = new ArrayList<>();
    for (Map.Entry<Integer, byte[]> l : lines.entrySet()) {
      Edit e = diff(l.getKey(), content(src, l.getKey()), l.getValue());
      if (e != null) out.add(e);
    }
    return out;
  }

  private static int[] nodeFields() {
    for (int e = 0; e < ROLES.length; e++) {
      if (ROLES[e] == NODE) {
        int[] f = FIELDS[e][0];
        int[] out = new int[6];
        for (int k = 0; k < f.length; k += 3) {
          if (f[k] >= S_X && f[k] <= S_X + 2) {
            out[2 * (f[k] - S_X)] = f[k + 1];
            out[2 * (f[k] - S_X) + 1] = f[k + 2];
          }
        }
        return out;
      }
    }
    throw new IllegalStateException("the table has no NODE card");
  }

  /** The new content of node line {@code line}, or null when refused (told to {@code refusals}). */
  private byte[] node(int file, LineSource src, int line, int id, int[] cols, List<Note> refusals) {
    byte[] a = content(src, line);
    int len = a.length;
    for (int i = 0; i < Math.min(len, cols[5]); i++) {
      if (a[i] == ',' || a[i] == '\t') {
        refusals.add(new Note(file, line, i, "node " + id + " is written in free format (a " + (a[i] == ',' ? "comma" : "tab")
            + "): its coordinates' columns are not the table's"));
        return null;
      }
    }
    BigDecimal[] p = new BigDecimal[3];
    for (int k = 0; k < 3; k++) {
      p[k] = read(a, Math.min(cols[2 * k], len), Math.min(cols[2 * k + 1], len));
      if (p[k] == null) {
        refusals.add(new Note(file, line, cols[2 * k], "node " + id + "'s " + "XYZ".charAt(k) + " is no number ("
            + new String(a, cols[2 * k], Math.min(cols[2 * k + 1], len) - cols[2 * k], StandardCharsets.ISO_8859_1).trim() + ")"));
        return null;
      }
    }
    byte[] out = a;
    for (int k = 0; k < 3; k++) {
      BigDecimal q = op.apply(p, k);
      if (q.compareTo(p[k]) == 0) continue;
      int fs = cols[2 * k];
      int fe = cols[2 * k + 1];
      String text = format(q, fe - fs);
      if (text == null) {
        refusals.add(new Note(file, line, fs, "node " + id + "'s " + "XYZ".charAt(k) + " would become " + q.round(MathContext.DECIMAL64)
            .toString() + ", which does not fit the " + (fe - fs) + " columns of NODE / " + "XYZ".charAt(k) + " as a number the solver reads"));
        return null;
      }
      // where the old text began, when it did not end at the field's end: the new text begins there too, if it fits
      int start = fs;
      while (start < Math.min(fe, len) && a[start] == ' ') start++;
      boolean right = start == Math.min(fe, len) || (fe <= len && a[fe - 1] != ' ');
      byte[] field = new byte[fe - fs];
      Arrays.fill(field, (byte) ' ');
      byte[] t = text.getBytes(StandardCharsets.US_ASCII);
      int at = right || start + t.length > fe ? field.length - t.length : start - fs;
      System.arraycopy(t, 0, field, at, t.length);
      out = put(out, len, fs, field);
    }
    return out;
  }

  /** {@code a} (content of {@code len} bytes at first) with {@code field} at column {@code from}: blanks past the old end dropped. */
  private static byte[] put(byte[] a, int len, int from, byte[] field) {
    int n = Math.max(a.length, from + field.length);
    byte[] b = Arrays.copyOf(a, n);
    Arrays.fill(b, a.length, n, (byte) ' ');
    System.arraycopy(field, 0, b, from, field.length);
    int end = n;
    while (end > Math.max(len, a.length) && b[end - 1] == ' ') end--;
    return end == n ? b : Arrays.copyOf(b, end);
  }

  private static byte[] slice(byte[] a, int from, int to) {
    byte[] b = new byte[to - from];
    Arrays.fill(b, (byte) ' ');
    if (from < a.length) System.arraycopy(a, from, b, 0, Math.min(to, a.length) - from);
    return b;
  }

  private static byte[] content(LineSource src, int line) {
    byte[] b = src.bytes(line);
    int s = src.start(line);
    return Arrays.copyOfRange(b, s, s + src.contentLength(line));
  }

  /** The edit that makes {@code old} into {@code neu}: what lies between their common start and end; null when equal. */
  static Edit diff(int line, byte[] old, byte[] neu) {
    int p = Arrays.mismatch(old, neu);
    if (p < 0) return null;
    int s = 0;
    while (s < old.length - p && s < neu.length - p && old[old.length - 1 - s] == neu[neu.length - 1 - s]) s++;
    return new Edit(line, p, old.length - s, Arrays.copyOfRange(neu, p, neu.length - s), Arrays.copyOfRange(old, p, old.length - s));
  }

  /** {@code src}'s lines with {@code edits} made: for writing a file (each line's CR and end kept). */
  public static void write(LineSource src, List<Edit> edits, boolean lastTerminated, java.io.OutputStream o) throws java.io.IOException {
    int n = src.lineCount();
    int k = 0;
    java.io.BufferedOutputStream b = new java.io.BufferedOutputStream(o, 1 << 16);
    for (int i = 0; i < n; i++) {
      byte[] a = src.bytes(i);
      int off = src.start(i);
      int raw = src.length(i);
      int pos = 0;
      for (; k < edits.size() && edits.get(k).line() == i; k++) {
        Edit e = edits.get(k);
        b.write(a, off + pos, e.from() - pos);
        b.write(e.text());
        pos = e.to();
      }
      b.write(a, off + pos, raw - pos);
      if (i < n - 1 || lastTerminated) b.write('\n');
    }
    b.flush();
  }
}
