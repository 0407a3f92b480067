package org.nvimpam.plugin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.msgpack.core.MessagePacker;
import org.nvimpam.deck.ProblemItems;
import org.nvimpam.ids.IdBuffer;
import org.nvimpam.ids.IdKinds;
import org.nvimpam.ids.IdService;
import org.nvimpam.ids.IdTree;
import org.nvimpam.ids.RenamePlan;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.LuaEntry;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.rpc.ConnectionClosedException;
import org.nvimpam.rpc.Encoder;
import org.nvimpam.rpc.Log;

/**
 * The calls of lua/nvimpam/ids/init.lua on the wire: each reads its arguments, asks the id index
 * ({@link IdService}) and encodes its records for Lua; and the index's checks and root folders,
 * sent to Neovim as they change. {@code args[0]} is always the buffer; the rest as each method
 * says. An id of a named kind (a group) is its title.
 */
final class IdCalls implements IdService.Workspace {
  private static final Log LOG = Log.of(IdCalls.class);

  /** One id call: the buffer it serves and its arguments ({@code args[0]}, the buffer, included). */
  @FunctionalInterface
  interface Call {
    Encoder run(IdCalls calls, IdBuffer b, List<Object> args);
  }

  private final Nvim nvim;
  private final Diagnostics diagnostics;
  private final Supplier<Collection<? extends IdBuffer>> buffers;
  private final Supplier<Settings> settings;
  private final IdService ids = new IdService(this);

  IdCalls(Nvim nvim, Diagnostics diagnostics, Supplier<Collection<? extends IdBuffer>> buffers, Supplier<Settings> settings) {
    this.nvim = nvim;
    this.diagnostics = diagnostics;
    this.buffers = buffers;
    this.settings = settings;
  }

  /** The id index of the live buffers. */
  IdService service() {
    return ids;
  }

  // What the index needs, and where its checks go -----------------------------------------------

  @Override
  public Collection<? extends IdBuffer> buffers() {
    return buffers.get();
  }

  @Override
  public boolean checks() {
    return settings.get().checks();
  }

  @Override
  public int maxDiagnostics() {
    return settings.get().diagnosticsCap();
  }

  @Override
  public void problems(long buf, ProblemItems problems) {
    diagnostics.refs(buf, problems);
  }

  @Override
  public void rootDir(long buf, String dir) {
    try {
      nvim.bufSetVar(new Buffer(buf), LuaEntry.ROOT_DIR, dir);
    } catch (ConnectionClosedException gone) {
      LOG.fine("could not tell buffer " + buf + " its root", gone);
    }
  }

  // The calls -----------------------------------------------------------------------------------

  /** ids_goto (kind, id): [{buf|file, lnum, text}]. */
  Encoder definitions(IdBuffer b, List<Object> args) {
    List<IdService.Hit> hits = ids.definitions(b, key(args, 1));
    return out -> {
      out.packArrayHeader(hits.size());
      for (IdService.Hit h : hits) {
        out.packMapHeader(3);
        packWhere(out, h.in());
        out.packString("lnum").packInt(h.line() + 1);
        packText(out, h.text());
      }
    };
  }

  /** ids_refs (kind, id, max): {items = [{buf|file, lnum, col, text}], total}. */
  Encoder references(IdBuffer b, List<Object> args) {
    long key = key(args, 1);
    int max = (int) Math.min(Integer.MAX_VALUE, Math.max(1, num(args, 3)));
    IdService.References r = ids.references(b, key, max);
    return out -> {
      out.packMapHeader(2);
      out.packString("items").packArrayHeader(r.items().size());
      for (IdService.Hit h : r.items()) {
        out.packMapHeader(4);
        packWhere(out, h.in());
        out.packString("lnum").packInt(h.line() + 1);
        out.packString("col").packInt(h.col() + 1);
        packText(out, h.text());
      }
      out.packString("total").packInt(r.total());
    };
  }

  /** ids_complete (kind, prefix, cap): [{word, menu}]. */
  Encoder complete(IdBuffer b, List<Object> args) {
    String kind = str(args, 1);
    String prefix = str(args, 2);
    int cap = (int) Math.max(1, Math.min(10_000, num(args, 3)));
    List<IdService.Completion> items = ids.complete(b, kind, prefix, cap);
    return out -> {
      out.packArrayHeader(items.size());
      for (IdService.Completion it : items) {
        out.packMapHeader(2);
        out.packString("word").packString(it.word());
        out.packString("menu").packString(it.menu());
      }
    };
  }

  /** ids_outline (): [{lnum, text, kind}]. */
  Encoder outline(IdBuffer b, List<Object> args) {
    List<IdService.OutlineItem> items = ids.outline(b);
    return out -> {
      out.packArrayHeader(items.size());
      for (IdService.OutlineItem it : items) {
        out.packMapHeader(3);
        out.packString("lnum").packInt(it.lnum());
        out.packString("text").packString(it.text());
        out.packString("kind").packString(it.kind());
      }
    };
  }

