package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.fold.FoldPlan;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.FoldTree;
import org.nvimpam.testutil.PluginTestBase;
import org.nvimpam.testutil.RandomDecks;

/**
 * Fold state is the user's: an edit never closes a fold that was open nor opens one that was
 * closed, in any window. A fold is the same fold after an edit when it is the same card (its header
 * line, moved by the lines inserted or deleted above it; a changed line stays where it is), a group
 * when it starts at the same card. A fold no fold was before (or whose header was deleted) starts as
 * 'foldlevel' says, open when it holds the window's cursor.
 *
 * <p>Each step reads every fold's own state in both windows before and after an edit (in copies of
 * the windows, see folds/fold_states.lua) and the edit's line events, and checks that rule for every
 * fold. The folds come back through the live refold, or (mode "whole by S") through a whole push
 * with strategy S after each edit ({@code :NvimpamFold}), which remembers the states across the
 * edits since the last refold.
 */
class FoldStateIT extends PluginTestBase {
  private static final long WAIT_MS = 15_000;
  private static final int STEPS = Integer.getInteger("nvimpam.foldstate.steps", 120);
  private static final long SEED = Long.getLong("nvimpam.foldstate.seed", 20261203L);
  /** More seeds in one run: "1-30", "3,77" or both ("1-30,77"); the random test runs each in every mode. */
  private static final String SEEDS = System.getProperty("nvimpam.foldstate.seeds", "");

  /** "live", or "whole by " + a strategy's name. */
  static Stream<String> modes() {
    return Stream.of("live", "whole by per-command", "whole by call-atomic", "whole by pipe", "whole by lua",
        "whole by viml");
  }

  /** One fold of a window: lines, depth (1 or 2) and its own state. */
  record Fold(int s, int e, int depth, boolean closed) {}

  /** What the rule compares: per window its folds, cursor line and 'foldlevel'; the groups' ranges. */
  record Snapshot(Map<Long, List<Fold>> folds, Map<Long, Integer> cursor, Map<Long, Integer> foldlevel,
      Set<Long> groups) {}

  private String mode;
  private Buffer buffer;
  private String reader;

  /**
   * Opens {@code deck} live-folded in two windows with 'foldlevel' 0, and records the buffer's
   * line events in {@code _G.events} (the edit log the rule reads).
   */
  private void open(byte[] deck, String mode) throws Exception {
    this.mode = mode;
    reader = EmbeddedNvim.resource("/soak/window_folds.lua");
    boolean whole = mode.startsWith("whole by ");
    String strategy = whole ? mode.substring("whole by ".length()) : "lua";
    // Whole: no refold of its own comes before :NvimpamFold does it.
    setup("auto_attach = false, debounce_ms = " + (whole ? 600_000 : 0) + ", strategy = '" + strategy + "'");
    nvim.command("set columns=120 lines=60").join();
    nvim.command("filetype plugin on").join(); // the buffer-local mappings (caf)
    EmbeddedNvim.edit(nvim, deck, dir);
    buffer = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    nvim.command("setlocal foldlevel=0").join();
    nvim.command("split").join();
    nvim.command("NvimpamFold").join(); // the new window's folds
    lua("require('nvimpam.tools.testing').record_refolds()");
    lua("_G.events = {} vim.api.nvim_buf_attach(0, false, { on_lines = function(_, _, _, f, l, n)"
        + " table.insert(_G.events, { f, l, n }) end })");
  }

