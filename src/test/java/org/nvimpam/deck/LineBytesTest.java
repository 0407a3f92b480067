package org.nvimpam.deck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The 8-bytes-at-once helpers of LineBytes against byte loops and the JDK's bit counts. */
class LineBytesTest {
  @Test
  void markedBytesAreFoundAndCountedForEveryPattern() {
    for (int m = 1; m < 256; m++) {
      long marks = 0;
      for (int b = 0; b < 8; b++) if ((m & (1 << b)) != 0) marks |= 0x80L << (8 * b);
      assertEquals(Long.numberOfTrailingZeros(marks) >>> 3, LineBytes.firstMarked(marks), "first " + m);
      assertEquals(Long.bitCount(marks), LineBytes.countMarked(marks), "count " + m);
    }
  }

  @Test
  void skipSpacesStopsWhereAByteLoopStops() {
    Random rnd = new Random(5);
    byte[] others = {'x', '\t', 0, (byte) 0xA0, (byte) 0x80, 0x21, 0x60, (byte) 0xFF};
    for (int k = 0; k < 100_000; k++) {
      byte[] a = new byte[1 + rnd.nextInt(40)];
      for (int i = 0; i < a.length; i++) a[i] = rnd.nextInt(4) == 0 ? others[rnd.nextInt(others.length)] : (byte) ' ';
      int from = rnd.nextInt(a.length);
      int end = from + rnd.nextInt(a.length - from + 1);
      int want = from;
      while (want < end && a[want] == ' ') want++;
      assertEquals(want, LineBytes.skipSpaces(a, from, end), "from " + from + " end " + end);
    }
  }
}
