package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.FoldTree;
import org.nvimpam.testutil.PluginTestBase;
import org.nvimpam.testutil.RandomDecks;

/**
 * Faults in the middle of calls, with a real Neovim and the built jar: either side killed during
 * a large transfer or a fold push, prompts that hold Neovim while a refold is due, buffers that
 * vanish under a refold, and :bufdo / :windo over many live buffers.
 */
class FaultIT extends PluginTestBase {
  private static final long WAIT_MS = 20_000;
  private static final String NODE = "NODE  /        1              0.              0.              0.";
  private static final String SHELL = "SHELL /        1        1       1       2       3       4";

  Path stderrLog;

  @BeforeEach
  void logFile() {
    stderrLog = dir.resolve("jvm-stderr.log");
  }

  // ---- Neovim killed ----------------------------------------------------------------------------

  @Test
  void neovimKilledDuringAMillionLineFetchEndsTheJvmWithinOneSecondAndQuietly() throws Exception {
    Path deck = generate(1_000_000);
    setup("auto_attach = false, java = '" + javaThatLogsStderr() + "'");
    startJvm();
    nvim.command("edit " + deck).join();
    assertEquals(1_000_000L, nvim.eval("line('$')").join());
    ProcessHandle jvm = jvm();

    nvim.rpc().notify("nvim_command", nvim.args("NvimpamFold")); // fetches 59 MB in chunks
    Thread.sleep(120); // the fetch takes 0.35-0.5 s

    assertJvmEndsQuietlyWhenNeovimDies(jvm);
  }

  @Test
  void neovimKilledDuringAFoldPushEndsTheJvmWithinOneSecondAndQuietly() throws Exception {
    setup("auto_attach = false, strategy = 'per-command', java = '" + javaThatLogsStderr() + "'");
    startJvm();
    edit(manyFolds(100_000)); // per-command pushes 100k folds in about a second
    ProcessHandle jvm = jvm();

    nvim.rpc().notify("nvim_command", nvim.args("NvimpamFold"));
    Thread.sleep(400);

    assertJvmEndsQuietlyWhenNeovimDies(jvm);
  }

  private void assertJvmEndsQuietlyWhenNeovimDies(ProcessHandle jvm) throws Exception {
    assertTrue(jvm.isAlive(), "the JVM is still at work");
    long nvimPid = neovimPid();
    ProcessHandle.of(nvimPid).orElseThrow().destroyForcibly(); // SIGKILL
    long t0 = System.nanoTime();
    double seconds = secondsUntilExited(jvm.pid(), t0);
    assertTrue(seconds < 1.0, "the JVM took " + seconds + " s to exit after Neovim died");
    List<String> stderr = Files.exists(stderrLog) ? Files.readAllLines(stderrLog, StandardCharsets.ISO_8859_1) : List.of();
    assertTrue(stderr.size() <= 20, () -> "an error storm on stderr: " + stderr.size() + " lines: " + stderr);
    System.err.printf("JVM exited %.3f s after Neovim was killed; %d lines on its stderr%n", seconds, stderr.size());
  }

