package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.nvimpam.fold.FoldOptions;
import org.nvimpam.fold.FoldParser;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Buffer;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.FoldTree;
import org.nvimpam.testutil.PluginTestBase;

/**
 * The plugin as a user meets it: a headless Neovim with this repository on 'runtimepath', whose
 * Lua side starts target/nvimpam.jar. Fold trees are read back from Neovim itself.
 */
class PluginIT extends PluginTestBase {
  private static final long WAIT_MS = 15_000;
  private static final Pattern HEALTH_OK_JVM = Pattern.compile("(?m)^\\s*-\\s+(?:\\S+\\s+)?OK:?\\s+JVM started");


  private FoldTree expected(Buffer b) {
    Lines lines = nvim.bufGetLines(b, 0, -1, false).join();
    return FoldTree.of(FoldParser.parse(lines, new FoldOptions(true)).plan(false));
  }

  /** Waits until the window's folds equal a full parse of the buffer (live folding is debounced). */
  private void awaitFoldsFollow(Buffer b) throws Exception {
    long end = System.currentTimeMillis() + WAIT_MS;
    FoldTree want = expected(b);
    FoldTree got = FoldTree.read(nvim);
    while (!want.equals(got) && System.currentTimeMillis() < end) {
      Thread.sleep(50);
      got = FoldTree.read(nvim);
    }
    assertEquals(want, got);
  }

  /**
   * Waits until the folds were applied at the buffer's current changedtick, without touching the
   * window's folds (reading the tree resets which folds are open).
   */
  private void awaitRefresh() throws Exception {
    long end = System.currentTimeMillis() + WAIT_MS;
    String done = "return require('nvimpam.fold').applied_tick(0) == vim.b.changedtick";
    while (!Boolean.TRUE.equals(lua(done)) && System.currentTimeMillis() < end) {
      Thread.sleep(20);
    }
    assertEquals(true, lua(done), "folds applied at the current changedtick");
  }

  private List<?> notes() {
    return (List<?>) lua("return _G.notes");
  }

  @Test
  void nvimpamFoldPutsTheEnginesFoldsIntoTheWindow() throws IOException {
    setup("auto_attach = false");
    EmbeddedNvim.edit(nvim, example(), dir);
    Buffer b = nvim.currentBuffer().join();

    nvim.command("NvimpamFold").join();

    assertEquals(expected(b), FoldTree.read(nvim));
    assertEquals(" 725 lines: Node ", nvim.eval("foldtextresult(29)").join());
    assertEquals(List.of(), notes(), "no error notifications");
  }

  @Test
  void everyStrategyGivesTheSameFoldsThroughTheCommands() throws IOException {
    setup("auto_attach = false");
    EmbeddedNvim.edit(nvim, example(), dir);
    Buffer b = nvim.currentBuffer().join();
    for (String s : List.of("per-command", "call-atomic", "pipe", "lua", "viml")) {
      nvim.command("NvimpamFoldStrategy " + s).join();
      nvim.command("normal! zE").join();

      nvim.command("NvimpamFold").join();

      assertEquals(expected(b), FoldTree.read(nvim), s);
      assertEquals(s, lua("return require('nvimpam').strategy()"));
    }
  }

  @Test
  void nvimpamFoldBenchTimesEveryStrategyAndLeavesTheBufferFolded() throws IOException {
    setup("auto_attach = false");
    EmbeddedNvim.edit(nvim, example(), dir);
    Buffer b = nvim.currentBuffer().join();

    Map<?, ?> result = map(lua("return require('nvimpam').bench(0)"));

    List<?> rows = (List<?>) result.get("rows");
    assertEquals(List.of("per-command", "call-atomic", "pipe", "lua", "viml"),
        rows.stream().map(r -> map(r).get("strategy")).toList());
    for (Object r : rows) {
      assertEquals(23L, map(r).get("folds"));
      assertTrue(((Number) map(r).get("median_ms")).doubleValue() > 0, String.valueOf(r));
    }
    String table = String.join("\n", castStrings(result.get("lines")));
    assertTrue(table.contains("x floor") && table.contains("23 folds"), table);
    assertEquals(expected(b), FoldTree.read(nvim));
    nvim.command("NvimpamFoldBench").join(); // the command shows the same table
    assertEquals(List.of(), notes());
  }

  @Test
  void anUnknownStrategyIsAClearError() {
    setup("auto_attach = false");
    nvim.command("NvimpamFoldStrategy fastest").join();

    String note = String.valueOf(((List<?>) notes().get(0)).get(0));
    assertTrue(note.contains("unknown fold strategy 'fastest'"), note);
    assertTrue(note.contains("per-command, call-atomic, pipe, lua, viml"), note);
  }

