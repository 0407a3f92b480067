package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.FoldTree;
import org.nvimpam.testutil.RandomDecks;

/**
 * The property of live refolds: after any edit, in every window that shows the buffer, Neovim's
 * fold tree equals a full parse of the buffer. Long random sequences of the edits users make
 * (normal-mode edits, undo and redo in time, :g, :s, :m, :sort, filters, :read, emptying the
 * buffer, lines and whole cards put through the API) in a buffer shown in two windows, each step
 * checked once the refold of its changedtick is in.
 *
 * <p>Seeded; {@code -Dnvimpam.refold.steps=N} and {@code -Dnvimpam.refold.seed=S} change the run.
 */
class LiveRefoldIT {
  private static final long WAIT_MS = 15_000;
  private static final int STEPS = Integer.getInteger("nvimpam.refold.steps", 500);
  private static final long SEED = Long.getLong("nvimpam.refold.seed", 20261201L);
  /**
   * The random runs' seeds: {@code nvimpam.refold.seed} alone when given. 2 and 8 left Neovim
   * 0.7.2 with a fold no read shows, which a later :fold merged into its neighbour (at steps 111
   * and 172), until a delete from above a group into it refreshed all folds there and refolds
   * checked the fold levels around the edits; either alone makes them pass.
   */
  static Stream<Long> seeds() {
    return System.getProperty("nvimpam.refold.seed") != null ? Stream.of(SEED) : Stream.of(SEED, 2L, 8L);
  }

  /**
   * Counts how each refold went, so that a test cannot pass by always refolding everything. A
   * whole refresh from no folds (after the buffer was emptied) is all there is to do.
   */
  private static final String COUNT_OUTCOMES = """
      local folds = require('nvimpam.fold')
      local refold = folds.refold
      _G.outcomes = { changed = 0, whole = 0, stale = 0, from_none = 0 }
      folds.refold = function(plan)
        local none = folds.applied(plan.buf).n == 0
        local r = refold(plan)
        local k = r >= 0 and 'changed' or (r == -1 and 'stale' or (none and 'from_none' or 'whole'))
        _G.outcomes[k] = _G.outcomes[k] + 1
        return r
      end
      """;

  @TempDir Path dir;
  Nvim nvim;

  @BeforeEach
  void start() throws IOException {
    nvim = EmbeddedNvim.start();
    lua("_G.notes = {} vim.notify = function(m, l) table.insert(_G.notes, m) end");
  }

  @AfterEach
  void stop() {
    nvim.close();
  }

  private Object lua(String code, Object... args) {
    return nvim.execLua(code, out -> {
      out.packArrayHeader(args.length);
      for (Object a : args) {
        if (a instanceof Number n) {
          out.packLong(n.longValue());
        } else {
          out.packString(String.valueOf(a));
        }
      }
    }).join();
  }

