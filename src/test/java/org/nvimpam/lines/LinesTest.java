package org.nvimpam.lines;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinesTest {
  private static String text(Lines l, int i) {
    return new String(l.line(i), StandardCharsets.ISO_8859_1);
  }

  @Test
  void splitKeepsCrAndDropsOnlyTheFinalLf() {
    Lines l = Lines.split("a\r\n\nb".getBytes(StandardCharsets.ISO_8859_1));

    assertEquals(3, l.count());
    assertEquals("a\r", text(l, 0));
    assertEquals("", text(l, 1));
    assertEquals("b", text(l, 2));
    assertEquals(0, Lines.split(new byte[0]).count());
    assertEquals(1, Lines.split("x\n".getBytes(StandardCharsets.ISO_8859_1)).count());
  }

  @Test
  void concatJoinsPartsInOrderEvenWhenTheyAreSlicesOfLargerArrays() {
    Lines a = Lines.ofLatin1("one", "", "three");
    Lines b = Lines.wrap("xxfourfive".getBytes(StandardCharsets.ISO_8859_1), new int[] {2, 6, 10}, 2);

    Lines all = Lines.concat(List.of(a, Lines.empty(), b));

    assertEquals(5, all.count());
    assertArrayEquals(new String[] {"one", "", "three", "four", "five"},
        new String[] {text(all, 0), text(all, 1), text(all, 2), text(all, 3), text(all, 4)});
    assertEquals(16, all.byteSize());
    assertSame(a, Lines.concat(List.of(a)));
  }
}
