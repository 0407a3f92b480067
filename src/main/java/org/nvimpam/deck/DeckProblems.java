package org.nvimpam.deck;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.nvimpam.lines.LineSource;

/**
 * The field checks of a whole deck (docs/CARDS.md, "What is an error"), kept up to date across
 * edits: an edit checks again only the cards it touched, from the card header at or before it to
 * the next card header after it, and shifts the problems below. Reads every byte of the rows it
 * checks, in place. lua/nvimpam/model/problems.lua checks the same way (ContractIT compares the two).
 * Not thread-safe.
 */
public final class DeckProblems {
  private final CardLayouts table;
  private final RowWalker walker;
  private final ProblemList all = new ProblemList();
  private long generation;
  private final ProblemList region = new ProblemList();
  private final ProblemList[] perVersion = new ProblemList[8];
  private int entry; // the entry whose card is being checked
  private LineSource src;
  private ProblemList out;
  private final RowWalker.Visitor checker = this::checkLine; // one object for every walk
  private Rows rows; // told the rows of the whole check under way; null: none
  // A whole check in steps: lines [0, resume) are checked, as deck version stepVersion; -1: none under way.
  private int resume = -1;
  private int stepVersion;
  private static final int KW = FieldType.KW.ordinal();
  private static final int FIXED = FieldType.FIXED.ordinal();
  private static final int STR = FieldType.STR.ordinal();
  private static final int INT = FieldType.INT.ordinal();
  private static final int INT_OR_BLANK = FieldType.INT_OR_BLANK.ordinal();
  private static final int FLOAT = FieldType.FLOAT.ordinal();
  private static final int FLAGS = FieldType.FLAGS.ordinal();
  private static final int CHOICE = FieldType.CHOICE.ordinal();
  private static final int CONT = FieldType.CONT.ordinal();

  public DeckProblems(CardLayouts table) {
    this.table = table;
    this.walker = new RowWalker(table);
    for (int i = 0; i < perVersion.length; i++) perVersion[i] = new ProblemList();
  }

  /** Checks every line of {@code deck}, read as a deck of PAM-CRASH {@code version}. */
  public void checkAll(LineSource deck, int version) {
    beginCheck(version);
    checkStep(deck, Integer.MAX_VALUE);
  }

  /**
   * Told each row line the check reads (a row of an entry's layout, or a GES selection line), with
   * its entry and row, as {@link RowWalker} walks it; a card of a deck older than
   * all its layouts is told as its oldest layout walks it. Another reader of the same lines (the id
   * scan of a headless check) reads them in the same pass.
   */
  public interface Rows {
    /** Line {@code line}, its bytes {@code a[off, off+len)} (no final CR), is row {@code code} of {@code entry} ({@link RowWalker#GES}: a GES selection line). */
    void row(int entry, int line, int code, byte[] a, int off, int len);

    /**
     * The fields of row {@code code} of {@code entry} whose values this reader wants from the
     * check's own loop over them (an integer field it trims and tests anyway): a nonzero tag for
     * each such field, 0 for the others; an empty array for a row it wants nothing of; null to be
     * told the row's lines whole through {@link #row} instead. Asked once per row and reader.
     */
    default int[] fields(int entry, int code) {
      return null;
    }

    /**
     * Field {@code field} (tagged {@code tag}) of line {@code line}, row {@code code} of {@code
     * entry}: its value, blanks around it left out, is {@code a[off+from, off+to)}, and has the
     * field's form. Told in the order of the fields.
     */
    default void field(int entry, int line, int code, int field, int tag, byte[] a, int off, int from, int to) {}
  }

  private static final int[] WHOLE = new int[0]; // a row told whole through Rows.row
  private int[][][] tags; // by entry, then row: the answers of Rows.fields, WHOLE for null
  private Rows tagsOf; // whose answers they are

  /** {@link #checkAll(LineSource, int)}, telling {@code rows} each row line it reads. */
  public void checkAll(LineSource deck, int version, Rows rows) {
    this.rows = rows;
    if (rows != tagsOf) {
      tags = new int[table.entries().size()][][];
      tagsOf = rows;
    }
    try {
      checkAll(deck, version);
    } finally {
      this.rows = null;
    }
  }

  /**
   * Begins a whole check of the deck as PAM-CRASH {@code version}, done by {@link #checkStep}: the
   * problems found so far are dropped, and edits made between the steps are taken into account.
   */
  public void beginCheck(int version) {
    generation++;
    all.clear();
    resume = 0;
    stepVersion = version;
  }

