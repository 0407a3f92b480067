package org.nvimpam.ids;

import java.util.Arrays;
import java.util.List;
import org.nvimpam.deck.CardLayouts;
import org.nvimpam.deck.DeckVersion;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.deck.ProblemItems;
import org.nvimpam.lines.LineSource;

/**
 * The ids of one live buffer: its definitions ({@link DefTable}), its references to undefined ids
 * ({@link RefProblems}), its INCLU lines, and the capped list of cross-reference problems Neovim
 * shows in the {@code nvimpam.refs} namespace. Built once after the buffer's first folds, then
 * updated by every edit from the cards it touched. Guarded by the buffer's lock; the
 * {@link DefTable} is also counted by other buffers' checks under its own leaf lock.
 */
public final class BufferIds {
  private IdScanner scanner;
  private final DefTable defs = new DefTable();
  private final RefProblems refs = new RefProblems();
  private boolean built;
  private int version;
  private int inherited = -1;
  private List<IncludeLine> includes;
  private long[] undefinedKeys = new long[8]; // keys whose references must be looked for again
  private int undefinedCount;
  private boolean recheck; // every reference is checked again at the next check
  private List<DefTable> foreign = List.of(); // the other decks of the tree, counted by the checks
  private List<TreeProblem> treeProblems = List.of();
  private boolean checkRefs; // whether undefined references are problems (a deck, not a lone include file)
  private long dupGeneration = -1;
  private int[] dupDefs = new int[0]; // the definitions of keys defined twice or more, in line order
  private ProblemItems sent;

  /** A problem of the include tree on one of this deck's lines. */
  public record TreeProblem(int line, int from, int to, ProblemCode code, String message) {}

  public boolean built() {
    return built;
  }

  public DefTable defs() {
    return defs;
  }

  /** The references to undefined ids (as of the last {@link #check}). */
  public RefProblems refs() {
    return refs;
  }

  public IdScanner scanner() {
    if (scanner == null) scanner = new IdScanner(CardLayouts.bundled());
    return scanner;
  }

  /** The version the deck is read as: its own INPUTVERSION, an including deck's, else the newest. */
  public int version() {
    return version;
  }

  private int versionOf(LineSource deck) {
    int own = DeckVersion.declared(deck);
    if (own > 0) return own;
    if (inherited > 0) return inherited;
    return scanner().table().newestVersion();
  }

  /** Reads every definition (after the buffer's first folds). */
  public void build(LineSource deck) {
    building = false;
    version = versionOf(deck);
    defs.build(deck, version, scanner());
    recheck = true;
    built = true;
  }

  private boolean building; // the first build goes in steps
  private int restarts; // steps started over because the deck changed under them

  /**
   * The first build in steps of about {@code lines} lines, so that the buffer's lock is let go
   * between them (edits are never held up for long); true when built. Edits between steps are
   * followed; one that changes the deck's version starts it over, and after a few restarts it is
   * done in one go.
   */
  public boolean buildStep(LineSource deck, int lines) {
    if (built) return true;
    if (!building) {
      version = versionOf(deck);
      building = true;
    }
    if (!defs.buildStep(deck, version, scanner(), restarts > 3 ? Integer.MAX_VALUE : lines)) return false;
    building = false;
    restarts = 0;
    recheck = true;
    built = true;
    return true;
  }

  /**
   * As {@link #check}, with a whole check of the references in steps of about {@code lines} lines;
   * true when done.
   */
  public boolean checkStep(LineSource deck, int lines) {
    long fg = foreignGeneration();
    if (fg != lastForeign) {
      lastForeign = fg;
      recheck = true;
      refs.abandonCheck();
    }
    if (!checkRefs) {
      check(deck);
      return true;
    }
    if (recheck) {
      if (!refs.checkStep(deck, version, scanner(), this::count, restarts > 3 ? Integer.MAX_VALUE : lines)) return false;
      recheck = false; // keys that lost their definitions meanwhile are still looked for below
      restarts = 0;
    }
    // The references to keys that lost their last definition are looked for in steps too: in one
    // go, that search held the lock of a 10M-line deck for seconds. Keys that lose theirs while it
    // goes on are looked for by another search after it.
    int n = refs.searching() ? 0 : stillUndefined();
    if (!refs.undefinedStep(deck, version, scanner(), this::count, undefinedKeys, n, lines) || undefinedCount > 0) return false;
    finish();
    return true;
  }

