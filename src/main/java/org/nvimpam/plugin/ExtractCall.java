package org.nvimpam.plugin;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.nvimpam.deck.ProblemCode;
import org.nvimpam.ids.IdBuffer;
import org.nvimpam.ids.IdService;
import org.nvimpam.ids.IdTree;
import org.nvimpam.lines.LineSource;
import org.nvimpam.model.Extract;
import org.nvimpam.model.Renumber;
import org.nvimpam.model.Transform;
import org.nvimpam.rpc.Encoder;

/**
 * :NvimpamExtract: the plan of an {@link Extract} from a buffer's include tree, as Neovim holds
 * the open files and as the others are saved, computed off Neovim's main loop: a {@link
 * HunkAnswer} (the cards' lines removed, the root's INCLU line, and the new file; the lines asked
 * for a page at a time, call {@code extract_lines}), {@code target} (the new file) and {@code
 * cards} (cards, parts, elements, nodes moved); Lua checks and applies it in parts, the new file as
 * a new buffer.
 */
final class ExtractCall {
  private ExtractCall() {}

  /** {@code args}: the buffer, the new file's name, the command's other words ({@code part=IDS}), the range's lines (1-based; 0 none). */
  static Encoder run(IdService ids, IdBuffer b, List<Object> args) {
    String name = args.size() > 1 && args.get(1) instanceof String s ? s : "";
    if (name.isBlank()) throw new IllegalArgumentException("nvimpam: :NvimpamExtract needs the new file: :NvimpamExtract {file} part={ids}");
    int[] parts = null;
    if (args.size() > 2 && args.get(2) instanceof List<?> l) {
      for (Object o : l) {
        String w = String.valueOf(o);
        if (!w.startsWith("part=") || parts != null) throw new IllegalArgumentException("nvimpam: :NvimpamExtract takes {file} and part={ids}, not " + w);
        parts = TransformCall.partIds(w.substring(5));
      }
    }
    long line1 = args.size() > 3 && args.get(3) instanceof Number n ? n.longValue() : 0;
    long line2 = args.size() > 4 && args.get(4) instanceof Number n ? n.longValue() : 0;
    if ((parts == null) == (line1 <= 0)) {
      throw new IllegalArgumentException("nvimpam: :NvimpamExtract takes a range of cards or part={ids}: one of them");
    }
    IdTree tree = ids.treeOf(b);
    List<IdTree.Member> members = tree.members();
    List<HunkAnswer.Refusal> refusals = new ArrayList<>();
    Path rootFile = members.get(0).path();
    Path target = null;
    String include = name;
    if (rootFile == null) {
      refusals.add(refusal("the deck has no file name: the new file has no folder to go in"));
    } else {
      Path dir = rootFile.getParent();
      try {
        target = dir.resolve(name).normalize();
        Path rel = dir.relativize(target);
        if (rel.startsWith("..")) refusals.add(refusal(name + " is not inside the deck's folder " + dir));
        include = rel.toString();
        if (Files.exists(target)) refusals.add(refusal(target + " exists already"));
      } catch (InvalidPathException e) {
        throw new IllegalArgumentException("nvimpam: " + name + " is no file name", e);
      }
    }
    for (IdTree.Problem p : tree.problems()) {
      if (p.code() != ProblemCode.INCLUDE_CYCLE) {
        refusals.add(refusal(p.message() + " (" + p.in().label() + " line " + (p.at().line() + 1) + "): its cards are not known"));
      }
    }
    List<Transform.Source> sources = new ArrayList<>();
    for (IdTree.Member m : members) sources.add(TransformCall.source(m, IdTree.version(m)));
    Extract.Scope scope = parts != null ? new Extract.Parts(parts)
        : new Extract.Lines(Math.max(0, members.indexOf(tree.memberOf(b))), (int) line1 - 1, (int) Math.max(line1, line2) - 1);
    Extract.Result r = Extract.plan(sources, scope, include);
    for (Transform.Note n : r.refusals()) {
      refusals.add(new HunkAnswer.Refusal(n.file() < 0 ? null : members.get(n.file()), n.line(), n.col(), n.message()));
    }
    List<List<Renumber.Hunk>> hunks = new ArrayList<>();
    for (int i = 0; i < members.size(); i++) hunks.add(List.of());
    List<HunkAnswer.NewFile> made = List.of();
    if (refusals.isEmpty()) {
      Extract.Removal[] of = new Extract.Removal[members.size()];
      for (Extract.Removal x : r.removals()) of[x.file()] = x;
      for (int i = 0; i < members.size(); i++) {
        if (of[i] == null && i > 0) continue;
        int n = sources.get(i).read(LineSource::lineCount);
        hunks.set(i, Extract.hunks(n, of[i], i == 0 ? r.inclu() : null, r.incluAt()));
      }
      made = List.of(new HunkAnswer.NewFile(target, include, r.lines().toArray(byte[][]::new)));
    }
    HunkAnswer answer = new HunkAnswer("extract_lines", members, hunks, refusals, made);
    String targetName = target == null ? "" : target.toString();
    return out -> {
      out.packMapHeader(HunkAnswer.KEYS + 2);
      answer.pack(out);
      out.packString("target").packString(targetName);
      out.packString("cards").packArrayHeader(4).packInt(r.cards()).packInt(r.parts()).packInt(r.elements()).packInt(r.nodes());
    };
  }

  private static HunkAnswer.Refusal refusal(String text) {
    return new HunkAnswer.Refusal(null, 0, 0, text);
  }
}
