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
import org.nvimpam.model.Extract;
import org.nvimpam.model.Transform;
import org.nvimpam.rpc.Encoder;

/**
 * :NvimpamExtract: the plan of an {@link Extract} from a buffer's include tree, as Neovim holds
 * the open files and as the others are saved: {@code {files = [{buf|file, label, lines, olds}],
 * root = {buf|file}, inclu, inclu_at, new_lines, target, refusals, cards}}; Lua checks and applies
 * it, the new file as a new buffer.
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
    List<String> refusals = new ArrayList<>();
    Path rootFile = members.get(0).path();
    Path target = null;
    String include = name;
    if (rootFile == null) {
      refusals.add("the deck has no file name: the new file has no folder to go in");
    } else {
      Path dir = rootFile.getParent();
      try {
        target = dir.resolve(name).normalize();
        Path rel = dir.relativize(target);
        if (rel.startsWith("..")) refusals.add(name + " is not inside the deck's folder " + dir);
        include = rel.toString();
        if (Files.exists(target)) refusals.add(target + " exists already");
      } catch (InvalidPathException e) {
        throw new IllegalArgumentException("nvimpam: " + name + " is no file name", e);
      }
    }
    for (IdTree.Problem p : tree.problems()) {
      if (p.code() != ProblemCode.INCLUDE_CYCLE) {
        refusals.add(p.message() + " (" + p.in().label() + " line " + (p.at().line() + 1) + "): its cards are not known");
      }
    }
    List<Transform.Source> sources = new ArrayList<>();
    for (IdTree.Member m : members) sources.add(TransformCall.source(m, IdTree.version(m)));
    Extract.Scope scope = parts != null ? new Extract.Parts(parts)
        : new Extract.Lines(Math.max(0, members.indexOf(tree.memberOf(b))), (int) line1 - 1, (int) Math.max(line1, line2) - 1);
    Extract.Result r = Extract.plan(sources, scope, include);
    for (Transform.Note n : r.refusals()) {
      refusals.add(n.file() < 0 ? n.message() : members.get(n.file()).label() + " line " + (n.line() + 1) + ": " + n.message());
    }
    String targetName = target == null ? "" : target.toString();
    return out -> {
      List<Extract.Removal> files = refusals.isEmpty() ? r.removals() : List.of();
      out.packMapHeader(8);
      out.packString("files").packArrayHeader(files.size());
      for (Extract.Removal x : files) {
        IdTree.Member m = members.get(x.file());
        out.packMapHeader(4);
        HunkAnswer.where(out, m);
        out.packString("label").packString(m.label());
        out.packString("lines").packArrayHeader(x.lines().length);
        for (int l : x.lines()) out.packInt(l);
        out.packString("olds").packArrayHeader(x.old().length);
        for (byte[] o : x.old()) out.packRawStringHeader(o.length).writePayload(o);
      }
      out.packString("root").packMapHeader(2);
      HunkAnswer.where(out, members.get(0));
      out.packString("label").packString(members.get(0).label());
      out.packString("inclu").packRawStringHeader(r.inclu().length).writePayload(r.inclu());
      out.packString("inclu_at").packInt(r.incluAt());
      out.packString("new_lines").packArrayHeader(refusals.isEmpty() ? r.lines().size() : 0);
      if (refusals.isEmpty()) {
        for (byte[] l : r.lines()) out.packRawStringHeader(l.length).writePayload(l);
      }
      out.packString("target").packString(targetName);
      out.packString("refusals").packArrayHeader(refusals.size());
      for (String s : refusals) out.packString(s);
      out.packString("cards").packArrayHeader(4).packInt(r.cards()).packInt(r.parts()).packInt(r.elements()).packInt(r.nodes());
    };
  }
}