  /** ids_next (kind): the next free id, nil for a named kind. */
  Encoder nextFree(IdBuffer b, List<Object> args) {
    OptionalLong next = ids.nextFree(b, str(args, 1));
    return out -> {
      if (next.isPresent()) out.packLong(next.getAsLong());
      else out.packNil();
    };
  }

  /**
   * ids_rename (kind, old, new): {files = [{buf|file, label, lines, edits, adds}], defined,
   * refusals, missing}.
   */
  Encoder rename(IdBuffer b, List<Object> args) {
    long ok = key(args, 1);
    int kd = IdKinds.kindOf(ok);
    IdService.Rename r = ids.rename(b, ok, IdKinds.key(kd, id(kd, args.size() > 3 ? args.get(3) : null, 3)));
    return out -> {
      out.packMapHeader(4);
      out.packString("files").packArrayHeader(r.files().size());
      for (IdService.FileRename f : r.files()) {
        out.packMapHeader(5);
        packWhere(out, f.in());
        out.packString("label").packString(f.in().label());
        out.packString("lines").packInt(f.plan().lines());
        packPlan(out, f.plan());
      }
      out.packString("defined").packBoolean(r.defined());
      out.packString("refusals").packArrayHeader(r.refusals().size());
      for (String s : r.refusals()) out.packString(s);
      out.packString("missing").packArrayHeader(r.missing().size());
      for (String s : r.missing()) out.packString(s);
    };
  }

  /** ids_check (): checks the buffer's references now and sends its problems. */
  Encoder check(IdBuffer b, List<Object> args) {
    ids.publish(b);
    return out -> out.packBoolean(true);
  }

  // The encoding --------------------------------------------------------------------------------

  private static void packWhere(MessagePacker out, IdTree.Member m) throws IOException {
    if (m.live() != null) out.packString("buf").packLong(m.live().bufferId());
    else out.packString("file").packString(m.path().toString());
  }

  private static void packText(MessagePacker out, byte[] text) throws IOException {
    out.packString("text").packRawStringHeader(text.length).writePayload(text);
  }

  /**
   * A plan's {@code edits}: a flat {@code [lnum, start_col, end_col, text, old, …]} (0-based, end
   * exclusive), in line order; and its {@code adds}: {@code [lnum, {lines}, …]}, the lines that go
   * after line lnum.
   */
  static void packPlan(MessagePacker out, RenamePlan p) throws IOException {
    int[] at = p.at();
    out.packString("edits").packArrayHeader(5 * p.count());
    for (int i = 0; i < p.count(); i++) {
      out.packInt(at[3 * i]).packInt(at[3 * i + 1]).packInt(at[3 * i + 2]);
      out.packRawStringHeader(p.texts()[i].length).writePayload(p.texts()[i]);
      out.packRawStringHeader(p.olds()[i].length).writePayload(p.olds()[i]);
    }
    out.packString("adds").packArrayHeader(2 * p.addCount());
    for (int i = 0; i < p.addCount(); i++) {
      byte[][] lines = p.adds()[i];
      out.packInt(p.addAt()[i]).packArrayHeader(lines.length);
      for (byte[] l : lines) out.packRawStringHeader(l.length).writePayload(l);
    }
  }

  // The arguments -------------------------------------------------------------------------------

  private static String str(List<Object> args, int i) {
    if (args.size() > i && args.get(i) != null) {
      Object o = args.get(i);
      return o instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(o);
    }
    throw new IllegalArgumentException("nvimpam: argument " + (i + 1) + " is missing");
  }

  private static long num(List<Object> args, int i) {
    return num(args.size() > i ? args.get(i) : null, i);
  }

  /** Argument {@code i} (0-based), {@code o}, as a number. */
  private static long num(Object o, int i) {
    if (o instanceof Number n) return n.longValue();
    if (o instanceof String s) {
      try {
        return Long.parseLong(s.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("nvimpam: '" + s + "' is no number");
      }
    }
    throw new IllegalArgumentException("nvimpam: argument " + (i + 1) + " must be a number");
  }

  /** The key of the kind in {@code args[i]} and the id (a number, or a title) after it. */
  private static long key(List<Object> args, int i) {
    String kind = str(args, i);
    int k = IdKinds.code(kind);
    if (k == 0) throw new IllegalArgumentException("nvimpam: no id kind '" + kind + "'; kinds: "
        + String.join(", ", IdKinds.NAMES.subList(1, IdKinds.NAMES.size())));
    return IdKinds.key(k, id(k, args.size() > i + 1 ? args.get(i + 1) : null, i + 1));
  }

  /** The id of kind {@code k} that argument {@code i}, {@code arg}, gives: a number, or a title. */
  private static int id(int k, Object arg, int i) {
    if (!IdKinds.named(k)) return IdKinds.numberId(k, num(arg, i));
    return IdKinds.titleId(k, arg == null ? "" : (arg instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(arg)));
  }
}