  /** Checks about {@code lines} more lines of the whole check begun last; true once it is done. */
  public boolean checkStep(LineSource deck, int lines) {
    if (resume < 0) return true;
    int n = deck.lineCount();
    int to = (int) Math.min(n, (long) resume + Math.max(1, lines));
    while (to < n && !RowWalker.isHeader(deck, to)) to++; // a step ends where a card begins
    check(deck, resume, to, stepVersion, all);
    generation++;
    resume = to < n ? to : -1;
    return resume < 0;
  }

  /** Drops the problems and a whole check under way. */
  public void clear() {
    generation++;
    all.clear();
    resume = -1;
  }

  /** Whether a whole check begun by {@link #beginCheck} has lines left to check. */
  public boolean checking() {
    return resume >= 0;
  }

  /**
   * Lines {@code [first, lastOld)} were replaced by {@code count} lines (0-based, old numbering):
   * checks the cards they touch again. During a whole check in steps, only the part already checked
   * is: the rest is checked by the steps to come.
   */
  public void edit(LineSource deck, int first, int lastOld, int count, int version) {
    int n = deck.lineCount();
    int delta = count - (lastOld - first);
    if (resume >= 0 && first >= resume) {
      // Nothing checked changed, but the card that ends at resume may now go on past it.
      if (first == resume && resume > 0) {
        int s = resume - 1;
        while (s > 0 && !RowWalker.isHeader(deck, s)) s--;
        all.size = all.firstAtOrAfter(s);
        resume = s;
        generation++;
      }
      return;
    }
    int s = Math.min(first, n);
    while (s > 0 && (s == n || !RowWalker.isHeader(deck, s))) s--;
    int e = Math.min(first + count, n);
    while (e < n && !RowWalker.isHeader(deck, e)) e++;
    region.clear();
    check(deck, s, e, version, region);
    int before = all.firstAtOrAfter(s);
    int after = all.firstAtOrAfter(e - delta);
    // The problems change where the region had or has some, or where lines below moved.
    if (after > before || region.size > 0 || (delta != 0 && after < all.size)) generation++;
    all.splice(s, e - delta, region, delta);
    if (resume >= 0) resume = e - delta >= resume ? e : resume + delta; // still where a card begins
  }

  /** Changes whenever the problems (or their lines, or the bytes their messages quote) may have. */
  public long generation() {
    return generation;
  }

  /** Problems in the whole deck. */
  public int total() {
    return all.size;
  }

  /** 0-based line of problem {@code p} (problems are sorted by line, then column). */
  public int line(int p) {
    return all.lines[p];
  }

  /** 0-based first byte of problem {@code p}. */
  public int col(int p) {
    return all.cols[p];
  }

  /** Exclusive end byte of problem {@code p}. */
  public int end(int p) {
    return all.ends[p];
  }

  /** 1 (error), 2 (warning) or 4 (hint), as vim.diagnostic.severity counts. */
  public int severity(int p) {
    return all.severity(p);
  }

  /** The code of problem {@code p}. */
  public ProblemCode code(int p) {
    return switch (all.kind(p)) {
      case ProblemList.TAB -> ProblemCode.TAB;
      case ProblemList.PAST80 -> ProblemCode.PAST_80;
      case ProblemList.BLANK -> ProblemCode.FIELD_BLANK;
      case ProblemList.RUNS -> ProblemCode.FIELD_RUNS_INTO;
      case ProblemList.HEADER -> ProblemCode.HEADER;
      case ProblemList.NOT_HEADER -> ProblemCode.HEADER_UNKNOWN;
      case ProblemList.FORM -> formCode(table.entry(all.entry(p)).rows().get(all.row(p)).fields().get(all.field(p)).type());
      default -> throw new IllegalStateException("no code for problem kind " + all.kind(p));
    };
  }

  private static ProblemCode formCode(FieldType type) {
    return switch (type) {
      case INT, INT_OR_BLANK -> ProblemCode.FIELD_INT;
      case FLOAT -> ProblemCode.FIELD_FLOAT;
      case FLAGS -> ProblemCode.FIELD_FLAGS;
      case CHOICE -> ProblemCode.FIELD_CHOICE;
      case CONT -> ProblemCode.FIELD_CONT;
      default -> throw new IllegalStateException("a " + type.token() + " field has no form problem");
    };
  }

  /** The message of problem {@code p}, made from the deck's bytes (which must be those checked). */
  public byte[] message(int p, LineSource deck) {
    return message(all, p, deck);
  }