  /**
   * Seconds from {@code t0} until process {@code pid} has terminated. Its parent (Neovim) is gone,
   * so it lingers as a zombie until the system reaps it, which ProcessHandle counts as alive:
   * /proc tells the two apart.
   */
  private static double secondsUntilExited(long pid, long t0) throws Exception {
    Path stat = Path.of("/proc/" + pid + "/stat");
    long end = t0 + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < end) {
      String s;
      try {
        s = Files.readString(stat);
      } catch (IOException gone) {
        break;
      }
      if (s.substring(s.lastIndexOf(')') + 2).startsWith("Z")) break;
      Thread.sleep(5);
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  // ---- the JVM killed ---------------------------------------------------------------------------

  @Test
  void aJvmKilledDuringAPushLeavesNoFoldSetPassedOffAsCompleteAndTheNextCommandRefoldsTheLiveBuffers()
      throws Exception {
    setup("auto_attach = false, debounce_ms = 20, strategy = 'per-command'");
    int folds = 60_000;
    edit(manyFolds(folds));
    Buffer big = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    nvim.command("botright split").join();
    edit(example());
    Buffer small = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    nvim.command("wincmd t").join();
    long lastLine = ((Number) nvim.eval("line('$')").join()).longValue();

    // Attaching again (as a new window does) makes the JVM push all 60k folds again, one command
    // each. (An edit no longer does: a live refold changes only the folds around it.)
    nvim.command("NvimpamFoldAttach").join();
    // In flight: the first folds are back, the last ones not yet.
    awaitTrue("return vim.fn.foldlevel(3) > 0 and vim.fn.foldlevel(" + lastLine + ") == 0");
    ProcessHandle.of(jvmPid()).orElseThrow().destroyForcibly();
    awaitTrue("return not require('nvimpam.host').running()");

    boolean markedDone = Boolean.TRUE.equals(lua("return require('nvimpam.fold').applied_tick(0) == vim.b.changedtick"));
    if (markedDone) {
      assertSameTree(expected(big), FoldTree.read(nvim), "a fold set marked as applied at this changedtick is complete");
    }

    nvim.command("NvimpamFold").join(); // the next command starts a JVM, which takes over the live buffers
    awaitLiveAndCorrect(big, 1);
    lua("vim.api.nvim_buf_set_lines(" + small.id() + ", 0, 0, false, { '" + NODE + "' })");
    awaitLiveAndCorrect(small, 2);
  }

  // ---- prompts ----------------------------------------------------------------------------------

  @Test
  void aRefoldDueDuringAHitEnterPromptLandsAfterThePrompt() throws Exception {
    refoldDueDuringAPrompt(":echo \"a\\nb\"<CR>", "<CR>");
  }

  @Test
  void aRefoldDueDuringAConfirmPromptLandsAfterTheAnswer() throws Exception {
    refoldDueDuringAPrompt(":call confirm('Refold?', \"&Yes\\n&No\")<CR>", "y");
  }

  private void refoldDueDuringAPrompt(String prompt, String answer) throws Exception {
    setup("auto_attach = false, debounce_ms = 50");
    edit(example());
    Buffer b = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();

    // Prompts need a UI: this client becomes one (its redraw events are dropped unread).
    nvim.call("nvim_ui_attach", nvim.args(80, 24, Map.of("ext_linegrid", true)), in -> {
      in.skipValue();
      return null;
    }).join();
    lua("vim.api.nvim_buf_set_lines(0, 5000, 5000, false, { '" + NODE + "' })");
    input(prompt);
    Map<?, ?> mode = awaitBlocked();
    Thread.sleep(500); // ten debounce periods: the refold came due at the prompt

    assertTrue(atPrompt(mode()), "still at the prompt: " + mode());
    input(answer);
    awaitTrue("local m = vim.api.nvim_get_mode() return not m.blocking and m.mode:sub(1, 1) ~= 'r'");
    awaitRefresh();
    assertSameTree(expected(b), FoldTree.read(nvim), "after the " + mode.get("mode") + " prompt");
    assertEquals(List.of(), errorNotes());
  }

  private Map<?, ?> awaitBlocked() throws InterruptedException {
    long end = System.currentTimeMillis() + WAIT_MS;
    Map<?, ?> m = mode();
    while (!atPrompt(m) && System.currentTimeMillis() < end) {
      Thread.sleep(10);
      m = mode();
    }
    assertTrue(atPrompt(m), "Neovim waits at a prompt: " + m);
    return m;
  }

  /**
   * Whether Neovim waits at a prompt: "blocking" on 0.7 and 0.10; 0.12 reports a confirm() prompt
   * as mode "r?" with blocking false (hit-enter is "r", more-prompt "rm").
   */
  private static boolean atPrompt(Map<?, ?> mode) {
    return Boolean.TRUE.equals(mode.get("blocking")) || String.valueOf(mode.get("mode")).startsWith("r");
  }

  /** nvim_get_mode is answered at once even while Neovim waits at a prompt. */
  private Map<?, ?> mode() {
    return (Map<?, ?>) nvim.call("nvim_get_mode", out -> out.packArrayHeader(0), nvim.objects()).join();
  }

  // ---- buffers that vanish ----------------------------------------------------------------------

  @Test
  void aBufferWipedWhileItsRefoldWaitsForTheDebounceLeavesNoErrorAndNoWork() throws Exception {
    vanishWhileDue("bwipeout!");
  }

  @Test
  void aBufferUnloadedWhileItsRefoldWaitsForTheDebounceLeavesNoErrorAndNoWork() throws Exception {
    vanishWhileDue("bunload!");
  }

  private void vanishWhileDue(String command) throws Exception {
    setup("auto_attach = false, debounce_ms = 200");
    edit(example());
    Buffer keep = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    nvim.command("split").join();
    edit(example());
    Buffer gone = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();

    lua("vim.api.nvim_buf_set_lines(0, 5000, 5000, false, { '" + NODE + "' }) vim.cmd('" + command + " "
        + gone.id() + "')");
    Thread.sleep(600); // past the debounce

    assertNoWorkLeftFor(gone, keep);
  }

  @Test
  void aBufferWipedWhileItsFoldsAreBeingPushedLeavesNoErrorAndNoWork() throws Exception {
    vanishWhilePushing("bwipeout!");
  }

  @Test
  void aBufferUnloadedWhileItsFoldsAreBeingPushedLeavesNoErrorAndNoWork() throws Exception {
    vanishWhilePushing("bunload!");
  }

  private void vanishWhilePushing(String command) throws Exception {
    setup("auto_attach = false, debounce_ms = 20, strategy = 'per-command'");
    edit(example());
    Buffer keep = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    nvim.command("split").join();
    edit(manyFolds(60_000));
    Buffer gone = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    long lastLine = ((Number) nvim.eval("line('$')").join()).longValue();

    // Attaching again makes the JVM push all 60k folds again (an edit refolds only around it).
    nvim.command("NvimpamFoldAttach").join();
    awaitTrue("return vim.fn.foldlevel(3) > 0 and vim.fn.foldlevel(" + lastLine + ") == 0"); // in flight
    nvim.command(command + " " + gone.id()).join();
    Thread.sleep(300);

    assertNoWorkLeftFor(gone, keep);
  }

  private void assertNoWorkLeftFor(Buffer gone, Buffer keep) throws Exception {
    awaitTrue("return not vim.tbl_contains(vim.tbl_map(function(w) return vim.api.nvim_win_get_buf(w) end,"
        + " vim.api.nvim_list_wins()), " + gone.id() + ")");
    long end = System.currentTimeMillis() + WAIT_MS;
    String want = "attached buffers: [" + keep.id() + "]";
    String info = info();
    while (!info.contains(want) && System.currentTimeMillis() < end) {
      Thread.sleep(50);
      info = info();
    }
    assertTrue(info.contains(want), info);
    assertEquals(List.of(), errorNotes(), "no error message");
    assertEquals(List.of(), nvim.rpc().errorEvents(), "no failed call");
    // The buffer that stays is still folded live.
    nvim.command("buffer " + keep.id()).join();
    lua("vim.api.nvim_buf_set_lines(" + keep.id() + ", 5000, 5000, false, { '" + NODE + "' })");
    awaitRefresh();
    assertSameTree(expected(keep), FoldTree.read(nvim), "the buffer that stays");
  }

  private String info() {
    return String.join("\n", strings(lua("return require('nvimpam').info_lines()")));
  }

  // ---- edits that take folds with them --------------------------------------------------------

  @Test
  void aFoldCutAndPutBackInOneCommandIsFoldedAgain() throws Exception {
    // Found by the soak: dd on a closed fold deletes its lines and Neovim drops the fold with them;
    // P puts the same lines back, so the text is as before, but the window has lost the fold.
    setup("auto_attach = false, debounce_ms = 20");
    edit(example());
    Buffer b = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    assertEquals(29L, nvim.eval("foldclosed(29)").join());

    nvim.command("normal! 29GddP").join();

    awaitTree(b, "after ddP on a closed fold");
  }

  /** Waits until the current window's folds equal a full parse of {@code b}. */
  private void awaitTree(Buffer b, String what) throws Exception {
    long end = System.currentTimeMillis() + WAIT_MS;
    FoldTree want = expected(b);
    FoldTree got = FoldTree.read(nvim);
    while (!want.equals(got) && System.currentTimeMillis() < end) {
      Thread.sleep(50);
      got = FoldTree.read(nvim);
    }
    assertSameTree(want, got, what);
  }

  // ---- :bufdo and :windo ------------------------------------------------------------------------

  @Test
  void bufdoAndWindoAcrossFiftyLiveBuffersLeaveEveryWindowCorrect() throws Exception {
    setup("debounce_ms = 20");
    nvim.command("filetype on").join();
    nvim.command("set hidden").join();
    RandomDecks decks = new RandomDecks(50);
    List<Buffer> buffers = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      Path f = dir.resolve("deck" + i + ".pc");
      Files.write(f, join(decks.deck(30 + i)));
      nvim.command((i % 10 == 0 && i > 0 ? (i < 40 ? "vsplit " : "tabedit ") : "edit ") + f).join();
      buffers.add(nvim.currentBuffer().join());
    }
    for (Buffer b : buffers) awaitApplied(b);

    nvim.command("bufdo call append(0, '" + NODE + "') | call append(line('$'), '" + SHELL + "')").join();
    nvim.command("tabdo windo call setline(2, '$ edited by windo')").join();
    nvim.command("bufdo silent! 3,4delete").join();

    for (Buffer b : buffers) awaitApplied(b);
    int windows = 0;
    for (Object w : (List<?>) nvim.call("nvim_list_wins", out -> out.packArrayHeader(0), nvim.objects()).join()) {
      lua("vim.api.nvim_set_current_win(" + ((org.nvimpam.nvim.Window) w).id() + ")");
      Buffer b = nvim.currentBuffer().join();
      assertSameTree(expected(b), FoldTree.read(nvim), "window " + w + " showing buffer " + b.id());
      windows++;
    }
    assertTrue(windows >= 5, "windows: " + windows);
    assertEquals(List.of(), errorNotes());
  }

