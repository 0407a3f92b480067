package org.nvimpam.lines;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LineRefsTest {
  @Test
  void slicesAreReadInPlaceAndTheBuilderGrows() {
    byte[] out = "NODE  /        1\nNODE  /        2\n".getBytes(StandardCharsets.ISO_8859_1);
    LineRefs.Builder b = new LineRefs.Builder(1);
    for (int k = 0; k < 100; k++) b.add(out, k % 2 * 17, 16);
    LineRefs r = b.build();
    assertEquals(100, r.lineCount());
    assertEquals(0, b.count(), "the builder starts over");
    for (int k = 0; k < 100; k++) {
      assertEquals(out, r.bytes(k), "not copied");
      assertArrayEquals(("NODE  /        " + (k % 2 + 1)).getBytes(StandardCharsets.ISO_8859_1), r.line(k));
    }
    assertThrows(IndexOutOfBoundsException.class, () -> r.length(100));
    assertThrows(IndexOutOfBoundsException.class, () -> b.add(out, 30, 16));
  }

  @Test
  void wholeArraysAreLines() {
    LineRefs r = LineRefs.of("a".getBytes(StandardCharsets.ISO_8859_1), new byte[0]);
    assertEquals(2, r.lineCount());
    assertEquals(0, r.length(1));
    assertEquals(0, LineRefs.of().lineCount());
  }
}
