package org.nvimpam.nvim;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.msgpack.core.MessagePacker;

/**
 * An error as it crosses between the JVM and lua/nvimpam: a map {@code {code=, message=}} plus, for
 * a failing fold, {@code fold=N, of=M, lines={S, E}, strategy=}. Lua reads the fields, never the
 * message text; lua/nvimpam/host/init.lua builds the same shape for the errors it raises itself, and
 * lua/nvimpam/contract.properties lists the keys and codes both sides use.
 *
 * @param fold 1-based index of the failing fold in plan order, 0 when no single fold failed
 * @param of number of folds of the plan, 0 when unknown
 * @param firstLine first line (1-based) of the failing fold, 0 when none
 * @param lastLine last line of the failing fold, 0 when none
 * @param strategy the strategy that failed, or null
 */
public record ErrorValue(Code code, String message, int fold, int of, int firstLine, int lastLine, String strategy) {
  /** The keys of the map, in the order they are written. */
  public static final List<String> KEYS = List.of("code", "message", "fold", "of", "lines", "strategy");

  /** What went wrong, as the Lua side tells it apart. */
  public enum Code {
    /** A command got arguments it cannot use (a bad buffer number, an unknown strategy). */
    BAD_ARGUMENT,
    /** A fold plan could not be applied; fold, of and lines name the fold when known. */
    FOLD_FAILED,
    /** A call into Neovim passed its deadline. */
    TIMEOUT,
    /** The JVM's heap was too small for the work. */
    OUT_OF_MEMORY,
    /** Anything else; the message says what. */
    FAILED;

    /** The name on the wire: "bad_argument", … */
    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public static ErrorValue of(Code code, String message) {
    return new ErrorValue(code, message, 0, 0, 0, 0, null);
  }

  public void pack(MessagePacker out) throws IOException {
    boolean foldKnown = fold > 0;
    out.packMapHeader(2 + (foldKnown ? 3 : 0) + (strategy != null ? 1 : 0));
    out.packString("code").packString(code.wire());
    out.packString("message").packString(message == null ? "" : message);
    if (foldKnown) {
      out.packString("fold").packInt(fold);
      out.packString("of").packInt(of);
      out.packString("lines").packArrayHeader(2).packInt(firstLine).packInt(lastLine);
    }
    if (strategy != null) {
      out.packString("strategy").packString(strategy);
    }
  }

  /** Reads the map form (as decoded by {@link Decoders#object}); unknown codes read as FAILED. */
  public static ErrorValue from(Map<?, ?> m) {
    Code code = Code.FAILED;
    if (m.get("code") instanceof String s) {
      for (Code c : Code.values()) {
        if (c.wire().equals(s)) {
          code = c;
        }
      }
    }
    int first = 0;
    int last = 0;
    if (m.get("lines") instanceof List<?> l && l.size() == 2 && l.get(0) instanceof Number a
        && l.get(1) instanceof Number b) {
      first = a.intValue();
      last = b.intValue();
    }
    return new ErrorValue(code, String.valueOf(m.get("message")), number(m.get("fold")), number(m.get("of")), first,
        last, m.get("strategy") instanceof String s ? s : null);
  }

  private static int number(Object o) {
    return o instanceof Number n ? n.intValue() : 0;
  }
}
