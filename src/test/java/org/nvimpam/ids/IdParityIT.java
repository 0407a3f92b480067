package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nvimpam.deck.DeckFile;
import org.nvimpam.deck.ProblemItems;
import org.nvimpam.testutil.PluginTestBase;

/**
 * The id answers are the same whether the deck comes from a buffer (the plugin: Neovim's lines,
 * loaded live, answered over the wire by plugin.IdCalls) or from its file (no Neovim: the deck read
 * from disk, asked of {@link IdService} directly): the outline, the next free id of every kind,
 * and the definitions and references of the greatest id of each kind, on the sample decks.
 */
class IdParityIT extends PluginTestBase {
  /** Answers a call of nvimpam.ids straight from the JVM, as the plugin's commands get it. */
  private static final String ASK = "local method, args = ... local done, res, err = false, nil, nil "
      + "require('nvimpam.host').call(method, args, function(e, r) err, res, done = e, r, true end, args[1]) "
      + "vim.wait(60000, function() return done end, 10) "
      + "if err then error(vim.inspect(err)) end return res";

  /** No Neovim: no other buffers, checks off. */
  private static final IdService.Workspace HEADLESS = new IdService.Workspace() {
    @Override
    public Collection<? extends IdBuffer> buffers() {
      return List.of();
    }

    @Override
    public boolean checks() {
      return false;
    }

    @Override
    public int maxDiagnostics() {
      return 0;
    }

    @Override
    public void problems(long buf, ProblemItems problems) {}

    @Override
    public void rootDir(long buf, String dir) {}
  };

  @BeforeEach
  void detectFiletypes() {
    nvim.command("filetype on").join();
  }

  private Object ask(String method, Object... args) {
    return nvim.execLua(ASK, nvim.args(method, List.of(args))).join();
  }

  private static byte[] example2() throws IOException {
    try (InputStream in = IdParityIT.class.getResourceAsStream("/decks/example2.pc")) {
      return in.readAllBytes();
    }
  }

  @Test
  void aBufferAndItsFileGetTheSameIdAnswers() throws IOException {
    setup("");
    int compared = 0;
    for (byte[] text : List.of(example(), example2())) {
      Path f = dir.resolve("deck" + compared + ".pc");
      Files.write(f, text);
      nvim.command("edit " + f).join();
      long buf = (Long) lua("return vim.api.nvim_get_current_buf()");
      IdService headless = new IdService(HEADLESS);
      int lines = 0;
      for (byte b : text) if (b == '\n') lines++;
      IdBuffer file = IdService.once(-1, f, DeckFile.read(f, lines, text.length));

      List<String> want = new ArrayList<>();
      for (IdService.OutlineItem it : headless.outline(file)) want.add(it.lnum() + " " + it.text() + " " + it.kind());
      List<String> got = new ArrayList<>();
      for (Object o : (List<?>) ask("ids_outline", buf)) {
        Map<?, ?> m = (Map<?, ?>) o;
        got.add(m.get("lnum") + " " + m.get("text") + " " + m.get("kind"));
      }
      assertEquals(want, got, "the outline of " + f.getFileName());
      compared += got.size();

      for (String kind : IdKinds.NAMES.subList(1, IdKinds.NAMES.size())) {
        int k = IdKinds.code(kind);
        OptionalLong next = headless.nextFree(file, kind);
        Object n = ask("ids_next", buf, kind);
        assertEquals(next.isPresent() ? (Object) next.getAsLong() : null, n, "the next free " + kind);
        if (next.isEmpty() || next.getAsLong() < 2) continue;
        long id = next.getAsLong() - 1; // the greatest defined
        long key = IdKinds.key(k, (int) id);
        List<String> defs = new ArrayList<>();
        for (IdService.Hit h : headless.definitions(file, key)) defs.add(h.line() + 1 + " " + text(h));
        List<String> gotDefs = new ArrayList<>();
        for (Object o : (List<?>) ask("ids_goto", buf, kind, id)) {
          Map<?, ?> m = (Map<?, ?>) o;
          gotDefs.add(m.get("lnum") + " " + m.get("text"));
        }
        assertEquals(defs, gotDefs, "the definitions of " + kind + " " + id);
        IdService.References r = headless.references(file, key, 1000);
        List<String> refs = new ArrayList<>();
        for (IdService.Hit h : r.items()) refs.add(h.line() + 1 + ":" + (h.col() + 1) + " " + text(h));
        Map<?, ?> a = (Map<?, ?>) ask("ids_refs", buf, kind, id, 1000);
        List<String> gotRefs = new ArrayList<>();
        for (Object o : (List<?>) a.get("items")) {
          Map<?, ?> m = (Map<?, ?>) o;
          gotRefs.add(m.get("lnum") + ":" + m.get("col") + " " + m.get("text"));
        }
        assertEquals(refs, gotRefs, "the references of " + kind + " " + id);
        assertEquals((long) r.total(), a.get("total"), "how many reference " + kind + " " + id);
        compared += defs.size() + refs.size();
      }
    }
    assertTrue(compared > 50, "the sample decks have ids to compare: " + compared);
  }

  private static String text(IdService.Hit h) {
    return new String(h.text(), StandardCharsets.UTF_8);
  }
}