  /** The first {@code cap} problems with their messages, and the total, as Neovim shows them. */
  public ProblemItems snapshot(LineSource deck, int cap) {
    int n = (int) Math.min(cap, all.size);
    int[] at = new int[4 * n];
    byte[][] messages = new byte[n][];
    ProblemCode[] codes = new ProblemCode[n];
    for (int p = 0; p < n; p++) {
      at[4 * p] = all.lines[p];
      at[4 * p + 1] = all.cols[p];
      at[4 * p + 2] = all.ends[p];
      at[4 * p + 3] = all.severity(p);
      messages[p] = message(all, p, deck);
      codes[p] = code(p);
    }
    return new ProblemItems(all.size, at, messages, codes);
  }

  /**
   * Checks lines {@code [from, to)}, where {@code from} is 0 or a card header line and {@code to}
   * a card header line or the line count, into {@code into}.
   */
  private void check(LineSource deck, int from, int to, int version, ProblemList into) {
    this.src = deck;
    int[] picked = table.picks(version); // by group: the entry, -1 lenient
    int n = deck.lineCount();
    int i = from;
    int g = i < to ? walker.groupAt(deck, i) : -1;
    while (i < to) {
      if (g < 0) {
        // No card with an entry: the prologue, a card the table lacks. Only the line's own shape.
        out = into;
        byte[] a = deck.bytes(i);
        int off = deck.start(i);
        int len = LineSource.contentLength(a, off, deck.length(i));
        if (!LineBytes.isComment(a, off, len)) freeLine(a, off, len, i, -1, false);
        i++;
        g = i < to ? walker.groupAt(deck, i) : -1;
        continue;
      }
      int e = picked[g];
      if (e >= 0 && table.rowCount(e) == 1) {
        // A one-line card (NODE, SHELL: most of a deck): its header row, then whatever follows
        // up to the next card header is comments and extra lines. Checked in place, without a walk.
        out = into;
        entry = e;
        byte[] a = deck.bytes(i);
        int off = deck.start(i);
        int len = LineSource.contentLength(a, off, deck.length(i));
        int first = into.size;
        checkRow(a, off, len, table.check(e, 0), i, 0);
        if (into.size - first > 1) sortLine(first);
        long word = 0;
        for (i++; i < n; i++) {
          a = deck.bytes(i);
          off = deck.start(i);
          len = LineSource.contentLength(a, off, deck.length(i));
          if (LineBytes.isComment(a, off, len)) continue;
          if ((word = walker.headerWord(a, off, len)) != 0) break;
          freeLine(a, off, len, i, e, true);
        }
        g = i < to ? walker.groupOf(word, a, off, len) : -1;
        continue;
      }
      if (e >= 0) {
        out = into;
        entry = e;
        i = walker.walkCard(deck, i, e, checker);
      } else {
        i = lenient(deck, i, table.group(g), into);
      }
      g = i < to ? walker.groupAtStop(deck, i) : -1;
    }
    this.src = null;
    out = null;
  }

  /**
   * A card of a deck older than all its layouts: each layout walks it; the oldest's errors stay
   * where every other layout finds an error overlapping them on the same line.
   */
  private int lenient(LineSource deck, int h, int[] members, ProblemList into) {
    int k = Math.min(members.length, perVersion.length);
    int next = h;
    Rows told = rows;
    for (int v = 0; v < k; v++) {
      perVersion[v].clear();
      out = perVersion[v];
      entry = members[v];
      rows = v == 0 ? told : null; // the rows as the oldest layout walks them
      next = walker.walkCard(deck, h, members[v], checker);
    }
    rows = told;
    ProblemList oldest = perVersion[0];
    for (int p = 0; p < oldest.size; p++) {
      if (oldest.severity(p) != ProblemList.ERROR) continue;
      boolean everywhere = true;
      for (int v = 1; v < k && everywhere; v++) everywhere = overlaps(perVersion[v], oldest, p);
      if (everywhere) into.add(oldest, p);
    }
    return next;
  }

  private static boolean overlaps(ProblemList list, ProblemList of, int p) {
    int line = of.lines[p];
    for (int q = list.firstAtOrAfter(line); q < list.size && list.lines[q] == line; q++) {
      if (list.severity(q) == ProblemList.ERROR && list.cols[q] < of.ends[p] && of.cols[p] < list.ends[q]) return true;
    }
    return false;
  }

