package org.nvimpam.plugin;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.msgpack.core.MessagePacker;
import org.nvimpam.ids.IdTree;
import org.nvimpam.lines.LineSource;
import org.nvimpam.model.Renumber;

/**
 * The answer of a call whose change Lua applies in parts (nvimpam.tree.hunks): per file of the
 * include tree, its hunks (lines {@code [first, last)} become new lines), the new lines held in
 * {@link Pages} under a token (file k's lines are its hunks' new lines one after another), and the
 * refusals. Files: {@code [{buf|file, label, lines, count, hunks = [first, last, new count, ...],
 * stamp = {bytes, mtime} of a file not open, new = true of a file the change makes}]}; refusals:
 * {@code [{buf|file, lnum, col, text}]}.
 */
final class HunkAnswer {
  /** More refusals than this are counted, not listed. */
  private static final int MAX_REFUSALS = 5000;

  /** A refusal: where (member null: the tree), 0-based line and column, and why. */
  record Refusal(IdTree.Member in, int line, int col, String text) {}

  /** A file the change makes: a new buffer of these lines, at {@code path} (not written). */
  record NewFile(java.nio.file.Path path, String label, byte[][] lines) {}

  private final List<IdTree.Member> members;
  private final List<List<Renumber.Hunk>> hunks;
  private final List<Refusal> refusals;
  private final List<NewFile> made;
  private final long token;

  /**
   * Holds the new lines of {@code hunks} (per member, in line order) for the page call
   * {@code call}, unless anything is refused; one change per call at a time.
   */
  HunkAnswer(String call, List<IdTree.Member> members, List<List<Renumber.Hunk>> hunks, List<Refusal> refusals) {
    this(call, members, hunks, refusals, List.of());
  }

  /** ... and the files {@code made}, after the tree's (file k of the pages: their lines). */
  HunkAnswer(String call, List<IdTree.Member> members, List<List<Renumber.Hunk>> hunks, List<Refusal> refusals,
      List<NewFile> made) {
    this.members = members;
    this.hunks = hunks;
    this.refusals = refusals;
    this.made = made;
    List<Pages.Source> held = new ArrayList<>();
    for (List<Renumber.Hunk> hs : hunks) {
      if (!hs.isEmpty()) held.add(lines(hs));
    }
    for (NewFile f : made) held.add(lines(List.of(new Renumber.Hunk(0, 1, f.lines()))));
    token = Pages.hold(call, refusals.isEmpty() ? held : List.of());
  }

  /** The number of keys {@link #pack} writes. */
  static final int KEYS = 3;

  /** Writes {@code token}, {@code files} and {@code refusals} (as {@link #KEYS} map entries). */
  void pack(MessagePacker out) throws IOException {
    out.packString("token").packLong(token);
    int files = 0;
    for (List<Renumber.Hunk> hs : hunks) files += hs.isEmpty() ? 0 : 1;
    out.packString("files").packArrayHeader(files + made.size());
    for (int i = 0; i < members.size(); i++) {
      List<Renumber.Hunk> hs = hunks.get(i);
      if (hs.isEmpty()) continue;
      IdTree.Member m = members.get(i);
      out.packMapHeader(m.live() != null ? 5 : 6);
      where(out, m);
      out.packString("label").packString(m.label());
      int lines = 0;
      int count = 0;
      for (Renumber.Hunk h : hs) {
        lines += h.changed();
        count += h.count();
      }
      out.packString("lines").packInt(lines);
      out.packString("count").packInt(count);
      out.packString("hunks").packArrayHeader(3 * hs.size());
      for (Renumber.Hunk h : hs) out.packInt(h.first()).packInt(h.last()).packInt(h.count());
      if (m.live() == null) {
        out.packString("stamp").packArrayHeader(2).packLong(m.disk().bytes()).packLong(m.disk().modified());
      }
    }
    for (NewFile f : made) { // a new buffer's one empty line becomes the file's lines
      out.packMapHeader(6);
      out.packString("file").packString(f.path().toString());
      out.packString("label").packString(f.label());
      out.packString("new").packBoolean(true);
      out.packString("lines").packInt(1);
      out.packString("count").packInt(f.lines().length);
      out.packString("hunks").packArrayHeader(3).packInt(0).packInt(1).packInt(f.lines().length);
    }
    int shown = Math.min(MAX_REFUSALS, refusals.size());
    out.packString("refusals").packArrayHeader(shown + (refusals.size() > shown ? 1 : 0));
    for (int i = 0; i < shown; i++) {
      Refusal x = refusals.get(i);
      IdTree.Member m = x.in();
      out.packMapHeader(m == null ? 1 : 4);
      if (m != null) {
        where(out, m);
        out.packString("lnum").packInt(x.line() + 1);
        out.packString("col").packInt(x.col() + 1);
      }
      out.packString("text").packString(m == null ? x.text() : m.label() + " line " + (x.line() + 1) + ": " + x.text());
    }
    if (refusals.size() > shown) {
      out.packMapHeader(1).packString("text").packString("and " + (refusals.size() - shown) + " more");
    }
  }

  /** A file's new lines, its hunks' one after another, for {@link Pages}. */
  private static Pages.Source lines(List<Renumber.Hunk> hs) {
    LineSource[] in = new LineSource[hs.size()];
    int[] before = new int[hs.size() + 1]; // the new lines of the hunks before hunk k
    for (int k = 0; k < in.length; k++) {
      in[k] = hs.get(k).lines();
      before[k + 1] = before[k] + in[k].lineCount();
    }
    return new Pages.Source() {
      @Override
      public int count() {
        return before[in.length];
      }

      @Override
      public void pack(MessagePacker out, int i) throws IOException {
        int k = Arrays.binarySearch(before, i);
        k = k >= 0 ? k : -k - 2; // the hunk holding line i (past those of no lines)
        while (before[k + 1] <= i) k++;
        LineSource l = in[k];
        int j = i - before[k];
        out.packRawStringHeader(l.length(j)).writePayload(l.bytes(j), l.start(j), l.length(j));
      }
    };
  }

  static void where(MessagePacker out, IdTree.Member m) throws IOException {
    if (m.live() != null) out.packString("buf").packLong(m.live().bufferId());
    else out.packString("file").packString(m.path().toString());
  }
}
