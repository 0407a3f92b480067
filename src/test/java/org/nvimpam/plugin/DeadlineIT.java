package org.nvimpam.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.testutil.EmbeddedNvim;
import org.nvimpam.testutil.PluginTestBase;
import org.nvimpam.testutil.Signals;

/**
 * Neovim never waits on a stopped, hung or dead JVM: commands give up at their deadline or on
 * Ctrl-C with a message, background work (opening a deck) does not wait at all, and another RPC
 * client is answered meanwhile. The JVM is stopped with SIGSTOP, as a hung one would look.
 */
class DeadlineIT extends PluginTestBase {
  /** Generous bounds on how long Neovim may take to answer: they only catch a frozen editor. */
  private static final long ANSWER_S = 10;

  Nvim other; // a second RPC client, as a GUI or another plugin host would be
  long stopped = -1;

  @BeforeEach
  void connectOther() throws IOException {
    String address = String.valueOf(nvim.eval("serverstart()").join());
    other = Nvim.socket(address);
  }

  @AfterEach
  void resumeAndDisconnect() throws Exception {
    if (stopped > 0) {
      signal("CONT", stopped);
    }
    other.close();
  }

  private static void signal(String name, long pid) throws Exception {
    Signals.send(name, pid);
  }

  /**
   * Starts the JVM with a first fold (under the default deadline: a loaded machine may take
   * seconds to start it), then sets the deadline under test and stops the JVM; returns its pid.
   */
  private long foldThenStopTheJvm(long timeoutMs) throws Exception {
    EmbeddedNvim.edit(nvim, example(), dir);
    nvim.command("NvimpamFold").join();
    lua("require('nvimpam.core.config').get().timeout_ms = " + timeoutMs);
    long pid = ((Number) lua("return require('nvimpam.host').pid()")).longValue();
    signal("STOP", pid);
    stopped = pid;
    return pid;
  }

  private List<?> notes() {
    return (List<?>) lua("return _G.notes");
  }

  private String lastNote() {
    List<?> notes = notes();
    return notes.isEmpty() ? "" : String.valueOf(((List<?>) notes.get(notes.size() - 1)).get(0));
  }

  /** What another client gets from Neovim right now, within ANSWER_S. */
  private Object otherClientEval() throws Exception {
    return other.eval("1 + 1").get(ANSWER_S, TimeUnit.SECONDS);
  }

  @Test
  void aStoppedJvmGivesAMessageAtTheDeadlineAndOtherClientsAreAnsweredMeanwhile() throws Exception {
    setup("auto_attach = false");
    long pid = foldThenStopTheJvm(3000);

    CompletableFuture<Void> fold = nvim.command("NvimpamFold");
    Thread.sleep(300);
    assertFalse(fold.isDone(), "the command waits for the stopped JVM");
    assertEquals(2L, otherClientEval(), "another client is answered while the command waits");

    fold.get(ANSWER_S, TimeUnit.SECONDS);
    String note = lastNote();
    assertTrue(note.contains("no answer to :NvimpamFold within 3.0 s"), note);
    assertTrue(note.contains("pid " + pid + ") is stopped") && note.contains("kill -CONT " + pid), note);
  }

  @Test
  void aLateAnswerAfterTheDeadlineIsDropped() throws Exception {
    setup("auto_attach = false");
    long pid = foldThenStopTheJvm(1000);
    nvim.command("NvimpamFold").get(ANSWER_S, TimeUnit.SECONDS);
    assertEquals(1, notes().size(), String.valueOf(notes()));

    signal("CONT", pid);
    stopped = -1;
    nvim.command("NvimpamFold").get(ANSWER_S, TimeUnit.SECONDS); // answered after the late one

    assertEquals(1, notes().size(), "the late answer shows nothing: " + notes());
    assertEquals(29L, nvim.eval("foldclosed(29)").join(), "the next command folds");
  }

