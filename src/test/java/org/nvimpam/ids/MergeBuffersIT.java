package org.nvimpam.ids;

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
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.cli.Main;
import org.nvimpam.testutil.IncludeTree;
import org.nvimpam.testutil.PluginTestBase;

/**
 * :NvimpamMerge in a real Neovim: the three-file include tree of {@link RenumberTreeIT} (GES items
 * and ranges in all three) merged with a second deck (the same tree in another folder: every id
 * clashes, both group titles collide, its control line is left out). The new buffers hold, file by
 * file, the bytes the headless {@code merge} writes for the same decks, and nothing is written;
 * unsaved edits of an open deck are what is merged; a refusal creates no buffer.
 */
class MergeBuffersIT extends PluginTestBase {
  private Path main;
  private Path other;
  private Path out;

  @BeforeEach
  void files() throws IOException {
    setup("");
    nvim.command("filetype on").join();
    main = IncludeTree.write(dir, RenumberTreeIT.MAIN, RenumberTreeIT.A, RenumberTreeIT.B).main;
    Path o = Files.createDirectories(dir.resolve("seat"));
    other = IncludeTree.write(o, RenumberTreeIT.MAIN, RenumberTreeIT.A, RenumberTreeIT.B).main;
    out = dir.resolve("out");
  }

  private void edit(Path f) {
    nvim.command("edit " + f).join();
    lua("vim.wait(15000, function() return require('nvimpam.ids').last[vim.api.nvim_get_current_buf()] ~= nil end, 20)");
  }

  /** Runs :NvimpamMerge with {@code args} and waits for its end; the last message. */
  private String merge(String args) {
    lua("require('nvimpam.deck.merge').last = nil");
    nvim.command("NvimpamMerge " + args).join();
    lua("vim.wait(20000, function() local l = require('nvimpam.deck.merge').last return l and l.done end, 10)");
    return String.valueOf(lua("local n = _G.notes[#_G.notes] return n and n[1] or ''"));
  }

