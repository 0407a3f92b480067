package org.nvimpam.ids;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;
import org.msgpack.core.MessagePacker;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.deck.LineSource;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.ConnectionClosedException;
import org.nvimpam.rpc.Encoder;
import org.nvimpam.rpc.Log;

/**
 * The id features of every live buffer of one Neovim: the cross-reference checks pushed to the
 * {@code nvimpam.refs} namespace after each refresh, and the calls of lua/nvimpam/ids/init.lua (goto,
 * references, completion, outline, rename). Each call takes one buffer's lock at a time, never
 * two, and answers from primitive arrays; references are found by scanning the decks on demand.
 */
public final class IdService {
  private static final Log LOG = Log.of(IdService.class);
  /** The buffer variable naming the folder of the deck that includes this one (for gf). */
  static final String ROOT_DIR = LuaEntry.ROOT_DIR;

  /** What the service needs from the plugin. */
  public interface Workspace {
    Collection<? extends IdBuffer> buffers();

    /** Whether checks are on (the {@code checks} option) and how many problems Neovim shows. */
    boolean checks();

    int maxDiagnostics();
  }

  private final Nvim nvim;
  private final Workspace ws;
  private final IncludeFiles files = new IncludeFiles();
  private final Map<Long, Long> publishedGeneration = new ConcurrentHashMap<>();
  private final Map<Long, String> rootDirs = new ConcurrentHashMap<>();

  public IdService(Nvim nvim, Workspace ws) {
    this.nvim = nvim;
    this.ws = ws;
  }

  public IncludeFiles files() {
    return files;
  }

  // The tree ------------------------------------------------------------------------------------

  private IdBuffer showing(Path file) {
    if (file == null) return null;
    for (IdBuffer b : ws.buffers()) {
      if (file.equals(b.file())) return b;
    }
    return null;
  }

  /** The open deck whose tree includes {@code b}'s file, else {@code b} itself. */
  IdBuffer rootOf(IdBuffer b) {
    Path f = b.file();
    if (f == null) return b;
    for (IdBuffer d : ws.buffers()) {
      if (d == b || d.file() == null) continue;
      boolean names = Boolean.TRUE.equals(d.withIds((ids, deck) -> !ids.includes(deck).isEmpty()));
      if (names && IdTree.of(d, this::showing, files).holds(f)) return d;
    }
    return b;
  }

  /** The tree {@code b} belongs to: the including deck's, or its own. */
  public IdTree treeOf(IdBuffer b) {
    ensureBuilt(b);
    IdBuffer root = rootOf(b);
    if (root != b) ensureBuilt(root);
    IdTree t = IdTree.of(root, this::showing, files);
    for (IdTree.Member m : t.members()) {
      if (m.live() != null) ensureBuilt(m.live());
    }
    return t;
  }

  /**
   * The tree whose root is {@code b} itself, even where an open deck includes it (:NvimpamDiff
   * compares the buffer's own deck), its live members' indexes built.
   */
  public IdTree treeFrom(IdBuffer b) {
    ensureBuilt(b);
    IdTree t = IdTree.of(b, this::showing, files);
    for (IdTree.Member m : t.members()) {
      if (m.live() != null) ensureBuilt(m.live());
    }
    return t;
  }

  private static void ensureBuilt(IdBuffer b) {
    b.inSteps(BufferIds::buildStep);
  }

  // The checks ----------------------------------------------------------------------------------

  /**
   * Builds the buffer's index if needed, checks its references against its tree and sends Neovim
   * the problems if they changed; then the open decks that count this one's ids, if they changed.
   * Runs off Neovim's main loop (the refresh thread).
   */
  public void publish(IdBuffer b) {
    publish(b, true);
  }

