package org.nvimpam.plugin;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessagePacker;
import org.nvimpam.ids.IdBuffer;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdService;
import org.nvimpam.ids.IdTree;
import org.nvimpam.ids.IntList;
import org.nvimpam.ids.IncludeFiles;
import org.nvimpam.lines.LineSource;
import org.nvimpam.model.FileBytes;
import org.nvimpam.model.Merge;
import org.nvimpam.model.Renumber;
import org.nvimpam.rpc.Encoder;

/**
 * :NvimpamMerge: the headless {@code merge} ({@link Merge#plan}) of a buffer's deck with other
 * decks, each tree as the plugin holds it (open files as their buffers hold them, unsaved edits
 * included; the others as on disk), off Neovim's main loop; nothing is written: Lua makes the
 * output files new buffers, their lines asked for a page at a time ({@link Pages}, call {@code merge_lines}: a large answer
 * would hold Neovim's main loop while it is decoded). The answer: {@code {token, files = [{name,
 * count, eol, buf}], notes = [{file,
 * lnum, text}], refusals = [{file|buf, lnum, col, text}]}}: {@code buf} the buffer the file comes
 * from, if any (its 'fileformat'), {@code lnum} 1-based (0: none); the notes and refusals are the
 * lines the headless merge prints, without their {@code FILE:LINE:} (paths shown from {@code cwd}).
 */
final class MergeCall {
  private MergeCall() {}

  /**
   * {@code args}: the buffer (the first deck), OUTDIR, the other decks, the offset words ({@code
   * auto}, {@code KIND=N}), Neovim's working folder; paths absolute.
   */
  static Encoder run(IdService ids, IdBuffer b, List<Object> args) throws IOException {
    if (args.size() < 5 || !(args.get(1) instanceof String outDir) || !(args.get(2) instanceof List<?> decks)
        || !(args.get(3) instanceof List<?> words) || !(args.get(4) instanceof String cwd)) {
      throw new IllegalArgumentException("merge takes a buffer, OUTDIR, the decks, the offsets and the working folder");
    }
    Map<Integer, Long> steps = new HashMap<>();
    for (Object o : words) {
      String s = String.valueOf(o);
      if (s.trim().equals("auto")) continue;
      Renumber.Change c;
      try {
        c = Merge.step(s);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("nvimpam: offset=" + e.getMessage(), e);
      }
      if (steps.put(c.kind(), c.amount()) != null) throw new IllegalArgumentException("nvimpam: " + IdKinds.name(c.kind()) + " is given twice");
    }
    if (b.file() == null) throw new IllegalArgumentException("nvimpam: the buffer has no file: a deck to merge is a file");
    List<IdTree> trees = new ArrayList<>();
    trees.add(ids.treeFrom(b));
    for (Object o : decks) {
      Path p = path(String.valueOf(o));
      try {
        trees.add(ids.treeAt(p));
      } catch (IncludeFiles.Unreadable e) {
        throw new IllegalArgumentException("nvimpam: " + p + " " + e.getMessage(), e);
      }
    }
    if (trees.size() < 2) throw new IllegalArgumentException("nvimpam: :NvimpamMerge needs another deck to merge this one with");
    List<Merge.Input> inputs = new ArrayList<>();
    for (IdTree t : trees) inputs.add(input(t));
    Merge m = new Merge(new Merge.Options(List.of(), path(outDir), steps, PlanThreads.count()),
        null);
    Merge.Plan plan = m.plan(inputs);
    Path here = path(cwd);
    List<Merge.Note> notes = Merge.notes(plan.result(), here);
    List<Pending> files = new ArrayList<>();
    for (Merge.Produced f : plan.files()) files.add(Pending.of(f.bytes()));
    long token = Pages.hold("merge_lines", files); // one merge at a time: an earlier one's pages are no longer fetched
    return out -> {
      out.packMapHeader(4);
      out.packString("token").packLong(token);
      out.packString("files").packArrayHeader(plan.files().size());
      for (int k = 0; k < files.size(); k++) {
        Merge.Produced f = plan.files().get(k);
        IdTree.Member from = trees.get(f.deck()).members().get(f.file());
        out.packMapHeader(from.live() != null ? 4 : 3);
        out.packString("name").packString(f.target().toString());
        out.packString("count").packInt(files.get(k).count());
        out.packString("eol").packBoolean(files.get(k).eol());
        if (from.live() != null) out.packString("buf").packLong(from.live().bufferId());
      }
      out.packString("notes").packArrayHeader(notes.size());
      for (Merge.Note n : notes) {
        out.packMapHeader(3);
        out.packString("file").packString(n.file().toString());
        out.packString("lnum").packInt(n.line() + 1);
        out.packString("text").packString(n.text());
      }
      List<Renumber.Refusal> refusals = plan.result().refusals();
      out.packString("refusals").packArrayHeader(refusals.size());
      for (Renumber.Refusal x : refusals) {
        out.packMapHeader(x.file() == null ? 1 : 4);
        if (x.file() != null) {
          where(out, x.file(), trees);
          out.packString("lnum").packInt(x.line() + 1);
          out.packString("col").packInt(x.col() + 1);
        }
        out.packString("text").packString(x.message());
      }
    };
  }

