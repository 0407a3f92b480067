package org.nvimpam.ids;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;
import org.nvimpam.deck.CardLayout;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.FieldLayout;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.LineBytes;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.deck.ProblemItems;
import org.nvimpam.lines.LineSource;

/**
 * The id features of every live buffer of one editor: the cross-reference checks of each buffer
 * against its include tree, handed to the workspace after each refresh, and the queries behind
 * goto, references, completion, outline, next free id and rename. Each query takes one buffer's
 * lock at a time, never two, and answers with plain records from primitive arrays; references are
 * found by scanning the decks on demand. How the answers travel is the workspace's business
 * (org.nvimpam.plugin.IdCalls encodes them for Neovim).
 */
public final class IdService {
  /** What the service needs from the editor, and where its checks go. */
  public interface Workspace {
    Collection<? extends IdBuffer> buffers();

    /** Whether checks are on (the {@code checks} option) and how many problems the editor shows. */
    boolean checks();

    int maxDiagnostics();

    /** The cross-reference problems of buffer {@code buf} changed; null: none to show (checks off). */
    void problems(long buf, ProblemItems problems);

    /** The folder of the deck that includes buffer {@code buf} ("" when none) changed. */
    void rootDir(long buf, String dir);
  }

  private final Workspace ws;
  private final IncludeFiles files = new IncludeFiles();
  private final Map<Long, Long> publishedGeneration = new ConcurrentHashMap<>();
  private final Map<Long, String> rootDirs = new ConcurrentHashMap<>();

  public IdService(Workspace ws) {
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

  /**
   * The tree whose root is the deck {@code file} (absolute, normalized): from the buffer showing
   * it, else from the file as on disk; its other files as their buffers hold them where open. A
   * file that cannot be read throws why.
   */
  public IdTree treeAt(Path file) throws IncludeFiles.Unreadable {
    IdBuffer open = showing(file);
    if (open != null) return treeFrom(open);
    IncludeFiles.Entry e = files.get(file, CardLayouts.bundled().newestVersion());
    if (e.error() != null) throw e.error();
    IdTree t = IdTree.of(e, this::showing, files);
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
    if (on && out[0] != null) ws.problems(b.bufferId(), (ProblemItems) out[0]);
    if (!on) ws.problems(b.bufferId(), null);
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
  public ProblemItems refProblems(IdBuffer b, int cap) {
    treeSet(b, true);
    ProblemItems[] out = new ProblemItems[1];
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
      boolean standalone = root == b && DeckVersion.fragment(deck); // as `check` without --top
      ids.tree(foreign, problems, !standalone, inherited, deck);
      if (!on) ids.forgetSent();
      return null;
    });
  }

  private void rootDir(IdBuffer b, IdBuffer root) {
    String dir = root != b && root.file() != null && root.file().getParent() != null ? root.file().getParent().toString() : "";
    String before = rootDirs.put(b.bufferId(), dir);
    if (!dir.equals(before)) ws.rootDir(b.bufferId(), dir);
  }

  /** A buffer stopped being live: forget what was sent for it. */
  public void forget(long buf) {
    publishedGeneration.remove(buf);
    rootDirs.remove(buf);
  }

  // The queries ---------------------------------------------------------------------------------

  /**
   * A line of a tree: in member {@code in} (a buffer, or a file read from disk), 0-based {@code
   * line} and byte column {@code col} (-1 where none is meant), and the line's first 200 bytes.
   */
  public record Hit(IdTree.Member in, int line, int col, byte[] text) {}

  /** The references listed (at most the cap asked for) and how many there are. */
  public record References(List<Hit> items, int total) {}

  /** A completion item: the id (or title) to insert and what shows beside it. */
  public record Completion(String word, String menu) {}

  /** A line of the outline: 1-based {@code lnum}, its text, and its kind (a card category, or "include"). */
  public record OutlineItem(int lnum, String text, String kind) {}

  /** The edits of a rename in one member of the tree. */
  public record FileRename(IdTree.Member in, RenamePlan plan) {}

  /**
   * A rename's plan: its edits file by file; whether the id is defined; why nothing may change
   * (empty: it may); the include files not found, which were not searched.
   */
  public record Rename(List<FileRename> files, boolean defined, List<String> refusals, List<String> missing) {}

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

  /**
   * The next free id of {@code kind} in {@code b}'s tree: one more than the greatest defined; none
   * for a named kind (a group's title is the user's to choose).
   */
  public OptionalLong nextFree(IdBuffer b, String kind) {
    int k = IdKinds.code(kind);
    if (k == 0) throw new IllegalArgumentException("nvimpam: no id kind '" + kind + "'");
    if (IdKinds.named(k)) return OptionalLong.empty();
    long max = 0;
    for (IdTree.Member m : orderFrom(treeOf(b), b)) {
      Integer x = IdTree.read(m, (deck, defs) -> defs.maxId(k));
      if (x != null) max = Math.max(max, x);
    }
    return OptionalLong.of(Math.min(Integer.MAX_VALUE, max + 1));
  }