  private void publish(IdBuffer b, boolean others) {
    boolean on = ws.checks();
    int cap = ws.maxDiagnostics();
    treeSet(b, on);
    Object[] out = new Object[2];
    if (on) {
      b.inSteps((ids, deck, lines) -> { // edits in between are never held up for long
        if (!ids.checkStep(deck, lines)) return false;
        out[0] = ids.changedSnapshot(deck, cap); // in the step that finished: no edit came between
        out[1] = ids.defs();
        return true;
      });
    }
    if (on && out[0] != null) send(b.bufferId(), (org.nvimpam.deck.ProblemItems) out[0]);
    if (!on) send(b.bufferId(), null);
    if (!others || out[1] == null) return;
    long gen = ((DefTable) out[1]).generation();
    Long before = publishedGeneration.put(b.bufferId(), gen);
    if (before != null && before == gen) return;
    for (IdBuffer d : ws.buffers()) {
      if (d == b) continue;
      Boolean sees = d.withIds((ids, deck) -> ids.built() && ids.counts((DefTable) out[1]));
      if (Boolean.TRUE.equals(sees)) publish(d, false);
    }
  }

  /**
   * Every cross-reference problem of {@code b} against its tree, checked now whether checks are
   * on or off (:NvimpamCheck): the first {@code cap} with their messages, and the total; null
   * when the buffer is not live.
   */
  public org.nvimpam.deck.ProblemItems refProblems(IdBuffer b, int cap) {
    treeSet(b, true);
    org.nvimpam.deck.ProblemItems[] out = new org.nvimpam.deck.ProblemItems[1];
    b.inSteps((ids, deck, lines) -> {
      if (!ids.checkStep(deck, lines)) return false;
      out[0] = ids.snapshot(deck, cap); // in the step that finished: no edit came between
      return true;
    });
    return out[0];
  }

  /** Gives {@code b}'s index the other decks of its tree and the tree's problems on its lines. */
  private void treeSet(IdBuffer b, boolean on) {
    IdTree tree = treeOf(b);
    IdBuffer root = tree.root().live();
    List<DefTable> foreign = new ArrayList<>();
    for (IdTree.Member m : tree.members()) {
      if (m.live() == b) continue;
      DefTable d = IdTree.defs(m);
      if (d != null) foreign.add(d);
    }
    List<BufferIds.TreeProblem> problems = new ArrayList<>();
    for (IdTree.Problem p : tree.problems()) {
      if (p.in().live() == b) {
        problems.add(new BufferIds.TreeProblem(p.at().line(), p.at().from(), p.at().to(), p.code(), p.message()));
      } else if (root == b) {
        String where = p.in().label() + " line " + (p.at().line() + 1) + ": ";
        problems.add(new BufferIds.TreeProblem(p.top().line(), p.top().from(), p.top().to(), p.code(), where + p.message()));
      }
    }
    problems.sort((x, y) -> Integer.compare(x.line(), y.line()));
    int inherited = root != b ? tree.version() : -1;
    rootDir(b, root);
    b.withIds((ids, deck) -> {
      boolean standalone = root == b && org.nvimpam.deck.DeckVersion.fragment(deck); // as `check` without --top
      ids.tree(foreign, problems, !standalone, inherited, deck);
      if (!on) ids.forgetSent();
      return null;
    });
  }

  private void rootDir(IdBuffer b, IdBuffer root) {
    String dir = root != b && root.file() != null && root.file().getParent() != null ? root.file().getParent().toString() : "";
    String before = rootDirs.put(b.bufferId(), dir);
    if (dir.equals(before)) return;
    try {
      nvim.rpc().notify("nvim_buf_set_var", out -> {
        out.packArrayHeader(3);
        nvim.writeBuffer(out, new org.nvimpam.nvim.Buffer(b.bufferId()));
        out.packString(ROOT_DIR).packString(dir);
      });
    } catch (ConnectionClosedException gone) {
      LOG.fine("could not tell buffer " + b.bufferId() + " its root", gone);
    }
  }