  @Test
  void liveFoldingFollowsEditsAndUndo() throws Exception {
    setup("auto_attach = false, debounce_ms = 20");
    EmbeddedNvim.edit(nvim, example(), dir);
    Buffer b = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    assertEquals(expected(b), FoldTree.read(nvim), "folded when the command returns");

    // A NODE line in the middle of the SHELL run splits it. (Through the API: an Ex range would
    // be stretched over the closed fold.)
    lua("vim.api.nvim_buf_set_lines(0, 5000, 5000, false, "
        + "{ 'NODE  /     9999              0.              0.              0.' })");
    awaitFoldsFollow(b);
    assertEquals(-1L, nvim.eval("foldclosed(5001)").join(), "the new one-line Node card splits the Shell run");

    // Deleting a PART header unfolds its card.
    lua("vim.api.nvim_buf_set_lines(0, 808, 809, false, {})");
    awaitFoldsFollow(b);

    nvim.command("undo").join();
    awaitFoldsFollow(b);
    nvim.command("undo").join();
    awaitFoldsFollow(b);
    assertEquals(expected(b), FoldTree.of(FoldParser.parse(Lines.split(example()), new FoldOptions(true)).plan(false)),
        "back to the original deck");
  }

  @Test
  void nothingIsRefoldedInInsertModeAndTheFoldsFollowOnLeavingIt() throws Exception {
    setup("auto_attach = false, debounce_ms = 20");
    EmbeddedNvim.edit(nvim, example(), dir);
    Buffer b = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    input("i");
    assertEquals("i", map(nvim.call("nvim_get_mode", out -> out.packArrayHeader(0), nvim.objects()).join()).get("mode"));

    lua("vim.api.nvim_buf_set_lines(0, 5000, 5000, false, "
        + "{ 'NODE  /     9999              0.              0.              0.' })");
    Thread.sleep(500); // 25 debounce periods

    assertEquals(false, lua("return require('nvimpam.fold').applied_tick(0) == vim.b.changedtick"),
        "no refold while typing");
    input("<Esc>");
    awaitRefresh();
    awaitFoldsFollow(b);
  }

  private void input(String keys) {
    nvim.call("nvim_input", out -> {
      out.packArrayHeader(1);
      out.packString(keys);
    }, in -> in.unpackLong()).join();
  }

  @Test
  void gNvimpamStrategyPicksTheStrategyWhenSetupNamesNone() {
    nvim.command("let g:nvimpam_strategy = 'pipe'").join();
    setup("auto_attach = false");

    assertEquals("pipe", lua("return require('nvimpam').strategy()"));
  }

  @Test
  void aFoldTheUserOpenedStaysOpenWhileEditingElsewhere() throws Exception {
    setup("auto_attach = false, debounce_ms = 20");
    EmbeddedNvim.edit(nvim, example(), dir);
    Buffer b = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    nvim.command("984foldopen").join();

    nvim.command("1put! ='$ new comment'").join();
    awaitRefresh();

    assertEquals(-1L, nvim.eval("foldclosed(985)").join());
    assertEquals(expected(b), FoldTree.read(nvim));
  }

  @Test
  void autoAttachFoldsAPamcrashBufferWhenItOpens() throws Exception {
    setup("debounce_ms = 20");
    nvim.command("filetype on").join();
    Path deck = dir.resolve("car.pc");
    Files.write(deck, example());

    nvim.command("edit " + deck).join();

    assertEquals("pamcrash", nvim.eval("&filetype").join());
    awaitFoldsFollow(nvim.currentBuffer().join());
  }

  @Test
  void twoBuffersAreServedByOneJvm() throws Exception {
    setup("auto_attach = false, debounce_ms = 20");
    EmbeddedNvim.edit(nvim, example(), dir);
    Buffer first = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    Object pid = lua("return require('nvimpam.host').pid()");
    nvim.command("split").join();
    EmbeddedNvim.edit(nvim, example(), dir);
    Buffer second = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();

    assertNotEquals(first, second);
    assertEquals(pid, lua("return require('nvimpam.host').pid()"));
    String info = String.join("\n", castStrings(lua("return require('nvimpam').info_lines()")));
    assertTrue(info.contains("attached buffers: [" + first.id() + ", " + second.id() + "]")
        || info.contains("attached buffers: [" + second.id() + ", " + first.id() + "]"), info);
    awaitFoldsFollow(second);
  }

  @Test
  void theNextCommandRestartsAKilledJvm() throws Exception {
    setup("auto_attach = false");
    EmbeddedNvim.edit(nvim, example(), dir);
    Buffer b = nvim.currentBuffer().join();
    nvim.command("NvimpamFold").join();
    long pid = ((Number) lua("return require('nvimpam.host').pid()")).longValue();
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    long end = System.currentTimeMillis() + WAIT_MS;
    while (Boolean.TRUE.equals(lua("return require('nvimpam.host').running()")) && System.currentTimeMillis() < end) {
      Thread.sleep(20);
    }
    nvim.command("normal! zE").join();

    nvim.command("NvimpamFold").join();

    assertEquals(expected(b), FoldTree.read(nvim));
    assertNotEquals(pid, ((Number) lua("return require('nvimpam.host').pid()")).longValue());
    String note = String.valueOf(((List<?>) notes().get(0)).get(0));
    assertTrue(note.contains("exited"), note);
  }

