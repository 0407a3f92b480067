package org.nvimpam.testutil;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.msgpack.core.MessageUnpacker;
import org.nvimpam.nvim.Decoders;
import org.nvimpam.nvim.Encoders;
import org.nvimpam.nvim.ExtTypes;
import org.nvimpam.nvim.Nvim;

/**
 * A UI attached to a test's Neovim over RPC ({@code nvim_ui_attach} with {@code ext_linegrid},
 * {@code ext_hlstate} and {@code rgb}), which keeps the screen Neovim draws: the text of every
 * cell and the highlight group names it was drawn with. Neovim batches the events of one redraw
 * into {@code redraw} notifications and ends each batch with {@code flush}; only then is the grid
 * a finished picture, so tests read {@link Snapshot}s taken at flushes, never the grid while events
 * are being applied.
 *
 * <p>Events handled (others, such as {@code mode_change} or {@code win_viewport}, are ignored):
 * {@code grid_resize}, {@code grid_line} (cells {@code [text, hl_id?, repeat?]}: an omitted
 * {@code hl_id} repeats the previous cell's, within one event), {@code grid_clear}, {@code
 * grid_scroll} (the rows scrolled in keep stale content until Neovim redraws them, as in a real
 * UI), {@code grid_cursor_goto}, {@code hl_attr_define} (its {@code info} array names the groups:
 * {@code kind = "syntax"} items carry {@code hi_name}, {@code kind = "ui"} items {@code ui_name}
 * and {@code hi_name}; a combined attribute lists every part), {@code default_colors_set} and
 * {@code flush}. Without {@code ext_multigrid} everything is drawn on grid 1.
 */
public final class Screen {
  /** How long {@link #expect} and {@link #firstFlushAfter} wait by default. */
  public static final long WAIT_MS = 10_000;

  /** An attribute of {@code hl_attr_define}: its RGB attributes and the groups it stands for. */
  public record Attr(int id, Map<String, Object> rgb, List<String> groups, List<?> info) {
    static final Attr NONE = new Attr(0, Map.of(), List.of(), List.of());
  }

  /** The screen as it was at one flush. */
  public static final class Snapshot {
    private final long seq;
    private final int width;
    private final int height;
    private final String[][] text;
    private final int[][] hl;
    private final Map<Integer, Attr> attrs;
    private final int cursorRow;
    private final int cursorCol;

    private Snapshot(long seq, int width, int height, String[][] text, int[][] hl,
        Map<Integer, Attr> attrs, int cursorRow, int cursorCol) {
      this.seq = seq;
      this.width = width;
      this.height = height;
      this.text = text;
      this.hl = hl;
      this.attrs = attrs;
      this.cursorRow = cursorRow;
      this.cursorCol = cursorCol;
    }

    /** The number of the flush this is (1 for the first). */
    public long seq() {
      return seq;
    }

    public int width() {
      return width;
    }

    public int height() {
      return height;
    }

    public int cursorRow() {
      return cursorRow;
    }

    public int cursorCol() {
      return cursorCol;
    }

    /** The text of screen row {@code row} (0-based), all {@link #width} cells. */
    public String text(int row) {
      checkRow(row);
      StringBuilder b = new StringBuilder();
      for (String s : text[row]) b.append(s);
      return b.toString();
    }

    /** The row's text without trailing blanks. */
    public String trimmed(int row) {
      return text(row).stripTrailing();
    }

    /** The first screen row whose text starts with {@code prefix}, or -1. */
    public int rowStartingWith(String prefix) {
      for (int r = 0; r < height; r++) {
        if (text(r).startsWith(prefix)) return r;
      }
      return -1;
    }

    /** The attribute id of a cell (0-based row and column); 0 is the default attribute. */
    public int hlId(int row, int col) {
      checkCell(row, col);
      return hl[row][col];
    }

    /**
     * The highlight groups a cell was drawn with (0-based row and column): the {@code hi_name}s of
     * its attribute's {@code info}, in Neovim's order (a combined attribute lists the groups it
     * combines, the one below first); a {@code ui} item without a {@code hi_name} gives its {@code
     * ui_name}. Empty for the default attribute.
     */
    public List<String> groupsAt(int row, int col) {
      return attr(hlId(row, col)).groups();
    }

    /** Whether {@code group} is among {@link #groupsAt} of the cell. */
    public boolean has(int row, int col, String group) {
      return groupsAt(row, col).contains(group);
    }