  private void checkLine(int line, int code) {
    if (code == RowWalker.COMMENT) return;
    byte[] a = walker.lineBytes();
    int off = walker.lineStart();
    int len = walker.lineLength();
    if (code == RowWalker.EXTRA) {
      if (!table.opaqueBody(entry)) freeLine(a, off, len, line, entry, true);
      return;
    }
    int first = out.size;
    if (code >= 0) {
      checkRow(a, off, len, table.check(entry, code), line, code);
    } else if (code == RowWalker.VALUES) {
      values(a, off, len, table.check(entry, walker.keyRow()), line, walker.keyRow());
    } else if (code == RowWalker.GES || code == RowWalker.GES_END || code == RowWalker.KEYWORD) {
      tab(a, off, len, null, line, -1);
      past(a, off, len, 80, line, -1);
    }
    if (out.size - first > 1) sortLine(first);
    if (rows != null && code == RowWalker.GES) rows.row(entry, line, code, a, off, len);
  }

  /**
   * A key row's value line: its blank-separated values in columns 1–80, the k-th checked as the
   * row's k-th field (values past the row's fields are not checked), then its first tab and the
   * text past column 80.
   */
  private void values(byte[] a, int off, int len, RowCheck rc, int line, int row) {
    int end = Math.min(len, 80);
    int s = LineBytes.skipSpaces(a, off, off + end) - off;
    for (int f = 0; f < rc.count && s < end; f++) {
      int e = s;
      while (e < end && a[off + e] != ' ') e++;
      boolean ok = rc.types[f] == FieldType.FLOAT ? FieldForms.isFloat(a, off + s, off + e) : FieldForms.isInt(a, off + s, off + e);
      if (!ok && !FieldForms.isParameter(a, off + s, off + e)) {
        out.add(line, s, e, ProblemList.meta(entry, row, f, ProblemList.FORM, ProblemList.ERROR));
      }
      s = LineBytes.skipSpaces(a, off + e, off + end) - off;
    }
    tab(a, off, len, null, line, row);
    past(a, off, len, 80, line, row);
  }

  /** The tags {@link Rows#fields} gives row {@code row} of {@link #entry}, asked once. */
  private int[] tags(int row) {
    int[][] t = tags[entry];
    if (t == null) t = tags[entry] = new int[table.rowCount(entry)][];
    int[] r = t[row];
    if (r == null) {
      r = rows.fields(entry, row);
      r = t[row] = r == null ? WHOLE : r;
    }
    return r;
  }

  /** Checks row {@code row} of {@link #entry} on a line, and tells {@link #rows} of it. */
  private void checkRow(byte[] a, int off, int len, RowCheck rc, int line, int row) {
    int before = out.size;
    int[] ids = rows == null ? WHOLE : tags(row);
    if (ids == WHOLE && rows != null) rows.row(entry, line, row, a, off, len);
    boolean told = ids.length > 0;
    boolean parameter = false; // a parameter may hold a tab that no test rejected
    for (int f = 0; f < rc.count; f++) {
      int s = rc.from[f];
      if (s >= len) break;
      int c = rc.codes[f];
      if (c == STR || c == KW || c == FIXED) continue; // always valid
      int e = Math.min(rc.to[f], len);
      int vs = LineBytes.skipSpaces(a, off + s, off + e) - off;
      int ve = e;
      while (ve > vs && a[off + ve - 1] == ' ') ve--;
      if (vs == ve) continue;
      boolean ok;
      if (c == INT || c == INT_OR_BLANK || c == FLOAT || c == FLAGS) {
        ok = c == FLOAT ? FieldForms.isFloat(a, off + vs, off + ve)
            : c == FLAGS ? FieldForms.isFlags(a, off + vs, off + ve) : FieldForms.isInt(a, off + vs, off + ve);
        if (!ok && FieldForms.isParameter(a, off + vs, off + ve)) {
          ok = true;
          parameter = true;
        }
      } else if (c == CHOICE) {
        ok = choice(a, off + vs, off + ve, rc.choices[f]);
      } else if (c == CONT) {
        ok = ve - vs == 1 && LineBytes.isContinuationMark(a[off + vs]);
      } else { // BLANK
        out.add(line, s, e, ProblemList.meta(entry, row, f, ProblemList.BLANK, ProblemList.WARN));
        continue;
      }
      if (!ok) {
        out.add(line, s, e, ProblemList.meta(entry, row, f, ProblemList.FORM, ProblemList.ERROR));
        continue;
      }
      if (told && ids[f] != 0) rows.field(entry, line, row, f, ids[f], a, off, vs, ve);
      if (rc.runs[f] && ve == rc.to[f] && rc.from[f + 1] < len && a[off + rc.from[f + 1]] != ' '
          && (rc.to[f + 1] > len || a[off + rc.to[f + 1] - 1] == ' ')) {
        out.add(line, s, e, ProblemList.meta(entry, row, f, ProblemList.RUNS, ProblemList.ERROR));
      }
    }
    if (parameter || out.size != before) {
      tab(a, off, len, rc, line, row);
    } else {
      tabOutsideFields(a, off, len, rc, line, row);
    }
    past(a, off, len, rc.limit, line, row);
  }