  /** Moves the keys that edits left undefined and still are to the front; their number. Clears the list. */
  private int stillUndefined() {
    int n = 0;
    for (int i = 0; i < undefinedCount; i++) {
      if (count(undefinedKeys[i]) == 0) undefinedKeys[n++] = undefinedKeys[i];
    }
    undefinedCount = 0;
    return n;
  }

  /** Lines {@code [first, last)} were replaced by {@code count} lines (the deck holds the new ones). */
  public void edited(LineSource deck, int first, int last, int count) {
    includes = shifted(includes, deck, first, last, count);
    if (includesPos >= 0 && first < includesPos) { // a read in steps: what it has read follows
      List<IncludeLine> read = shifted(includesRead, deck, first, last, count);
      if (read == null || last > includesPos) {
        includesPos = -1; // it touched an INCLU line, or what is not read yet: again
      } else {
        includesRead = read;
        includesPos += count - (last - first);
      }
    }
    if (!built) {
      if (!building) return;
      if (first < DeckVersion.SCAN_LINES && versionOf(deck) != version) { // read as another version: again
        defs.abandonBuild();
        building = false;
        restarts++;
      } else {
        defs.buildEdited(deck, first, last, count, version, scanner());
      }
      return;
    }
    if (first < DeckVersion.SCAN_LINES && versionOf(deck) != version) {
      build(deck);
      return;
    }
    boolean changed = defs.edit(deck, first, last, count, version, scanner());
    if (refs.dropped() > 0) recheck = true; // capped: only a whole check counts them right
    // A whole check in steps follows the edit (below); one not begun yet sees it anyway.
    boolean follow = checkRefs && refs.checking() && refs.dropped() == 0;
    if (recheck && !follow) {
      refs.abandonCheck();
      restarts++;
      return;
    }
    if (checkRefs) refs.edit(deck, first, last, count, version, scanner(), this::count);
    if (!changed) return;
    for (int i = 0; i < defs.touchedCount(); i++) {
      long k = defs.touchedKey(i);
      if (defs.touchedDefined(i)) {
        refs.defined(k);
      } else {
        if (undefinedCount == undefinedKeys.length) {
          if (undefinedCount >= 4096) {
            recheck = true;
            undefinedCount = 0;
            refs.abandonCheck(); // it would not look for the keys dropped here
            return;
          }
          undefinedKeys = Arrays.copyOf(undefinedKeys, undefinedCount * 2);
        }
        undefinedKeys[undefinedCount++] = k;
      }
    }
  }

  /** How many times the tree defines {@code key}: this deck and the others. */
  public int count(long key) {
    int c = defs.count(key);
    for (DefTable d : foreign) c += d.count(key);
    return c;
  }

  private static final byte[] INCLU = org.nvimpam.deck.LineBytes.ascii("INCLU");

  /**
   * The INCLU lines after an edit: the same, moved by the lines it added or removed, unless it
   * touched one (or its continuation) or wrote one; then null (read again when needed).
   */
  private static List<IncludeLine> shifted(List<IncludeLine> list, LineSource deck, int first, int last, int count) {
    if (list == null) return null;
    for (IncludeLine il : list) {
      if (il.line() >= last) continue;
      if (il.line() >= first) return null;
      // One before the edit: its name may go on over continued lines into the edit (the lines
      // before the edit are as they were).
      int j = il.line();
      while (j + 1 < first && IncludeLine.continued(deck, j)) j++;
      if (j + 1 == first && IncludeLine.continued(deck, j)) return null;
    }
    for (int i = first; i < first + count && i < deck.lineCount(); i++) {
      if (org.nvimpam.deck.LineBytes.startsWith(deck.bytes(i), deck.start(i), deck.contentLength(i), INCLU)) return null;
    }
    int delta = count - (last - first);
    if (delta == 0) return list;
    List<IncludeLine> out = new java.util.ArrayList<>(list.size());
    for (IncludeLine il : list) {
      out.add(il.line() >= last ? new IncludeLine(il.line() + delta, il.from(), il.to(), il.name()) : il);
    }
    return out;
  }