  /**
   * Buffers wiped right after they open (their attach still on its way to the JVM, or its load
   * under way): a buffer that is gone is no error, and nothing says it is.
   */
  @Test
  void buffersWipedRightAfterTheyOpenGiveNoMessage() throws Exception {
    setup("debounce_ms = 20");
    nvim.command("filetype on").join();
    nvim.command("set hidden").join();
    RandomDecks decks = new RandomDecks(51);
    StringBuilder files = new StringBuilder();
    for (int i = 0; i < 50; i++) {
      Path f = dir.resolve("wiped" + i + ".pc");
      Files.write(f, join(decks.deck(200 + 10 * i)));
      files.append(' ').append(f);
    }
    for (int round = 0; round < 3; round++) {
      // opened, visited and wiped in one go: every attach arrives after its buffer is gone
      nvim.command("args" + files + " | silent bufdo set ft=pamcrash | silent! %bwipeout!").join();
      lua("vim.wait(500)");
    }
    for (int i = 0; i < 50; i++) { // one at a time: the attach meets the wipe at every stage
      nvim.command("edit " + dir.resolve("wiped" + i + ".pc")).join();
      if (i % 3 == 1) lua("vim.wait(" + (i % 7) + ")");
      nvim.command("bwipeout!").join();
    }
    nvim.command("edit " + dir.resolve("wiped0.pc")).join();
    awaitApplied(nvim.currentBuffer().join()); // the JVM still serves
    lua("vim.wait(300)");
    assertEquals(List.of(), errorNotes());
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private void input(String keys) {
    nvim.call("nvim_input", nvim.args(keys), in -> in.unpackLong()).join();
  }


  /** A java that appends the JVM's stderr to {@link #stderrLog}, so that the test can count it. */
  private String javaThatLogsStderr() throws IOException {
    Path java = Path.of(ProcessHandle.current().info().command().orElse("java"));
    Path wrapper = dir.resolve("java");
    Files.writeString(wrapper, "#!/bin/sh\n"
        + "if [ \"$1\" = -version ]; then exec '" + java + "' -version; fi\n"
        + "exec '" + java + "' \"$@\" 2>>'" + stderrLog + "'\n");
    wrapper.toFile().setExecutable(true);
    return wrapper.toString();
  }

  /** Starts the JVM by folding a small buffer. */
  private void startJvm() throws IOException {
    edit(example());
    nvim.command("NvimpamFold").join();
    assertTrue(Boolean.TRUE.equals(lua("return require('nvimpam.host').running()")));
  }

  private long jvmPid() {
    return ((Number) lua("return require('nvimpam.host').pid()")).longValue();
  }

  private ProcessHandle jvm() {
    return ProcessHandle.of(jvmPid()).orElseThrow();
  }

  private long neovimPid() {
    return ((Number) nvim.eval("getpid()").join()).longValue();
  }

  private Path generate(int lines) throws Exception {
    Path deck = dir.resolve("big.pc");
    Path java = Path.of(ProcessHandle.current().info().command().orElse("java"));
    Process p = new ProcessBuilder(java.toString(), "-jar", EmbeddedNvim.jar(), "gen", "--lines", String.valueOf(lines),
        "--out", deck.toString()).inheritIO().start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, "gen failed");
    return deck;
  }