  private void send(long buf, org.nvimpam.deck.ProblemItems s) {
    try {
      LuaEntry.IDS_SET.notify(nvim, out -> {
        out.packLong(buf);
        if (s == null) {
          out.packArrayHeader(0).packInt(0);
        } else {
          s.packItems(out);
          out.packInt(s.total());
        }
      });
    } catch (ConnectionClosedException gone) {
      LOG.fine("could not send the cross-reference problems of buffer " + buf, gone);
    }
  }

  /** A buffer stopped being live: forget what was sent for it. */
  public void forget(long buf) {
    publishedGeneration.remove(buf);
    rootDirs.remove(buf);
  }

  // The calls -----------------------------------------------------------------------------------

  /**
   * One call of lua/nvimpam/ids/init.lua; {@code args[0]} is the buffer ({@code b}), the rest as each
   * method says: ids_goto (kind, id), ids_refs (kind, id, max), ids_complete (kind, prefix, cap),
   * ids_outline (), ids_rename (kind, old, new), ids_check (), ids_next (kind). An id of a named
   * kind (a group) is its title.
   */
  public Encoder call(String method, List<Object> args, IdBuffer b) {
    return switch (method) {
      case "ids_goto" -> definitions(b, key(args, 1));
      case "ids_refs" -> references(b, key(args, 1), (int) Math.min(Integer.MAX_VALUE, Math.max(1, num(args, 3))));
      case "ids_complete" -> complete(b, str(args, 1), str(args, 2), (int) Math.max(1, Math.min(10_000, num(args, 3))));
      case "ids_outline" -> outline(b);
      case "ids_next" -> nextFree(b, str(args, 1));
      case "ids_rename" -> rename(b, key(args, 1), args.size() > 3 ? args.get(3) : null);
      case "ids_check" -> {
        publish(b);
        yield out -> out.packBoolean(true);
      }
      default -> throw new IllegalArgumentException("nvimpam has no call '" + method + "'");
    };
  }

  private static String str(List<Object> args, int i) {
    if (args.size() > i && args.get(i) != null) {
      Object o = args.get(i);
      return o instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(o);
    }
    throw new IllegalArgumentException("nvimpam: argument " + (i + 1) + " is missing");
  }

  private static long num(List<Object> args, int i) {
    return num(args.size() > i ? args.get(i) : null, i);
  }