  /**
   * A line no row takes (not a comment): an extra line of a card with entry {@code e} ({@code
   * extra}), or a line of no such card ({@code e} -1). Its first tab, anywhere; and a line that
   * starts like a card header but is none (FOLDS.md §3): with a `/` after the word that is not in
   * column 7 or not followed by a blank; or, on an extra line, a known keyword with blanks where
   * the `/` belongs. A known keyword is a warning; a word the table does not know (the solver may)
   * a hint. A continuation line (the line before it holds & or - in column 81) is no header.
   */
  private void freeLine(byte[] a, int off, int len, int line, int e, boolean extra) {
    int slash = headerShape(a, off, len, extra);
    if (slash >= 0 && (line == 0 || !IncludeLine.continued(src, line - 1))) {
      int w = wordLength(a, off, len);
      boolean known = table.knows(a, off, w);
      out.add(line, 0, slash > 0 ? slash + 1 : Math.min(len, 8),
          ProblemList.meta(-1, -1, -1, known ? ProblemList.HEADER : ProblemList.NOT_HEADER,
              known ? ProblemList.WARN : ProblemList.HINT));
    }
    int t = firstTab(a, off, len);
    if (t >= 0) out.add(line, t, t + 1, ProblemList.meta(e, -1, -1, ProblemList.TAB, ProblemList.ERROR));
  }

