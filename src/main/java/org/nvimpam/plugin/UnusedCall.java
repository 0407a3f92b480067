package org.nvimpam.plugin;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IdBuffer;
import org.nvimpam.ids.IdService;
import org.nvimpam.ids.IdTree;
import org.nvimpam.model.Renumber;
import org.nvimpam.model.Unused;
import org.nvimpam.rpc.Encoder;

/**
 * :NvimpamUnused: the unused definitions ({@link Unused}) of the include tree a buffer belongs
 * to, as the plugin holds it (open buffers as they are, unsaved edits included; the other files
 * as on disk), off Neovim's main loop. With {@code remove}, also what :NvimpamUnused! deletes: per
 * file, the runs of lines as hunks that Lua checks and applies in parts (nvimpam.tree.hunks), each
 * card read again just before to see that it is still the card found.
 */
final class UnusedCall {
  private UnusedCall() {}

  /**
   * {files = [{buf|file, label}], items = [file (1-based), lnum, col, end_col, removable, message,
   * ...] (at most {@code cap}), total, warnings = [file, lnum, col, message, ...], change = the
   * lines to remove, a {@link HunkAnswer} (with {@code remove})}: lines and columns 0-based.
   */
  static Encoder run(IdService svc, IdBuffer b, boolean remove, int cap) {
    IdTree tree = svc.treeOf(b);
    List<IdTree.Member> members = tree.members();
    Unused u = new Unused();
    List<Path> paths = new ArrayList<>();
    long lines = 0;
    for (int i = 0; i < members.size(); i++) {
      IdTree.Member m = members.get(i);
      paths.add(m.path());
      int version = IdTree.version(m);
      int file = i;
      Integer n = IdTree.read(m, (deck, defs) -> {
        u.scan(file, deck, 0, version);
        return deck.lineCount();
      });
      if (n == null) u.includeProblem(i, 0, 0, m.label() + " is not loaded yet");
      else lines += n;
    }
    for (IdTree.Problem p : tree.problems()) {
      if (p.code() != ProblemCode.INCLUDE_CYCLE) u.includeProblem(members.indexOf(p.in()), p.at().line(), p.at().from(), p.message());
    }
    Unused.Result r = u.finish(paths, lines);
    List<Unused.Warning> warnings = new ArrayList<>(r.warnings());
    HunkAnswer change = remove ? new HunkAnswer("unused_lines", members, removal(u, members, r, warnings), List.of()) : null;
    List<Unused.Item> items = r.items();
    int shown = Math.min(cap, items.size());
    return out -> {
      out.packMapHeader(remove ? 5 : 4);
      out.packString("files").packArrayHeader(members.size());
      for (IdTree.Member m : members) {
        out.packMapHeader(2);
        if (m.live() != null) out.packString("buf").packLong(m.live().bufferId());
        else out.packString("file").packString(m.path().toString());
        out.packString("label").packString(m.label());
      }
      out.packString("items").packArrayHeader(6 * shown);
      for (int i = 0; i < shown; i++) {
        Unused.Item it = items.get(i);
        out.packInt(it.file() + 1).packInt(it.line()).packInt(it.col()).packInt(it.end()).packBoolean(it.removable())
            .packString(it.message());
      }
      out.packString("total").packInt(items.size());
      out.packString("warnings").packArrayHeader(4 * warnings.size());
      for (Unused.Warning w : warnings) out.packInt(w.file() + 1).packInt(w.line()).packInt(w.col()).packString(w.message());
      if (remove) {
        out.packString("change").packMapHeader(HunkAnswer.KEYS);
        change.pack(out);
      }
    };
  }

  /**
   * Per file, the runs of lines to remove as hunks (none where nothing goes), each card found again
   * where it was under the buffer's lock (else none and a warning: the buffer changed meanwhile).
   */
  private static List<List<Renumber.Hunk>> removal(Unused u, List<IdTree.Member> members, Unused.Result r,
      List<Unused.Warning> warnings) {
    long[][] runs = Unused.runs(r);
    List<List<Renumber.Hunk>> out = new ArrayList<>();
    byte[][] none = new byte[0][];
    for (int f = 0; f < runs.length; f++) {
      out.add(List.of());
      if (runs[f].length == 0) continue;
      Map<Integer, List<Unused.Item>> cards = new LinkedHashMap<>();
      for (Unused.Item it : r.removable()) {
        if (it.file() == f) cards.computeIfAbsent(it.line(), k -> new ArrayList<>()).add(it);
      }
      IdTree.Member m = members.get(f);
      int version = IdTree.version(m);
      Boolean holds = IdTree.read(m, (deck, defs) -> {
        for (List<Unused.Item> card : cards.values()) {
          long[] keys = card.stream().mapToLong(Unused.Item::key).toArray();
          if (!u.holds(deck, version, card.get(0).line(), card.get(0).lines(), keys)) return false;
        }
        return true;
      });
      if (!Boolean.TRUE.equals(holds)) {
        warnings.add(new Unused.Warning(f, 0, 0, m.label() + " changed while it was read (run it again)"));
        continue;
      }
      List<Renumber.Hunk> hs = new ArrayList<>();
      for (int k = 0; k < runs[f].length; k += 2) hs.add(new Renumber.Hunk((int) runs[f][k], (int) runs[f][k + 1], none));
      out.set(f, hs);
    }
    return out;
  }
}
