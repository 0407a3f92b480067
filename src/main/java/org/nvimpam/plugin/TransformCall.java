package org.nvimpam.plugin;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.msgpack.core.MessagePacker;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IdBuffer;
import org.nvimpam.ids.IdService;
import org.nvimpam.ids.IdTree;
import org.nvimpam.lines.LineSource;
import org.nvimpam.model.Renumber;
import org.nvimpam.model.Transform;
import org.nvimpam.rpc.Encoder;

/**
 * :NvimpamTransform: the plan of a {@link Transform} of the nodes of a buffer's include tree, as
 * Neovim holds the open files and as the others are saved, computed off Neovim's main loop. The
 * answer: a {@link HunkAnswer} (its new lines asked for a page at a time, call
 * {@code transform_lines}), {@code untouched = [{buf|file, label, lnum, text}], nodes, reversed};
 * Lua checks the buffers and applies it in parts.
 */
final class TransformCall {
  private TransformCall() {}

  /**
   * {@code args}: the buffer, the command's words ({@code part=IDS} among them), the range's first
   * and last line (1-based; 0: none), and whether {@code !} was given.
   */
  static Encoder run(IdService ids, IdBuffer b, List<Object> args) {
    List<String> words = new ArrayList<>();
    if (args.size() > 1 && args.get(1) instanceof List<?> l) {
      for (Object o : l) words.add(String.valueOf(o));
    }
    long line1 = args.size() > 2 && args.get(2) instanceof Number n ? n.longValue() : 0;
    long line2 = args.size() > 3 && args.get(3) instanceof Number n ? n.longValue() : 0;
    boolean bang = args.size() > 4 && Boolean.TRUE.equals(args.get(4));
    int[] parts = null;
    List<String> op = new ArrayList<>();
    for (String w : words) {
      if (!w.startsWith("part=")) {
        op.add(w);
        continue;
      }
      if (parts != null) throw new IllegalArgumentException("nvimpam: part= given twice");
      parts = partIds(w.substring(5));
    }
    if (parts != null && line1 > 0) throw new IllegalArgumentException("nvimpam: a range and part=: give one of them");
    Transform.Op o;
    try {
      o = Transform.parse(op);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("nvimpam: " + e.getMessage(), e);
    }
    IdTree tree = ids.treeOf(b);
    List<IdTree.Member> members = tree.members();
    List<Transform.Source> sources = new ArrayList<>();
    for (IdTree.Member m : members) sources.add(source(m, IdTree.version(m)));
    Transform.Scope scope;
    if (parts != null) {
      scope = new Transform.Parts(parts, bang);
    } else if (line1 > 0) {
      int at = members.indexOf(tree.memberOf(b));
      scope = new Transform.Lines(Math.max(at, 0), (int) line1 - 1, (int) Math.max(line1, line2) - 1);
    } else {
      scope = new Transform.All();
    }
    List<HunkAnswer.Refusal> refusals = new ArrayList<>();
    for (IdTree.Problem p : tree.problems()) {
      if (p.code() != ProblemCode.INCLUDE_CYCLE) {
        refusals.add(new HunkAnswer.Refusal(null, 0, 0, p.message() + " (" + p.in().label() + " line " + (p.at().line() + 1)
            + "): its nodes and elements are not known"));
      }
    }
    Transform.Result r = Transform.plan(sources, scope, o);
    for (Transform.Note n : r.refusals()) {
      refusals.add(new HunkAnswer.Refusal(n.file() < 0 ? null : members.get(n.file()), n.line(), n.col(), n.message()));
    }
    List<List<Renumber.Hunk>> hunks = new ArrayList<>();
    for (int i = 0; i < members.size(); i++) hunks.add(List.of());
    if (refusals.isEmpty()) {
      for (Transform.FileEdits f : r.files()) {
        hunks.set(f.file(), sources.get(f.file()).read(src -> Transform.hunks(src, f.edits())));
      }
    }
    HunkAnswer answer = new HunkAnswer("transform_lines", members, hunks, refusals);
    return out -> {
      out.packMapHeader(HunkAnswer.KEYS + 3);
      answer.pack(out);
      out.packString("untouched").packArrayHeader(r.untouched().size());
      for (Transform.Note n : r.untouched()) {
        IdTree.Member m = members.get(n.file());
        out.packMapHeader(4);
        HunkAnswer.where(out, m);
        out.packString("label").packString(m.label());
        out.packString("lnum").packInt(n.line() + 1);
        out.packString("text").packString(n.message());
      }
      out.packString("nodes").packInt(r.nodes());
      out.packString("reversed").packInt(r.reversed());
    };
  }

  static int[] partIds(String list) {
    List<Integer> ids = new ArrayList<>();
    for (String s : list.replace("{", "").replace("}", "").split(",")) {
      if (s.isBlank()) continue;
      try {
        int id = Integer.parseInt(s.trim());
        if (id < 1) throw new NumberFormatException();
        ids.add(id);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("nvimpam: part=" + list + ": \"" + s + "\" is no part id");
      }
    }
    if (ids.isEmpty()) throw new IllegalArgumentException("nvimpam: part= names no part (part=10,11)");
    return ids.stream().mapToInt(Integer::intValue).toArray();
  }

  static Transform.Source source(IdTree.Member m, int version) {
    return new Transform.Source() {
      @Override
      public String label() {
        return m.label();
      }

      @Override
      public int version() {
        return version;
      }

      @Override
      public <T> T read(Function<LineSource, T> f) {
        T t = IdTree.read(m, (deck, defs) -> f.apply(deck));
        if (t == null) throw new IllegalStateException("nvimpam: " + m.label() + " is not loaded yet (run it again)");
        return t;
      }
    };
  }
}
