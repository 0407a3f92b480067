package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.nvimpam.gen.DeckGenerator;
import org.nvimpam.lines.Lines;
import org.nvimpam.nvim.Nvim;
import org.nvimpam.testutil.EmbeddedNvim;

/**
 * Java and Lua read the same card-layout table, walk the same rows and find the same field
 * problems: the JVM's CardLayouts, RowWalker and DeckProblems against lua/nvimpam/model/layout/init.lua,
 * nvimpam.model.rows and nvimpam.model.problems in a real Neovim, on the sample decks, a generated deck and mutated
 * copies of them, for a deck's own version, the newest, and one older than every layout.
 */
class LayoutContractIT {
  private static Nvim nvim;

  @BeforeAll
  static void start() throws IOException {
    nvim = EmbeddedNvim.start();
  }

  @AfterAll
  static void stop() {
    nvim.close();
  }

  private static Object lua(String code, List<byte[]> lines, Integer version) {
    return nvim.execLua(code, out -> {
      out.packArrayHeader(2);
      out.packArrayHeader(lines.size());
      for (byte[] l : lines) out.packRawStringHeader(l.length).writePayload(l);
      if (version == null) out.packNil();
      else out.packInt(version);
    }).join();
  }

  private static List<byte[]> lines(byte[] deck) {
    Lines l = Lines.split(deck);
    List<byte[]> out = new ArrayList<>(l.count());
    for (int i = 0; i < l.count(); i++) out.add(l.line(i));
    return out;
  }

  private static Lines join(List<byte[]> lines) {
    Lines.Builder b = new Lines.Builder(lines.size(), 64 * lines.size());
    for (byte[] l : lines) b.add(l, 0, l.length);
    return b.build();
  }

  /** Every tenth data line of a deck gets one of the mistakes people make, reproducibly. */
  private static List<byte[]> mutated(List<byte[]> lines, long seed) {
    Random rnd = new Random(seed);
    String[] junk = {"S", ".", "-", "e", "\t", " ", "&", "1", "x", "<P>", "..", "E+", "/"};
    List<byte[]> out = new ArrayList<>(lines.size());
    for (byte[] l : lines) {
      if (l.length == 0 || l[0] == '$' || l[0] == '#' || rnd.nextInt(10) != 0) {
        out.add(l);
        continue;
      }
      StringBuilder s = new StringBuilder(new String(l, StandardCharsets.ISO_8859_1));
      switch (rnd.nextInt(4)) {
        case 0 -> s.setCharAt(rnd.nextInt(s.length()), junk[rnd.nextInt(junk.length)].charAt(0));
        case 1 -> s.insert(rnd.nextInt(s.length() + 1), junk[rnd.nextInt(junk.length)]);
        case 2 -> {
          while (s.length() < 80) s.append(' ');
          s.append(junk[rnd.nextInt(junk.length)]).append("tail");
        }
        default -> s.deleteCharAt(rnd.nextInt(s.length()));
      }
      out.add(s.toString().getBytes(StandardCharsets.ISO_8859_1));
    }
    return out;
  }

