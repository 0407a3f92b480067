package org.nvimpam.plugin;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessagePacker;
import org.nvimpam.deck.Deck;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IdBuffer;
import org.nvimpam.ids.IdService;
import org.nvimpam.ids.IdTree;
import org.nvimpam.lines.LineSource;
import org.nvimpam.lines.Lines;
import org.nvimpam.model.Renumber;
import org.nvimpam.rpc.Encoder;

/**
 * :NvimpamOffset and :NvimpamRenumber: the changes of {@link Renumber#plan} on the include tree
 * of a buffer, its open files as their buffers hold them and the others as on disk, computed off
 * Neovim's main loop; Lua checks the buffers and applies the hunks, their new lines asked for a
 * page at a time (call {@code renumber_lines}). The answer: a {@link HunkAnswer} (its files also
 * when refused: Lua checks the buffers they would change) and {@code changed}.
 */
final class RenumberCall {
  private RenumberCall() {}

  /**
   * {@code args}: the buffer, the kind, the amount, dense (renumber from the amount, else offset by
   * it), the scope: {} the whole tree, {from, to} the cards of the buffer's lines [from, to),
   * {parts = {ids}}.
   */
  static Encoder run(IdService ids, IdBuffer b, List<Object> args) throws IOException {
    if (args.size() < 5 || !(args.get(1) instanceof String kind) || !(args.get(2) instanceof Number amount)
        || !(args.get(3) instanceof Boolean dense)) {
      throw new IllegalArgumentException("renumber takes a buffer, a kind, an amount, dense and a scope");
    }
    Renumber.Change change;
    try {
      change = Renumber.change(kind, amount.longValue(), dense);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("nvimpam: " + e.getMessage(), e);
    }
    IdTree t = ids.treeOf(b);
    List<IdTree.Member> members = t.members();
    List<String> refusals = new ArrayList<>();
    for (IdTree.Problem p : t.problems()) {
      if (p.code() == ProblemCode.INCLUDE_CYCLE) continue;
      refusals.add(p.in().label() + " line " + (p.at().line() + 1) + ": " + p.message()
          + " (its ids could not be renumbered)");
    }
    List<Renumber.Source> sources = new ArrayList<>();
    for (IdTree.Member m : members) {
      LineSource lines = m.live() != null ? m.live().withIds((x, deck) -> snapshot(deck)) : m.disk().deck();
      if (lines == null) throw new IllegalArgumentException("nvimpam: " + m.label() + " is not loaded yet (run it again)");
      sources.add(new Renumber.Source(m.path(), lines, IdTree.version(m)));
    }
    Renumber.Scope scope = scope(args.get(4), t.memberOf(b), members);
    Renumber r = new Renumber(new Renumber.Options(List.of(change), null, false,
        PlanThreads.count()), null);
    Renumber.Plan plan;
    try {
      plan = r.plan(sources, scope);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("nvimpam: " + e.getMessage(), e);
    }
    List<HunkAnswer.Refusal> refused = new ArrayList<>();
    for (String s : refusals) refused.add(new HunkAnswer.Refusal(null, 0, 0, s));
    for (Renumber.Refusal x : plan.refusals()) {
      refused.add(new HunkAnswer.Refusal(x.source() < 0 ? null : members.get(x.source()), x.line(), x.col(), x.message()));
    }
    long changed = plan.changed()[0];
    HunkAnswer answer = new HunkAnswer("renumber_lines", members, plan.hunks(), refused);
    return out -> {
      out.packMapHeader(HunkAnswer.KEYS + 1);
      answer.pack(out);
      out.packString("changed").packLong(changed);
    };
  }

  /**
   * A buffer's lines as they are now, for worker threads that must not hold its lock: a deck's
   * snapshot (its line index copied, 8 bytes a line, where a copy of a 10M-line buffer's bytes took
   * 600 MB of heap), else a copy.
   */
  static LineSource snapshot(LineSource d) {
    if (d instanceof Deck deck) return deck.snapshot();
    int n = d.lineCount();
    long bytes = 0;
    for (int i = 0; i < n; i++) bytes += d.length(i);
    Lines.Builder b = new Lines.Builder(n, (int) Math.min(Integer.MAX_VALUE - 16, bytes));
    for (int i = 0; i < n; i++) b.add(d.bytes(i), d.start(i), d.length(i));
    return b.build();
  }

  private static Renumber.Scope scope(Object o, IdTree.Member of, List<IdTree.Member> members) {
    if (!(o instanceof Map<?, ?> m) || m.isEmpty()) return Renumber.Scope.ALL;
    if (m.get("parts") instanceof List<?> l) {
      int[] parts = new int[l.size()];
      for (int i = 0; i < parts.length; i++) {
        if (!(l.get(i) instanceof Number n) || n.longValue() < 1 || n.longValue() > Integer.MAX_VALUE) {
          throw new IllegalArgumentException("nvimpam: part= takes part ids, not " + l.get(i));
        }
        parts[i] = n.intValue();
      }
      return new Renumber.Scope(-1, 0, 0, parts);
    }
    if (m.get("from") instanceof Number from && m.get("to") instanceof Number to) {
      int i = members.indexOf(of);
      if (i < 0) throw new IllegalArgumentException("nvimpam: the buffer is no file of its tree");
      return new Renumber.Scope(i, from.intValue(), to.intValue(), null);
    }
    throw new IllegalArgumentException("nvimpam: a scope is {}, {from, to} or {parts}");
  }
}