  /** This deck's INCLU lines (read again after edits). */
  public List<IncludeLine> includes(LineSource deck) {
    if (includes == null) {
      includes = IncludeLine.of(deck);
      includesPos = -1;
    }
    return includes;
  }

  private List<IncludeLine> includesRead; // a read of the INCLU lines in steps: those of [0, includesPos)
  private int includesPos = -1; // -1: none under way

  /**
   * Reads about {@code lines} more lines for the INCLU lines, so that the buffer's lock is let go
   * between steps (a 10M-line deck: a quarter of a second); true once {@link #includes} has them.
   * Edits between steps are followed, or start the read over where they touch an INCLU line.
   */
  public boolean includesStep(LineSource deck, int lines) {
    if (includes != null) return true;
    if (includesPos < 0) {
      includesRead = new java.util.ArrayList<>();
      includesPos = 0;
    }
    int n = deck.lineCount();
    includesPos = IncludeLine.read(deck, includesPos, (int) Math.min(n, (long) includesPos + Math.max(1, lines)), includesRead);
    if (includesPos < n) return false;
    includes = includesRead;
    includesRead = null;
    includesPos = -1;
    return true;
  }

  /**
   * The include tree was resolved: the other decks' definitions count from now on ({@code
   * checkRefs}: whether undefined references are problems here), the tree's problems on this deck's
   * INCLU lines, and the version an including deck gives this one (-1: none).
   */
  public void tree(List<DefTable> others, List<TreeProblem> problems, boolean checkRefs, int inheritedVersion,
      LineSource deck) {
    boolean same = others.size() == foreign.size();
    for (int i = 0; same && i < others.size(); i++) same = others.get(i) == foreign.get(i);
    if (!same || checkRefs != this.checkRefs) recheck = true;
    foreign = List.copyOf(others);
    treeProblems = List.copyOf(problems);
    this.checkRefs = checkRefs;
    if (inheritedVersion != inherited) {
      inherited = inheritedVersion;
      if (built && versionOf(deck) != version) build(deck);
    }
  }

  /** The generations of the other decks, to tell when one changed (their ids may make or fix problems). */
  public long foreignGeneration() {
    long g = 0;
    for (DefTable d : foreign) g = g * 31 + d.generation();
    return g;
  }

  private long lastForeign = Long.MIN_VALUE;

  /** Brings the reference problems up to date (the expensive part: off Neovim's main loop). */
  public void check(LineSource deck) {
    long fg = foreignGeneration();
    if (fg != lastForeign) {
      lastForeign = fg;
      recheck = true;
    }
    if (!checkRefs) {
      refs.clear();
      recheck = false;
      undefinedCount = 0;
    } else if (recheck) {
      refs.checkAll(deck, version, scanner(), this::count);
      recheck = false;
      undefinedCount = 0;
    } else {
      if (refs.searching()) refs.undefinedStep(deck, version, scanner(), this::count, null, 0, Integer.MAX_VALUE);
      if (undefinedCount > 0) {
        int n = stillUndefined();
        refs.undefined(deck, version, scanner(), this::count, Arrays.copyOf(undefinedKeys, n), n);
      }
    }
    finish();
  }

  /** After the references: the duplicates. */
  private void finish() {
    long fg = foreignGeneration();
    long dg = defs.generation() * 31 + fg;
    if (dg != dupGeneration) {
      dupGeneration = dg;
      duplicates();
    }
  }