  @Test
  void liveFoldingResumesWhenTheNextCommandRestartsAKilledJvm() throws Exception {
    setup("auto_attach = false, debounce_ms = 20");
    EmbeddedNvim.edit(nvim, example(), dir);
    Buffer b = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();
    long pid = ((Number) lua("return require('nvimpam.host').pid()")).longValue();
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    long end = System.currentTimeMillis() + WAIT_MS;
    while (Boolean.TRUE.equals(lua("return require('nvimpam.host').running()")) && System.currentTimeMillis() < end) {
      Thread.sleep(20);
    }

    nvim.command("NvimpamFold").join(); // the next command starts the JVM again
    lua("vim.api.nvim_buf_set_lines(0, 5000, 5000, false, "
        + "{ 'NODE  /     9999              0.              0.              0.' })");

    awaitFoldsFollow(b);
  }

  @Test
  void aMissingJarIsReportedWithTheFix() {
    lua("require('nvimpam').setup({ jar = '/nonexistent/nvimpam.jar', auto_attach = false })");

    nvim.command("NvimpamFold").join();

    String note = String.valueOf(((List<?>) notes().get(0)).get(0));
    assertTrue(note.contains("/nonexistent/nvimpam.jar") && note.contains("./mvnw -q package -DskipTests"), note);
  }

  @Test
  void liveFoldingSurvivesAReload() throws Exception {
    setup("auto_attach = false, debounce_ms = 20");
    EmbeddedNvim.edit(nvim, example(), dir);
    Buffer b = nvim.currentBuffer().join();
    nvim.command("NvimpamFoldAttach").join();

    nvim.command("edit!").join();
    awaitRefresh();
    assertEquals(29L, nvim.eval("foldclosed(29)").join(), "folded again, closed, after the reload");
    lua("vim.api.nvim_buf_set_lines(0, 5000, 5000, false, "
        + "{ 'NODE  /     9999              0.              0.              0.' })");

    awaitFoldsFollow(b);
    assertEquals(-1L, nvim.eval("foldclosed(5001)").join(), "the new one-line Node card splits the Shell run");
  }

  @Test
  void aBigDeckReportsLinesFoldsAndTime() throws IOException {
    setup("auto_attach = false, notify_lines = 1000");
    EmbeddedNvim.edit(nvim, example(), dir);

    nvim.command("NvimpamFold").join();

    String note = String.valueOf(((List<?>) notes().get(0)).get(0));
    assertTrue(note.matches("nvimpam: 20,586 lines, 23 folds in \\d+\\.\\d\\d s"), note);
  }

  @Test
  void aBigDeckThatOpensReportsLinesFoldsAndTimeToo() throws Exception {
    setup("notify_lines = 1000, debounce_ms = 20");
    nvim.command("filetype on").join();
    Path deck = dir.resolve("car.pc");
    Files.write(deck, example());

    nvim.command("edit " + deck).join(); // folded live in the background

    awaitLua("return #_G.notes > 0");
    String note = String.valueOf(((List<?>) notes().get(0)).get(0));
    assertTrue(note.matches("nvimpam: 20,586 lines, 23 folds in \\d+\\.\\d\\d s"), note);
  }

  @Test
  void aMissingJavaIsReportedWithTheFix() {
    lua("require('nvimpam').setup({ java = '/nonexistent/bin/java', auto_attach = false })");

    nvim.command("NvimpamFold").join();

    String note = String.valueOf(((List<?>) notes().get(0)).get(0));
    assertTrue(note.contains("/nonexistent/bin/java") && note.contains("JDK 17"), note);
  }

  @Test
  void theJvmEndsWithinOneSecondOfNeovim() throws Exception {
    setup("auto_attach = false");
    EmbeddedNvim.edit(nvim, example(), dir);
    nvim.command("NvimpamFold").join();
    long pid = ((Number) lua("return require('nvimpam.host').pid()")).longValue();
    ProcessHandle jvm = ProcessHandle.of(pid).orElseThrow();

    nvim.rpc().notify("nvim_command", out -> {
      out.packArrayHeader(1);
      out.packString("qa!");
    });
    long t0 = System.nanoTime();
    jvm.onExit().get(5, java.util.concurrent.TimeUnit.SECONDS);

    double seconds = (System.nanoTime() - t0) / 1e9;
    assertTrue(seconds < 1.0, "the JVM took " + seconds + " s to exit");
  }