  /** The length of the word {@code [A-Z][A-Z0-9_]*} a line starts with (0: none). */
  private static int wordLength(byte[] a, int off, int len) {
    if (len == 0 || a[off] < 'A' || a[off] > 'Z') return 0;
    int w = 1;
    while (w < len) {
      byte b = a[off + w];
      if (!((b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_')) break;
      w++;
    }
    return w;
  }

  /**
   * Where a line that is no card header line looks like one ({@link #freeLine}): the byte of its
   * `/`, 0 for a known keyword with no `/` (on an {@code extra} line only), -1 when it does not.
   */
  private int headerShape(byte[] a, int off, int len, boolean extra) {
    int w = wordLength(a, off, len);
    if (w == 0) return -1;
    int k = w;
    while (k < len && (a[off + k] == ' ' || a[off + k] == '\t')) k++;
    if (k < len && a[off + k] == '/') return LineBytes.headerWord(a, off, len) != 0 ? -1 : k;
    if (!extra || len <= 8 || !table.knows(a, off, w)) return -1;
    for (int i = w; i < 8; i++) {
      if (a[off + i] != ' ') return -1;
    }
    return 0;
  }

  /** {@link #tab} for a row whose fields all passed: a tab can only be outside them. */
  private void tabOutsideFields(byte[] a, int off, int len, RowCheck rc, int line, int row) {
    int[] r = rc.tabRanges;
    for (int k = 0; k < r.length; k += 2) {
      int from = r[k];
      if (from >= len) return;
      int to = Math.min(r[k + 1], len);
      int t = firstTab(a, off + from, to - from);
      if (t >= 0) {
        tab(a, off, len, rc, line, row); // the first tab of the line, with its field
        return;
      }
    }
  }

  private static boolean choice(byte[] a, int s, int e, byte[][] values) {
    for (byte[] v : values) {
      if (FieldForms.equalsBytes(a, s, e, v)) return true;
    }
    return false;
  }

  private static final java.lang.invoke.VarHandle LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long TABS = 0x0909090909090909L;
  private static final long HIGHS = 0x8080808080808080L;

  /** The first tab among bytes {@code [0, end)} of the line, 8 bytes at a time; -1 when none. */
  private static int firstTab(byte[] a, int off, int end) {
    int i = 0;
    for (; i + 8 <= end; i += 8) {
      long x = (long) LONGS.get(a, off + i) ^ TABS;
      if (((x - ONES) & ~x & HIGHS) != 0) break; // some byte of the eight is a tab
    }
    for (; i < end; i++) {
      if (a[off + i] == '\t') return i;
    }
    return -1;
  }

  private void tab(byte[] a, int off, int len, RowCheck rc, int line, int row) {
    int end = Math.min(80, len);
    int t = firstTab(a, off, end);
    for (int i = t; i >= 0 && i < end; i++) {
      if (a[off + i] == '\t') {
        int f = -1;
        if (rc != null) {
          for (int k = 0; k < rc.count && f < 0; k++) {
            if (rc.from[k] <= i && i < rc.to[k]) f = k;
          }
        }
        out.add(line, i, i + 1, ProblemList.meta(entry, row, f, ProblemList.TAB, ProblemList.ERROR));
        return;
      }
    }
  }

  private void past(byte[] a, int off, int len, int limit, int line, int row) {
    for (int i = limit; i < len; i++) {
      if (a[off + i] != ' ') {
        out.add(line, i, len, ProblemList.meta(entry, row, -1, ProblemList.PAST80, ProblemList.ERROR));
        return;
      }
    }
  }

  /** Sorts the problems of one line from {@code first} on by column, then message. */
  private void sortLine(int first) {
    for (int i = first + 1; i < out.size; i++) {
      for (int j = i; j > first && compare(j - 1, j) > 0; j--) out.swap(j - 1, j);
    }
  }

  private int compare(int p, int q) {
    if (out.cols[p] != out.cols[q]) return Integer.compare(out.cols[p], out.cols[q]);
    return java.util.Arrays.compareUnsigned(message(out, p, src), message(out, q, src));
  }

  private byte[] message(ProblemList list, int p, LineSource deck) {
    int line = list.lines[p];
    byte[] a = deck.bytes(line);
    int off = deck.start(line);
    int s = list.cols[p];
    int e = list.ends[p];
    int kind = list.kind(p);
    Out m = new Out();
    if (kind == ProblemList.HEADER || kind == ProblemList.NOT_HEADER) {
      int w = wordLength(a, off, deck.contentLength(line));
      m.bytes(a, off, w);
      if (kind == ProblemList.HEADER) {
        m.text(" header: \"/\" must be in column 7, a blank after it: \"").bytes(a, off, w)
            .text(" ".repeat(6 - w) + "/ \"");
      } else {
        m.text(": not a card header: \"/\" must be in column 7, a blank after it");
      }
      return m.toByteArray();
    }
    if (list.entry(p) < 0) { // a tab on a line of no card
      return m.text("tab in column " + (s + 1)).toByteArray();
    }
    CardLayout card = table.entry(list.entry(p));
    int row = list.row(p);
    int f = list.field(p);
    FieldLayout field = row >= 0 && f >= 0 ? card.rows().get(row).fields().get(f) : null;
    m.text(card.word());
    if (field != null) m.text(" / ").text(field.name());
    m.text(": ");
    switch (kind) {
      case ProblemList.TAB -> m.text("tab in column " + (s + 1));
      case ProblemList.PAST80 -> {
        int ve = e;
        while (ve > s && a[off + ve - 1] == ' ') ve--;
        m.text("text past column 80: \"");
        if (ve - s > 20) m.bytes(a, off + s, 20).text("...");
        else m.bytes(a, off + s, ve - s);
        m.text("\"");
      }
      default -> {
        int vs = s;
        int ve = e;
        while (vs < ve && a[off + vs] == ' ') vs++;
        while (ve > vs && a[off + ve - 1] == ' ') ve--;
        m.text("\"").bytes(a, off + vs, ve - vs).text("\" ");
        switch (kind) {
          case ProblemList.RUNS -> m.text("runs into " + card.rows().get(row).fields().get(f + 1).name());
          case ProblemList.BLANK -> m.text("in columns " + field.from() + "-" + field.to() + ", which this layout leaves blank");
          default -> m.text(switch (field.type()) {
            case INT, INT_OR_BLANK -> "is not an integer";
            case FLOAT -> "is not a number";
            case FLAGS -> "is not a string of 0 and 1";
            case CHOICE -> "is not one of " + String.join(", ", field.values());
            case CONT -> "is not a continuation mark (& or -)";
            default -> "is not valid";
          });
        }
      }
    }
    return m.toByteArray();
  }

  /** A message's bytes: the deck's bytes go in unchanged. */
  private static final class Out extends ByteArrayOutputStream {
    Out text(String s) {
      writeBytes(s.getBytes(StandardCharsets.UTF_8));
      return this;
    }

    Out bytes(byte[] a, int off, int len) {
      write(a, off, len);
      return this;
    }
  }
}