  /** A deck of two-line NODE and SHELL cards in turn: {@code folds} folds, none nested. */
  private static byte[] manyFolds(int folds) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < folds; i++) {
      String line = i % 2 == 0 ? NODE : SHELL;
      sb.append(line).append('\n').append(line).append('\n');
    }
    byte[] deck = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    assertEquals(folds, FoldParser.parse(Lines.split(deck), FoldOptions.GENERIC).plan(false).size());
    return deck;
  }

  private static byte[] join(List<byte[]> lines) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] l : lines) {
      out.writeBytes(l);
      out.write('\n');
    }
    return out.toByteArray();
  }

  private void edit(byte[] deck) throws IOException {
    EmbeddedNvim.edit(nvim, deck, dir);
  }

  private FoldTree expected(Buffer b) {
    Lines lines = nvim.bufGetLines(b, 0, -1, false).join();
    return FoldTree.of(FoldParser.parse(lines, FoldOptions.GENERIC).plan(false));
  }

  /** Waits until the condition is seen true (once: an in-flight state may be gone a moment later). */
  private void awaitTrue(String luaCondition) throws InterruptedException {
    long end = System.currentTimeMillis() + WAIT_MS;
    boolean seen;
    while (!(seen = Boolean.TRUE.equals(lua(luaCondition))) && System.currentTimeMillis() < end) {
      Thread.sleep(5);
    }
    assertEquals(true, seen, luaCondition);
  }

  /** The current buffer's folds were applied at its current changedtick. */
  private void awaitRefresh() throws InterruptedException {
    awaitTrue("return require('nvimpam.fold').applied_tick(0) == vim.b.changedtick");
  }

  private void awaitApplied(Buffer b) throws InterruptedException {
    awaitTrue("return require('nvimpam.fold').applied_tick(" + b.id() + ") == vim.api.nvim_buf_get_changedtick("
        + b.id() + ")");
  }

  /** Waits until the JVM has folded {@code b} at its changedtick, then checks window {@code win}'s tree. */
  private void awaitLiveAndCorrect(Buffer b, int win) throws Exception {
    awaitApplied(b);
    nvim.command(win + "wincmd w").join();
    assertEquals(b, nvim.currentBuffer().join());
    long end = System.currentTimeMillis() + WAIT_MS;
    FoldTree want = expected(b);
    FoldTree got = FoldTree.read(nvim);
    while (!want.equals(got) && System.currentTimeMillis() < end) {
      Thread.sleep(50);
      got = FoldTree.read(nvim);
    }
    assertSameTree(want, got, "buffer " + b.id());
  }

  /** Equal trees, or a failure that names the counts and the first difference (trees are big). */
  private static void assertSameTree(FoldTree want, FoldTree got, String what) {
    if (want.equals(got)) return;
    List<List<Integer>> w = want.folds();
    List<List<Integer>> g = got.folds();
    int i = 0;
    while (i < Math.min(w.size(), g.size()) && w.get(i).equals(g.get(i))) i++;
    throw new AssertionError(what + ": " + g.size() + " folds instead of " + w.size() + "; first difference at #" + i
        + ": " + (i < g.size() ? g.get(i) : "none") + " instead of " + (i < w.size() ? w.get(i) : "none"));
  }

  private List<String> errorNotes() {
    List<String> errors = new ArrayList<>();
    for (Object n : (List<?>) lua("return _G.notes")) {
      List<?> note = (List<?>) n;
      if (((Number) note.get(1)).intValue() >= 4) errors.add(String.valueOf(note.get(0)));
    }
    return errors;
  }

  private static List<String> strings(Object o) {
    return ((List<?>) o).stream().map(String::valueOf).toList();
  }
}