  /**
   * Opens {@code deck} live-folded (no debounce) in two windows, one with its parents open and one
   * all closed, with {@code card} in card.pc of the test's directory for :read. Outcomes are
   * counted from the first refold after the split on, which takes the new window in; from then on
   * refolds are diffs.
   */
  private Buffer openInTwoWindows(byte[] deck, byte[] card) throws Exception {
    lua("require('nvimpam').setup({ jar = '" + EmbeddedNvim.jar()
        + "', auto_attach = false, debounce_ms = 0 })");
    Files.write(dir.resolve("card.pc"), card);
    EmbeddedNvim.edit(nvim, deck, dir);
    Buffer b = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    awaitRefold(b, "attach");
    nvim.command("split").join();
    nvim.command("setlocal foldlevel=1").join();
    nvim.command("normal! ggyyP").join();
    awaitRefold(b, "after the split");
    assertTrees(b, "after the split");
    lua(COUNT_OUTCOMES);
    lua("require('nvimpam.tools.testing').record_refolds()");
    return b;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyWindowsFoldsEqualAFullParseAfterEveryEdit(long seed) throws Exception {
    RandomDecks decks = new RandomDecks(seed);
    Random r = decks.random();
    byte[] card = deck(decks, 3);
    Buffer b = openInTwoWindows(deck(decks, 120), card);

    List<String> history = new ArrayList<>();
    int changes = 0;
    for (int step = 0; step < STEPS; step++) {
      long tick = ((Number) lua("return vim.b.changedtick")).longValue();
      String op = edit(decks, r, b);
      history.add(op);
      if (history.size() > 12) history.remove(0);
      if (((Number) lua("return vim.b.changedtick")).longValue() != tick) {
        changes++;
      }
      String context = "seed " + seed + ", step " + step + ", last edits " + history;
      awaitRefold(b, context);
      assertTrees(b, context);
    }
    Map<?, ?> outcomes = outcomes();
    long changed = ((Number) outcomes.get("changed")).longValue();
    long fromNone = ((Number) outcomes.get("from_none")).longValue();
    assertTrue(changed >= (changes - fromNone) * 0.8, "most refolds change only what differs: "
        + outcomes + " for " + changes + " changes; last fallback: "
        + lua("return require('nvimpam.tools.testing').refold_error(0)"));
  }

  /**
   * Deleting every line leaves Neovim one empty line that no event reports, though the events after
   * it count it: a :read puts its lines after it, an undo replaces it. Live folding goes on through
   * emptying the buffer and filling it again, in every way.
   */
  @Test
  void aBufferEmptiedAndFilledAgainKeepsFolding() throws Exception {
    RandomDecks decks = new RandomDecks(SEED);
    Buffer b = openInTwoWindows(deck(decks, 20), deck(decks, 3));
    String[] steps = {
      "%d", "1,1!sort -r", "normal! iPART  /        1", "normal! dd", "read " + dir.resolve("card.pc"), "undo",
      "earlier 10", "lua vim.api.nvim_buf_set_lines(0, 0, -1, false, {})", "normal! u", "normal! ggdG",
      "0read " + dir.resolve("card.pc"), "1,$d", "lua vim.api.nvim_buf_set_lines(0, 0, 1, false, { 'NODE  /"
          + "        1       0.0       0.0       0.0', 'NODE  /        2       0.0       0.0       0.0' })",
      "later 100", "undo 0",
    };
    for (int i = 0; i < steps.length; i++) {
      lua("vim.cmd('silent! ' .. (...))", steps[i]);
      String context = "step " + i + " (" + steps[i] + "), " + lua("return vim.fn.line('$')") + " lines";
      awaitRefold(b, context);
      assertTrees(b, context);
    }
  }

  /**
   * ddp moves no fold in Neovim, and refolds only what it touched; :move moves the folds of its
   * lines (foldMoveRange), which a refold cannot tell from an insert and a delete, and starts from
   * no folds.
   */
  @Test
  void aSwapOfLinesRefoldsInPlaceAndAMoveFromNoFolds() throws Exception {
    RandomDecks decks = new RandomDecks(SEED);
    Buffer b = openInTwoWindows(deck(decks, 60), deck(decks, 3));
    int middle = ((Number) lua("return math.floor(vim.fn.line('$') / 2)")).intValue();
    lua("vim.cmd('normal! ' .. (...) .. 'Gddp')", middle);
    awaitRefold(b, "ddp");
    assertTrees(b, "ddp");
    assertEquals(0L, outcomes().get("whole"), "ddp: " + outcomes());
    assertTrue((Long) outcomes().get("changed") >= 1, "ddp: " + outcomes());
    lua("vim.cmd((...) .. ',' .. ((...) + 3) .. 'm0')", middle);
    awaitRefold(b, ":m0");
    assertTrees(b, ":m0");
    assertEquals(1L, outcomes().get("whole"), ":m0");
  }

  @Test
  void aFoldLostNextToAnEditComesBackWithTheRefold() throws Exception {
    RandomDecks decks = new RandomDecks(SEED);
    Buffer b = openInTwoWindows(deck(decks, 60), deck(decks, 3));
    long lineCount = ((Number) lua("return vim.fn.line('$')")).longValue();
    // A card's fold that is not a group's, some lines above the line to edit.
    List<List<Integer>> folds = tree(0).folds();
    List<Integer> lost = null;
    for (List<Integer> f : folds) {
      boolean group = folds.stream().anyMatch(g -> g != f && g.get(0) >= f.get(0) && g.get(1) <= f.get(1));
      if (f.get(2) == 1 && !group && f.get(0) > lineCount / 3 && f.get(1) + 10 < lineCount) {
        lost = f;
        break;
      }
    }
    assertTrue(lost != null, "a card's fold in " + folds);
    // Neovim loses it in one window (as 0.7.2 did to a neighbour of a :fold); the edit below
    // leaves the plan as it is and touches no line of that fold.
    nvim.command("normal! " + lost.get(0) + "Gzd").join();
    assertTrue(!tree(0).folds().contains(lost), "zd deleted " + lost);
    long edited = lost.get(1) + 5;
    lua("local l = ... vim.api.nvim_buf_set_lines(0, l - 1, l, false, vim.api.nvim_buf_get_lines(0, l - 1, l, false))",
        edited);

    awaitRefold(b, "the line rewritten");

    assertTrees(b, "the line rewritten");
    assertEquals(1L, outcomes().get("whole"), "a whole refresh repaired it: " + outcomes());
    assertTrue(String.valueOf(lua("return require('nvimpam.tools.testing').refold_error(0)")).contains("fold level"),
        "the refold said why");
  }

  @Test
  void aDeleteFromAboveAGroupIntoItsLastMemberKeepsEveryFold() throws Exception {
    Buffer b = openInTwoWindows(EmbeddedNvim.exampleDeck(), deck(new RandomDecks(SEED), 3));
    // A group, and its last member of at least three lines, all but one of whose lines go.
    List<List<Integer>> folds = tree(0).folds();
    List<Integer> group = null;
    List<Integer> member = null;
    for (List<Integer> f : folds) {
      if (f.get(2) == 2 && f.get(1) - f.get(0) >= 2) {
        for (List<Integer> g : folds) {
          if (g.get(2) == 1 && g.get(0) < f.get(0) && g.get(1).equals(f.get(1)) && g.get(0) > 3) {
            group = g;
            member = f;
          }
        }
      }
    }
    assertTrue(group != null, "a group whose last member starts after it: " + folds);
    // Neovim 0.7 moves that member above the group (no read shows it there); zd of the group
    // would then put it among the top-level folds out of order, so 0.7 refreshes all folds.
    // Through the API: an Ex range would grow to the closed member's end.
    lua("vim.api.nvim_buf_set_lines(0, ... - 4, select(2, ...) - 1, false, {})", group.get(0), member.get(1));
    awaitRefold(b, "the delete");
    assertTrees(b, "the delete");
    boolean before010 = Boolean.TRUE.equals(lua("return vim.version().minor < 10"));
    assertEquals(before010 ? 1L : 0L, outcomes().get("whole"), "a whole refresh only where Neovim misplaces members: "
        + outcomes());
    nvim.command("normal! " + (group.get(0) - 3) + "GyyP").join();
    awaitRefold(b, "a line put above");
    assertTrees(b, "a line put above");
  }

  private Map<?, ?> outcomes() {
    return (Map<?, ?>) lua("return _G.outcomes");
  }

  /** A deck of printable lines (they are typed in too), from the property tests' grammar. */
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
      if ((c < 0x20 && c != '\t') || c >= 0x7f) return false;
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

  /** One random edit in a random one of the two windows; returns what it did. */
  private String edit(RandomDecks decks, Random r, Buffer b) {
    if (r.nextInt(4) == 0) {
      nvim.command("wincmd w").join();
    }
    int last = ((Number) lua("return vim.fn.line('$')")).intValue();
    int l = 1 + r.nextInt(last);
    int k = r.nextInt(4);
    String text = printableLine(decks).replace("\\", "");
    String op = switch (r.nextInt(26)) {
      case 0 -> l + "Gdd";
      case 1 -> l + "Gp";
      case 2 -> l + "GJ";
      case 3 -> l + "Go" + text + "\u001b";
      case 4 -> l + "Gcc" + text + "\u001b";
      case 5 -> l + "GyyP";
      case 6 -> l + "GV" + (k > 0 ? k + "j" : "") + "d";
      case 7, 8 -> "u";
      case 9 -> "\u0012"; // <C-r>
      case 10 -> ":" + l + "," + Math.min(last, l + 3 + k * 5) + "g/^\\(\\$\\|NODE\\|  \\)/d";
      case 11 -> ":" + l + "," + Math.min(last, l + k) + "s/^\\$/  /e";
      case 12 -> ":" + l + "," + Math.min(last, l + k) + "m" + r.nextInt(last + 1);
      case 13 -> l + "Gddp";
      case 14 -> ":" + l + "," + Math.min(last, l + 2 + k * 3) + "sort";
      case 15 -> ":" + l + "," + Math.min(last, l + k) + "!sort -r";
      case 16 -> ":" + l + "read " + dir.resolve("card.pc");
      case 17 -> l + "G>>";
      case 18 -> l + "G\u0016" + (k > 0 ? k + "j" : "") + "I$\u001b"; // a comment in block insert
      case 19 -> l + "GR" + text + "\u001b";
      // No count: a count past the last line fails the change, and Neovim then runs the rest of
      // it, the typed text, as Normal-mode keys; a "6." in that text repeats the change forever.
      case 20 -> l + "G.";
      case 21 -> ":earlier " + (1 + k);
      case 22 -> ":later " + (1 + k);
      case 23 -> r.nextInt(3) == 0 ? ":%d" : ":undo 0";
      case 24 -> "set " + l;
      default -> "put " + l;
    };
    if (op.startsWith("set ")) {
      lua("vim.api.nvim_buf_set_lines(0, (...) - 1, (...) + 1, false, { '$ set', 'PART  /        1',"
          + " 'NODE  /        9       0.0       0.0       0.0' })", l);
      return op;
    }
    if (op.startsWith("put ")) {
      StringBuilder card = new StringBuilder();
      List<String> lines = new ArrayList<>();
      for (byte[] line : decks.deck(1)) {
        if (printable(line)) lines.add(new String(line, StandardCharsets.ISO_8859_1));
      }
      lua("vim.api.nvim_win_set_cursor(0, { tonumber((...)), 0 })", l);
      nvim.execLua("vim.api.nvim_put(..., 'l', true, false)", out -> {
        out.packArrayHeader(1);
        out.packArrayHeader(lines.size());
        for (String s : lines) out.packString(s);
      }).join();
      card.append(lines);
      return "put " + l + " " + card;
    }
    if (op.startsWith(":")) {
      lua("vim.cmd('silent! ' .. (...))", op.substring(1));
    } else {
      lua("vim.cmd('silent! normal! ' .. (...))", op);
    }
    return op;
  }

  /** Waits until the folds were applied at the buffer's current changedtick. */
  private void awaitRefold(Buffer b, String context) throws Exception {
    long end = System.currentTimeMillis() + WAIT_MS;
    String done = "return require('nvimpam.fold').applied_tick(" + b.id() + ") == vim.api.nvim_buf_get_changedtick("
        + b.id() + ")";
    while (!Boolean.TRUE.equals(lua(done)) && System.currentTimeMillis() < end) {
      Thread.sleep(2);
    }
    assertEquals(true, lua(done), () -> "folds applied at the current changedtick; " + context + "; outcomes "
        + lua("return _G.outcomes") + "; refold error " + lua("return require('nvimpam.tools.testing').refold_error(0)") + "; notes " + lua("return _G.notes") + "; ticks "
        + lua("return { require('nvimpam.fold').applied_tick(0), vim.b.changedtick }"));
  }

  private void assertTrees(Buffer b, String context) throws IOException {
    Lines lines = nvim.bufGetLines(b, 0, -1, false).join();
    FoldTree want = FoldTree.of(FoldParser.parse(lines, new FoldOptions(true)).plan(false));
    List<?> wins = (List<?>) lua("return vim.fn.win_findbuf(" + b.id() + ")");
    assertEquals(2, wins.size(), "the buffer is shown in two windows");
    for (Object w : wins) {
      long win = ((Number) w).longValue();
      assertEquals(want, tree(win), () -> "window " + win + ", " + context + "; last refold "
          + lua("return vim.g.nvimpam_debug_refold"));
    }
  }

  private FoldTree tree(long win) throws IOException {
    return FoldTree.read(nvim, win);
  }
}