  /** The edit, then the refold (or :NvimpamFold) of it; checks the rule over both windows. */
  private void editAndCheck(String what, Runnable edit) throws Exception {
    Snapshot before = snapshot();
    lua("_G.events = {}");
    edit.run();
    if (mode.startsWith("whole by ")) {
      nvim.command("NvimpamFold").join();
    }
    awaitRefold(what);
    Snapshot after = snapshot();
    List<int[]> events = events();
    check(before, events, after, what, 0);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("modes")
  void everyEditKindKeepsTheStateOfEveryFoldInBothWindows(String mode) throws Exception {
    // The example deck's controls, nodes, materials, the group of two SHELL parts, links, rigid
    // bodies, boundary conditions, contacts and the first shells.
    String all = new String(example(), StandardCharsets.ISO_8859_1);
    int cut = 0;
    for (int i = 0; i < 1100; i++) cut = all.indexOf('\n', cut) + 1;
    open(all.substring(0, cut).getBytes(StandardCharsets.ISO_8859_1), mode);
    lua("vim.cmd('wincmd w')");

    String[][] edits = {
      {"x", "NAME", "normal! 0x"},
      {"r", "NAME", "normal! 0lrX"},
      {"R", "NAME", "normal! 0RNAME Impact plate\u001b"},
      {"dd", "$#   TCONT", "normal! jdd"},
      {"o", "NAME", "normal! o$ a comment\u001b"},
      {"yyp", "NAME", "normal! jyyp"},
      {"u", "NAME", "normal! u"},
      {"<C-r>", "NAME", "normal! \u0012"},
      {":s", "NAME", "s/plate/sheet/e"},
      {":NvimpamAlign", "$#  DTELIM", "lua local l = vim.fn.line('.') + 1"
          + " vim.api.nvim_buf_set_lines(0, l - 1, l, false, { '      0.            ' })"
          + " vim.api.nvim_win_set_cursor(0, { l, 0 }) vim.cmd('NvimpamAlign')"},
      {":NvimpamRename", "PART  /        2", "lua vim.api.nvim_win_set_cursor(0, { vim.fn.line('.'), 15 })"
          + " vim.cmd('NvimpamRename 9002')"},
      {":NvimpamCard", "NAME", "NvimpamCard PART:SHELL"},
      {"caf", "PART  /     9002", "lua vim.api.nvim_win_set_cursor(0, { vim.fn.line('.'), 15 })"
          + " vim.cmd('normal caf       2\u001b')"},
      {"u (caf)", "PART  /        2", "normal! u"},
    };
    for (String[] e : edits) {
      // Both windows: the second PART's fold and its group open (zv), in the other window
      // some more folds opened at random, then the edit in the first window.
      int line = find(e[1]);
      assertTrue(line > 0, () -> e[0] + ": " + e[1] + " is in the deck; notes " + lua("return _G.notes"));
      for (long w : windows()) {
        lua("vim.api.nvim_win_call(" + w + ", function() vim.api.nvim_win_set_cursor(0, { " + line
            + ", 0 }) vim.cmd('normal! zv') end)");
      }
      lua("vim.cmd('wincmd w') for _, l in ipairs({ 40, 770, 900, 960 }) do vim.cmd('silent! ' .. l .. 'foldopen') end"
          + " vim.cmd('wincmd w')");
      editAndCheck(e[0], () -> lua("vim.api.nvim_win_set_cursor(0, { " + line + ", 0 }) vim.cmd(\""
          + e[2].replace("\\", "\\\\").replace("\"", "\\\"") + "\")"));
      // The line edited is visible: its fold and group stayed open, or the fold is new and holds
      // the cursor.
      assertEquals(-1L, ((Number) lua("return vim.fn.foldclosed('.')")).longValue(), e[0] + ": the cursor line "
          + lua("return vim.fn.line('.')") + " is visible");
    }
  }

  /** Every mode with every seed: SEED, or those SEEDS names. */
  static Stream<Arguments> seededModes() {
    List<Long> seeds = new ArrayList<>();
    for (String part : SEEDS.split(",")) {
      if (part.isBlank()) continue;
      String[] range = part.trim().split("-");
      long from = Long.parseLong(range[0]);
      long to = range.length > 1 ? Long.parseLong(range[1]) : from;
      for (long seed = from; seed <= to; seed++) seeds.add(seed);
    }
    if (seeds.isEmpty()) seeds.add(SEED);
    return seeds.stream().flatMap(seed -> modes().map(m -> Arguments.of(m, seed)));
  }

  @ParameterizedTest(name = "{0}, seed {1}")
  @MethodSource("seededModes")
  void randomEditsKeepTheStateOfEveryFoldThatStays(String mode, long seed) throws Exception {
    RandomDecks decks = new RandomDecks(seed + mode.hashCode());
    Random r = decks.random();
    open(deck(decks, 90), mode);
    int steps = mode.equals("live") ? STEPS : STEPS / 3;
    List<String> history = new ArrayList<>();
    int[] kept = new int[2]; // folds that kept a state, open ones among them
    for (int step = 0; step < steps; step++) {
      toggleSome(r);
      String op = randomEdit(decks, r);
      history.add(op);
      if (history.size() > 8) history.remove(0);
      String context = mode + ", seed " + seed + ", step " + step + ", last edits " + history;
      int[] k = checkedStep(context, op);
      kept[0] += k[0];
      kept[1] += k[1];
    }
    assertTrue(kept[1] > steps && kept[0] > kept[1], "open and closed folds kept their states: " + Arrays.toString(kept));
  }

  /** A fold the edit creates starts closed at 'foldlevel' 0, except the one holding the cursor. */
  @Test
  void aNewFoldStartsAsFoldlevelSaysExceptAroundTheCursor() throws Exception {
    open("""
        NODE  /        1              0.              0.              0.
        NODE  /        2              0.              0.              0.
        $ between
        $ between
        SHELL /        1       1       1       2       3       4
        SHELL /        2       1       1       2       3       4
        """.getBytes(StandardCharsets.ISO_8859_1), "live");
    // The cursor on the first comment in this window; the other window's cursor at the top.
    lua("vim.api.nvim_win_set_cursor(0, { 3, 0 })");
    editAndCheck("two comments made nodes", () -> lua("vim.api.nvim_buf_set_lines(0, 2, 4, false, {"
        + " 'BEAM  /        1       1       1       2', 'BEAM  /        2       1       1       2' })"));
    Snapshot now = snapshot();
    long here = ((Number) lua("return vim.api.nvim_get_current_win()")).longValue();
    for (long w : windows()) {
      Fold beams = now.folds().get(w).stream().filter(f -> f.s() == 3).findFirst().orElseThrow();
      assertEquals(w != here, beams.closed(), "window " + w + ": " + now.folds().get(w));
    }
  }

  // ---- the rule ----

  /** The line a fold's first line is on after the edit, or null when the edit deleted it. */
  static Integer head(int s, List<int[]> events) {
    int h = s;
    for (int[] ev : events) {
      int last = ev[1];
      int newLast = ev[2];
      if (h > last) {
        h += newLast - last;
      } else if (h > Math.min(last, newLast)) {
        return null; // among the lines the edit deleted
      } // else above the edit, or among the lines it changed in place: the same line
    }
    return h;
  }

  private static long range(int s, int e) {
    return ((long) s << 32) | e;
  }

  /**
   * Returns how many folds kept a state, and how many of them were open. {@code inserting}: the
   * line (0 for none) where the edit started Insert mode in the current window, whose folds Neovim
   * itself opens then (as without nvimpam): they are open after it.
   */
  private int[] check(Snapshot before, List<int[]> events, Snapshot after, String context, int inserting) {
    int kept = 0;
    int open = 0;
    long current = ((Number) lua("return vim.api.nvim_get_current_win()")).longValue();
    for (long w : after.folds().keySet()) {
      Map<Long, Boolean> was = new HashMap<>();
      for (Fold f : before.folds().get(w)) {
        Integer h = head(f.s(), events);
        if (h != null) {
          boolean opened = w == current && f.s() <= inserting && inserting <= f.e();
          was.put(h * 2L + (before.groups().contains(range(f.s(), f.e())) ? 1 : 0), f.closed() && !opened);
        }
      }
      int cursor = after.cursor().get(w);
      int foldlevel = after.foldlevel().get(w);
      List<String> wrong = new ArrayList<>();
      for (Fold f : after.folds().get(w)) {
        boolean group = after.groups().contains(range(f.s(), f.e()));
        Boolean closed = was.get(f.s() * 2L + (group ? 1 : 0));
        String why = "it was";
        if (closed == null) {
          boolean cursorIn = f.s() <= cursor && cursor <= f.e();
          closed = !(f.depth() <= foldlevel || cursorIn);
          why = cursorIn ? "new, around the cursor" : "new, 'foldlevel' " + foldlevel;
        } else {
          kept++;
          if (!closed) open++;
        }
        if (closed != f.closed()) {
          wrong.add(f.s() + "-" + f.e() + (group ? " (group)" : "") + " is " + (f.closed() ? "closed" : "open")
              + ", " + why + " " + (closed ? "closed" : "open"));
        }
      }
      long win = w;
      assertTrue(wrong.isEmpty(), () -> context + ": window " + win + ": " + wrong + "; events " + show(events)
          + "; before " + before.folds().get(win) + "; after " + after.folds().get(win) + "; last refold "
          + lua("return vim.g.nvimpam_debug_refold") + ", fell back: "
          + lua("return require('nvimpam.tools.testing').refold_error(0)"));
    }
    return new int[] {kept, open};
  }

  private int[] checkedStep(String context, String op) throws Exception {
    Snapshot before = snapshot();
    // cc: Insert mode starts on line l, or at the first line of the closed fold that holds it (cc
    // then changes the whole fold's lines); lines above it stay where they are
    Matcher cc = Pattern.compile("^(\\d+)Gcc").matcher(op);
    int inserting = 0;
    if (cc.find()) {
      int l = Integer.parseInt(cc.group(1));
      int closedAt = num(lua("return vim.fn.foldclosed(" + l + ")"));
      inserting = closedAt > 0 ? closedAt : l;
    }
    lua("_G.events = {}");
    doEdit(op);
    if (mode.startsWith("whole by ")) {
      nvim.command("NvimpamFold").join();
    }
    awaitRefold(context);
    return check(before, events(), snapshot(), context, inserting);
  }

  // ---- reading Neovim ----

  private Snapshot snapshot() throws IOException {
    Lines lines = nvim.bufGetLines(buffer, 0, -1, false).join();
    FoldPlan plan = FoldParser.parse(lines, new FoldOptions(true)).plan(false);
    Set<Long> groups = new HashSet<>();
    for (int i = 0; i < plan.size(); i++) {
      if (plan.level(i) == 2) groups.add(range(plan.start(i), plan.end(i)));
    }
    FoldTree want = FoldTree.of(plan);
    Map<Long, List<Fold>> folds = new LinkedHashMap<>();
    Map<Long, Integer> cursor = new HashMap<>();
    Map<Long, Integer> foldlevel = new HashMap<>();
    for (long w : windows()) {
      List<?> flat = (List<?>) nvim.execLua(EmbeddedNvim.resource("/folds/fold_states.lua"), out -> {
        out.packArrayHeader(2);
        out.packLong(w);
        out.packString(reader);
      }).join();
      List<Fold> list = new ArrayList<>();
      List<List<Integer>> tree = new ArrayList<>();
      for (int i = 0; i < flat.size(); i += 4) {
        Fold f = new Fold(num(flat.get(i)), num(flat.get(i + 1)), num(flat.get(i + 2)), num(flat.get(i + 3)) == 1);
        list.add(f);
        tree.add(List.of(f.s(), f.e(), f.depth()));
      }
      assertEquals(want, new FoldTree(tree), "window " + w + "'s folds are the plan's");
      folds.put(w, list);
      List<?> cf = (List<?>) lua("return vim.api.nvim_win_call(" + w + ", function() return { vim.fn.line('.'),"
          + " vim.wo.foldlevel } end)");
      cursor.put(w, num(cf.get(0)));
      foldlevel.put(w, num(cf.get(1)));
    }
    return new Snapshot(folds, cursor, foldlevel, groups);
  }

  private List<Long> windows() {
    List<Long> out = new ArrayList<>();
    for (Object o : (List<?>) lua("return vim.fn.win_findbuf(" + buffer.id() + ")")) {
      out.add(((Number) o).longValue());
    }
    assertEquals(2, out.size(), "the buffer is shown in two windows");
    return out;
  }

  private List<int[]> events() {
    List<int[]> out = new ArrayList<>();
    for (Object o : (List<?>) lua("return _G.events")) {
      List<?> ev = (List<?>) o;
      out.add(new int[] {num(ev.get(0)), num(ev.get(1)), num(ev.get(2))});
    }
    return out;
  }

  private static String show(List<int[]> events) {
    List<String> out = new ArrayList<>();
    for (int[] ev : events) out.add(Arrays.toString(ev));
    return out.toString();
  }

  private int find(String prefix) {
    Object l = lua("for i, s in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do"
        + " if vim.startswith(s, '" + prefix.replace("'", "\\'") + "') and i > 800 then return i end end return 0");
    return num(l);
  }

  private static int num(Object o) {
    return ((Number) o).intValue();
  }

  /** Waits until the folds were applied at the buffer's current changedtick. */
  private void awaitRefold(String context) throws Exception {
    long end = System.currentTimeMillis() + WAIT_MS;
    String done = "return require('nvimpam.fold').applied_tick(" + buffer.id()
        + ") == vim.api.nvim_buf_get_changedtick(" + buffer.id() + ")";
    while (!Boolean.TRUE.equals(lua(done)) && System.currentTimeMillis() < end) {
      Thread.sleep(2);
    }
    assertEquals(true, lua(done), () -> "folds applied at the current changedtick; " + context + "; notes "
        + lua("return _G.notes") + "; refold error " + lua("return require('nvimpam.tools.testing').refold_error(0)"));
  }

  // ---- the random user ----

  /** Opens and closes a few folds at random, in either window, as a user does. */
  private void toggleSome(Random r) {
    int last = num(lua("return vim.fn.line('$')"));
    List<Long> wins = windows();
    StringBuilder code = new StringBuilder();
    for (int i = 0, n = 1 + r.nextInt(5); i < n; i++) {
      String key = switch (r.nextInt(6)) {
        case 0, 1 -> "zo";
        case 2 -> "zc";
        case 3 -> "zv";
        case 4 -> "zO";
        default -> "za";
      };
      code.append("vim.api.nvim_win_call(").append(wins.get(r.nextInt(2))).append(", function()")
          .append(" vim.api.nvim_win_set_cursor(0, { ").append(1 + r.nextInt(last)).append(", 0 })")
          .append(" vim.cmd('silent! normal! ").append(key).append("') end) ");
    }
    lua(code.toString());
  }

  /** Picks an edit: lines inserted or deleted above, inside or below folds, changed, undone... */
  private String randomEdit(RandomDecks decks, Random r) {
    int last = num(lua("return vim.fn.line('$')"));
    int l = 1 + r.nextInt(last);
    int k = 1 + r.nextInt(3);
    String text = printableLine(decks).replace("\\", "").replace("'", "");
    return switch (r.nextInt(16)) {
      case 0 -> "api insert " + l + " " + k + " " + text;
      case 1 -> "api delete " + l + " " + Math.min(last, l + k - 1);
      case 2 -> "api change " + l + " " + text;
      case 3 -> l + "Gx";
      case 4 -> l + "G0rX";
      case 5 -> l + "Gdd";
      case 6 -> l + "Go" + text + "\u001b";
      case 7 -> l + "Gyyp";
      case 8 -> l + "GJ";
      case 9, 10 -> "u";
      case 11 -> "\u0012";
      case 12 -> ":" + l + "," + Math.min(last, l + k * 4) + "s/0/1/ge";
      case 13 -> l + "GO" + text + "\u001b";
      case 14 -> l + "Gcc" + text + "\u001b";
      default -> "api insert " + l + " 0 " + text; // a line inserted above line l, in place of none
    };
  }

  private void doEdit(String op) {
    if (op.startsWith("api ")) {
      String[] p = op.split(" ", 5);
      int l = Integer.parseInt(p[2]);
      switch (p[1]) {
        case "insert" -> lua("local t = {} for i = 1, " + Math.max(1, Integer.parseInt(p[3])) + " do t[i] = '"
            + (p.length > 4 ? p[4] : "") + "' end vim.api.nvim_buf_set_lines(0, " + (l - 1) + ", " + (l - 1) + ", false, t)");
        case "delete" -> lua("vim.api.nvim_buf_set_lines(0, " + (l - 1) + ", " + p[3] + ", false, {})");
        default -> lua("vim.api.nvim_buf_set_lines(0, " + (l - 1) + ", " + l + ", false, { '"
            + op.substring(("api change " + p[2] + " ").length()) + "' })");
      }
      return;
    }
    if (op.startsWith(":")) {
      lua("vim.cmd('silent! ' .. " + luaString(op.substring(1)) + ")");
    } else {
      lua("vim.cmd('silent! normal! ' .. " + luaString(op) + ")");
    }
  }

  private static String luaString(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\%03d", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  private static byte[] deck(RandomDecks decks, int cards) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] line : decks.deck(cards)) {
      if (printable(line)) {
        out.writeBytes(line);
        out.write('\n');
      }
    }
    return out.toByteArray();
  }

  private static boolean printable(byte[] line) {
    for (byte c : line) {
      if (c < 0x20 || c >= 0x7f) return false;
    }
    return true;
  }

  private static String printableLine(RandomDecks decks) {
    for (int i = 0; i < 20; i++) {
      String s = decks.line();
      if (printable(s.getBytes(StandardCharsets.ISO_8859_1))) return s;
    }
    return "NODE  /        1       0.0       0.0       0.0";
  }
}