  /** Where the id of {@code k} is defined in {@code b}'s tree, {@code b}'s own deck first; at most 1000 a deck. */
  public List<Hit> definitions(IdBuffer b, long k) {
    List<Hit> hits = new ArrayList<>();
    for (IdTree.Member m : orderFrom(treeOf(b), b)) {
      IdTree.read(m, (deck, defs) -> {
        for (int line : defs.linesOf(k, 1000)) hits.add(new Hit(m, line, -1, text(deck, line)));
        return null;
      });
    }
    return hits;
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
   * range that holds it), at most {@code max} listed, and how many there are.
   */
  public References references(IdBuffer b, long k, int max) {
    int kd = IdKinds.kindOf(k);
    int want = IdKinds.idOf(k);
    List<Hit> items = new ArrayList<>();
    int[] total = {0};
    for (IdTree.Member m : orderFrom(treeOf(b), b)) {
      int version = IdTree.version(m);
      IdTree.read(m, (deck, defs) -> {
        int[] lastLine = {-1};
        new IdScanner(CardLayouts.bundled()).scan(deck, 0, deck.lineCount(), version, true, 1 << kd,
            (line, from, to, kind2, lo, hi, def) -> {
              if (def || kind2 != kd || want < lo || want > hi || line == lastLine[0]) return;
              lastLine[0] = line;
              total[0]++;
              if (items.size() < max) items.add(new Hit(m, line, from, text(deck, line)));
            });
        return null;
      });
    }
    return new References(items, total[0]);
  }

  /**
   * Completion items for a field (or a GES item) referencing {@code kind}: the ids of {@code b}'s
   * tree whose digits start with {@code prefix} (all when empty), ascending within each deck, or
   * for a named kind the titles that start with it (ignoring ASCII case), in line order; at most
   * {@code cap}, with the card and its NAME title.
   */
  public List<Completion> complete(IdBuffer b, String kind, String prefix, int cap) {
    List<Completion> items = new ArrayList<>();
    int kd = IdKinds.code(kind);
    if (kd == 0) return items;
    IntPredicate matches = matcher(kd, prefix == null ? "" : prefix.strip());
    if (matches == null) return items;
    for (IdTree.Member m : orderFrom(treeOf(b), b)) {
      if (items.size() >= cap) break;
      IdTree.read(m, (deck, defs) -> {
        for (int d = 0; d < defs.size() && items.size() < cap; d++) {
          if (defs.kind(d) != kd) continue;
          int id = defs.id(d);
          if (!matches.test(id)) continue;
          String title = title(deck, defs.line(d));
          String where = m.live() == b ? "" : " [" + m.label() + "]";
          String w = IdKinds.named(kd) ? IdNames.text(id) : Integer.toString(id);
          items.add(new Completion(w, word(deck, defs.line(d)) + (title.isEmpty() ? "" : " " + title) + where));
        }
        return null;
      });
    }
    return items;
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
   * element count, materials, contacts, rigid bodies, …) and its include files.
   */
  public List<OutlineItem> outline(IdBuffer b) {
    ensureBuilt(b);
    List<OutlineItem> items = b.withIds((ids, deck) -> outline(deck, ids.version()));
    if (items == null) throw new IllegalStateException("nvimpam: buffer " + b.bufferId() + " is not loaded yet");
    return items;
  }

  static List<OutlineItem> outline(LineSource deck, int version) {
    CardLayouts table = CardLayouts.bundled();
    IdCounts elements = new IdCounts();
    IdScanner sc = new IdScanner(table);
    sc.scan(deck, 0, deck.lineCount(), version, true, IdKinds.bit(IdKinds.PART), (line, from, to, kind, lo, hi, def) -> {
      if (def || kind != IdKinds.PART || sc.field() < 0 || lo != hi) return;
      String cat = table.entry(sc.entry()).category();
      if (cat.equals("Element") || cat.equals("Link")) elements.add(IdKinds.key(IdKinds.PART, lo), 1);
    });
    List<OutlineItem> items = new ArrayList<>();
    Map<Integer, IncludeLine> incl = new LinkedHashMap<>();
    for (IncludeLine il : IncludeLine.of(deck)) incl.put(il.line(), il);
    int n = deck.lineCount();
    for (int i = 0; i < n; i++) {
      byte[] a = deck.bytes(i);
      int off = deck.start(i);
      int len = deck.contentLength(i);
      IncludeLine il = incl.get(i);
      if (il != null) {
        items.add(new OutlineItem(i + 1, "INCLU " + il.name(), "include"));
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
      items.add(new OutlineItem(i + 1, text.toString(), cat.toLowerCase(java.util.Locale.ROOT)));
    }
    return items;
  }

  /**
   * The plan that gives the id of {@code ok} the new id of {@code nk} (a number, or a group's title)
   * in the tree of {@code b} (and in the trees of the other open decks that include the file
   * defining it): its definition and every reference (fields, GES items, GES ranges), file by
   * file, each file once: {files = [{buf|file, label, lines, edits, adds}], defined, refusals,
   * missing}. {@code refusals} says why nothing may change (the new id is taken, does not fit a
   * field or a GES line, an include file cannot be read as a deck); {@code missing} names the
   * include files not found, which were not searched.
   */
  public Rename rename(IdBuffer b, long ok, long nk) {
    int kd = IdKinds.kindOf(ok);
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
    List<FileRename> changed = new ArrayList<>();
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
      if (plan.count() > 0) changed.add(new FileRename(m, plan));
    }
    return new Rename(changed, defined, refusals, missing);
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
