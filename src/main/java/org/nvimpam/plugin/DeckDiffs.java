package org.nvimpam.plugin;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessagePacker;
import org.nvimpam.ids.IdBuffer;
import org.nvimpam.ids.IdService;
import org.nvimpam.ids.IdTree;
import org.nvimpam.lines.LineSource;
import org.nvimpam.model.diff.DeckDiff;
import org.nvimpam.model.diff.DiffTree;

/**
 * :NvimpamDiff: the semantic diff ({@link DeckDiff}) of a buffer's deck, as Neovim holds it (its
 * include files as open buffers show them, else from disk), against a deck file and its include
 * files on disk; as quickfix items on the buffer's tree: changed fields where the new value is,
 * added cards where they are, removed cards where they would be.
 */
final class DeckDiffs {
  private final List<Object[]> files = new ArrayList<>(); // {path, buffer}
  private final Map<Object, Integer> fileIndex = new LinkedHashMap<>();
  private final List<Object[]> items = new ArrayList<>(); // {file index, 0-based line, text}
  private final DeckDiff.Result result;

  private DeckDiffs(DeckDiff.Result result) {
    this.result = result;
  }

  /** Compares the deck of {@code b} (the new side) with {@code other} (the old side); {@code tol} as {@link DeckDiff#compare}. */
  static DeckDiffs of(IdService ids, IdBuffer b, String other, double tol) throws IOException {
    Path old;
    try {
      old = Path.of(other).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("nvimpam: '" + other + "' is no file name");
    }
    IdTree t = ids.treeFrom(b);
    if (!t.problems().isEmpty()) {
      IdTree.Problem p = t.problems().get(0);
      throw new IllegalStateException("nvimpam: " + p.in().label() + ":" + (p.at().line() + 1) + ": " + p.message());
    }
    Map<Path, Long> buffers = new LinkedHashMap<>();
    List<DiffTree.File> mine = new ArrayList<>();
    Path rootPath = t.root().path();
    for (IdTree.Member m : t.members()) {
      LineSource lines = m.live() != null ? m.live().withIds((x, deck) -> RenumberCall.snapshot(deck)) : m.disk().deck();
      if (lines == null) throw new IllegalStateException("nvimpam: " + m.label() + " is not loaded yet; try again");
      int version = org.nvimpam.deck.DeckVersion.readAs(lines, mine.isEmpty() ? -1 : mine.get(0).version());
      String name = m.path() == null ? m.label() : DiffTree.name(rootPath, m.path());
      mine.add(new DiffTree.File(m.path(), name, lines, version));
      if (m.live() != null && m.path() != null) buffers.put(m.path(), m.live().bufferId());
    }
    DiffTree now = new DiffTree(mine);
    DiffTree before;
    try {
      before = DiffTree.read(old);
    } catch (DiffTree.Unreadable e) {
      throw new IllegalStateException("nvimpam: " + e.getMessage());
    }
    DeckDiff.Result r = DeckDiff.compare(DeckDiff.index(before), DeckDiff.index(now), tol);
    DeckDiffs d = new DeckDiffs(r);
    long rootBuf = b.bufferId();
    for (DeckDiff.Change c : r.changed()) {
      for (DeckDiff.FieldChange f : c.fields()) {
        d.item(f.now(), buffers, rootBuf, "changed " + c.what() + " " + f.field() + ": " + shown(f.oldValue()) + " -> "
            + shown(f.newValue()) + " (was " + f.old().file() + ":" + (f.old().line() + 1) + ")");
      }
    }
    for (DeckDiff.Card c : r.added()) d.item(c.place(), buffers, rootBuf, "added " + c.what());
    for (DeckDiff.Card c : r.removed()) {
      d.item(c.near(), buffers, rootBuf, "removed " + c.what() + " (was " + c.place().file() + ":" + (c.place().line() + 1) + ")");
    }
    return d;
  }

  private static String shown(String v) {
    return v.isEmpty() ? "(blank)" : v;
  }

  private void item(DeckDiff.Place p, Map<Path, Long> buffers, long rootBuf, String text) {
    Object key = p.path() == null ? "" : p.path();
    Integer fi = fileIndex.get(key);
    if (fi == null) {
      fi = files.size();
      fileIndex.put(key, fi);
      Long buf = p.path() == null ? Long.valueOf(rootBuf) : buffers.get(p.path());
      files.add(new Object[] {p.path() == null ? "" : p.path().toString(), buf == null ? 0L : buf});
    }
    items.add(new Object[] {fi, p.line(), text});
  }

  /**
   * {files = [{path, buf}], items = [file (1-based), lnum (0-based), text, ...], changed, fields,
   * added, removed, moved, old_cards, new_cards}.
   */
  void pack(MessagePacker out) throws IOException {
    out.packMapHeader(9);
    out.packString("files").packArrayHeader(files.size());
    for (Object[] f : files) {
      out.packMapHeader(2);
      out.packString("path").packString((String) f[0]);
      out.packString("buf").packLong((Long) f[1]);
    }
    out.packString("items").packArrayHeader(3 * items.size());
    for (Object[] it : items) out.packInt((Integer) it[0] + 1).packInt((Integer) it[1]).packString((String) it[2]);
    int fields = 0;
    for (DeckDiff.Change c : result.changed()) fields += c.fields().size();
    out.packString("changed").packInt(result.changed().size());
    out.packString("fields").packInt(fields);
    out.packString("added").packInt(result.added().size());
    out.packString("removed").packInt(result.removed().size());
    out.packString("moved").packInt(result.moved().size());
    out.packString("old_cards").packInt(result.oldCards());
    out.packString("new_cards").packInt(result.newCards());
  }
}
