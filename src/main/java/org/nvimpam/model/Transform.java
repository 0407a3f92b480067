package org.nvimpam.model;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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
    BigDecimal quick = plain(a, s, e);
    if (quick != null) return quick;
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

  /**
   * The number of the common form {@code [sign]digits[.digits][E|D[sign]digits]} (or a sign after
   * the digits for the exponent) in {@code a[s, e)} with at most 18 digits, as {@link #read} makes
   * it (the same unscaled value and scale) without a string; null for any other form.
   */
  private static BigDecimal plain(byte[] a, int s, int e) {
    int i = s;
    boolean neg = false;
    if (a[i] == '-' || a[i] == '+') neg = a[i++] == '-';
    long unscaled = 0;
    int digits = 0;
    int scale = 0;
    boolean point = false;
    for (; i < e; i++) {
      byte c = a[i];
      if (c >= '0' && c <= '9') {
        if (++digits > 18) return null;
        unscaled = 10 * unscaled + (c - '0');
        if (point) scale++;
      } else if (c == '.' && !point) {
        point = true;
      } else {
        break;
      }
    }
    if (digits == 0) return null;
    if (i < e) {
      byte c = a[i];
      if (c == 'e' || c == 'E' || c == 'd' || c == 'D') i++;
      else if (c != '+' && c != '-') return null;
      boolean expNeg = false;
      if (i < e && (a[i] == '-' || a[i] == '+')) expNeg = a[i++] == '-';
      int exp = 0;
      int expDigits = 0;
      for (; i < e; i++) {
        byte d = a[i];
        if (d < '0' || d > '9' || ++expDigits > 6) return null;
        exp = 10 * exp + (d - '0');
      }
      scale -= expNeg ? -exp : exp;
    }
    return BigDecimal.valueOf(neg ? -unscaled : unscaled, scale);
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

  /** What the first pass finds in one file, or in a piece of one (its lines the file's once appended). */
  static final class Scan {
    final IntList nodeLines = new IntList(); // line, id
    final IntList elements = new IntList(); // header line, entry, part, id, first, count (into pool)
    final IntList pool = new IntList(); // node id, line, from, to: per node field
    final List<Note> geometry = new ArrayList<>(); // cards with geometry of their own, to list when in scope
    final IntList geometryCog = new IntList(); // by geometry note: the centre node, 0 none

    /** Adds what {@code p} found in lines that begin at line {@code base} of this file. */
    void append(Scan p, int base) {
      for (int i = 0; i < p.nodeLines.size; i += 2) {
        nodeLines.add(p.nodeLines.a[i] + base);
        nodeLines.add(p.nodeLines.a[i + 1]);
      }
      int first = pool.size / 4;
      for (int i = 0; i < p.elements.size; i += 6) {
        elements.add(p.elements.a[i] + base);
        for (int k = 1; k < 6; k++) elements.add(p.elements.a[i + k] + (k == 4 ? first : 0));
      }
      for (int i = 0; i < p.pool.size; i += 4) {
        pool.add(p.pool.a[i]);
        pool.add(p.pool.a[i + 1] < 0 ? -1 : p.pool.a[i + 1] + base);
        pool.add(p.pool.a[i + 2]);
        pool.add(p.pool.a[i + 3]);
      }
      for (int i = 0; i < p.geometry.size(); i++) {
        Note n = p.geometry.get(i);
        geometry.add(new Note(n.file(), n.line() + base, n.col(), n.message()));
        geometryCog.add(p.geometryCog.a[i]);
      }
    }
  }

  /**
   * What the first pass decides for the whole tree: the ids of the nodes that move (sorted,
   * unique), and by file the elements to reverse: {@code [element offset, perm first, perm length]}
   * each, in line order, their orders in {@code perms}.
   */
  static final class Moves {
    int[] moving;
    final List<IntList> reorder = new ArrayList<>();
    final IntList perms = new IntList();
    int reversed;

    boolean moves(int id) {
      return Arrays.binarySearch(moving, id) >= 0;
    }
  }

  final Scope scope;
  final Op op;
  final boolean all; // every node moves: no set to look a node up in
  final boolean keepElements; // the elements are needed: to reverse, or to find a part's nodes
  private final boolean[] kept = new boolean[3]; // by coordinate: the transform leaves it as it is (c + 0 + (p - c) is p)
  private final RowWalker walker = new RowWalker(TABLE);
  private final double[] v = new double[S_COG + 1];
  private final int[] fieldLine = new int[20];
  private final int[] fieldFrom = new int[20];
  private final int[] fieldTo = new int[20];
  private boolean geoSet;

  Transform(Scope scope, Op op) {
    this.scope = scope;
    this.op = op;
    for (int k = 0; k < 3; k++) {
      boolean same = op.d()[k].signum() == 0;
      for (int j = 0; j < 3; j++) same &= op.m()[k][j].compareTo(j == k ? BigDecimal.ONE : BigDecimal.ZERO) == 0;
      kept[k] = same;
    }
    this.keepElements = op.reflects() || scope instanceof Parts;
    this.all = scope instanceof All && !op.reflects();
  }

  /** The plan of {@code op} on the nodes of {@code scope} in the tree {@code files} (the root first). */
  public static Result plan(List<Source> files, Scope scope, Op op) {
    Transform t = new Transform(scope, op);
    List<Scan> scans = new ArrayList<>();
    for (Source s : files) scans.add(s.read(src -> t.scan(src, s.version())));
    List<Note> refusals = new ArrayList<>();
    Moves m = t.moves(scans, refusals);
    List<FileEdits> out = new ArrayList<>();
    int moved = 0;
    for (int f = 0; f < scans.size(); f++) {
      int file = f;
      Scan s = scans.get(f);
      Changed c = files.get(f).read(src -> {
        Changed ch = t.changes(file, src, 0, s, m);
        List<Edit> edits = new ArrayList<>();
        for (int k = 0; k < ch.size(); k++) {
          int line = ch.line(k);
          Edit e = diff(line, content(src, line), ch.text(k));
          if (e != null) edits.add(e);
        }
        ch.edits = edits;
        return ch;
      });
      refusals.addAll(c.refusals);
      moved += c.moved;
      if (!c.edits.isEmpty()) out.add(new FileEdits(f, c.edits));
    }
    List<Note> untouched = t.untouched(scans, m);
    if (!refusals.isEmpty()) return new Result(List.of(), refusals, untouched, moved, m.reversed);
    return new Result(out, List.of(), untouched, moved, m.reversed);
  }

  /** The nodes that move and the elements that reverse, from every file's first pass; refusals told to {@code refusals}. */
  Moves moves(List<Scan> scans, List<Note> refusals) {
    Moves m = new Moves();
    m.moving = moving(scans, refusals);
    boolean reflects = op.reflects();
    for (int f = 0; f < scans.size(); f++) {
      Scan s = scans.get(f);
      IntList mine = new IntList();
      m.reorder.add(mine);
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
          if (m.moves(id)) in++;
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
        int len = Math.min(src.length, count);
        mine.add(i);
        mine.add(m.perms.size);
        mine.add(len);
        for (int k = 0; k < len; k++) m.perms.add(src[k]);
        m.reversed++;
      }
    }
    return m;
  }

  /** The ids of the nodes that move, sorted and unique; refusals for parts with no element, and nodes other parts share. */
  private int[] moving(List<Scan> scans, List<Note> refusals) {
    IntList moving = new IntList();
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
      int[] parts = unique(Arrays.copyOf(p.ids(), p.ids().length), p.ids().length);
      boolean[] withElements = new boolean[parts.length];
      IntIntMap otherUse = new IntIntMap(); // node -> a part not moved that uses it
      for (Scan s : scans) {
        IntList el = s.elements;
        for (int i = 0; i < el.size; i += 6) {
          int part = el.a[i + 2];
          int at = Arrays.binarySearch(parts, part);
          if (at >= 0) withElements[at] = true;
          for (int k = 0; k < el.a[i + 5]; k++) {
            int id = s.pool.a[4 * (el.a[i + 4] + k)];
            if (id == 0) continue;
            if (at >= 0) moving.add(id);
            else if (otherUse.get(id) < 0) otherUse.put(id, part);
          }
        }
      }
      for (int i = 0; i < parts.length; i++) {
        if (!withElements[i]) refusals.add(new Note(-1, 0, 0, "part " + parts[i] + " has no element in the tree: it has no nodes to move"));
      }
      if (!p.shared()) {
        int[] ids = unique(moving.a, moving.size);
        for (int id : ids) {
          int other = otherUse.get(id);
          if (other >= 0) refusals.add(new Note(-1, 0, 0, "node " + id + " is shared with part " + other + " (! moves shared nodes too)"));
        }
        return ids;
      }
    }
    return unique(moving.a, moving.size);
  }

  /** {@code a[0, n)} sorted, without repeats (sorted in place). */
  private static int[] unique(int[] a, int n) {
    Arrays.sort(a, 0, n);
    int u = 0;
    for (int i = 0; i < n; i++) {
      if (u == 0 || a[i] != a[u - 1]) a[u++] = a[i];
    }
    return Arrays.copyOf(a, u);
  }

  /** The cards with geometry of their own that the scope holds, which the transform leaves as they are. */
  List<Note> untouched(List<Scan> scans, Moves m) {
    List<Note> out = new ArrayList<>();
    for (int f = 0; f < scans.size(); f++) {
      Scan s = scans.get(f);
      for (int i = 0; i < s.geometry.size(); i++) {
        Note n = s.geometry.get(i);
        if (scope instanceof Lines l && (f != l.file() || n.line() < l.from() || n.line() > l.to())) continue;
        int cog = s.geometryCog.a[i];
        if (n.message().startsWith("RBODY") && (cog == 0 || m.moves(cog))) continue; // its centre moves with its node
        out.add(new Note(f, n.line(), n.col(), n.message()));
      }
    }
    return out;
  }

  // The first pass: node lines, elements, geometric cards -------------------------------------------

  /** The first pass over {@code src}, lines of a file whose INPUTVERSION is {@code version}. */
  Scan scan(LineSource src, int version) {
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
      if (role == OTHER || role == PART || role == ELEMENT && !keepElements) {
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
      if (slot >= S_X && slot < S_X + 3) continue; // a node's coordinates are read where it is rewritten
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

  /** The lines of a file, or of a piece of one, that a transform changes: local line numbers and their new content, in line order. */
  static final class Changed {
    private final IntList lines = new IntList();
    private final List<byte[]> texts = new ArrayList<>();
    private IntIntMap at; // line -> its index, once a line came out of order (before: the lines ascend)
    private int[] order; // the indexes in line order
    final List<Note> refusals = new ArrayList<>();
    int moved;
    List<Edit> edits; // a plan's

    int size() {
      return lines.size;
    }

    /** The {@code k}th changed line, in line order. */
    int line(int k) {
      return lines.a[order[k]];
    }

    byte[] text(int k) {
      return texts.get(order[k]);
    }

    private int index(int line) {
      if (at != null) return at.get(line);
      int i = Arrays.binarySearch(lines.a, 0, lines.size, line);
      return i < 0 ? -1 : i;
    }

    byte[] get(int line) {
      int i = index(line);
      return i < 0 ? null : texts.get(i);
    }

    void put(int line, byte[] text) {
      int i = index(line);
      if (i >= 0) {
        texts.set(i, text);
        return;
      }
      if (at == null && lines.size > 0 && line < lines.a[lines.size - 1]) {
        at = new IntIntMap();
        for (int k = 0; k < lines.size; k++) at.put(lines.a[k], k);
      }
      if (at != null) at.put(line, lines.size);
      lines.add(line);
      texts.add(text);
    }

    void sort() {
      if (at == null) {
        order = new int[lines.size];
        for (int i = 0; i < order.length; i++) order[i] = i;
        return;
      }
      long[] k = new long[lines.size];
      for (int i = 0; i < k.length; i++) k[i] = (long) lines.a[i] << 32 | i;
      Arrays.sort(k);
      order = new int[k.length];
      for (int i = 0; i < k.length; i++) order[i] = (int) k[i];
    }
  }

  /**
   * The new content of the lines of {@code src}, which are lines {@code base, base + 1, …} of file
   * {@code file} (whose first pass is {@code s}): its node lines moved and its elements reversed.
   */
  Changed changes(int file, LineSource src, int base, Scan s, Moves m) {
    Changed out = new Changed();
    int end = base + src.lineCount();
    int[] nodeEntry = NODE_COLUMNS;
    IntList nl = s.nodeLines;
    for (int i = firstPair(nl, base); i < nl.size && nl.a[i] < end; i += 2) {
      int line = nl.a[i];
      int id = nl.a[i + 1];
      if (!all && !m.moves(id)) continue;
      if (scope instanceof Lines l && (file != l.file() || line < l.from() || line > l.to())) continue;
      byte[] neu = node(file, src, line - base, base, id, nodeEntry, out.refusals);
      if (neu != null) out.put(line - base, neu);
      out.moved++;
    }
    IntList r = m.reorder.get(file);
    int lo = 0;
    int hi = r.size / 3;
    while (lo < hi) { // the first element reversed at or after base
      int mid = (lo + hi) >>> 1;
      if (s.elements.a[r.a[3 * mid]] < base) lo = mid + 1;
      else hi = mid;
    }
    for (int q = 3 * lo; q < r.size && s.elements.a[r.a[q]] < end; q += 3) {
      int at = r.a[q];
      int[] perm = Arrays.copyOfRange(m.perms.a, r.a[q + 1], r.a[q + 1] + r.a[q + 2]);
      int first = s.elements.a[at + 4];
      byte[][] old = new byte[perm.length][];
      for (int k = 0; k < perm.length; k++) {
        int p = 4 * (first + k);
        int line = s.pool.a[p + 1] - base;
        byte[] cur = out.get(line);
        old[k] = slice(cur != null ? cur : content(src, line), s.pool.a[p + 2], s.pool.a[p + 3]);
      }
      for (int k = 0; k < perm.length; k++) {
        if (perm[k] == k) continue;
        int p = 4 * (first + k);
        int line = s.pool.a[p + 1] - base;
        if (old[perm[k]].length != s.pool.a[p + 3] - s.pool.a[p + 2]) {
          throw new IllegalStateException(TABLE.entry(s.elements.a[at + 1]).word() + "'s node fields differ in width");
        }
        byte[] cur = out.get(line);
        out.put(line, put(cur != null ? cur : content(src, line), src.contentLength(line), s.pool.a[p + 2], old[perm[k]]));
      }
    }
    out.sort();
    return out;
  }

  /** The index of the first pair of {@code l} (line, value) whose line is at or after {@code line}. */
  private static int firstPair(IntList l, int line) {
    int lo = 0;
    int hi = l.size / 2;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (l.a[2 * mid] < line) lo = mid + 1;
      else hi = mid;
    }
    return 2 * lo;
  }

  /** The columns of NODE's X, Y and Z: from, to (0-based, end excluded) each. */
  private static final int[] NODE_COLUMNS = nodeFields();

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
  private byte[] node(int file, LineSource src, int line, int base, int id, int[] cols, List<Note> refusals) {
    byte[] a = content(src, line);
    int len = a.length;
    for (int i = 0; i < Math.min(len, cols[5]); i++) {
      if (a[i] == ',' || a[i] == '\t') {
        refusals.add(new Note(file, base + line, i, "node " + id + " is written in free format (a " + (a[i] == ',' ? "comma" : "tab")
            + "): its coordinates' columns are not the table's"));
        return null;
      }
    }
    BigDecimal[] p = new BigDecimal[3];
    for (int k = 0; k < 3; k++) {
      p[k] = read(a, Math.min(cols[2 * k], len), Math.min(cols[2 * k + 1], len));
      if (p[k] == null) {
        refusals.add(new Note(file, base + line, cols[2 * k], "node " + id + "'s " + "XYZ".charAt(k) + " is no number ("
            + new String(a, cols[2 * k], Math.min(cols[2 * k + 1], len) - cols[2 * k], StandardCharsets.ISO_8859_1).trim() + ")"));
        return null;
      }
    }
    byte[] out = a;
    for (int k = 0; k < 3; k++) {
      if (kept[k]) continue;
      BigDecimal q = op.apply(p, k);
      if (q.compareTo(p[k]) == 0) continue;
      int fs = cols[2 * k];
      int fe = cols[2 * k + 1];
      String text = format(q, fe - fs);
      if (text == null) {
        refusals.add(new Note(file, base + line, fs, "node " + id + "'s " + "XYZ".charAt(k) + " would become " + q.round(MathContext.DECIMAL64)
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

  /**
   * {@code edits} (in line order) as hunks: each run of the lines they change (with the unchanged
   * lines of a gap of at most {@link Hunks#GAP} between them), its lines with the edits made (each
   * line's CR kept), for a change applied in parts.
   */
  public static List<Renumber.Hunk> hunks(LineSource src, List<Edit> edits) {
    List<Renumber.Hunk> out = new ArrayList<>();
    int k = 0;
    while (k < edits.size()) {
      int first = edits.get(k).line();
      int last = first;
      int j = k;
      while (j < edits.size() && edits.get(j).line() <= last + 1 + Hunks.GAP) last = edits.get(j++).line();
      byte[][] lines = new byte[last - first + 1][];
      int changed = 0;
      for (int i = first; i <= last; i++) {
        if (k < j && edits.get(k).line() == i) changed++;
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream(src.length(i) + 16);
        byte[] a = src.bytes(i);
        int off = src.start(i);
        int pos = 0;
        for (; k < j && edits.get(k).line() == i; k++) {
          Edit e = edits.get(k);
          b.write(a, off + pos, e.from() - pos);
          b.writeBytes(e.text());
          pos = e.to();
        }
        b.write(a, off + pos, src.length(i) - pos);
        lines[i - first] = b.toByteArray();
      }
      out.add(new Renumber.Hunk(first, last + 1, org.nvimpam.lines.LineRefs.of(lines), changed));
    }
    return out;
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