  /** Lines where the two readings of a condition or a count could part. */
  private static List<byte[]> edgeCases() {
    String[] lines = {
        "INPUTVERSION 2011",
        "PART  /        1   SHELL", // IDMAT blank: no number, no RMAT row
        "NAME blank idmat", "        0.", "", "        1.    3", "END_PART",
        "PART  /        2   SHELL      -0", // "-0" reads 0: RMAT row
        "RMATsteel", "NAME minus zero", "END_PART",
        "PART  /        3   SHELL      0x",
        "RMATsteel", "NAME zero x", "END_PART",
        "PART  /        4    BEAM       1", "NAME beam", "", "", "                    ", "", "", "  3x", "1", "2", "3",
        "4", "END_PART",
        "PART  /        5    BEAM       1", "NAME beam", "", "", "", "", "", "   -2", "1", "2", "END_PART",
        "MASS  /        1       0              1.              1.              1.",
        "NAME m", String.format("%-80s&", "              1."), "              2.", "        NOD 1", "        END",
        "NODE  /        1\t             0.", "NODE  /        2" + " ".repeat(70) + "&-x",
        "TITLE /  continued" + " ".repeat(62) + "-",
        // MATER rows chosen by SIGMAY: a word of a list, none of a list, blank
        "MATER /        1     103              0.", "", "NAME m", "      210.KRUPK", "       1.5        2x", "", "1", "2", "3",
        "MATER /        2     102              0.", "", "NAME m", "      210.ECURV", "        7", "x", "", "0.1", "", "1",
        "MATER /        3     103              0.", "", "NAME m", "      210.       0.2", "1", "2", "3", "4", "5", "6",
        "MATER /        4     105              0.", "", "NAME m", "      210.CURVE", "1", "2", "3", "4", "DMG", "1", "2",
        "MATER /        5     212              0.", "", "NAME m", "      210.       0.3", "", "0.1", "1", "2", "3", "4",
        "MATER /        6     212              0.", "", "NAME m", "      210.       0.3POWER", "", "0.1", "1", "2", "3",
        // FUNCT: an optional DISTA/ANGLE/REGUL line, points up to END (a word line, with a CR, indented or not)
        "FUNCT /        1", "NAME f", "        DISTA          1       2      3x", "                1.5             2.",
        "                1.x             2.", "                END\r", "junk",
        "FUNCT /        2", "NAME f", "        REGUL   SECFO  1       2STOPMAX", "               0.              1.",
        "$ comment", "END", "FUNCT /        3", "NAME f", "ANGLE", "                 1.\t", "ENDX", "                2.",
        // THMAT's key rows: keyword lines in any order, value lines (bad values, a tab, a CR, text past 80),
        // a keyword line after a keyword line, an unknown keyword, END_THMAT
        "THMAT /     1050", "NAME t", "SPECIFIC_HEAT CONSTANT", "  4.6E8  0.x  y", "  MASS_DENSITY", "7,85\r",
        "ENTHALPY", "LATENT_HEAT", "  1. <T>  2x  q", "CONDUCTIVITY \tANISOTROPIC", " 1. \t 2" + " ".repeat(80) + "z",
        "$ comment", "ENTHALPY", "$ comment", "  1.5", "CONDUCTANCE", "  a b", "EMISSIVITY", "  x", "MASS_DENSITY", "  y",
        "END_THMAT", "MASS_DENSITY", "  z", "THMAT /     1051", "NAME u", "MASS_DENSITY",
        // tabs and header shapes on lines no row takes
        "NODE   /       3", "MASS  /        2       0", "NAME m", "              1.", "\tNOD 3", "        NOD\t3",
        "NODE /        4", "SHELL         4       1", "NODE          5              0.", "FOO   /x", "MATERX/  1",
        "ANALYSIS\tEXPLICIT", String.format("%-80s&", "NODE  /        6"), "NODE   /  continued", "NODE  /\t      7",
        "RUNEND/", "NODE    ", "$ NODE   /\t",
    };
    List<byte[]> out = new ArrayList<>();
    for (String l : lines) out.add(l.getBytes(StandardCharsets.ISO_8859_1));
    return out;
  }

  private static List<List<byte[]>> decks() throws IOException {
    List<byte[]> example = lines(EmbeddedNvim.exampleDeck());
    List<byte[]> example2 = lines(EmbeddedNvim.resource("/decks/example2.pc").getBytes(StandardCharsets.ISO_8859_1));
    List<byte[]> generated = lines(new DeckGenerator(3).generate(30_000));
    return List.of(example, example2, generated, mutated(example, 1), mutated(example2, 2), mutated(generated, 3),
        edgeCases());
  }

  @Test
  void bothSidesReadTheSameTable() {
    assertEquals(CardLayouts.bundled().dump(), lua("return require('nvimpam.model.layout').dump()", List.of(), null));
  }

  @Test
  void bothSidesReadTheSameIdKindsInTheSameOrder() {
    assertEquals(CardLayouts.KINDS, lua("return require('nvimpam.model.layout').KINDS", List.of(), null));
  }

  @Test
  void bothSidesWalkTheSameRows() throws IOException {
    CardLayouts t = CardLayouts.bundled();
    for (Integer version : new Integer[] {null, 2011, 1990}) {
      int v = version == null ? t.newestVersion() : version;
      int d = 0;
      for (List<byte[]> deck : decks()) {
        List<String> java = RowWalkerTest.Rows.classify(t, join(deck), v);
        Object luaRows = lua("local lines, v = ... if v == vim.NIL then v = nil end return require('nvimpam.model.rows').classify_lines(lines, v)", deck, version);
        assertEquals(java, luaRows, "deck " + d + ", version " + version);
        d++;
      }
    }
  }

  @Test
  void bothSidesFindTheSameProblems() throws IOException {
    CardLayouts t = CardLayouts.bundled();
    for (Integer version : new Integer[] {null, 2011, 1990}) {
      int v = version == null ? t.newestVersion() : version;
      int d = 0;
      for (List<byte[]> deck : decks()) {
        List<String> java = DeckProblemsTest.problems(t, join(deck), v);
        Object luaProblems = lua("local lines, v = ... if v == vim.NIL then v = nil end local out = {} "
            + "for _, p in ipairs(require('nvimpam.model.problems').check_lines(lines, v)) do "
            + "out[#out + 1] = string.format('%d:%d-%d %d %s', p.lnum, p.col, p.end_col, p.severity, p.message) end "
            + "return out", deck, version);
        assertEquals(java, luaProblems, "deck " + d + ", version " + version);
        d++;
      }
    }
  }
}