  /**
   * wait() ends at any error message raised while it runs other work, even one a pcall catches
   * (the soak's :edit! and buffer switches raise them): the command goes on waiting for its answer.
   */
  @Test
  void anErrorMessageOfOtherWorkDuringTheWaitDoesNotEndIt() throws Exception {
    setup("auto_attach = false");
    foldThenStopTheJvm(60000);
    lua("vim.defer_fn(function() pcall(vim.cmd, 'foldopen') end, 100)"); // E490, caught

    CompletableFuture<Void> fold = nvim.command("NvimpamFold");
    Thread.sleep(600);
    assertFalse(fold.isDone(), "the command still waits for the stopped JVM");
    signal("CONT", stopped);
    stopped = -1;

    fold.get(ANSWER_S, TimeUnit.SECONDS);
    assertEquals(List.of(), notes(), "answered, no message");
    assertEquals(29L, nvim.eval("foldclosed(29)").join(), "folded by the answer");
  }

  @Test
  void ctrlCFromAnotherClientEndsTheWait() throws Exception {
    setup("auto_attach = false");
    foldThenStopTheJvm(120000);

    CompletableFuture<Void> fold = nvim.command("NvimpamFold");
    Thread.sleep(300);
    assertFalse(fold.isDone(), "the command waits for the stopped JVM");
    other.call("nvim_input", out -> {
      out.packArrayHeader(1);
      out.packString("<C-c>");
    }, in -> in.unpackLong()).get(ANSWER_S, TimeUnit.SECONDS);

    // 2 s is the promise to the user; the 120 s deadline is far away.
    try {
      fold.get(2, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      // :NvimpamFold may end as "Interrupted" itself; what matters is that it ended.
    }
    assertTrue(lastNote().contains("interrupted while waiting for :NvimpamFold"), String.valueOf(notes()));
  }

  @Test
  void aJvmThatDiesFailsTheWaitingCommandAtOnce() throws Exception {
    setup("auto_attach = false");
    long pid = foldThenStopTheJvm(120000);

    CompletableFuture<Void> fold = nvim.command("NvimpamFold");
    Thread.sleep(300);
    signal("KILL", pid);
    stopped = -1;

    fold.get(ANSWER_S, TimeUnit.SECONDS);
    long end = System.currentTimeMillis() + ANSWER_S * 1000;
    while (notes().isEmpty() && System.currentTimeMillis() < end) { // the crash note is scheduled
      Thread.sleep(20);
    }
    assertTrue(lastNote().contains("exited"), String.valueOf(notes()));
    Thread.sleep(200);
    assertEquals(1, notes().size(), "one message for one death: " + notes());
  }

  @Test
  void openingADeckNeverWaitsForTheJvm() throws Exception {
    setup("debounce_ms = 20");
    nvim.command("filetype on").join();
    foldThenStopTheJvm(60000);
    Path deck = dir.resolve("car.pc");
    Files.write(deck, example());

    nvim.command("edit " + deck).get(ANSWER_S, TimeUnit.SECONDS); // auto_attach asks the stopped JVM

    assertEquals("pamcrash", nvim.eval("&filetype").get(ANSWER_S, TimeUnit.SECONDS));
    lua("vim.api.nvim_buf_set_lines(0, 0, 0, false, { '$ typed while the JVM is stopped' })");
    assertEquals(2L, otherClientEval());
    assertEquals(List.of(), notes(), "nothing to report yet");

    signal("CONT", stopped);
    stopped = -1;
    long end = System.currentTimeMillis() + ANSWER_S * 1000;
    String applied = "return require('nvimpam.fold').applied_tick(0) == vim.b.changedtick";
    while (!Boolean.TRUE.equals(lua(applied)) && System.currentTimeMillis() < end) {
      Thread.sleep(20);
    }
    assertEquals(true, lua(applied), "folded live once the JVM runs again");
    assertEquals(30L, nvim.eval("foldclosed(30)").join());
  }

  @Test
  void aManifestCommandThatTheStoppedJvmNeverPassesOnGivesAMessage() throws Exception {
    Path manifest = dir.resolve("rplugin.vim");
    // The manifest's own commands: nvimpam's start (which would define its own) is left out.
    String init = "let g:nvimpam_no_start = 1 | let $NVIM_RPLUGIN_MANIFEST = '" + manifest
        + "' | runtime! plugin/rplugin.vim | runtime plugin/nvimpam.vim";
    nvim.command(init).join();
    nvim.command("UpdateRemotePlugins").join();
    other.close();
    nvim.close();
    nvim = EmbeddedNvim.startCollectingNotes();
    other = Nvim.socket(String.valueOf(nvim.eval("serverstart()").join()));
    nvim.command(init).join();
    String jar = EmbeddedNvim.jar();
    lua("require('nvimpam.core.config').set({ jar = '" + jar + "', auto_attach = false })");
    EmbeddedNvim.edit(nvim, example(), dir);
    nvim.command("NvimpamFold").join();
    long end = System.currentTimeMillis() + ANSWER_S * 1000;
    while (!Long.valueOf(29).equals(nvim.eval("foldclosed(29)").join()) && System.currentTimeMillis() < end) {
      Thread.sleep(20);
    }
    long pid = ((Number) lua("return require('nvimpam.host').pid()")).longValue();
    lua("require('nvimpam.core.config').get().timeout_ms = 1500");
    signal("STOP", pid);
    stopped = pid;

    nvim.command("NvimpamFold").get(ANSWER_S, TimeUnit.SECONDS); // asynchronous: returns at once
    assertEquals(2L, otherClientEval());
    while (notes().isEmpty() && System.currentTimeMillis() < end) {
      Thread.sleep(20);
    }

    String note = lastNote();
    assertTrue(note.contains(":NvimpamFold got no answer from the JVM (pid " + pid + ") within 1.5 s"), note);
  }

  @Test
  void outOfMemoryNamesTheDeckAndTheHeapToGive() throws Exception {
    // About 18 MB of deck: more than a 24 MB heap can hold while reading and parsing it.
    byte[] one = example();
    byte[] big = new byte[one.length * 15];
    for (int i = 0; i < 15; i++) {
      System.arraycopy(one, 0, big, i * one.length, one.length);
    }
    setup("auto_attach = false, jvm_args = { '-Xmx24m' }");
    EmbeddedNvim.edit(nvim, one, dir);
    long small = ((Number) nvim.currentBuffer().join().id()).longValue();
    nvim.command("split").join();
    Path file = EmbeddedNvim.edit(nvim, big, dir);

    nvim.command("NvimpamFold").get(60, TimeUnit.SECONDS);

    long end = System.currentTimeMillis() + ANSWER_S * 1000;
    while (!lastNote().contains("ran out of memory") && System.currentTimeMillis() < end) { // may be scheduled
      Thread.sleep(20);
    }
    String note = lastNote();
    assertTrue(note.contains("ran out of memory"), String.valueOf(notes()));
    assertTrue(note.contains(file.getFileName().toString()) && note.contains("308,790 lines"), note);
    assertTrue(note.matches("(?s).*jvm_args = \\{ '-Xmx\\d+m' \\}.*"), note);
    long suggested = Long.parseLong(note.replaceAll("(?s).*-Xmx(\\d+)m.*", "$1"));
    assertTrue(suggested * 1_000_000 >= 1.5 * big.length, "room for the deck: " + note);

    // The other buffer still folds, by the same JVM or by a new one.
    nvim.command("wincmd j").join();
    assertEquals(small, nvim.currentBuffer().join().id());
    nvim.command("NvimpamFold").get(60, TimeUnit.SECONDS);
    assertEquals(29L, nvim.eval("foldclosed(29)").join(), String.valueOf(notes()));
  }
}