    /** The RGB attributes of a cell's attribute (e.g. {@code background}, {@code bold}). */
    public Map<String, Object> rgbAt(int row, int col) {
      return attr(hlId(row, col)).rgb();
    }

    /** The attribute of a cell, with the raw {@code info} of its {@code hl_attr_define}. */
    public Attr attrAt(int row, int col) {
      return attr(hlId(row, col));
    }

    private Attr attr(int id) {
      return id == 0 ? Attr.NONE : attrs.getOrDefault(id, Attr.NONE);
    }

    /**
     * The groups of a row as runs of cells with the same groups, 1-based screen columns:
     * {@code "1-8 NvimpamKeyword | 9-16 NvimpamCellOdd | 17-32 NvimpamCellEven+CursorLine"}; cells
     * drawn with the default attribute are left out. For assertion messages, and for assertions
     * on a whole row.
     */
    public String groupsOf(int row) {
      checkRow(row);
      List<String> runs = new ArrayList<>();
      int c = 0;
      while (c < width) {
        List<String> g = groupsAt(row, c);
        int end = c;
        while (end + 1 < width && groupsAt(row, end + 1).equals(g)) end++;
        if (!g.isEmpty()) runs.add((c + 1) + "-" + (end + 1) + " " + String.join("+", g));
        c = end + 1;
      }
      return String.join(" | ", runs);
    }

    /** Screen columns (1-based) {@code from}..{@code to} of a row, with their groups. */
    public String describe(int row, int from, int to) {
      StringBuilder b = new StringBuilder("row " + row + " cols " + from + "-" + to + " '");
      for (int c = from - 1; c < Math.min(to, width); c++) b.append(text[row][c]);
      return b.append("' groups ").append(groupsAt(row, from - 1)).toString();
    }

    /** Every row's text, numbered, then {@link #groupsOf} of every non-blank row. */
    public String dump() {
      StringBuilder b = new StringBuilder("screen at flush " + seq + " (" + width + "x" + height
          + ", cursor " + cursorRow + "," + cursorCol + "):\n");
      for (int r = 0; r < height; r++) {
        b.append(String.format("%2d|%s|%n", r, text(r)));
      }
      b.append("groups (1-based screen columns):\n");
      for (int r = 0; r < height; r++) {
        String g = groupsOf(r);
        if (!g.isEmpty()) b.append(String.format("%2d: %s%n", r, g));
      }
      return b.toString();
    }

    private void checkRow(int row) {
      if (row < 0 || row >= height) {
        throw new IndexOutOfBoundsException("row " + row + " of a " + height + "-row screen");
      }
    }

    private void checkCell(int row, int col) {
      checkRow(row);
      if (col < 0 || col >= width) {
        throw new IndexOutOfBoundsException("column " + col + " of a " + width + "-column screen");
      }
    }
  }

  private final Nvim nvim;
  private final ExtTypes ext;
  private final Object lock = new Object();

  // The grid being drawn; touched on the RPC dispatcher thread only.
  private int width;
  private int height;
  private String[][] text = new String[0][0];
  private int[][] hl = new int[0][0];
  private int cursorRow;
  private int cursorCol;
  private final Map<Integer, Attr> attrs = new HashMap<>();
  private Map<Integer, Attr> attrsAtFlush = Map.of();
  private boolean attrsChanged;
  private volatile boolean captureNext; // set and cleared on the dispatcher thread
  private boolean drawn; // grid events since the last flush
  private volatile boolean captureDrawnOnly; // what captureNext waits for

  // Published at each flush, guarded by lock.
  private Snapshot last;
  private long flushes;
  private final List<String> unknownEvents = new ArrayList<>();
  private Throwable failure;
  private Snapshot captured; // the first flush after a firstFlushAfter's mark
  private final ArrayDeque<Snapshot> recent = new ArrayDeque<>(); // the last HISTORY
  private static final int HISTORY = 32;

  private Screen(Nvim nvim) {
    this.nvim = nvim;
    this.ext = nvim.apiInfo().extTypes();
  }

