package org.nvimpam.testutil;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Grammar-based random deck lines for property tests: cards of every known keyword kind (PART of
 * every ATYPE, with and without END_PART), GES blocks, OTMCO and GROUP META blocks, generic cards
 * with their END_ words, and blank, junk, comment, CR-ended and noise lines.
 */
public final class RandomDecks {
  private static final String[] GATHERED = {
    "NODE  ", "CNODE ", "SOLID ", "HEXA20", "PENT15", "PENTA6", "TETR10", "TETR4 ", "BSHEL ",
    "TSHEL ", "SHELL ", "SHEL6 ", "SHEL8 ", "MEMBR ", "BEAM  ", "SPRGBM", "BAR   ", "SPRING",
    "JOINT ", "KJOIN ", "MTOJNT", "SPHEL ", "SPHELO", "GAP   ", "IMPMA ", "ELINK ", "LLINK ",
    "SLINK ", "PLINK ", "TIED  ",
  };
  private static final String[] OWN = {"MASS  ", "NSMAS ", "NSMAS2", "MTOCO ", "OTMCO ", "GROUP "};
  private static final String[] ATYPES = {
    "SOLID", "TETRA", "BSHEL", "COS3D", "SPHEL", "SHELL", "MEMBR", "TSHEL", "BEAM", "TIED", "SLINK",
    "ELINK", "BAR", "SPRING", "SPRGBM", "MBSPR", "JOINT", "KJOIN", "MBKJN", "MTOJNT", "LLINK",
    "PLINK", "GAP", "FLUID", "SHEL",
  };
  private static final String[] GENERIC_WORDS = {"MATER", "TITLE", "RUNEND", "CNTAC", "BOUNC", "A", "OCTRL"};
  private static final String[] SELECTIONS = {
    "        ELE 1", "        GRP 2", "        NOD 3", "        SEG 4", "        PART 5",
    "        DELELE>NOD 6", "        OGRP 7", "        END_MOD", "        PART>NOD 8", "        MOD x",
  };
  private static final String[] ENDS = {
    "        END", "        END   ", "        END\t", "         END", "        ENDX", "        END\u0000",
  };
  private static final String[] MISC = {
    "", "   ", "\t", "junk", "$ comment", "#comment", "$#   TITLE", "NAME something", "END_PART",
    "END_OTMCO", "META", "END_META", "END_MATER", "END_RUNEND", "END_A", "  data 1.0 2.0",
    "INPUTVERSION 2011", "NODE  /", "MATER /x", "mater / 1", " MATER / ",
  };

  private final Random r;

  public RandomDecks(long seed) {
    this.r = new Random(seed);
  }

  public Random random() {
    return r;
  }

  /** A deck of about {@code cards} cards with noise between them. */
  public List<byte[]> deck(int cards) {
    List<byte[]> out = new ArrayList<>();
    for (int c = 0; c < cards; c++) {
      for (String s : card()) out.add(bytes(s));
      if (r.nextInt(4) == 0) out.add(bytes(misc()));
    }
    return out;
  }

  /** A few lines to insert: a whole card, part of one, or single odd lines. */
  public List<byte[]> snippet() {
    List<byte[]> out = new ArrayList<>();
    int kind = r.nextInt(6);
    if (kind == 0) return out;
    if (kind == 1) {
      List<String> card = card();
      int from = r.nextInt(card.size());
      int to = from + 1 + r.nextInt(card.size() - from);
      for (String s : card.subList(from, to)) out.add(bytes(s));
    } else {
      int n = 1 + r.nextInt(3);
      for (int i = 0; i < n; i++) out.add(bytes(r.nextBoolean() ? line() : misc()));
    }
    return out;
  }

  /** A mutation of an existing line: comment toggle, a byte changed, a CR added or dropped. */
  public byte[] mutate(byte[] line) {
    String s = new String(line, StandardCharsets.ISO_8859_1);
    switch (r.nextInt(6)) {
      case 0:
        return bytes(s.startsWith("$") ? s.substring(1) : "$" + s);
      case 1:
        return bytes(s.endsWith("\r") ? s.substring(0, s.length() - 1) : s + "\r");
      case 2:
        return bytes(s + "   ");
      case 3:
        if (s.isEmpty()) return bytes("x");
        int i = r.nextInt(s.length());
        return bytes(s.substring(0, i) + (char) ("xX 0/&\t".charAt(r.nextInt(7))) + s.substring(i + 1));
      case 4:
        return bytes(s.length() > 1 ? s.substring(1) : "x" + s);
      default:
        return bytes(line());
    }
  }

  private String misc() {
    if (r.nextInt(20) == 0) return noise();
    return withCr(MISC[r.nextInt(MISC.length)]);
  }

