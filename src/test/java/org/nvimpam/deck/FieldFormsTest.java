package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The byte tests of FieldForms, 8 bytes at a time where they can, against the forms of
 * docs/CARDS.md written as regular expressions: every value of up to 20 bytes from a small
 * alphabet, placed anywhere in a line.
 */
class FieldFormsTest {
  private static final Pattern FLOAT =
      Pattern.compile("[+-]?[0-9]*\\.?[0-9]*([eEdD][+-]?[0-9]*)?|[+-]?(?=[0-9.]*[0-9])[0-9]*\\.?[0-9]*[+-][0-9]+");
  private static final Pattern INT = Pattern.compile("[+-]?[0-9]+");
  private static final String ALPHABET = "0123456789.+-eEdDx/:";

  @Test
  void theFastPathsAgreeWithTheFormsOnRandomValues() {
    Random rnd = new Random(11);
    for (int k = 0; k < 200_000; k++) {
      int n = 1 + rnd.nextInt(20);
      StringBuilder v = new StringBuilder();
      for (int j = 0; j < n; j++) {
        v.append(rnd.nextInt(3) == 0 ? ALPHABET.charAt(rnd.nextInt(ALPHABET.length())) : (char) ('0' + rnd.nextInt(10)));
      }
      String pad = " ".repeat(rnd.nextInt(20));
      byte[] line = (pad + v + " ".repeat(rnd.nextInt(3))).getBytes(StandardCharsets.US_ASCII);
      int s = pad.length();
      int e = s + n;
      String value = v.toString();
      assertEquals(FLOAT.matcher(value).matches(), FieldForms.isFloat(line, s, e), "float " + value);
      assertEquals(INT.matcher(value).matches(), FieldForms.isInt(line, s, e), "int " + value);
    }
  }
}