  /** Argument {@code i} (0-based), {@code o}, as a number. */
  private static long num(Object o, int i) {
    if (o instanceof Number n) return n.longValue();
    if (o instanceof String s) {
      try {
        return Long.parseLong(s.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("nvimpam: '" + s + "' is no number");
      }
    }
    throw new IllegalArgumentException("nvimpam: argument " + (i + 1) + " must be a number");
  }

  /** A buffer that is not folded live, read once for one call. */
  public static IdBuffer once(long id, Path file, LineSource deck) {
    BufferIds ids = new BufferIds();
    return new IdBuffer() {
      @Override
      public long bufferId() {
        return id;
      }

      @Override
      public Path file() {
        return file;
      }

      @Override
      public synchronized <T> T withIds(java.util.function.BiFunction<BufferIds, LineSource, T> f) {
        return f.apply(ids, deck);
      }
    };
  }

  /** The key of the kind in {@code args[i]} and the id (a number, or a title) after it. */
  private static long key(List<Object> args, int i) {
    String kind = str(args, i);
    int k = IdKinds.code(kind);
    if (k == 0) throw new IllegalArgumentException("nvimpam: no id kind '" + kind + "'; kinds: "
        + String.join(", ", IdKinds.NAMES.subList(1, IdKinds.NAMES.size())));
    return IdKinds.key(k, id(k, args.size() > i + 1 ? args.get(i + 1) : null, i + 1));
  }

  /**
   * The id of kind {@code k} that argument {@code i}, {@code arg}, gives: a positive number, or a
   * title (blanks around it dropped; no quote inside, as GES items quote it).
   */
  private static int id(int k, Object arg, int i) {
    String kind = IdKinds.name(k);
    if (IdKinds.named(k)) {
      String title = arg == null ? "" : (arg instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(arg));
      title = title.strip();
      if (title.isEmpty() || title.indexOf('\'') >= 0) {
        throw new IllegalArgumentException("nvimpam: a " + kind + " title is not empty and holds no quote ('), not \"" + title + "\"");
      }
      return IdNames.intern(title);
    }
    long id = num(arg, i);
    if (id <= 0 || id > Integer.MAX_VALUE) throw new IllegalArgumentException("nvimpam: " + id + " is no " + kind + " id");
    return (int) id;
  }

  private static void packText(MessagePacker out, LineSource deck, int line) throws IOException {
    int len = Math.min(deck.contentLength(line), 200);
    out.packRawStringHeader(len).writePayload(deck.bytes(line), deck.start(line), len);
  }

  private static void packWhere(MessagePacker out, IdTree.Member m) throws IOException {
    if (m.live() != null) out.packString("buf").packLong(m.live().bufferId());
    else out.packString("file").packString(m.path().toString());
  }

  /**
   * The next free id of {@code kind} in {@code b}'s tree: one more than the greatest defined; nil
   * for a named kind (a group's title is the user's to choose).
   */
  public Encoder nextFree(IdBuffer b, String kind) {
    int k = IdKinds.code(kind);
    if (k == 0) throw new IllegalArgumentException("nvimpam: no id kind '" + kind + "'");
    if (IdKinds.named(k)) return MessagePacker::packNil;
    long max = 0;
    for (IdTree.Member m : orderFrom(treeOf(b), b)) {
      Integer x = IdTree.read(m, (deck, defs) -> defs.maxId(k));
      if (x != null) max = Math.max(max, x);
    }
    long next = Math.min(Integer.MAX_VALUE, max + 1);
    return out -> out.packLong(next);
  }

  /** Where the id of {@code k} is defined in {@code b}'s tree: [{buf|file, lnum, text}]. */
  public Encoder definitions(IdBuffer b, long k) {
    IdTree t = treeOf(b);
    List<Encoder> hits = new ArrayList<>();
    for (IdTree.Member m : orderFrom(t, b)) {
      Encoder e = IdTree.read(m, (deck, defs) -> {
        int[] lines = defs.linesOf(k, 1000);
        if (lines.length == 0) return null;
        byte[][] texts = new byte[lines.length][];
        for (int i = 0; i < lines.length; i++) texts[i] = text(deck, lines[i]);
        return out -> {
          for (int i = 0; i < lines.length; i++) {
            out.packMapHeader(3);
            packWhere(out, m);
            out.packString("lnum").packInt(lines[i] + 1);
            out.packString("text").packRawStringHeader(texts[i].length).writePayload(texts[i]);
          }
        };
      });
      if (e != null) hits.add(e);
    }
    int[] count = {0};
    for (IdTree.Member m : t.members()) {
      DefTable d = IdTree.defs(m);
      if (d != null) count[0] += Math.min(1000, d.count(k));
    }
    return out -> {
      out.packArrayHeader(count[0]);
      for (Encoder e : hits) e.write(out);
    };
  }

  /** The buffer's own deck first, then the rest of the tree in order. */
  private static List<IdTree.Member> orderFrom(IdTree t, IdBuffer b) {
    List<IdTree.Member> l = new ArrayList<>(t.members());
    IdTree.Member own = t.memberOf(b);
    if (own != null) {
      l.remove(own);
      l.add(0, own);
    }
    return l;
  }

  static byte[] text(LineSource deck, int line) {
    int len = Math.min(deck.contentLength(line), 200);
    byte[] a = new byte[len];
    System.arraycopy(deck.bytes(line), deck.start(line), a, 0, len);
    return a;
  }

  /**
   * Every line of {@code b}'s tree that references the id of {@code k} (a field, a GES item, a GES
   * range that holds it), at most {@code max}: {items = [{buf|file, lnum, col, text}], total}.
   */
  public Encoder references(IdBuffer b, long k, int max) {
    int kd = IdKinds.kindOf(k);
    int want = IdKinds.idOf(k);
    IdTree t = treeOf(b);
    List<Encoder> parts = new ArrayList<>();
    int[] total = {0};
    int[] listed = {0};
    for (IdTree.Member m : orderFrom(t, b)) {
      int version = IdTree.version(m);
      Encoder e = IdTree.read(m, (deck, defs) -> {
        IntList lines = new IntList();
        IntList cols = new IntList();
        int[] lastLine = {-1};
        new IdScanner(CardLayouts.bundled()).scan(deck, 0, deck.lineCount(), version, true, 1 << kd,
            (line, from, to, kind2, lo, hi, def) -> {
              if (def || kind2 != kd || want < lo || want > hi || line == lastLine[0]) return;
              lastLine[0] = line;
              total[0]++;
              if (listed[0] >= max) return;
              listed[0]++;
              lines.add(line);
              cols.add(from);
            });
        if (lines.size == 0) return null;
        byte[][] texts = new byte[lines.size][];
        for (int i = 0; i < lines.size; i++) texts[i] = text(deck, lines.a[i]);
        return out -> {
          for (int i = 0; i < lines.size; i++) {
            out.packMapHeader(4);
            packWhere(out, m);
            out.packString("lnum").packInt(lines.a[i] + 1);
            out.packString("col").packInt(cols.a[i] + 1);
            out.packString("text").packRawStringHeader(texts[i].length).writePayload(texts[i]);
          }
        };
      });
      if (e != null) parts.add(e);
    }
    int count = listed[0];
    int all = total[0];
    return out -> {
      out.packMapHeader(2);
      out.packString("items").packArrayHeader(count);
      for (Encoder e : parts) e.write(out);
      out.packString("total").packInt(all);
    };
  }


  /**
   * Completion items for a field (or a GES item) referencing {@code kind}: the ids of {@code b}'s
   * tree whose digits start with {@code prefix} (all when empty), ascending within each deck, or
   * for a named kind the titles that start with it (ignoring ASCII case), in line order; at most
   * {@code cap}, with the card and its NAME title: [{word, menu}].
   */
  public Encoder complete(IdBuffer b, String kind, String prefix, int cap) {
    int kd = IdKinds.code(kind);
    if (kd == 0) return out -> out.packArrayHeader(0);
    IntPredicate matches = matcher(kd, prefix == null ? "" : prefix.strip());
    if (matches == null) return out -> out.packArrayHeader(0);
    IdTree t = treeOf(b);
    List<String[]> items = new ArrayList<>();
    for (IdTree.Member m : orderFrom(t, b)) {
      if (items.size() >= cap) break;
      IdTree.read(m, (deck, defs) -> {
        for (int d = 0; d < defs.size() && items.size() < cap; d++) {
          if (defs.kind(d) != kd) continue;
          int id = defs.id(d);
          if (!matches.test(id)) continue;
          String title = title(deck, defs.line(d));
          String where = m.live() == b ? "" : " [" + m.label() + "]";
          String w = IdKinds.named(kd) ? IdNames.text(id) : Integer.toString(id);
          items.add(new String[] {w, word(deck, defs.line(d)) + (title.isEmpty() ? "" : " " + title) + where});
        }
        return null;
      });
    }
    return out -> {
      out.packArrayHeader(items.size());
      for (String[] it : items) {
        out.packMapHeader(2);
        out.packString("word").packString(it[0]);
        out.packString("menu").packString(it[1]);
      }
    };
  }

  /** Which ids of kind {@code kd} the typed {@code prefix} leaves; null when it can match none (letters in a number). */
  private static IntPredicate matcher(int kd, String prefix) {
    if (IdKinds.named(kd)) {
      byte[] pre = prefix.getBytes(StandardCharsets.UTF_8);
      return id -> startsWith(IdNames.bytes(id), pre);
    }
    if (prefix.isEmpty()) return id -> true;
    long p;
    try {
      p = Long.parseLong(prefix);
    } catch (NumberFormatException e) {
      return null;
    }
    return id -> startsWith(id, p);
  }

  /** Whether the decimal digits of {@code id} start with those of {@code prefix}. */
  static boolean startsWith(long id, long prefix) {
    while (id > prefix) id /= 10;
    return id == prefix;
  }

  /** Whether {@code title} starts with {@code prefix}, ASCII letters of either case alike. */
  static boolean startsWith(byte[] title, byte[] prefix) {
    if (prefix.length > title.length) return false;
    for (int i = 0; i < prefix.length; i++) {
      if (title[i] == prefix[i]) continue;
      int lower = title[i] | 0x20;
      if (lower != (prefix[i] | 0x20) || lower < 'a' || lower > 'z') return false;
    }
    return true;
  }

  /** The card header word of the card holding {@code line}. */
  static String word(LineSource deck, int line) {
    int s = IdScanner.cardStart(deck, line);
    byte[] a = deck.bytes(s);
    int off = deck.start(s);
    int e = Math.min(6, deck.contentLength(s));
    while (e > 0 && a[off + e - 1] == ' ') e--;
    return new String(a, off, e, StandardCharsets.ISO_8859_1);
  }

  private static final byte[] NAME = LineBytes.ascii("NAME");

  /** The NAME row's title of the card whose definition is on {@code line}, "" when it has none. */
  static String title(LineSource deck, int line) {
    int n = deck.lineCount();
    for (int i = line + 1, k = 0; i < n && k < 8; i++, k++) {
      byte[] a = deck.bytes(i);
      int off = deck.start(i);
      int len = deck.contentLength(i);
      if (LineBytes.isComment(a, off, len)) continue;
      if (LineBytes.headerWord(a, off, len) != 0) return "";
      if (LineBytes.startsWith(a, off, len, NAME)) {
        int s = 4;
        int e = Math.min(80, len);
        while (s < e && a[off + s] == ' ') s++;
        while (e > s && a[off + e - 1] == ' ') e--;
        return new String(a, off + s, e - s, StandardCharsets.UTF_8);
      }
    }
    return "";
  }

  /**
   * The outline of {@code b}: its cards except nodes and elements (parts with their NAME title and
   * element count, materials, contacts, rigid bodies, …) and its include files: [{lnum, text, kind}].
   */
  public Encoder outline(IdBuffer b) {
    ensureBuilt(b);
    List<Object[]> items = b.withIds((ids, deck) -> outline(deck, ids.version()));
    if (items == null) throw new IllegalStateException("nvimpam: buffer " + b.bufferId() + " is not loaded yet");
    return out -> {
      out.packArrayHeader(items.size());
      for (Object[] it : items) {
        out.packMapHeader(3);
        out.packString("lnum").packInt((Integer) it[0]);
        out.packString("text").packString((String) it[1]);
        out.packString("kind").packString((String) it[2]);
      }
    };
  }

  static List<Object[]> outline(LineSource deck, int version) {
    CardLayouts table = CardLayouts.bundled();
    IdCounts elements = new IdCounts();
    IdScanner sc = new IdScanner(table);
    sc.scan(deck, 0, deck.lineCount(), version, true, IdKinds.bit(IdKinds.PART), (line, from, to, kind, lo, hi, def) -> {
      if (def || kind != IdKinds.PART || sc.field() < 0 || lo != hi) return;
      String cat = table.entry(sc.entry()).category();
      if (cat.equals("Element") || cat.equals("Link")) elements.add(IdKinds.key(IdKinds.PART, lo), 1);
    });
    List<Object[]> items = new ArrayList<>();
    Map<Integer, IncludeLine> incl = new LinkedHashMap<>();
    for (IncludeLine il : IncludeLine.of(deck)) incl.put(il.line(), il);
    int n = deck.lineCount();
    for (int i = 0; i < n; i++) {
      byte[] a = deck.bytes(i);
      int off = deck.start(i);
      int len = deck.contentLength(i);
      IncludeLine il = incl.get(i);
      if (il != null) {
        items.add(new Object[] {i + 1, "INCLU " + il.name(), "include"});
        continue;
      }
      if (LineBytes.headerWord(a, off, len) == 0) continue;
      int g = table.groupOf(a, off, len);
      if (g < 0) continue;
      int e = table.pick(g, version);
      if (e < 0) e = table.group(g)[0];
      CardLayout c = table.entry(e);
      String cat = c.category();
      if (cat.equals("Node") || cat.equals("Element") || cat.equals("Link")) continue;
      StringBuilder text = new StringBuilder(c.word());
      int id = -1;
      String defKind = null;
      for (FieldLayout f : c.rows().get(0).fields()) {
        if (f.defines() == null) continue;
        int s = Math.min(f.from() - 1, len);
        int to = Math.min(f.to(), len);
        while (s < to && a[off + s] == ' ') s++;
        while (to > s && a[off + to - 1] == ' ') to--;
        defKind = f.defines();
        if (IdKinds.named(IdKinds.code(defKind))) {
          if (to > s) text.append(" '").append(new String(a, off + s, to - s, StandardCharsets.UTF_8)).append('\'');
        } else {
          id = IdScanner.positive(a, off + s, off + to);
        }
        break;
      }
      if (id > 0) text.append(' ').append(id);
      String title = title(deck, i);
      if (!title.isEmpty()) text.append(' ').append(title);
      if ("part".equals(defKind) && id > 0) {
        int k = elements.get(IdKinds.key(IdKinds.PART, id));
        text.append(" (").append(k).append(k == 1 ? " element)" : " elements)");
      }
      items.add(new Object[] {i + 1, text.toString(), cat.toLowerCase(java.util.Locale.ROOT)});
    }
    return items;
  }

  /**
   * The plan that gives the id of {@code ok} the new id {@code neu} (a number, or a group's title)
   * in the tree of {@code b} (and in the trees of the other open decks that include the file
   * defining it): its definition and every reference (fields, GES items, GES ranges), file by
   * file, each file once: {files = [{buf|file, label, lines, edits, adds}], defined, refusals,
   * missing}. {@code refusals} says why nothing may change (the new id is taken, does not fit a
   * field or a GES line, an include file cannot be read as a deck); {@code missing} names the
   * include files not found, which were not searched.
   */
  public Encoder rename(IdBuffer b, long ok, Object neu) {
    int kd = IdKinds.kindOf(ok);
    long nk = IdKinds.key(kd, id(kd, neu, 3));
    String text = IdKinds.named(kd) ? IdNames.text(IdKinds.idOf(nk)) : Integer.toString(IdKinds.idOf(nk));
    if (ok == nk) {
      throw new IllegalArgumentException("nvimpam: " + IdKinds.describe(ok) + " is already called "
          + (IdKinds.named(kd) ? "'" + text + "'" : text));
    }
    List<IdTree.Problem> problems = new ArrayList<>();
    List<IdTree.Member> scope = renameScope(b, ok, problems);
    List<String> refusals = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (IdTree.Member m : scope) {
      DefTable d = IdTree.defs(m);
      if (d == null || d.count(nk) == 0) continue;
      int[] at = IdTree.read(m, (deck, defs) -> defs.linesOf(nk, 1));
      refusals.add(IdKinds.describe(nk) + " is already defined (" + m.label() + " line "
          + (at == null || at.length == 0 ? "?" : at[0] + 1) + ")");
    }
    for (IdTree.Problem p : problems) {
      String where = p.in().label() + " line " + (p.at().line() + 1);
      if (p.code() == ProblemCode.INCLUDE_MISSING) missing.add(p.at().name() + " (" + where + ")");
      else if (p.code() != ProblemCode.INCLUDE_CYCLE) refusals.add(p.message() + " (" + where + ")"); // binary, unreadable
    }
    List<IdTree.Member> changed = new ArrayList<>();
    List<RenamePlan> plans = new ArrayList<>();
    boolean defined = false;
    for (IdTree.Member m : scope) {
      int version = IdTree.version(m);
      RenamePlan plan = IdTree.read(m, (deck, defs) ->
          RenamePlan.make(deck, version, new IdScanner(CardLayouts.bundled()), ok, text));
      if (plan == null) {
        refusals.add(m.label() + " is not loaded yet");
        continue;
      }
      if (plan.refusal() != null) refusals.add(m.label() + ": " + plan.refusal());
      defined |= plan.defines();
      if (plan.count() > 0) {
        changed.add(m);
        plans.add(plan);
      }
    }
    boolean def = defined;
    return out -> {
      out.packMapHeader(4);
      out.packString("files").packArrayHeader(plans.size());
      for (int i = 0; i < plans.size(); i++) {
        IdTree.Member m = changed.get(i);
        out.packMapHeader(5);
        packWhere(out, m);
        out.packString("label").packString(m.label());
        out.packString("lines").packInt(plans.get(i).lines());
        plans.get(i).pack(out);
      }
      out.packString("defined").packBoolean(def);
      out.packString("refusals").packArrayHeader(refusals.size());
      for (String s : refusals) out.packString(s);
      out.packString("missing").packArrayHeader(missing.size());
      for (String s : missing) out.packString(s);
    };
  }

  /**
   * The decks a rename of {@code key} from {@code b} covers, each once: {@code b}'s tree, and the
   * trees of the other open decks that include a file defining the id (an include file shared by
   * several decks is their common part). The INCLU problems of those trees go to {@code problems}.
   */
  List<IdTree.Member> renameScope(IdBuffer b, long key, List<IdTree.Problem> problems) {
    IdTree t = treeOf(b);
    Map<Object, IdTree.Member> scope = new LinkedHashMap<>();
    add(scope, problems, t);
    List<Path> defining = new ArrayList<>();
    for (IdTree.Member m : t.members()) {
      DefTable d = IdTree.defs(m);
      if (m.path() != null && d != null && d.count(key) > 0) defining.add(m.path());
    }
    if (defining.isEmpty()) return new ArrayList<>(scope.values());
    for (IdBuffer d : ws.buffers()) {
      if (d.file() == null || scope.containsKey(d.file())) continue;
      boolean names = Boolean.TRUE.equals(d.withIds((ids, deck) -> !ids.includes(deck).isEmpty()));
      if (!names) continue;
      IdTree other = IdTree.of(d, this::showing, files);
      boolean shares = false;
      for (Path p : defining) shares |= other.holds(p);
      if (!shares) continue;
      ensureBuilt(d);
      for (IdTree.Member m : other.members()) {
        if (m.live() != null) ensureBuilt(m.live());
      }
      add(scope, problems, other);
    }
    return new ArrayList<>(scope.values());
  }

  /** A member's file, or its buffer when it has none. */
  private static Object where(IdTree.Member m) {
    return m.path() != null ? m.path() : m.live();
  }

  private static void add(Map<Object, IdTree.Member> scope, List<IdTree.Problem> problems, IdTree t) {
    for (IdTree.Member m : t.members()) scope.putIfAbsent(where(m), m);
    for (IdTree.Problem p : t.problems()) {
      boolean seen = false;
      for (IdTree.Problem q : problems) seen |= where(q.in()).equals(where(p.in())) && q.at().line() == p.at().line();
      if (!seen) problems.add(p);
    }
  }
}
