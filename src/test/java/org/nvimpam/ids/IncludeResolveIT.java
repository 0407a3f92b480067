package org.nvimpam.ids;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nvimpam.deck.IncludeLine;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.testutil.EmbeddedNvim;

/**
 * The INCLU rule has one home, {@link IncludeLine} (the name) and {@link IncludeWalk#resolve} (the
 * file), and lua/nvimpam/ids/init.lua ({@code include_name}, {@code resolve}: gf, 'includeexpr') must
 * agree with it without asking the JVM (gf works before the JVM runs). Random INCLU lines (quotes,
 * blanks, names continued with & or -, CRLF) over random folders (the file beside the including
 * one, beside the top deck, both, neither, absolute, through ..) give the same name and file on
 * both sides.
 */
class IncludeResolveIT {
  private static final int CASES = 400;
  private static final String[] NAMES = {"a.inc", "sub2/b.inc", "../c.inc", "d e.inc", "long_" + "x".repeat(90) + ".inc"};

  @TempDir
  Path tmp;

  private Nvim nvim;

  @BeforeEach
  void start() throws Exception {
    nvim = EmbeddedNvim.start();
  }

  @AfterEach
  void stop() {
    nvim.close();
  }

  /** The INCLU line(s) naming {@code name}, its name split at random over continuation lines. */
  private static List<String> inclu(String name, Random rnd) {
    String written = switch (rnd.nextInt(4)) {
      case 0 -> "'" + name + "'";
      case 1 -> "\"" + name + "\"";
      default -> name;
    };
    written = " ".repeat(rnd.nextInt(3)) + written + " ".repeat(rnd.nextInt(3));
    List<String> out = new ArrayList<>();
    String head = "INCLU / ";
    int room = 72;
    while (written.length() > room || (out.isEmpty() && written.length() > 8 && rnd.nextInt(4) == 0)) {
      int cut = Math.min(room, 1 + rnd.nextInt(Math.min(room, written.length() - 1)));
      String piece = written.substring(0, cut);
      out.add(head + piece + " ".repeat(80 - head.length() - piece.length()) + (rnd.nextBoolean() ? "&" : "-"));
      written = written.substring(cut);
      head = "";
      room = 80;
    }
    out.add(head + written);
    if (rnd.nextInt(5) == 0) out.replaceAll(l -> l + "\r"); // a dos file read as unix
    return out;
  }

  @Test
  void luaAndTheJvmResolveIncluNamesAlike() throws Exception {
    Random rnd = new Random(33);
    List<Map<String, Object>> cases = new ArrayList<>();
    List<String> javaNames = new ArrayList<>();
    List<Path> javaFiles = new ArrayList<>();
    for (int c = 0; c < CASES; c++) {
      Path top = Files.createDirectories(tmp.resolve("c" + c).resolve("top"));
      boolean nested = rnd.nextBoolean(); // an include file below the top deck, or the top deck itself
      Path dir = nested ? Files.createDirectories(top.resolve("sub")) : top;
      String name = NAMES[rnd.nextInt(NAMES.length)];
      if (rnd.nextInt(6) == 0) name = tmp.resolve("c" + c).resolve("abs.inc").toString();
      for (Path d : List.of(dir, top)) { // beside the including file, beside the top deck: either, both, neither
        if (rnd.nextBoolean()) {
          Path f = d.resolve(name).normalize();
          Files.createDirectories(f.getParent());
          Files.writeString(f, "NODE  /        1\n");
        }
      }
      List<String> lines = inclu(name, rnd);
      List<IncludeLine> il = IncludeLine.of(Lines.ofLatin1(lines.toArray(new String[0])));
      String javaName = il.isEmpty() ? null : il.get(0).name();
      javaNames.add(javaName);
      javaFiles.add(javaName == null ? null : IncludeWalk.resolve(javaName, dir, top));
      cases.add(Map.of("file", dir.resolve("deck" + c + ".inc").toString(), "root", nested ? top.toString() : "",
          "lines", lines));
    }
    // As nvimpam.ids sees them: each case a buffer with the including file's name and the root folder
    // the JVM would set (b:nvimpam_root_dir).
    Object got = nvim.execLua("local ids = require('nvimpam.ids') local out = {} "
        + "for i, c in ipairs(...) do "
        + "local b = vim.api.nvim_create_buf(true, false) vim.api.nvim_buf_set_name(b, c.file) "
        + "if c.root ~= '' then vim.api.nvim_buf_set_var(b, 'nvimpam_root_dir', c.root) end "
        + "local name = ids.include_name(c.lines) "
        + "out[i] = { name or '', name and ids.resolve(name, b) or '' } end return out",
        nvim.args(cases)).get(120, TimeUnit.SECONDS);
    List<?> answers = (List<?>) got;
    for (int c = 0; c < CASES; c++) {
      List<?> a = (List<?>) answers.get(c);
      String what = "case " + c + ": " + cases.get(c);
      String luaName = (String) a.get(0);
      assertEquals(javaNames.get(c) == null ? "" : javaNames.get(c), luaName, what);
      if (javaNames.get(c) == null) continue;
      String luaFile = (String) a.get(1);
      Path want = javaFiles.get(c);
      // Lua gives the name as written when no file exists, the JVM none; Lua does not normalize.
      if (want == null) assertEquals(luaName, luaFile, what);
      else assertEquals(want, Path.of(luaFile).normalize(), what);
    }
  }
}