  /** The files the headless merge writes into {@code to}, by path relative to it. */
  private static Map<String, String> headless(Path to, Path... decks) throws IOException {
    List<String> args = new ArrayList<>(List.of("merge"));
    for (Path d : decks) args.add(d.toString());
    args.addAll(List.of("-o", to.toString()));
    assertEquals(0, Main.run(args.toArray(new String[0])));
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> s = Files.walk(to)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        files.put(to.relativize(p).toString(), Files.readString(p, StandardCharsets.ISO_8859_1));
      }
    }
    return files;
  }

  /** The text of each buffer under {@code out}, by path relative to it, as :write would write it. */
  @SuppressWarnings("unchecked")
  private Map<String, String> buffers() {
    Map<String, String> files = new TreeMap<>();
    List<List<Object>> bufs = (List<List<Object>>) lua("local out = {} for _, b in ipairs(vim.api.nvim_list_bufs()) do "
        + "local n = vim.api.nvim_buf_get_name(b) if n:sub(1, #'" + out + "/') == '" + out + "/' then "
        + "out[#out + 1] = { n:sub(#'" + out + "/' + 1), table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, true), '\\n') "
        + ".. ((vim.bo[b].eol or vim.bo[b].fixeol) and '\\n' or ''), vim.bo[b].modified } end end return out");
    for (List<Object> b : bufs) {
      assertEquals(true, b.get(2), b.get(0) + " is modified: :wall writes it");
      files.put(String.valueOf(b.get(0)), new String(((String) b.get(1)).getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
    }
    return files;
  }

  @Test
  void theBuffersHoldWhatTheHeadlessMergeWritesAndNothingIsWritten() throws IOException {
    edit(main);
    String note = merge(out + " " + other);
    Map<String, String> want = headless(dir.resolve("want"), main, other);
    assertEquals(7, want.size(), "the master and each deck's three files");
    assertEquals(want, buffers(), note);
    assertFalse(Files.exists(out), "nothing written");
    assertEquals(out.resolve("master.pc").toString(), lua("return vim.api.nvim_buf_get_name(0)"), "the master deck is open");
    assertTrue(note.contains(":wall writes them"), note);
    @SuppressWarnings("unchecked")
    List<String> items = (List<String>) lua("return vim.tbl_map(function(i) return i.text end, vim.fn.getqflist())");
    assertEquals(List.of("ids kept, into out/main",
        "offsets node +90 (auto), element +400 (auto), part +20 (auto), material +4 (auto), into out/main_2",
        "group 'doors' renamed 'doors_2'", "group 'rear' renamed 'rear_2'", "left out: INPUTVERSION 2011"),
        items.stream().map(s -> s.replace(dir + "/", "")).toList());
    // :wall writes them, the folders made on the way
    nvim.command("wall").join();
    Map<String, String> written = new TreeMap<>();
    for (String rel : want.keySet()) written.put(rel, Files.readString(out.resolve(rel), StandardCharsets.ISO_8859_1));
    assertEquals(want, written);
  }

  @Test
  void unsavedEditsOfAnOpenDeckAreMerged() throws IOException {
    Map<String, String> saved = headless(dir.resolve("saved"), main, other);
    edit(dir.resolve("seat/a.inc"));
    lua("vim.api.nvim_buf_set_lines(0, 2, 3, true, { '" + IdsIT.node(76) + "' })");
    edit(main);
    lua("vim.api.nvim_buf_set_lines(0, 4, 4, true, { '$ an unsaved comment' })");
    String note = merge(out + " " + other);
    Map<String, String> merged = buffers();
    nvim.command("wall").join(); // the decks' edits (and the merge's buffers)
    Map<String, String> want = headless(dir.resolve("want"), main, other);
    assertEquals(want, merged, note);
    assertFalse(saved.get("main_2/a.inc").equals(merged.get("main_2/a.inc")), "the edit of seat/a.inc is merged");
    assertFalse(saved.get("main/main.pc").equals(merged.get("main/main.pc")), "the edit of main.pc is merged");
  }

  /** The buffers named under OUTDIR. */
  private long outBuffers() {
    return (Long) lua("local n = 0 for _, b in ipairs(vim.api.nvim_list_bufs()) do "
        + "if vim.api.nvim_buf_get_name(b):sub(1, #'" + out + "/') == '" + out + "/' then n = n + 1 end end return n");
  }

  @Test
  void aRefusalCreatesNoBufferAndWritesNothing() throws IOException {
    edit(main);
    // values that no longer fit their fields (8 columns)
    String note = merge(out + " " + other + " offset=node=100000000");
    assertEquals(0, outBuffers(), note);
    assertTrue(String.valueOf(lua("return vim.fn.getqflist({ title = 0 }).title")).contains("refused, nothing created"), note);
    assertTrue(((Long) lua("return #vim.fn.getqflist()")) > 0, note);
    assertFalse(Files.exists(out));
    // an output file that exists on disk
    Files.createDirectories(out);
    Files.writeString(out.resolve("master.pc"), "mine\n");
    note = merge(out + " " + other);
    assertEquals(0, outBuffers(), note);
    assertTrue(String.valueOf(lua("return vim.fn.getqflist()[1].text")).contains("exists already"), note);
    assertEquals("mine\n", Files.readString(out.resolve("master.pc")));
    // a buffer of an output file's name
    Files.delete(out.resolve("master.pc"));
    nvim.command("badd " + out.resolve("main/a.inc")).join();
    nvim.command("cclose").join();
    note = merge(out + " " + other);
    assertEquals(1, outBuffers(), note);
    assertTrue(String.valueOf(lua("return vim.fn.getqflist()[1].text")).contains("is a buffer already"), note);
    assertEquals(List.of(), listFiles(out));
  }

  /**
   * A large merge (a generated deck of 200,000 lines over include files, with itself) fills its
   * buffers in many turns of the main loop, none longer than 16 ms of CPU time; a timer of 1 ms
   * measures the gaps between its runs (printed: on a loaded machine they count other processes).
   */
  @Test
  void aLargeMergeNeverStallsNeovim() throws IOException {
    Path big = dir.resolve("big.pc");
    assertEquals(0, Main.run("gen", "--lines=200000", "--includes=3", "--out=" + big));
    edit(big);
    lua("vim.wait(3000, function() return false end, 50)"); // the deck's folds in place
    lua("_G.gap = 0 _G.gaps = {} local t0 = vim.loop.hrtime() local last = t0 _G.tick = vim.loop.new_timer() "
        + "_G.tick:start(1, 1, function() local now = vim.loop.hrtime() local g = (now - last) / 1e6 _G.gap = math.max(_G.gap, g) "
        + "if g > 16 then _G.gaps[#_G.gaps + 1] = string.format('%.0f@%.0f', g, (last - t0) / 1e6) end last = now end)");
    String note = merge(out + " " + big);
    lua("_G.tick:stop()");
    @SuppressWarnings("unchecked")
    Map<String, Object> last = (Map<String, Object>) lua("local l = require('nvimpam.deck.merge').last "
        + "return { turns = l.turns, longest = l.longest_ms, cpu = l.longest_cpu_ms, gap = _G.gap, gaps = table.concat(_G.gaps, ' '), buffers = #(l.buffers or {}) }");
    System.err.println("large merge: " + last);
    assertEquals(9L, last.get("buffers"), note);
    assertTrue(((Number) last.get("turns")).longValue() > 10, last::toString);
    // CPU time: on a loaded machine a turn's wall time counts the other processes' too
    assertTrue(((Number) last.get("cpu")).doubleValue() <= 16, last::toString);
  }

  private static List<Path> listFiles(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.toList();
    }
  }
}