  private String noise() {
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(40);
    for (int i = 0; i < n; i++) {
      char c = (char) r.nextInt(256);
      if (c != '\n') sb.append(c);
    }
    return sb.toString();
  }

  private String withCr(String s) {
    return r.nextInt(8) == 0 ? s + "\r" : s;
  }

  /** One line of any kind. */
  public String line() {
    List<String> c = card();
    return c.get(r.nextInt(c.size()));
  }

  private List<String> card() {
    List<String> l = new ArrayList<>();
    int kind = r.nextInt(10);
    if (kind < 3) {
      String h = GATHERED[r.nextInt(GATHERED.length)];
      int n = 1 + r.nextInt(4);
      for (int i = 0; i < n; i++) {
        l.add(withCr(h + "/ " + pad(i, 8) + "       1       2       3       4"));
        int body = r.nextInt(4);
        for (int b = 0; b < body; b++) l.add(body());
        if (r.nextInt(5) == 0) l.add("$ between cards");
      }
    } else if (kind < 5) {
      String h = OWN[r.nextInt(OWN.length)];
      StringBuilder sb = new StringBuilder(h + "/        1");
      while (sb.length() < 41) sb.append(' ');
      sb.append(r.nextBoolean() ? "       1" : "       0");
      if (r.nextBoolean()) {
        while (sb.length() < 80) sb.append(' ');
        sb.append('&');
      }
      l.add(withCr(sb.toString()));
      if (h.equals("GROUP ") && r.nextBoolean()) {
        l.add("META");
        l.add("  owner = x");
        if (r.nextBoolean()) l.add("END_META");
      } else {
        l.add("NAME own");
      }
      int body = r.nextInt(4);
      for (int b = 0; b < body; b++) l.add(body());
      if (h.equals("OTMCO ") && r.nextBoolean()) l.add("END_OTMCO");
      ges(l);
    } else if (kind < 6) {
      l.add(withCr("RBODY /        1               " + r.nextInt(5) + "    1000     671     691"));
      l.add("NAME rbody");
      if (r.nextBoolean()) l.add(body());
      ges(l);
    } else if (kind < 8) {
      String atype = ATYPES[r.nextInt(ATYPES.length)];
      int pad = r.nextInt(9 - Math.min(8, atype.length()));
      String cell = (" ".repeat(pad) + atype + "        ").substring(0, 8);
      l.add(withCr("PART  /        1" + cell + "       " + r.nextInt(2) + "       0       0       0"));
      int body = r.nextInt(12);
      for (int b = 0; b < body; b++) l.add(body());
      if (r.nextBoolean()) l.add(withCr("END_PART"));
    } else {
      String w = GENERIC_WORDS[r.nextInt(GENERIC_WORDS.length)];
      String h = (w + "      ").substring(0, 6) + "/";
      l.add(withCr(r.nextBoolean() ? h : h + " " + r.nextInt(100)));
      int body = r.nextInt(5);
      for (int b = 0; b < body; b++) l.add(r.nextInt(3) == 0 ? "" : body());
      if (r.nextBoolean()) l.add("END_" + w);
    }
    return l;
  }

  private void ges(List<String> l) {
    int sel = r.nextInt(4);
    for (int i = 0; i < sel; i++) {
      l.add(withCr(SELECTIONS[r.nextInt(SELECTIONS.length)]));
      if (r.nextInt(6) == 0) l.add("$ in ges");
    }
    if (r.nextBoolean()) l.add(withCr(ENDS[r.nextInt(ENDS.length)]));
  }

  private String body() {
    switch (r.nextInt(8)) {
      case 0:
        return misc();
      case 1:
        return withCr(SELECTIONS[r.nextInt(SELECTIONS.length)]);
      case 2:
        return withCr(ENDS[r.nextInt(ENDS.length)]);
      case 3: // numbers in the count and flag columns of PART SPHEL, BEAM and TIED
        char[] c = " ".repeat(81).toCharArray();
        c[8] = (char) ('0' + r.nextInt(3));
        c[48] = (char) ('0' + r.nextInt(3));
        c[75] = (char) ('0' + r.nextInt(2));
        return new String(c);
      default:
        return withCr("  " + r.nextInt(1000) + ".  " + r.nextInt(10));
    }
  }

  private static String pad(int v, int w) {
    String s = Integer.toString(v);
    return " ".repeat(Math.max(0, w - s.length())) + s;
  }

  public static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** A line as a Java string literal, for failure messages. */
  public static String show(byte[] line) {
    StringBuilder sb = new StringBuilder("\"");
    for (byte b : line) {
      int c = b & 0xFF;
      if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') sb.append((char) c);
      else sb.append(String.format("\\u%04x", c));
    }
    return sb.append('"').toString();
  }
}