  private void duplicates() {
    if (defs.duplicated() == 0 && foreign.isEmpty()) {
      dupDefs = new int[0];
      return;
    }
    if (foreign.isEmpty()) {
      // The keys this deck defines twice or more, and where, not a count of every definition
      // (4.6M at 10M lines, after each edit that adds or removes one).
      int n = 0;
      int[] which = new int[16];
      for (long k : defs.multiples()) {
        for (int d : defs.indicesOf(k, Integer.MAX_VALUE)) {
          if (n == which.length) which = Arrays.copyOf(which, n * 2);
          which[n++] = d;
        }
      }
      dupDefs = Arrays.copyOf(which, n);
      Arrays.sort(dupDefs); // definitions are in line order
      return;
    }
    int[] which = new int[16];
    int n = 0;
    for (int d = 0; d < defs.size(); d++) {
      if (count(defs.key(d)) < 2) continue;
      if (n == which.length) which = Arrays.copyOf(which, n * 2);
      which[n++] = d;
    }
    dupDefs = Arrays.copyOf(which, n);
  }

  /** Every cross-reference problem, in line order; the first {@code cap} with their messages. */
  public ProblemItems snapshot(LineSource deck, int cap) {
    int total = refs.size() + refs.dropped() + dupDefs.length + treeProblems.size();
    int n = Math.min(cap, refs.size() + dupDefs.length + treeProblems.size());
    int[] at = new int[4 * n];
    byte[][] messages = new byte[n][];
    ProblemCode[] codes = new ProblemCode[n];
    int i = 0;
    int j = 0;
    int t = 0;
    CardLayouts table = scanner().table();
    for (int k = 0; k < n; k++) {
      int li = i < refs.size() ? refs.line(i) : Integer.MAX_VALUE;
      int lj = j < dupDefs.length ? defs.line(dupDefs[j]) : Integer.MAX_VALUE; // the definitions' lines as edits moved them
      int lt = t < treeProblems.size() ? treeProblems.get(t).line() : Integer.MAX_VALUE;
      String m;
      if (lt <= li && lt <= lj) {
        TreeProblem p = treeProblems.get(t++);
        at[4 * k] = p.line();
        at[4 * k + 1] = p.from();
        at[4 * k + 2] = p.to();
        m = p.message();
        codes[k] = p.code();
      } else if (li <= lj) {
        at[4 * k] = li;
        at[4 * k + 1] = refs.from(i);
        at[4 * k + 2] = refs.to(i);
        m = IdMessages.undefined(table, refs.entry(i), refs.row(i), refs.field(i), refs.key(i));
        codes[k] = ProblemCode.ID_UNDEFINED;
        i++;
      } else {
        int d = dupDefs[j++];
        int line = defs.line(d);
        at[4 * k] = line;
        long key = defs.key(d);
        int[] span = IdMessages.span(deck, line, key);
        at[4 * k + 1] = span[0];
        at[4 * k + 2] = span[1];
        m = IdMessages.duplicate(deck, line, key, count(key));
        codes[k] = ProblemCode.ID_DUPLICATE;
      }
      at[4 * k + 3] = 1;
      messages[k] = m.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
    return new ProblemItems(total, at, messages, codes);
  }

  /** The snapshot to send, or null when Neovim already shows exactly it. */
  public ProblemItems changedSnapshot(LineSource deck, int cap) {
    ProblemItems s = snapshot(deck, cap);
    if (s.equals(sent)) return null;
    sent = s;
    return s;
  }

  /** Forget what Neovim shows (the namespace was cleared). */
  public void forgetSent() {
    sent = null;
  }

  /** Heap held by the index (definitions, problems). */
  public long heapBytes() {
    return defs.heapBytes() + refs.heapBytes() + 4L * dupDefs.length;
  }

  /** Whether this deck's checks count {@code d}'s definitions (it is part of this deck's tree). */
  public boolean counts(DefTable d) {
    for (DefTable f : foreign) {
      if (f == d) return true;
    }
    return false;
  }
}