  /** An output file's bytes and where its lines start ({@code count + 1} offsets, each after a line feed). */
  private record Pending(byte[] bytes, int[] starts, int count, boolean eol) implements Pages.Source {
    @Override
    public void pack(MessagePacker out, int i) throws IOException {
      int s = starts[i];
      int e = starts[i + 1] - 1;
      out.packRawStringHeader(e - s).writePayload(bytes, s, e - s);
    }

    static Pending of(byte[] a) {
      IntList starts = new IntList();
      starts.add(0);
      for (int i = 0; i < a.length; i++) {
        if (a[i] == '\n') starts.add(i + 1);
      }
      boolean eol = starts.a[starts.size - 1] == a.length;
      if (!eol) starts.add(a.length + 1);
      int count = starts.size - 1;
      return new Pending(a, java.util.Arrays.copyOf(starts.a, starts.size), count, eol);
    }
  }

  private static Path path(String s) {
    try {
      return Path.of(s).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("nvimpam: " + s + " is no file name", e);
    }
  }

  /** A refusal's place: the buffer holding its file, else the file. */
  private static void where(MessagePacker out, Path file, List<IdTree> trees) throws IOException {
    for (IdTree t : trees) {
      for (IdTree.Member m : t.members()) {
        if (m.live() != null && file.equals(m.path())) {
          out.packString("buf").packLong(m.live().bufferId());
          return;
        }
      }
    }
    out.packString("file").packString(file.toString());
  }

  /** A tree's files for the merge: live buffers' lines copied as they are now, files as read; its include problems. */
  private static Merge.Input input(IdTree t) throws IOException {
    List<Merge.Source> files = new ArrayList<>();
    for (IdTree.Member m : t.members()) {
      LineSource lines = m.live() != null ? m.live().withIds((x, deck) -> RenumberCall.snapshot(deck)) : m.disk().deck();
      if (lines == null) throw new IllegalArgumentException("nvimpam: " + m.label() + " is not loaded yet (run it again)");
      // a buffer is written with its last line ended (as 'fixeol' does); a file keeps how it ends
      boolean eol = m.live() != null || FileBytes.lastTerminated(m.path(), java.nio.file.Files.size(m.path()));
      files.add(new Merge.Source(m.path(), lines, IdTree.version(m), eol));
    }
    List<Renumber.Refusal> problems = new ArrayList<>();
    for (IdTree.Problem p : t.problems()) {
      problems.add(new Renumber.Refusal(p.in().path(), p.at().line(), p.at().from(), p.message()));
    }
    return new Merge.Input(files, problems);
  }
}
