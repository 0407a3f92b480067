package org.nvimpam.jmh;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A synthetic PAM-CRASH deck shaped like a real one: repeated sections of a PART card, a generic
 * MATER card, a RBODY card with a GES, a long NODE run and a long SHELL run, with comments.
 */
final class SyntheticDeck {
  private SyntheticDeck() {}

  /** Lines per section; a section ends with a NODE run and a SHELL run. */
  static final int SECTION = 1000;

  static byte[] generate(int lines) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(lines * 70);
    int n = 0;
    int id = 1;
    while (n < lines) {
      String[] head = {
        "$ section " + id,
        "PART  /" + pad(id, 9) + "   SHELL       1       0       0       0",
        "$#                                                                         TITLE",
        "NAME part " + id,
        "                              ",
        "                              ",
        "       1.0       0.0",
        "       0.0       0.0",
        "END_PART",
        "MATER /" + pad(id, 9) + "     103         7.85E-6       0       0       0       0",
        "                                                               1.       0       0",
        "NAME Material",
        "",
        "RBODY /" + pad(id, 9) + "               0    1000     671     691       0       0",
        "NAME rigid body",
        "        PART " + id,
        "        END",
      };
      for (String s : head) n = line(out, s, n, lines);
      int nodes = (SECTION - head.length) / 2;
      for (int i = 0; i < nodes; i++) {
        n = line(out, "NODE  /" + pad(id * 1000 + i, 9) + "              0.             0.5              0.", n, lines);
      }
      n = line(out, "$ shells", n, lines);
      for (int i = head.length + nodes + 1; i < SECTION; i++) {
        n = line(out, "SHELL /" + pad(id * 1000 + i, 9) + "       1    2967    2971    2970    2969", n, lines);
      }
      id++;
    }
    return out.toByteArray();
  }

  private static int line(ByteArrayOutputStream out, String s, int n, int max) {
    if (n >= max) return n;
    out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
    out.write('\n');
    return n + 1;
  }

  private static String pad(int v, int w) {
    String s = Integer.toString(v);
    return " ".repeat(Math.max(0, w - s.length())) + s;
  }
}