  /**
   * Attaches a {@code width} x {@code height} UI to {@code nvim} (which must have none yet from
   * this client) and waits for its first flush.
   */
  public static Screen attach(Nvim nvim, int width, int height) {
    Screen s = new Screen(nvim);
    nvim.rpc().onNotification("redraw", s::redraw);
    // on the dispatcher thread, in wire order with the redraw events
    nvim.rpc().onNotification(MARK, p -> s.captureNext = true);
    Map<String, Object> options = Map.of("ext_linegrid", true, "ext_hlstate", true, "rgb", true);
    join(nvim.call("nvim_ui_attach", Encoders.args(width, height, options), Decoders.nil()),
        "nvim_ui_attach");
    s.expect(sn -> sn.width() == width && sn.height() == height,
        "the first flush of a " + width + "x" + height + " UI");
    return s;
  }

  /**
   * Gives each of {@code groups} a definition of its own, with the attributes its links resolve to
   * now, so that it looks the same and {@code hl_attr_define} names it. Neovim (0.7 to 0.12) names
   * only the group a link chain ends at: with {@code NvimpamCellOdd} linked to {@code Identifier},
   * its cells say {@code Identifier}. A group whose links resolve to no attributes stays as it is
   * (Neovim draws it with the default attribute: no name to see). Returns the groups that got a
   * definition.
   */
  @SuppressWarnings("unchecked")
  public List<String> nameGroups(List<String> groups) {
    Object r = join(nvim.execLua(NAME_GROUPS, Encoders.args(groups)), "naming " + groups);
    return (List<String>) r;
  }

  private static final String NAME_GROUPS = String.join("\n",
      "local flags = { 'bold', 'italic', 'underline', 'undercurl', 'strikethrough', 'reverse',",
      "  'standout', 'nocombine' }",
      "local function resolved(g)", // nvim_get_hl_by_name is deprecated from 0.9 on
      "  if vim.api.nvim_get_hl then return pcall(vim.api.nvim_get_hl, 0, { name = g, link = false }) end",
      "  return pcall(vim.api.nvim_get_hl_by_name, g, true)",
      "end",
      "local named = {}",
      "for _, g in ipairs(...) do",
      "  local ok, a = resolved(g)",
      "  if ok then",
      "    local cmd = {}",
      "    for _, k in ipairs({ { 'fg', 'foreground', 'guifg' }, { 'bg', 'background', 'guibg' },",
      "        { 'sp', 'special', 'guisp' } }) do",
      "      local v = a[k[1]] or a[k[2]]",
      "      if v then table.insert(cmd, string.format('%s=#%06x', k[3], v)) end",
      "    end",
      "    local on = {}",
      "    for _, f in ipairs(flags) do if a[f] then table.insert(on, f) end end",
      "    if #on > 0 then table.insert(cmd, 'gui=' .. table.concat(on, ',')) end",
      // :highlight with attributes drops the group's link (nvim_set_hl does not redraw on 0.7)
      "    if #cmd > 0 then",
      "      vim.cmd('highlight ' .. g .. ' ' .. table.concat(cmd, ' '))",
      "      table.insert(named, g)",
      "    end",
      "  end",
      "end",
      "return named");

  /** Resizes the UI ({@code nvim_ui_try_resize}) and waits until the screen has the new size. */
  public Snapshot resize(int w, int h) {
    join(nvim.call("nvim_ui_try_resize", Encoders.args(w, h), Decoders.nil()), "nvim_ui_try_resize");
    return expect(sn -> sn.width() == w && sn.height() == h, "a " + w + "x" + h + " screen");
  }

  /** Detaches the UI. */
  public void detach() {
    join(nvim.call("nvim_ui_detach", Encoders.none(), Decoders.nil()), "nvim_ui_detach");
  }

  /** The screen at the latest flush (null before the first). */
  public Snapshot current() {
    synchronized (lock) {
      return last;
    }
  }

  /** How many flushes have arrived. */
  public long flushes() {
    synchronized (lock) {
      return flushes;
    }
  }

  /** The screens of the last 32 flushes, oldest first (for diagnosis). */
  public List<Snapshot> recent() {
    synchronized (lock) {
      return List.copyOf(recent);
    }
  }

  /** Names of events this harness does not handle, in the order first seen (for diagnosis). */
  public List<String> unknownEvents() {
    synchronized (lock) {
      return List.copyOf(unknownEvents);
    }
  }

  /**
   * Waits (at most {@link #WAIT_MS}) until the screen at a flush satisfies {@code ok}, and returns
   * that screen; otherwise fails with {@code what} and the latest screen.
   */
  public Snapshot expect(Predicate<Snapshot> ok, String what) {
    return expect(ok, what, WAIT_MS);
  }

