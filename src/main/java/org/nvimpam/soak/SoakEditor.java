package org.nvimpam.soak;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.nvimpam.nvim.Await;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.nvim.Window;

/**
 * Makes random edits the way a user and a script would: lines inserted, deleted and replaced
 * through the API in any buffer (shown or hidden), normal-mode edits in the current window, undo
 * and redo, :w, :edit!, moving between windows and buffers. Inserts and deletes are balanced, so
 * that the decks keep their size on average and the JVM's heap can be compared over the run.
 */
final class SoakEditor {
  private static final String[] LINES = {
    "NODE  /     9999              0.              0.              0.",
    "SHELL /     9999        1       1       2       3       4",
    "PART  /        1SHELL",
    "NAME something",
    "END_PART",
    "$ a comment",
    "",
    "        END",
    "MATER /        1      1",
    "GROUP / ",
    "        ELE 1",
    "  1.0 2.0 3.0",
    "CR ended\r",
    "caf\u00e9 \u00ff junk",
  };
  private static final int MIN_LINES = 200;

  private final Nvim nvim;
  private final List<Buffer> buffers;
  private final List<Window> windows;
  private final Random r;
  private final Map<String, Integer> counts = new TreeMap<>();

  SoakEditor(Nvim nvim, List<Buffer> buffers, List<Window> windows, long seed) {
    this.nvim = nvim;
    this.buffers = buffers;
    this.windows = windows;
    this.r = new Random(seed);
  }

  /** How many edits of each kind were made. */
  Map<String, Integer> counts() {
    return counts;
  }

  /** Makes edit number {@code i} (counted from 1). */
  void edit(int i) {
    if (i % 250 == 0) {
      reload();
    } else if (i % 100 == 0) {
      write();
    } else if (i % 20 == 0) {
      undoOrRedo();
    } else if (i % 37 == 0) {
      moveAround();
    } else if (r.nextInt(20) == 0) {
      normalMode();
    } else {
      lines();
    }
  }

  private void count(String kind) {
    counts.merge(kind, 1, Integer::sum);
  }

  private Buffer anyBuffer() {
    return buffers.get(r.nextInt(buffers.size()));
  }

  private Window anyWindow() {
    return windows.get(r.nextInt(windows.size()));
  }

  private void lines() {
    Buffer b = anyBuffer();
    int n = Math.toIntExact(Await.call(nvim.bufLineCount(b), "an edit of the soak"));
    int at = r.nextInt(n + 1);
    int kind = r.nextInt(5);
    if (kind <= 1 || n < MIN_LINES) { // insert
      List<byte[]> add = randomLines(1 + r.nextInt(3));
      setLines(b, at, at, add);
      count("insert");
    } else if (kind <= 3) { // delete as many as an insert adds, on average
      int end = Math.min(n, at + 1 + r.nextInt(3));
      setLines(b, Math.min(at, n - 1), end, List.of());
      count("delete");
    } else {
      int line = Math.min(at, n - 1);
      setLines(b, line, line + 1, randomLines(1));
      count("replace");
    }
  }

  private List<byte[]> randomLines(int n) {
    List<byte[]> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(LINES[r.nextInt(LINES.length)].getBytes(StandardCharsets.ISO_8859_1));
    }
    return out;
  }

  private void setLines(Buffer b, int start, int end, List<byte[]> lines) {
    Await.call(nvim.call("nvim_buf_set_lines", out -> {
      out.packArrayHeader(5);
      nvim.writeBuffer(out, b);
      out.packInt(start).packInt(end).packBoolean(false);
      out.packArrayHeader(lines.size());
      for (byte[] l : lines) {
        out.packRawStringHeader(l.length).writePayload(l);
      }
    }, in -> {
      in.skipValue();
      return null;
    }), "an edit of the soak");
  }

  /**
   * A normal-mode edit at a random line of the current window. On a closed fold dd takes the whole
   * fold, so only size-neutral keys are used: ddP cuts and puts back (a big delete and insert for
   * the JVM), the others change one line.
   */
  private void normalMode() {
    long n = ((Number) Await.call(nvim.eval("line('$')"), "an edit of the soak")).longValue();
    long line = 1 + r.nextInt((int) n);
    String[] keys = {"ddP", "I$ \u001b", "A x\u001b", "~", "x"};
    String k = keys[r.nextInt(keys.length)];
    Await.call(nvim.command("silent! normal! " + line + "G" + k), "an edit of the soak");
    count("normal");
  }

  private void undoOrRedo() {
    boolean undo = r.nextInt(3) != 0;
    Await.call(nvim.command(undo ? "silent! undo" : "silent! redo"), "an edit of the soak");
    count(undo ? "undo" : "redo");
  }

  /** Another window becomes current; now and then it shows another buffer. */
  private void moveAround() {
    Window w = anyWindow();
    setCurrent(w);
    if (r.nextBoolean()) {
      Await.call(nvim.command("buffer " + anyBuffer().id()), "an edit of the soak");
      count("buffer switch");
    } else {
      count("window switch");
    }
  }

  private void write() {
    Buffer b = anyBuffer();
    Await.call(nvim.execLua("vim.api.nvim_buf_call(..., function() vim.cmd('silent write') end)", out -> {
      out.packArrayHeader(1);
      nvim.writeBuffer(out, b);
    }), "an edit of the soak");
    count(":w");
  }

  /** :edit! in a window: its buffer goes back to the file as last written. */
  private void reload() {
    setCurrent(anyWindow());
    Await.call(nvim.command("edit!"), "an edit of the soak");
    count(":edit!");
  }

  private void setCurrent(Window w) {
    Await.call(nvim.call("nvim_set_current_win", out -> {
      out.packArrayHeader(1);
      nvim.writeWindow(out, w);
    }, in -> {
      in.skipValue();
      return null;
    }), "an edit of the soak");
  }
}