  @Test
  void checkhealthReportsNoError() {
    setup("auto_attach = false, refs_max = 7");

    nvim.command("checkhealth nvimpam").join();

    String report = String.join("\n", castStrings(lua("return vim.api.nvim_buf_get_lines(0, 0, -1, false)")));
    // 0.7 writes "  - OK: JVM started", 0.10 "- OK JVM started", 0.12 "- <icon> OK JVM started".
    assertTrue(HEALTH_OK_JVM.matcher(report).find(), report);
    assertFalse(report.contains("ERROR"), report);
    assertTrue(report.contains("started by this check"), "says that it started the JVM: " + report);
    assertTrue(report.contains("folds are created by"), "says how folds are made: " + report);
    assertTrue(report.matches("(?s).*options not at their defaults: .*auto_attach = false, refs_max = 7.*"),
        "names the options set: " + report);
  }

  @Test
  void aMisspelledSetupKeyIsRejectedWithTheValidKeys() {
    Object e = lua("local ok, e = pcall(require('nvimpam').setup, { stratgy = 'pipe' }) return e");

    String message = String.valueOf(e);
    assertTrue(message.contains("unknown option 'stratgy'"), message);
    for (String key : List.of("auto_attach", "debounce_ms", "jar", "jvm_args", "strategy", "timeout_ms")) {
      assertTrue(message.matches(".*valid options: .*\\b" + key + "\\b.*"), key + " in: " + message);
    }
  }

  @Test
  void commandsFromTheRemotePluginManifestWork() throws Exception {
    Path manifest = dir.resolve("rplugin.vim");
    String init = "let $NVIM_RPLUGIN_MANIFEST = '" + manifest + "' | runtime! plugin/rplugin.vim | runtime plugin/nvimpam.vim";
    nvim.command(init).join();
    nvim.command("UpdateRemotePlugins").join();
    String text = Files.readString(manifest);
    assertTrue(text.contains("'name': 'NvimpamFold'"), text);
    assertTrue(text.contains("'sync': 0") && !text.contains("'sync': 1"), "asynchronous commands: " + text);
    nvim.close();

    nvim = EmbeddedNvim.startCollectingNotes();
    nvim.command(init).join();
    EmbeddedNvim.edit(nvim, example(), dir);
    Buffer b = nvim.currentBuffer().join();

    nvim.command("NvimpamFold").join();

    awaitFoldsFollow(b); // the manifest's commands are asynchronous
  }

  @Test
  void theManifestsCommandsRunTheSameCodeAsSetups() throws Exception {
    Path manifest = dir.resolve("rplugin.vim");
    String init = "let $NVIM_RPLUGIN_MANIFEST = '" + manifest + "' | runtime! plugin/rplugin.vim | runtime plugin/nvimpam.vim";
    nvim.command(init).join();
    nvim.command("UpdateRemotePlugins").join();
    nvim.close();
    nvim = EmbeddedNvim.startCollectingNotes();
    nvim.command(init).join();
    String jar = EmbeddedNvim.jar();
    lua("require('nvimpam.core.config').set({ jar = '" + jar + "', auto_attach = false, notify_lines = 1000 })");
    EmbeddedNvim.edit(nvim, example(), dir);

    nvim.command("NvimpamFold").join();
    awaitLua("return #_G.notes > 0");
    String note = String.valueOf(((List<?>) notes().get(0)).get(0));
    assertTrue(note.matches("nvimpam: 20,586 lines, 23 folds in \\d+\\.\\d\\d s"), "the summary, as setup()'s command: " + note);

    nvim.command("NvimpamFoldStrategy pipe").join();
    awaitLua("return require('nvimpam').strategy() == 'pipe'");
    long pid = ((Number) lua("return require('nvimpam.host').pid()")).longValue();
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    awaitLua("return not require('nvimpam.host').running()");
    nvim.command("NvimpamFold").join(); // starts a new JVM, with the options Lua owns
    awaitLua("return require('nvimpam.host').pid() ~= nil and require('nvimpam.host').pid() ~= " + pid);

    String info = String.join("\n", castStrings(lua("return require('nvimpam').info_lines()")));
    assertTrue(info.contains("strategy: pipe"), "the strategy survives a restart: " + info);
  }

  /** Waits until the Lua expression is true. */
  private void awaitLua(String code) throws Exception {
    long end = System.currentTimeMillis() + WAIT_MS;
    while (!Boolean.TRUE.equals(lua(code)) && System.currentTimeMillis() < end) {
      Thread.sleep(20);
    }
    assertEquals(true, lua(code), code);
  }

  private static List<String> castStrings(Object o) {
    return ((List<?>) o).stream().map(String::valueOf).toList();
  }

  private static Map<?, ?> map(Object o) {
    return (Map<?, ?>) o;
  }
}