  public Snapshot expect(Predicate<Snapshot> ok, String what, long timeoutMs) {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    synchronized (lock) {
      long seen = -1;
      while (true) {
        checkFailure();
        if (last != null && last.seq() != seen) {
          seen = last.seq();
          if (ok.test(last)) return last;
        }
        long left = end - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("no flush within " + timeoutMs + " ms showed " + what + "; "
              + (last == null ? "nothing was drawn" : last.dump()));
        }
        waitOn(left);
      }
    }
  }

  /**
   * Runs {@code code} with {@code nvim_exec_lua} and returns the screen at the first flush Neovim
   * sends once it has started on it (at most {@link #WAIT_MS} later): the first redraw after what
   * the code did. The code is preceded by an {@code rpcnotify} to this client, which Neovim
   * writes in order with the redraw events; the first flush behind that mark that drew anything
   * (a {@code grid_line}, {@code grid_scroll} or {@code grid_clear}) is the one. Most redraws
   * follow the call's answer; some happen inside the call (0.7 redraws inside {@code normal!
   * <C-f>}), and those count too. Flushes that drew nothing do not (0.7 sends them after events
   * that changed nothing on screen, also inside the call, before the redraw). Fails if no flush
   * draws, e.g. because the code changed nothing on screen.
   */
  public Snapshot firstFlushAfter(String code) {
    return capture(code, true);
  }

  /**
   * As {@link #firstFlushAfter}, but the first flush behind the mark counts even if it drew
   * nothing: for code after which the screen is as it should be at the next flush, whether or not
   * Neovim had anything to send, such as {@code :redraw!} (0.7 sends only the cells that changed).
   */
  public Snapshot flushAfter(String code) {
    return capture(code, false);
  }

  private Snapshot capture(String code, boolean mustDraw) {
    synchronized (lock) {
      captured = null;
      captureDrawnOnly = mustDraw;
    }
    String marked = "vim.rpcnotify(" + nvim.apiInfo().channelId() + ", '" + MARK + "') " + code;
    join(nvim.execLua(marked, Encoders.none()), code);
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
    synchronized (lock) {
      while (true) {
        checkFailure();
        if (captured != null) {
          Snapshot s = captured;
          captured = null;
          return s;
        }
        long left = end - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("no flush within " + WAIT_MS + " ms after " + code + "; "
              + (last == null ? "nothing was drawn" : last.dump()));
        }
        waitOn(left);
      }
    }
  }

  /** The notification {@link #firstFlushAfter} marks the start of its code with. */
  private static final String MARK = "nvimpam_screen_mark";

  /**
   * Sends keys with {@code nvim_input} (asynchronous in Neovim: they are typed when it next reads
   * input) and waits until a flush satisfies {@code ok}.
   */
  public Snapshot input(String keys, Predicate<Snapshot> ok, String what) {
    join(nvim.call("nvim_input", Encoders.args(keys), Decoders.nil()), "nvim_input " + keys);
    return expect(ok, what + " after typing " + keys);
  }

  private void waitOn(long nanos) {
    try {
      TimeUnit.NANOSECONDS.timedWait(lock, Math.max(1, nanos));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a flush", e);
    }
  }

  private void checkFailure() {
    if (failure != null) {
      throw new IllegalStateException("the screen could not apply a redraw event", failure);
    }
  }

  private static <T> T join(CompletableFuture<T> f, String what) {
    try {
      return f.get(WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(what + " failed: " + e.getCause().getMessage(), e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(what + ": no answer within " + WAIT_MS + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(what + " was interrupted", e);
    }
  }

  // ---- the redraw events, on the dispatcher thread ----------------------------------------------

  private void redraw(MessageUnpacker params) throws IOException {
    List<?> batches = (List<?>) Decoders.readObject(params, ext);
    try {
      for (Object b : batches) {
        List<?> batch = (List<?>) b;
        String name = (String) batch.get(0);
        for (int i = 1; i < batch.size(); i++) event(name, (List<?>) batch.get(i));
      }
    } catch (RuntimeException e) {
      synchronized (lock) {
        failure = e;
        lock.notifyAll();
      }
      throw e;
    }
  }

  private void event(String name, List<?> a) {
    switch (name) {
      case "grid_resize" -> {
        drawn = true;
        resizeGrid(i(a, 1), i(a, 2));
      }
      case "grid_clear" -> {
        drawn = true;
        clear();
      }
      case "grid_line" -> {
        drawn = true;
        line(i(a, 1), i(a, 2), (List<?>) a.get(3));
      }
      case "grid_scroll" -> {
        drawn = true;
        scroll(i(a, 1), i(a, 2), i(a, 3), i(a, 4), i(a, 5));
      }
      case "grid_cursor_goto" -> {
        cursorRow = i(a, 1);
        cursorCol = i(a, 2);
      }
      case "hl_attr_define" -> define(i(a, 0), a.get(1), (List<?>) a.get(3));
      case "default_colors_set", "hl_group_set", "mode_change", "mode_info_set", "option_set",
          "busy_start", "busy_stop", "mouse_on", "mouse_off", "set_title", "set_icon",
          "win_viewport", "win_viewport_margins", "update_menu", "chdir", "msg_showmode",
          "msg_showcmd", "msg_ruler", "msg_clear", "msg_history_clear", "msg_show" -> {
        // nothing on the grid
      }
      case "flush" -> flush();
      default -> {
        synchronized (lock) {
          if (!unknownEvents.contains(name)) unknownEvents.add(name);
        }
      }
    }
  }

  private static int i(List<?> a, int k) {
    return ((Number) a.get(k)).intValue();
  }

  private void resizeGrid(int w, int h) {
    width = w;
    height = h;
    text = new String[h][w];
    hl = new int[h][w];
    clear();
    cursorRow = Math.min(cursorRow, Math.max(0, h - 1));
    cursorCol = Math.min(cursorCol, Math.max(0, w - 1));
  }

  private void clear() {
    for (int r = 0; r < height; r++) {
      Arrays.fill(text[r], " ");
      Arrays.fill(hl[r], 0);
    }
  }

  private void line(int row, int col, List<?> cells) {
    int c = col;
    int id = 0; // every grid_line event starts with an explicit hl_id in its first cell
    for (Object o : cells) {
      List<?> cell = (List<?>) o;
      String t = (String) cell.get(0);
      if (cell.size() > 1) id = i(cell, 1);
      int repeat = cell.size() > 2 ? i(cell, 2) : 1;
      for (int k = 0; k < repeat; k++) {
        if (c >= width || row >= height) {
          throw new IllegalStateException("grid_line past the " + width + "x" + height
              + " grid: row " + row + " col " + c);
        }
        text[row][c] = t; // "" is the right half of a double-width character
        hl[row][c] = id;
        c++;
      }
    }
  }

  /** Region rows [top, bot), columns [left, right); rows > 0 moves content up. */
  private void scroll(int top, int bot, int left, int right, int rows) {
    if (rows > 0) {
      for (int r = top; r < bot - rows; r++) copyRow(r + rows, r, left, right);
    } else if (rows < 0) {
      for (int r = bot - 1; r >= top - rows; r--) copyRow(r + rows, r, left, right);
    }
  }

  private void copyRow(int from, int to, int left, int right) {
    System.arraycopy(text[from], left, text[to], left, right - left);
    System.arraycopy(hl[from], left, hl[to], left, right - left);
  }

  private void define(int id, Object rgb, List<?> info) {
    List<String> groups = new ArrayList<>();
    for (Object o : info) {
      Map<?, ?> item = (Map<?, ?>) o;
      Object hi = item.get("hi_name");
      Object ui = item.get("ui_name");
      if (hi instanceof String s && !s.isEmpty()) groups.add(s);
      else if (ui instanceof String s && !s.isEmpty()) groups.add(s);
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> rgbMap = rgb instanceof Map<?, ?> m ? Map.copyOf((Map<String, Object>) m) : Map.of();
    attrs.put(id, new Attr(id, rgbMap, List.copyOf(groups), info));
    attrsChanged = true;
  }

  private void flush() {
    String[][] t = new String[height][];
    int[][] h = new int[height][];
    for (int r = 0; r < height; r++) {
      t[r] = text[r].clone();
      h[r] = hl[r].clone();
    }
    if (attrsChanged) {
      attrsAtFlush = Collections.unmodifiableMap(new HashMap<>(attrs));
      attrsChanged = false;
    }
    synchronized (lock) {
      flushes++;
      last = new Snapshot(flushes, width, height, t, h, attrsAtFlush, cursorRow, cursorCol);
      if (recent.size() == HISTORY) recent.removeFirst();
      recent.addLast(last);
      if (captureNext && (drawn || !captureDrawnOnly)) {
        captured = last;
        captureNext = false;
      }
      drawn = false;
      lock.notifyAll();
    }
  }
}
